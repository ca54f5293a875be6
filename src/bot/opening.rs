//! The first peg and the swap decision, from a table built by self-play (`docs/OPENINGS.md`,
//! `scripts/opening-table`): player 0's score after its first peg on each hole.

use crate::cell::{Cell, CELLS, SIZE};

/// Player 0's score in percent when its first peg stands on a hole of the quarter board
/// (rows 1-6 down, columns B-F across) and player 1 plays on without swapping. The other
/// quarters follow by the board's two mirror symmetries, which keep each player's borders.
///
/// Rows 1 and 2, column B and C4 are measured: 1,356 self-play games at CodinGame's clocks
/// (about 90 from each of those 15 holes, ±10 points at 95%) by the bot whose search this is
/// (signature 1177915), kept in `docs/openings/edge-clock.jsonl` and checked against it by
/// `referee/tests/opening_table.rs`. The other holes hold the older table's prediction
/// (commit 568f34a: a line through 256 games from eight holes, `docs/OPENINGS.md`); every
/// one of them is above 60%, and C4, measured at 81% where that line gave 65%, suggests the
/// centre is worth even more.
const P0_SCORE: [[u8; 5]; 6] = [
    // B   C   D   E   F
    [51, 51, 57, 41, 37], // row 1
    [64, 72, 57, 48, 52], // row 2
    [64, 62, 62, 62, 63], // row 3
    [79, 81, 64, 63, 64], // row 4
    [63, 65, 64, 67, 65], // row 5
    [55, 64, 65, 66, 69], // row 6
];

/// Player 0's score after a first peg on `c`, or `None` where player 0 may not play.
pub fn score(c: Cell) -> Option<u8> {
    let last = SIZE as i32 - 1;
    let (x, y) = (c.x().min(last - c.x()), c.y().min(last - c.y()));
    if x == 0 {
        return None;
    }
    Some(P0_SCORE[y as usize][x as usize - 1])
}

/// Whether player 1 should swap player 0's first peg on `first`: it does when player 0 scores
/// more than half from there, so that player 1 is left with the larger share either way.
pub fn should_swap(first: Cell) -> bool {
    score(first).map_or(false, |s| s > 50)
}

/// The holes for our first peg as player 0: those whose score is nearest 50%, where an
/// opponent gains least whether it swaps or not (B1, C1 and their mirror images).
pub fn first_pegs() -> Vec<Cell> {
    let gap = |c: Cell| score(c).map(|s| s.abs_diff(50));
    let holes = || (0..CELLS).filter_map(Cell::from_index);
    let best = holes().filter_map(gap).min().unwrap_or(0);
    holes().filter(|&c| gap(c) == Some(best)).collect()
}

/// Our first peg as player 0: one of [`first_pegs`], chosen by `pick` (a random number), so
/// that an opponent cannot prepare for one hole.
pub fn first_peg(pick: u64) -> Cell {
    let holes = first_pegs();
    holes[(pick % holes.len() as u64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Player;
    use crate::testing::cell;

    #[test]
    fn scores_follow_the_mirror_symmetries_and_skip_the_barred_columns() {
        for c in Cell::all() {
            let mirrors = [
                Cell::new(11 - c.x(), c.y()),
                Cell::new(c.x(), 11 - c.y()),
                Cell::new(11 - c.x(), 11 - c.y()),
            ];
            for m in mirrors.iter().flatten() {
                assert_eq!(score(c), score(*m), "{c} and {m}");
            }
            assert_eq!(score(c).is_some(), c.allowed_for(Player::Zero), "{c}");
        }
    }

    #[test]
    fn swaps_what_scores_above_half_and_opens_nearest_half() {
        for c in ["F6", "G7", "C4", "B4", "K9", "B2", "D1", "F2", "B1"] {
            assert!(should_swap(cell(c)), "{c}");
        }
        for c in ["E1", "F1", "G12", "E2", "H11", "A5"] {
            assert!(!should_swap(cell(c)), "{c}");
        }
        let pegs: Vec<String> = first_pegs().iter().map(|c| c.to_string()).collect();
        assert_eq!(pegs.len(), 8, "{pegs:?}");
        for c in ["B1", "C1", "J1", "K1", "B12", "C12", "J12", "K12"] {
            assert!(pegs.contains(&c.to_string()), "{c} in {pegs:?}");
        }
        let picked: std::collections::HashSet<Cell> = (0..64).map(first_peg).collect();
        assert_eq!(picked.len(), 8);
    }
}
