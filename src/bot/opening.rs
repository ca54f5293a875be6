//! The first peg and the swap decision, from a table built by self-play (`docs/OPENINGS.md`,
//! `scripts/opening-table`): player 0's score after its first peg on each hole.

use crate::cell::{Cell, SIZE};

/// Player 0's score in percent when its first peg stands on a hole of the quarter board
/// (rows 1-6 down, columns B-F across) and player 1 plays on without swapping. The other
/// quarters follow by the board's two mirror symmetries, which keep each player's borders.
/// Printed by `scripts/opening-table`: 720 self-play games (24 from each hole, 20,000
/// iterations a move), as predicted by a line through them from a 1M-iteration search of
/// each hole (24 games alone are too few to rank holes).
const P0_SCORE: [[u8; 5]; 6] = [
    // B   C   D   E   F
    [41, 41, 40, 40, 41], // row 1
    [41, 42, 42, 42, 42], // row 2
    [42, 48, 50, 49, 49], // row 3
    [45, 52, 54, 55, 56], // row 4
    [46, 55, 56, 62, 63], // row 5
    [47, 55, 57, 65, 66], // row 6
];

/// The first peg we play is the one whose score is nearest this: a little above even, so
/// that a swap gives the opponent little and no swap leaves us a small edge.
const FIRST_PEG_TARGET: u8 = 52;

/// Player 0's score after a first peg on `c`, or `None` where player 0 may not play.
pub fn score(c: Cell) -> Option<u8> {
    let last = SIZE as i32 - 1;
    let (x, y) = (c.x().min(last - c.x()), c.y().min(last - c.y()));
    if x == 0 {
        return None;
    }
    Some(P0_SCORE[y as usize][x as usize - 1])
}

/// Whether player 1 should swap player 0's first peg on `first`: player 0 scores more than
/// half from there.
pub fn should_swap(first: Cell) -> bool {
    score(first).map_or(false, |s| s > 50)
}

/// Our first peg as player 0: the hole of the quarter board whose score is nearest
/// [`FIRST_PEG_TARGET`] (the first such in reading order).
pub fn first_peg() -> Cell {
    let mut best = (u8::MAX, Cell::CENTRE);
    for (y, row) in P0_SCORE.iter().enumerate() {
        for (x, &s) in row.iter().enumerate() {
            let gap = s.abs_diff(FIRST_PEG_TARGET);
            if let (true, Some(c)) = (gap < best.0, Cell::new(x as i32 + 1, y as i32)) {
                best = (gap, c);
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Player;

    fn cell(s: &str) -> Cell {
        s.parse().unwrap()
    }

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
    fn central_pegs_are_swapped_and_the_first_peg_is_near_even() {
        for c in ["F6", "G7", "E5", "H8"] {
            assert!(should_swap(cell(c)), "{c}");
        }
        let first = first_peg();
        assert!(first.allowed_for(Player::Zero));
        let s = score(first).unwrap();
        assert!((45..=60).contains(&s), "{first} scores {s}");
    }
}
