//! The first peg and the swap decision, from a table built by self-play (`docs/OPENINGS.md`,
//! `scripts/opening-table`): player 0's score after its first peg on each hole.

use crate::cell::{Cell, CELLS, SIZE};

/// Player 0's score in percent when its first peg stands on a hole of the quarter board
/// (rows 1-6 down, columns B-F across) and player 1 plays on without swapping. The other
/// quarters follow by the board's two mirror symmetries, which keep each player's borders.
///
/// Every hole is measured by self-play at CodinGame's clocks: the 16 holes of rows 1-2,
/// column B, C4 and D3 by the fourth tune's bot (signature 1408795), 70 games each (±11 points
/// at 95%), kept in `docs/openings/tune4-first.jsonl`; the other 14 by the first network's bot
/// (signature 1189276), 68 to 70 games each, in `docs/openings/net-inner.jsonl`. Both are
/// checked against the table by `referee/tests/opening_table.rs` (`docs/OPENINGS.md`).
const P0_SCORE: [[u8; 5]; 6] = [
    // B   C   D   E   F
    [31, 36, 25, 24, 24], // row 1
    [21, 21, 54, 34, 34], // row 2
    [39, 63, 47, 46, 66], // row 3
    [63, 49, 76, 46, 77], // row 4
    [62, 68, 90, 91, 72], // row 5
    [81, 58, 81, 86, 57], // row 6
];

/// How far from half, in points, a hole's score may be for it to be one of our first pegs.
/// The measured scores are good to about ±10 points, so the holes within 3 of half cannot be
/// told apart; playing all of them gives an opponent's book more to prepare for.
pub const FIRST_PEG_BAND: u8 = 3;

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

/// The holes for our first peg as player 0: those whose score is within [`FIRST_PEG_BAND`]
/// of half, where an opponent gains least whether it swaps or not (C4, D3 and their mirror
/// images).
pub fn first_pegs() -> Vec<Cell> {
    let near_half = |c: &Cell| score(*c).map_or(false, |s| s.abs_diff(50) <= FIRST_PEG_BAND);
    (0..CELLS)
        .filter_map(Cell::from_index)
        .filter(near_half)
        .collect()
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
        for c in ["F6", "G7", "B6", "B4", "K9", "C3", "D2", "D5", "F4"] {
            assert!(should_swap(cell(c)), "{c}");
        }
        for c in [
            "E1", "F1", "G12", "E2", "H11", "A5", "B1", "B2", "D1", "C4", "C2", "D3",
        ] {
            assert!(!should_swap(cell(c)), "{c}");
        }
        let mut pegs: Vec<String> = first_pegs().iter().map(|c| c.to_string()).collect();
        pegs.sort();
        let mut expected = ["C4", "J4", "C9", "J9", "D3", "I3", "D10", "I10"];
        expected.sort_unstable();
        assert_eq!(pegs, expected);
        let picked: std::collections::HashSet<Cell> = (0..64).map(first_peg).collect();
        assert_eq!(picked.len(), 8);
    }
}
