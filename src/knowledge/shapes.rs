//! Knight-move shapes the features look for, as tables: the direction of each knight step,
//! and the two-way connections (two pegs that share two knight-neighbour holes, so that a
//! peg on either joins them).

use crate::bitboard::Bitboard;
use crate::bridge::step;
use crate::cell::{Cell, CELLS, SIZE};

/// Where the offset `(dx, dy)` (each in -4..=4) sits in the tables below.
#[inline]
pub fn slot(dx: i32, dy: i32) -> usize {
    ((dy + 4) * 9 + dx + 4) as usize
}

/// The direction of each knight step, by [`slot`]; 8 where the offset is no knight step.
pub static DIRECTION: [u8; 81] = direction_table();

const fn direction_table() -> [u8; 81] {
    let mut out = [8u8; 81];
    let mut k = 0;
    while k < 8 {
        let (dx, dy) = step(k);
        out[((dy + 4) * 9 + dx + 4) as usize] = k as u8;
        k += 1;
    }
    out
}

/// The two-way holes of [`two_way_holes`], by the offset's [`slot`] (for the tests, which
/// check the table by index difference against it).
#[cfg(test)]
static TWO_WAY_HOLES: [[u8; 4]; 81] = two_way_table();

const fn two_way_table() -> [[u8; 4]; 81] {
    let mut out = [[8u8; 4]; 81];
    let directions = direction_table();
    let mut s = 0;
    while s < 81 {
        let (dx, dy) = (s as i32 % 9 - 4, s as i32 / 9 - 4);
        let mut found = 0;
        let mut k = 0;
        while k < 8 && (dx != 0 || dy != 0) {
            // The hole `c + step(k)` is a knight's move from `b` too when `hole - b` is one.
            let (hx, hy) = step(k);
            let (bx, by) = (hx - dx, hy - dy);
            if bx.abs() <= 4 && by.abs() <= 4 {
                let back = directions[((by + 4) * 9 + bx + 4) as usize];
                if back < 8 && found < 2 {
                    out[s][2 * found] = k as u8;
                    out[s][2 * found + 1] = back;
                    found += 1;
                }
            }
            k += 1;
        }
        if found < 2 {
            out[s] = [8; 4];
        }
        s += 1;
    }
    out
}

/// For each offset from a peg `c` to a peg `b` it holds by two ways: the directions from `c`
/// to the first shared hole and from `b` to it, then the same for the second; `[8; 4]` for
/// other offsets. Indexed by the difference of the two cells' indices, `dx + 12 dy` (one
/// value per offset, as `|dx| <= 4 < 6`), plus [`DIFF_SPAN`]: a subtraction and a load,
/// where the offset's coordinates would take two divisions.
static TWO_WAY_BY_DIFF: [[u8; 4]; 2 * DIFF_SPAN + 1] = two_way_by_diff();

/// The largest difference of cell indices between a peg and one it holds by two ways.
const DIFF_SPAN: usize = 4 * SIZE + 4;

const fn two_way_by_diff() -> [[u8; 4]; 2 * DIFF_SPAN + 1] {
    let table = two_way_table();
    let mut out = [[8u8; 4]; 2 * DIFF_SPAN + 1];
    let mut s = 0;
    while s < 81 {
        let (dx, dy) = (s as i32 % 9 - 4, s as i32 / 9 - 4);
        out[(DIFF_SPAN as i32 + dx + SIZE as i32 * dy) as usize] = table[s];
        s += 1;
    }
    out
}

/// The directions of the two holes shared by the pegs on the cells of indices `c` and `b`
/// (`b` in [`TWO_WAY_PEGS`]`[c]`), as [`TWO_WAY_BY_DIFF`] gives them.
#[inline]
pub fn two_way_holes(c: usize, b: usize) -> [u8; 4] {
    TWO_WAY_BY_DIFF[b + DIFF_SPAN - c]
}

/// For every cell, the cells a peg there could hold by two ways.
pub static TWO_WAY_PEGS: [Bitboard; CELLS] = two_way_pegs();

const fn two_way_pegs() -> [Bitboard; CELLS] {
    let table = two_way_table();
    let mut out = [Bitboard::EMPTY; CELLS];
    let mut i = 0;
    while i < CELLS {
        if let Some(c) = Cell::from_index(i) {
            let mut s = 0;
            while s < 81 {
                if table[s][0] < 8 {
                    if let Some(b) = c.offset(s as i32 % 9 - 4, s as i32 / 9 - 4) {
                        out[i] = out[i].with_index(b.index());
                    }
                }
                s += 1;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::NEIGHBORS;

    fn is_knight(dx: i32, dy: i32) -> bool {
        dx.abs().min(dy.abs()) == 1 && dx.abs().max(dy.abs()) == 2
    }

    #[test]
    fn directions_name_the_neighbour_table_steps() {
        let c = Cell::new(5, 5).unwrap();
        for dy in -4..=4 {
            for dx in -4..=4 {
                let k = DIRECTION[slot(dx, dy)] as usize;
                if is_knight(dx, dy) {
                    let n = c.offset(dx, dy).unwrap();
                    assert_eq!(NEIGHBORS[c.index()][k].cell as usize, n.index());
                } else {
                    assert_eq!(k, 8, "({dx}, {dy})");
                }
            }
        }
    }

    #[test]
    fn two_way_offsets_are_those_with_two_shared_knight_holes() {
        let c = Cell::new(5, 5).unwrap();
        let mut offsets = 0;
        for dy in -4..=4 {
            for dx in -4..=4 {
                let shared: Vec<(i32, i32)> = (-2..=2)
                    .flat_map(|hy| (-2..=2).map(move |hx| (hx, hy)))
                    .filter(|&(hx, hy)| is_knight(hx, hy) && is_knight(hx - dx, hy - dy))
                    .collect();
                let dirs = TWO_WAY_HOLES[slot(dx, dy)];
                if (dx, dy) == (0, 0) || shared.len() < 2 {
                    assert_eq!(dirs, [8; 4], "({dx}, {dy})");
                    continue;
                }
                offsets += 1;
                let b = c.offset(dx, dy).unwrap();
                assert!(TWO_WAY_PEGS[c.index()].has(b));
                let holes: Vec<usize> = (0..2)
                    .map(|w| {
                        let from_c = NEIGHBORS[c.index()][dirs[2 * w] as usize].cell;
                        let from_b = NEIGHBORS[b.index()][dirs[2 * w + 1] as usize].cell;
                        assert_eq!(from_c, from_b, "({dx}, {dy}): one hole from both");
                        from_c as usize
                    })
                    .collect();
                let expected: Vec<usize> = shared
                    .iter()
                    .map(|&(hx, hy)| c.offset(hx, hy).unwrap().index())
                    .collect();
                assert!(holes.iter().all(|h| expected.contains(h)) && holes[0] != holes[1]);
            }
        }
        assert_eq!(offsets, 24);
        assert_eq!(TWO_WAY_PEGS[c.index()].count(), 24);
    }

    #[test]
    fn the_two_way_holes_by_index_difference_are_those_by_offset() {
        for c in Cell::all() {
            for b in TWO_WAY_PEGS[c.index()].iter() {
                let by_offset = TWO_WAY_HOLES[slot(b.x() - c.x(), b.y() - c.y())];
                assert_ne!(by_offset, [8; 4]);
                assert_eq!(two_way_holes(c.index(), b.index()), by_offset, "{c} {b}");
            }
        }
    }
}
