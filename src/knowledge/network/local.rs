//! The policy's local term: what lies within two columns and two rows of a hole, as the mover
//! sees the board. Each of the 24 cells around it carries six weights: one for the mover's
//! peg there, one for the opponent's, one for the opponent's last peg, one for the mover's
//! own last, and at a knight's move one for a peg of the mover's that a peg on the hole would
//! link to (no opposing link crosses the bridge) and one for the opponent's peg that a peg of
//! its own there would link to. A hole's local logit is the sum of the weights its
//! surroundings fill; the same weights serve every hole, as a convolution's would.

use crate::cell::Cell;

/// Cells around a hole.
pub const AROUND: usize = 24;

/// What a cell around can hold: the flags below.
const FLAGS: usize = 6;

/// Weights of the local term: six a cell around.
pub const LOCAL: usize = FLAGS * AROUND;

/// What a cell holds, as flags: the mover's peg, the opponent's, the opponent's last peg,
/// the mover's own last.
pub const HOLDS_OWN: u8 = 1;
/// The opponent's peg.
pub const HOLDS_OPP: u8 = 2;
/// The opponent's last peg.
pub const HOLDS_LAST_OPP: u8 = 4;
/// The mover's own last peg.
pub const HOLDS_LAST_OWN: u8 = 8;
/// A peg of the mover's at a knight's move whose bridge to the hole no opposing link crosses.
pub const HOLDS_OPEN_OWN: u8 = 16;
/// A peg of the opponent's at a knight's move whose bridge to the hole none of the mover's
/// links crosses.
pub const HOLDS_OPEN_OPP: u8 = 32;

/// The offsets of the cells around a hole, row by row, the hole itself left out.
const OFFSETS: [(i32, i32); AROUND] = offsets();

const fn offsets() -> [(i32, i32); AROUND] {
    let mut out = [(0, 0); AROUND];
    let (mut dy, mut k) = (-2, 0);
    while dy <= 2 {
        let mut dx = -2;
        while dx <= 2 {
            if dx != 0 || dy != 0 {
                out[k] = (dx, dy);
                k += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    out
}

/// Calls `weight` with each local weight the surroundings of the viewed hole `v` fill, where
/// `holds(w)` says what the viewed cell `w` holds (the flags above).
#[inline]
pub fn each(v: Cell, holds: impl Fn(Cell) -> u8, mut weight: impl FnMut(usize)) {
    for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
        if let Some(w) = Cell::new(v.x() + dx, v.y() + dy) {
            flag_weights(k, holds(w), &mut weight);
        }
    }
}

/// Calls `hole` with each offset number `k` and viewed cell `v` whose box holds the viewed cell
/// `w` at offset `k`: the holes a peg on `w` weighs on (the same pairs as [`each`], seen from
/// the other end), and whether `w` lies a knight's move from `v`.
#[inline]
pub fn around(w: Cell, mut hole: impl FnMut(usize, Cell, bool)) {
    for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
        if let Some(v) = Cell::new(w.x() - dx, w.y() - dy) {
            hole(k, v, (dx * dy).abs() == 2);
        }
    }
}

/// Calls `weight` with the local weight of each flag in `flags` at offset number `k`.
#[inline]
pub fn flag_weights(k: usize, flags: u8, mut weight: impl FnMut(usize)) {
    for bit in 0..FLAGS {
        if flags >> bit & 1 == 1 {
            weight(FLAGS * k + bit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_is_the_24_cells_around_and_each_flag_has_its_weight() {
        let set: std::collections::HashSet<_> = OFFSETS.iter().collect();
        assert_eq!(set.len(), AROUND);
        assert!(OFFSETS
            .iter()
            .all(|&(x, y)| x.abs() <= 2 && y.abs() <= 2 && (x, y) != (0, 0)));
        let f6: Cell = "F6".parse().unwrap();
        let g8: Cell = "G8".parse().unwrap();
        let mut seen = Vec::new();
        each(
            f6,
            |w| {
                if w == g8 {
                    HOLDS_OPP | HOLDS_LAST_OPP
                } else {
                    0
                }
            },
            |i| seen.push(i),
        );
        // G8 is one column right and two rows down: offset (1, 2), the 23rd of the box.
        assert_eq!(seen, [FLAGS * 22 + 1, FLAGS * 22 + 2]);
        // A hole in a corner's reach sees only the cells on the board.
        let mut n = 0;
        each("B1".parse().unwrap(), |_| HOLDS_OWN, |_| n += 1);
        assert_eq!(n, 10);
    }
}
