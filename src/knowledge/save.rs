//! The save: TwixT's analogue of Hex's bridge save, a board pattern that the playouts answer
//! and the policy's features read.
//!
//! Two pegs `A` and `B` of one player that share two vacant knight-neighbours `X` and `C` (the
//! corners of a parallelogram, `C = A + B - X`) stay joined whichever of the two the opponent
//! takes. When the opponent's peg lands on `X`, the reply on `C` keeps them joined.

use crate::bitboard::KNIGHTS;
use crate::board::Board;
use crate::bridge::{step, Bridge, Neighbor, NEIGHBORS};
use crate::cell::{Cell, Player, CELLS};

/// The hole where `p` saves a two-way connection that the opponent's peg on `x` cut into, if
/// there is one. Asked before every peg of a saving playout, so the common answer (fewer than
/// two of `p`'s pegs a knight's move from `x`) is inlined, and the search for the pair out of
/// line.
#[inline(always)]
pub fn save_reply(board: &Board, p: Player, x: Cell) -> Option<Cell> {
    if !board.pegs(p).and(KNIGHTS[x.index()]).has_two() {
        return None;
    }
    save_among_pairs(board, p, x)
}

/// [`save_reply`] past its first test: every pair of `p`'s pegs a knight's move from `x`
/// with open bridges from `x` (in the order of `x`'s neighbours), until a fourth corner saves.
#[inline(never)]
fn save_among_pairs(board: &Board, p: Player, x: Cell) -> Option<Cell> {
    let (near, corners) = (&NEIGHBORS[x.index()], &CORNERS[x.index()]);
    let mut firsts = board.link_mask(p.index(), x.index());
    while firsts != 0 {
        let i = firsts.trailing_zeros() as usize;
        firsts &= firsts - 1;
        let mut seconds = firsts;
        while seconds != 0 {
            let j = seconds.trailing_zeros() as usize;
            seconds &= seconds - 1;
            let corner = corners[i][j];
            if corner == NO_CORNER {
                continue;
            }
            let c = Cell::of_hole(corner as usize);
            if saves(board, p, x.index(), near[i], near[j], c) {
                return Some(c);
            }
        }
    }
    None
}

/// No fourth corner: off the board, or `x` itself (opposite steps).
const NO_CORNER: u8 = u8::MAX;

/// For every cell `x` and two of its knight directions `i` and `j`, the fourth corner of the
/// parallelogram `x`, `x + step(i)`, `x + step(i) + step(j)`, `x + step(j)`, if it is a hole
/// other than `x`: one load where the corner's coordinates took three divisions.
static CORNERS: [[[u8; 8]; 8]; CELLS] = corner_table();

const fn corner_table() -> [[[u8; 8]; 8]; CELLS] {
    let mut out = [[[NO_CORNER; 8]; 8]; CELLS];
    let mut x = 0;
    while x < CELLS {
        if let Some(cell) = Cell::from_index(x) {
            let mut k = 0;
            while k < 64 {
                let (i, j) = (k / 8, k % 8);
                let ((ix, iy), (jx, jy)) = (step(i), step(j));
                if let Some(c) = cell.offset(ix + jx, iy + jy) {
                    if c.index() != x {
                        out[x][i][j] = c.index() as u8;
                    }
                }
                k += 1;
            }
        }
        x += 1;
    }
    out
}

/// Whether `c`, the fourth corner of the parallelogram with corner `x` (cell index) and ends
/// `a` and `b`, is a vacant hole `p` may play that links to both ends, and the two are not
/// joined already.
fn saves(board: &Board, p: Player, x: usize, a: Neighbor, b: Neighbor, c: Cell) -> bool {
    if board.occupied().has(c) || !c.allowed_for(p) {
        return false;
    }
    let (a_cell, b_cell) = (a.cell as usize, b.cell as usize);
    // C-B is X-A moved by B - X, and C-A is X-B moved by A - X: the same bridges shifted.
    let shift = |bridge: u16, to: usize| (bridge as i32 + 4 * (to as i32 - x as i32)) as usize;
    let (cb, ca) = (shift(a.bridge, b_cell), shift(b.bridge, a_cell));
    debug_assert!({
        let bridge_to = |e: usize| Cell::from_index(e).and_then(|e| Bridge::between(c, e));
        let index = |e: usize| bridge_to(e).map(Bridge::index);
        index(b_cell) == Some(cb) && index(a_cell) == Some(ca)
    });
    let open = board.blocked_index(p, cb) == 0 && board.blocked_index(p, ca) == 0;
    open && !board.same_group(a_cell, b_cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cell;
    use crate::testing::position;

    #[test]
    fn an_intrusion_into_a_parallelogram_is_answered_at_its_fourth_corner() {
        // Player 0's E5 (x 4, y 4) and E7 (x 4, y 6) share the knight-neighbours C6 and G6.
        let pos = position("E5 A2 E7 C6");
        assert_eq!(
            save_reply(pos.board(), Player::Zero, cell("C6")),
            Some(cell("G6"))
        );
        // Once the two are joined through G6, there is nothing to save.
        let joined = position("E5 A2 E7 A3 G6 C6");
        assert_eq!(save_reply(joined.board(), Player::Zero, cell("C6")), None);
        // Player 1's pegs are not player 0's to save.
        assert_eq!(save_reply(pos.board(), Player::One, cell("C6")), None);
    }

    #[test]
    fn the_corner_table_gives_each_parallelograms_fourth_corner() {
        for x in Cell::all() {
            for (i, j) in (0..8).flat_map(|i| (0..8).map(move |j| (i, j))) {
                let ((ix, iy), (jx, jy)) = (step(i), step(j));
                let (cx, cy) = (x.x() + ix + jx, x.y() + iy + jy);
                let expected = Cell::new(cx, cy).filter(|&c| c != x);
                let corner = CORNERS[x.index()][i][j];
                let found = (corner != NO_CORNER).then(|| Cell::of_hole(corner as usize));
                assert_eq!(found, expected, "{x} {i} {j}");
            }
        }
    }
}
