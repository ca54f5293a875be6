//! Bridges (possible links) in the T1 scheme, and the tables of which bridges cross which.
//!
//! Every knight-move segment between two holes is stored once, at its lower end (larger `y`),
//! as one of four directions pointing upwards. All tables here are computed by `const fn`.

use crate::cell::{is_hole, Cell, CELLS, SIZE};
use std::fmt;

/// The four upward directions `(dx, dy)` from a bridge's lower end to its upper end.
pub const DIRS: [(i32, i32); 4] = [(-2, -1), (-1, -2), (1, -2), (2, -1)];

/// Number of bridge slots: four per cell index, valid or not.
pub const BRIDGES: usize = CELLS * 4;

/// Index of "no bridge" in the tables. Arrays of counters indexed by bridge have [`SLOTS`]
/// entries, so that writes through this index, and through the padding of
/// [`CROSSINGS`], are harmless and need no branch.
pub const NO_BRIDGE: u16 = BRIDGES as u16;

/// Entries of a counter array indexed by bridge: the bridges, then one absorbing slot for
/// each of the nine places of a row of [`CROSSINGS`]. A row pads place `k` with
/// `NO_BRIDGE + k`, not all with one slot, so that the nine increments of a link never wait
/// for one another.
pub const SLOTS: usize = BRIDGES + 9;

/// A possible link between two holes a knight's move apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bridge(u16);

impl Bridge {
    /// The bridge from `lower` in direction `dir` (0..4), if both of its ends are holes.
    pub const fn new(lower: Cell, dir: usize) -> Option<Bridge> {
        if dir >= 4 {
            return None;
        }
        let (dx, dy) = DIRS[dir];
        if lower.offset(dx, dy).is_none() {
            return None;
        }
        Some(Bridge((lower.index() * 4 + dir) as u16))
    }

    /// The bridge joining `a` and `b`, if they are a knight's move apart.
    pub const fn between(a: Cell, b: Cell) -> Option<Bridge> {
        let (lower, upper) = if a.y() > b.y() { (a, b) } else { (b, a) };
        let dx = upper.x() - lower.x();
        let dy = upper.y() - lower.y();
        let mut d = 0;
        while d < 4 {
            if DIRS[d].0 == dx && DIRS[d].1 == dy {
                return Bridge::new(lower, d);
            }
            d += 1;
        }
        None
    }

    /// The bridge with this table index, if it is a real bridge.
    pub const fn from_index(i: usize) -> Option<Bridge> {
        match Cell::from_index(i / 4) {
            Some(c) => Bridge::new(c, i % 4),
            None => None,
        }
    }

    /// Table index, `lower * 4 + dir`, below [`BRIDGES`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Direction from the lower end, an index into [`DIRS`].
    #[inline]
    pub const fn dir(self) -> usize {
        self.0 as usize % 4
    }

    /// The end with the larger row number.
    #[inline]
    pub const fn lower(self) -> Cell {
        match Cell::from_index(self.0 as usize / 4) {
            Some(c) => c,
            None => panic!("a bridge's lower end is a hole"),
        }
    }

    /// The end with the smaller row number.
    #[inline]
    pub const fn upper(self) -> Cell {
        let (dx, dy) = DIRS[self.dir()];
        match self.lower().offset(dx, dy) {
            Some(c) => c,
            None => panic!("a bridge's upper end is a hole"),
        }
    }

    /// Both ends, lower first.
    #[inline]
    pub const fn ends(self) -> (Cell, Cell) {
        (self.lower(), self.upper())
    }

    /// The bridges this one crosses (up to 9), from the precomputed table.
    #[cfg(not(codingame))]
    pub fn crossings(self) -> impl Iterator<Item = Bridge> {
        CROSSINGS[self.index()]
            .into_iter()
            .filter(|&b| (b as usize) < BRIDGES)
            .map(Bridge)
    }

    /// Every bridge of the board.
    pub fn all() -> impl Iterator<Item = Bridge> {
        (0..BRIDGES).filter_map(Bridge::from_index)
    }
}

impl fmt::Display for Bridge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.lower(), self.upper())
    }
}

/// Twice the signed area of the triangle `a b c`.
const fn orient(a: (i32, i32), b: (i32, i32), c: (i32, i32)) -> i32 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

/// Whether the open segments `a1 a2` and `b1 b2` properly intersect.
pub const fn segments_cross(
    a1: (i32, i32),
    a2: (i32, i32),
    b1: (i32, i32),
    b2: (i32, i32),
) -> bool {
    let d1 = orient(a1, a2, b1);
    let d2 = orient(a1, a2, b2);
    let d3 = orient(b1, b2, a1);
    let d4 = orient(b1, b2, a2);
    ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
}

/// A crossing bridge relative to a bridge whose lower end is at the origin.
#[derive(Clone, Copy)]
struct Rel {
    dx: i32,
    dy: i32,
    dir: usize,
}

/// For each direction, the 9 bridges (relative to the lower end) that cross it on an
/// unbounded board. Computed by testing every bridge near the origin.
const CROSS_PATTERN: [[Rel; 9]; 4] = cross_pattern();

const fn cross_pattern() -> [[Rel; 9]; 4] {
    let mut out = [[Rel {
        dx: 0,
        dy: 0,
        dir: 0,
    }; 9]; 4];
    let mut d = 0;
    while d < 4 {
        let a2 = DIRS[d];
        let mut n = 0;
        let mut oy = -4;
        while oy <= 4 {
            let mut ox = -4;
            while ox <= 4 {
                let mut d2 = 0;
                while d2 < 4 {
                    let b2 = (ox + DIRS[d2].0, oy + DIRS[d2].1);
                    if segments_cross((0, 0), a2, (ox, oy), b2) {
                        if n == 9 {
                            panic!("a knight link crosses more than 9 others");
                        }
                        out[d][n] = Rel {
                            dx: ox,
                            dy: oy,
                            dir: d2,
                        };
                        n += 1;
                    }
                    d2 += 1;
                }
                ox += 1;
            }
            oy += 1;
        }
        if n != 9 {
            panic!("a knight link crosses fewer than 9 others");
        }
        d += 1;
    }
    out
}

/// For every bridge slot, the bridges crossing it on this board; place `k` of a row is
/// padded with the absorbing slot `NO_BRIDGE + k` (see [`SLOTS`]). The row of `NO_BRIDGE`
/// itself holds only padding, so a link made through it (a no-op link, see
/// [`crate::board::Board::place`]) changes no real counter.
pub static CROSSINGS: [[u16; 9]; BRIDGES + 1] = crossing_table();

const fn crossing_table() -> [[u16; 9]; BRIDGES + 1] {
    let mut out = [[NO_BRIDGE; 9]; BRIDGES + 1];
    let mut i = 0;
    while i <= BRIDGES {
        let (x, y, d) = ((i / 4 % SIZE) as i32, (i / 4 / SIZE) as i32, i % 4);
        let mut k = 0;
        while k < 9 {
            out[i][k] = NO_BRIDGE + k as u16;
            let r = CROSS_PATTERN[d][k];
            let (lx, ly) = (x + r.dx, y + r.dy);
            let (ux, uy) = (lx + DIRS[r.dir].0, ly + DIRS[r.dir].1);
            if i < BRIDGES && is_hole(lx, ly) && is_hole(ux, uy) {
                out[i][k] = ((ly * SIZE as i32 + lx) * 4 + r.dir as i32) as u16;
            }
            k += 1;
        }
        i += 1;
    }
    out
}

/// One knight neighbour of a cell: the neighbour's cell index and the bridge to it. Where the
/// neighbour is not a hole, the cell is 0 (corner A1, which never holds a peg) and the bridge
/// is `NO_BRIDGE`, so a lookup needs no branch.
#[derive(Clone, Copy, Debug)]
pub struct Neighbor {
    /// Index of the neighbouring cell (0, a corner, when there is none).
    pub cell: u8,
    /// The bridge joining the two cells.
    pub bridge: u16,
}

/// For every cell index, its 8 knight neighbours (invalid ones marked by `NO_BRIDGE`).
pub static NEIGHBORS: [[Neighbor; 8]; CELLS] = neighbor_table();

/// The knight step of direction `k` of [`NEIGHBORS`]: 0..4 point up from a cell ([`DIRS`]),
/// 4..8 down (the cell is then the upper end).
pub(crate) const fn step(k: usize) -> (i32, i32) {
    let (dx, dy) = DIRS[k % 4];
    if k < 4 {
        (dx, dy)
    } else {
        (-dx, -dy)
    }
}

pub(crate) const fn neighbor_table() -> [[Neighbor; 8]; CELLS] {
    let none = Neighbor {
        cell: 0,
        bridge: NO_BRIDGE,
    };
    let mut out = [[none; 8]; CELLS];
    let mut i = 0;
    while i < CELLS {
        if let Some(c) = Cell::from_index(i) {
            let mut k = 0;
            while k < 8 {
                let (dx, dy) = step(k);
                if let Some(n) = c.offset(dx, dy) {
                    let lower = if k < 4 { c } else { n };
                    if let Some(b) = Bridge::new(lower, k % 4) {
                        out[i][k] = Neighbor {
                            cell: n.index() as u8,
                            bridge: b.0,
                        };
                    }
                }
                k += 1;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cell;

    fn xy(c: Cell) -> (i32, i32) {
        (c.x(), c.y())
    }

    /// Against the reference rules' own geometry, not the `segments_cross` the table is
    /// built with: an error there would otherwise pass.
    #[test]
    fn crossing_table_matches_a_brute_force_search() {
        let all: Vec<Bridge> = Bridge::all().collect();
        for &a in &all {
            let mut expected: Vec<Bridge> = all
                .iter()
                .copied()
                .filter(|&b| {
                    twixt_reference::crosses(
                        xy(a.lower()),
                        xy(a.upper()),
                        xy(b.lower()),
                        xy(b.upper()),
                    )
                })
                .collect();
            let mut got: Vec<Bridge> = a.crossings().collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "crossings of {a}");
        }
    }

    #[test]
    fn an_inner_link_crosses_exactly_nine() {
        let b = Bridge::between(cell("F6"), cell("G8")).unwrap();
        assert_eq!(b.crossings().count(), 9);
    }

    #[test]
    fn bridges_are_stored_once_at_their_lower_end() {
        let d5 = cell("D5");
        let b4 = cell("B4");
        let b = Bridge::between(d5, b4).unwrap();
        assert_eq!(b, Bridge::between(b4, d5).unwrap());
        assert_eq!((b.lower(), b.upper(), b.dir()), (d5, b4, 0));
        assert_eq!(b.to_string(), "D5-B4");
        assert!(Bridge::between(d5, cell("D6")).is_none());
        // A link to a border hole exists; one to a corner (A1 is a knight's move from B3, but
        // not a hole) does not.
        assert!(Bridge::between(cell("B3"), cell("C1")).is_some());
        assert!(Bridge::new(cell("B3"), 1).is_none(), "B3-A1");
        assert_eq!(
            Bridge::new(cell("B3"), 2),
            Bridge::between(cell("B3"), cell("C1"))
        );
        let knight_pairs = Cell::all()
            .flat_map(|a| Cell::all().map(move |b| (a, b)))
            .filter(|&(a, b)| {
                let (dx, dy) = ((a.x() - b.x()).abs(), (a.y() - b.y()).abs());
                a < b && dx.min(dy) == 1 && dx.max(dy) == 2
            })
            .count();
        assert_eq!(Bridge::all().count(), knight_pairs);
    }

    #[test]
    fn padding_gives_each_place_its_own_absorbing_slot() {
        for (b, row) in CROSSINGS.iter().enumerate() {
            for (k, &x) in row.iter().enumerate() {
                let x = x as usize;
                assert!(
                    x < BRIDGES || x == BRIDGES + k,
                    "bridge {b}, place {k}: {x}"
                );
            }
        }
        let none = CROSSINGS[NO_BRIDGE as usize];
        assert!(none
            .iter()
            .enumerate()
            .all(|(k, &x)| x as usize == BRIDGES + k));
        assert_eq!(SLOTS, BRIDGES + none.len());
    }

    #[test]
    fn neighbor_table_lists_every_knight_neighbour() {
        for c in Cell::all() {
            let mut from_table: Vec<(usize, Bridge)> = NEIGHBORS[c.index()]
                .iter()
                .filter(|n| n.bridge != NO_BRIDGE)
                .map(|n| (n.cell as usize, Bridge(n.bridge)))
                .collect();
            let mut expected: Vec<(usize, Bridge)> = Cell::all()
                .filter_map(|o| Bridge::between(c, o).map(|b| (o.index(), b)))
                .collect();
            from_table.sort();
            expected.sort();
            assert_eq!(from_table, expected, "neighbours of {c}");
        }
    }
}
