//! A set of holes as four 64-bit words (144 cells do not fit a `u128`).

use crate::bridge::{neighbor_table, NO_BRIDGE};
use crate::cell::{Cell, Player, CELLS};

/// Four words, one more than 144 cells need: any `u8` index then falls inside the set, so
/// lookups by the `u8` cell indices of the tables need no bounds check.
const WORDS: usize = 4;
const _: () = assert!(CELLS <= WORDS * 64, "the bitboard must hold every cell");

/// The knight-neighbours of every cell: where a peg could link to from there.
pub static KNIGHTS: [Bitboard; CELLS] = knight_table();

/// Built from the neighbour table (a static cannot be read in a `const fn`, its builder can).
const fn knight_table() -> [Bitboard; CELLS] {
    let neighbors = neighbor_table();
    let mut out = [Bitboard::EMPTY; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut k = 0;
        while k < 8 {
            if neighbors[i][k].bridge != NO_BRIDGE {
                out[i] = out[i].with_index(neighbors[i][k].cell as usize);
            }
            k += 1;
        }
        i += 1;
    }
    out
}

/// The holes a king's move from every cell (the eight around it, where they are holes).
pub static KINGS: [Bitboard; CELLS] = box_table(1);

/// The holes at most two columns and two rows from every cell (the 24 around it, where they
/// are holes; for the host's hand-set prior).
#[cfg(not(codingame))]
pub static NEAR: [Bitboard; CELLS] = box_table(2);

/// For every cell, the holes at most `r` columns and `r` rows from it, itself left out.
const fn box_table(r: i32) -> [Bitboard; CELLS] {
    let mut out = [Bitboard::EMPTY; CELLS];
    let side = 2 * r + 1;
    let mut i = 0;
    while i < CELLS {
        if let Some(c) = Cell::from_index(i) {
            let mut d = 0;
            while d < side * side {
                let (dx, dy) = (d % side - r, d / side - r);
                if let Some(n) = c.offset(dx, dy) {
                    if dx != 0 || dy != 0 {
                        out[i] = out[i].with_index(n.index());
                    }
                }
                d += 1;
            }
        }
        i += 1;
    }
    out
}

/// A set of cells, bit `i` standing for the cell of index `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard([u64; WORDS]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);

    /// Every hole (140 cells: the board less its corners).
    pub const HOLES: Bitboard = Bitboard::holes_where(0);
    /// The holes player 0 may use (its own rows 1 and 12, not columns A and L).
    pub const ALLOWED_ZERO: Bitboard = Bitboard::holes_where(1);
    /// The holes player 1 may use (its own columns A and L, not rows 1 and 12).
    pub const ALLOWED_ONE: Bitboard = Bitboard::holes_where(2);

    /// Builds the constant masks: 0 = every hole, 1 / 2 = holes allowed to player 0 / 1.
    const fn holes_where(which: u8) -> Bitboard {
        let mut words = [0u64; WORDS];
        let mut i = 0;
        while i < CELLS {
            if let Some(c) = Cell::from_index(i) {
                let keep = match which {
                    0 => true,
                    1 => c.allowed_for(Player::Zero),
                    _ => c.allowed_for(Player::One),
                };
                if keep {
                    words[i / 64] |= 1u64 << (i % 64);
                }
            }
            i += 1;
        }
        Bitboard(words)
    }

    /// The holes `p` may ever use.
    #[inline]
    pub const fn allowed_for(p: Player) -> Bitboard {
        match p {
            Player::Zero => Bitboard::ALLOWED_ZERO,
            Player::One => Bitboard::ALLOWED_ONE,
        }
    }

    /// Whether `c` is in the set.
    #[inline]
    pub const fn has(&self, c: Cell) -> bool {
        self.has_index(c.index())
    }

    /// Whether the cell of index `i` (below 256) is in the set; for hot loops over tables
    /// of indices.
    #[inline]
    pub(crate) const fn has_index(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    /// The set plus the cell of index `i` (below 256), for building tables in `const fn`s.
    pub(crate) const fn with_index(mut self, i: usize) -> Bitboard {
        self.0[i / 64] |= 1u64 << (i % 64);
        self
    }

    /// Adds the cell of index `i` (a hole's index: the caller vouches).
    #[inline]
    pub(crate) fn insert_index(&mut self, i: usize) {
        self.0[i / 64] |= 1u64 << (i % 64);
    }

    /// Adds the cell of index `i` (below 256) if `on`, without a branch.
    #[inline]
    pub(crate) fn insert_index_if(&mut self, i: usize, on: bool) {
        self.0[i / 64] |= (on as u64) << (i % 64);
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.insert_index(c.index())
    }

    /// Number of cells in the set.
    #[inline]
    pub const fn count(&self) -> u32 {
        let (mut n, mut i) = (0, 0);
        while i < WORDS {
            n += self.0[i].count_ones();
            i += 1;
        }
        n
    }

    /// Whether the set holds two cells or more (cheaper than [`Bitboard::count`] on machines
    /// without a popcount instruction). Both tests are made, without a branch between them:
    /// the playout asks this of random sets before every peg.
    #[inline]
    pub const fn has_two(&self) -> bool {
        let (mut within, mut words, mut i) = (0, 0, 0);
        while i < WORDS {
            let w = self.0[i];
            within |= w & w.wrapping_sub(1);
            words += (w != 0) as u32;
            i += 1;
        }
        (within != 0) | (words >= 2)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        let (mut any, mut i) = (0, 0);
        while i < WORDS {
            any |= self.0[i];
            i += 1;
        }
        any == 0
    }

    /// Cells in both sets.
    #[inline]
    pub const fn and(self, o: Bitboard) -> Bitboard {
        let (mut w, mut i) = (self.0, 0);
        while i < WORDS {
            w[i] &= o.0[i];
            i += 1;
        }
        Bitboard(w)
    }

    /// Cells in either set.
    #[inline]
    pub const fn or(self, o: Bitboard) -> Bitboard {
        let (mut w, mut i) = (self.0, 0);
        while i < WORDS {
            w[i] |= o.0[i];
            i += 1;
        }
        Bitboard(w)
    }

    /// Cells of `self` not in `o`.
    #[inline]
    pub const fn and_not(self, o: Bitboard) -> Bitboard {
        let (mut w, mut i) = (self.0, 0);
        while i < WORDS {
            w[i] &= !o.0[i];
            i += 1;
        }
        Bitboard(w)
    }

    /// The cells of the set, in index order.
    #[inline]
    pub fn iter(&self) -> BitIter {
        BitIter {
            words: self.0,
            base: 0,
        }
    }
}

#[cfg(not(codingame))]
impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for c in iter {
            b.insert(c);
        }
        b
    }
}

/// Iterator over the cells of a [`Bitboard`].
#[derive(Clone)]
pub struct BitIter {
    /// The cells not listed yet; emptied words are rotated out, so `words[0]` is read.
    words: [u64; WORDS],
    /// Index of the cell of bit 0 of `words[0]`.
    base: usize,
}

impl Iterator for BitIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.words[0] == 0 {
            if self.words == [0; WORDS] {
                return None;
            }
            self.words.rotate_left(1);
            self.base += 64;
        }
        let w = self.words[0];
        self.words[0] = w & (w - 1);
        Some(Cell::of_hole(self.base + w.trailing_zeros() as usize))
    }

    /// The rest of the cells, a plain loop per word: `for_each`, `sum` and the other
    /// consumers that go through `fold` do not carry the position between calls as `next`
    /// must, which counts in the playout's pools and the two-way feature.
    #[inline]
    fn fold<B, F: FnMut(B, Cell) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = init;
        for (k, mut bits) in self.words.into_iter().enumerate() {
            while bits != 0 {
                acc = f(
                    acc,
                    Cell::of_hole(self.base + 64 * k + bits.trailing_zeros() as usize),
                );
                bits &= bits - 1;
            }
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cell;

    #[test]
    fn knight_masks_hold_the_linkable_neighbours() {
        for c in Cell::all() {
            let linked: Bitboard = Cell::all()
                .filter(|&o| crate::bridge::Bridge::between(c, o).is_some())
                .collect();
            assert_eq!(KNIGHTS[c.index()], linked, "{}", c);
        }
    }

    #[test]
    fn king_and_near_masks_hold_the_holes_one_and_two_away() {
        for (table, r) in [(&KINGS, 1), (&NEAR, 2)] {
            for c in Cell::all() {
                let around: Bitboard = Cell::all()
                    .filter(|&o| o != c && (o.x() - c.x()).abs() <= r && (o.y() - c.y()).abs() <= r)
                    .collect();
                assert_eq!(table[c.index()], around, "{} at {}", c, r);
            }
        }
    }

    #[test]
    fn has_two_agrees_with_count() {
        let cells: Vec<Cell> = Cell::all().collect();
        for (i, &a) in cells.iter().enumerate() {
            let one: Bitboard = std::iter::once(a).collect();
            assert!(!one.has_two() && !Bitboard::EMPTY.has_two());
            for &b in &cells[i + 1..] {
                assert!([a, b].into_iter().collect::<Bitboard>().has_two());
            }
        }
    }

    #[test]
    fn folding_lists_the_cells_that_next_lists_from_where_it_stands() {
        let mut rng = crate::rng::FastRng::new(11);
        for _ in 0..500 {
            let set: Bitboard = Cell::all().filter(|_| rng.below(3) == 0).collect();
            let mut rest = set.iter();
            // Up to 60 taken: past the first word, which `next` rotates out.
            for _ in 0..rng.below(60) {
                rest.next();
            }
            let by_next: Vec<Cell> = std::iter::from_fn({
                let mut it = rest.clone();
                move || it.next()
            })
            .collect();
            let by_fold = rest.fold(Vec::new(), |mut v, c| {
                v.push(c);
                v
            });
            assert_eq!(by_fold, by_next);
        }
    }

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(Bitboard::HOLES.count(), 140);
        assert_eq!(Bitboard::ALLOWED_ZERO.count(), 120);
        assert_eq!(Bitboard::ALLOWED_ONE.count(), 120);
    }

    #[test]
    fn set_operations_match_a_plain_set() {
        let a: Bitboard = Cell::all().filter(|c| c.index() % 3 == 0).collect();
        let b: Bitboard = Cell::all().filter(|c| c.index() % 5 == 0).collect();
        for c in Cell::all() {
            let (ia, ib) = (c.index() % 3 == 0, c.index() % 5 == 0);
            assert_eq!(a.has(c), ia);
            assert_eq!(a.and(b).has(c), ia && ib);
            assert_eq!(a.or(b).has(c), ia || ib);
            assert_eq!(a.and_not(b).has(c), ia && !ib);
        }
        let listed: Vec<Cell> = a.iter().collect();
        assert_eq!(listed.len() as u32, a.count());
        assert!(listed.windows(2).all(|w| w[0] < w[1]), "in index order");
        assert!(listed.iter().all(|&c| a.has(c)));
    }

    #[test]
    fn insert_adds_one_cell() {
        let mut b = Bitboard::EMPTY;
        assert!(b.is_empty());
        let c = cell("H10");
        b.insert(c);
        assert!(b.has(c) && b.count() == 1 && !b.is_empty());
    }
}
