//! The first peg and the swap decision, from a table built by self-play (`docs/OPENINGS.md`,
//! `scripts/opening-table`): player 0's score after its first peg on each hole.

use crate::cell::{Cell, SIZE};

/// Player 0's score in percent when its first peg stands on a hole of the quarter board
/// (rows 1-6 down, columns B-F across) and player 1 plays on without swapping. The other
/// quarters follow by the board's two mirror symmetries, which keep each player's borders.
/// Printed by `scripts/opening-table 16 clock B2 D2 B4 C3 D3 E3 C4 F6` with the bot of commit
/// 568f34a: 256 self-play games at CodinGame's clocks (32 from each of those holes), as
/// predicted by a line through them from a 1M-iteration search of each hole (32 games alone
/// are too few to rank holes). At this clock every first peg is worth more than half to
/// player 0.
const P0_SCORE: [[u8; 5]; 6] = [
    // B   C   D   E   F
    [60, 61, 61, 60, 60], // row 1
    [61, 61, 61, 61, 60], // row 2
    [60, 62, 62, 62, 63], // row 3
    [61, 65, 64, 63, 64], // row 4
    [61, 65, 64, 67, 65], // row 5
    [63, 64, 65, 66, 69], // row 6
];

/// Our first peg is the hole whose score is nearest this: C4. Against an opponent that swaps
/// by this table, the weakest hole would be best; but opponents swap central pegs far more
/// often than a peg like C4: OpenSpiel's MCTS at SIMS=60000 swapped 96 of 100 central first
/// pegs and 10 of 100 on C4 (`docs/OPENINGS.md`).
const FIRST_PEG_TARGET: u8 = 65;

/// Player 0's score after a first peg on `c`, or `None` where player 0 may not play.
pub fn score(c: Cell) -> Option<u8> {
    let last = SIZE as i32 - 1;
    let (x, y) = (c.x().min(last - c.x()), c.y().min(last - c.y()));
    if x == 0 {
        return None;
    }
    Some(P0_SCORE[y as usize][x as usize - 1])
}

/// Player 1 swaps a first peg scoring at least this: columns C-J of rows 3-10, and B6, B7,
/// K6 and K7. The edge rows' 60-61% rest on the line's extrapolation (row 1 was not
/// played at the real clock; B2 scored 15 of 32), and at 20,000 iterations a move player 0
/// scored 28% from row 2 (34 of 120) and 47% from row 1 (56 of 120): a swap there is not
/// clearly worth giving the opponent the move.
const SWAP_FROM: u8 = 62;

/// Whether player 1 should swap player 0's first peg on `first`: player 0 scores clearly
/// more than half from there.
pub fn should_swap(first: Cell) -> bool {
    score(first).map_or(false, |s| s >= SWAP_FROM)
}

/// Our first peg as player 0: the hole of the quarter board whose score is nearest
/// `FIRST_PEG_TARGET` (the first such in reading order).
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
    fn pegs_off_the_edge_rows_are_swapped_and_ours_is_off_centre() {
        for c in ["F6", "G7", "E5", "H8", "C3", "J10", "B6", "K7"] {
            assert!(should_swap(cell(c)), "{c}");
        }
        for c in ["B2", "E1", "K12", "F11", "B3", "A5", "B4", "K9", "D2"] {
            assert!(!should_swap(cell(c)), "{c}");
        }
        let first = first_peg();
        assert_eq!(first, cell("C4"));
        assert!(score(first) < score(Cell::CENTRE));
    }
}
