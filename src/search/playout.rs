//! Random playouts: uniformly random legal pegs until a side connects or the player to move
//! has no hole left.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::cell::{Cell, Player};
use crate::position::Position;
use crate::rng::FastRng;

/// Vacant holes split in three parts by who may use them: player 0 only (its own border
/// rows), both players, player 1 only (its own border columns).
pub(super) struct Pools {
    /// The parts one after the other, each starting at its [`START`].
    cells: [Cell; HOLES],
    /// How many holes each part holds, as fields rather than an array indexed by the mover,
    /// so that the playout keeps them in registers.
    len: Lengths,
}

/// How many holes are left in each part.
#[derive(Clone, Copy)]
struct Lengths {
    zero: usize,
    shared: usize,
    one: usize,
}

impl Lengths {
    /// The length of `part` (0, 1 or 2).
    fn of(self, part: usize) -> usize {
        [self.zero, self.shared, self.one][part]
    }

    /// The length of `p`'s own part, by a select rather than an index.
    #[inline(always)]
    fn own(self, p: Player) -> usize {
        if p == Player::Zero {
            self.zero
        } else {
            self.one
        }
    }
}

const ZERO: Bitboard = Bitboard::ALLOWED_ZERO;
const ONE: Bitboard = Bitboard::ALLOWED_ONE;

/// The holes of each part: player 0's only (20), both players' (100), player 1's only (20).
const PARTS: [Bitboard; 3] = [ZERO.and_not(ONE), ZERO.and(ONE), ONE.and_not(ZERO)];

/// Every hole of the board (140).
const HOLES: usize = Bitboard::HOLES.count() as usize;

/// Where each part of [`Pools::cells`] starts.
const START: [usize; 3] = [
    0,
    PARTS[0].count() as usize,
    (PARTS[0].count() + PARTS[1].count()) as usize,
];

/// Writes the cells of `set` into `out` in index order; returns how many.
#[inline]
fn fill(out: &mut [Cell], set: Bitboard) -> usize {
    let mut n = 0;
    set.iter().for_each(|c| {
        out[n] = c;
        n += 1;
    });
    n
}

impl Pools {
    pub(super) fn of(pos: &Position) -> Pools {
        let vacant = Bitboard::HOLES.and_not(pos.board().occupied());
        let mut cells = [Cell::CENTRE; HOLES];
        let mut fill_part = |k: usize| fill(&mut cells[START[k]..], vacant.and(PARTS[k]));
        let len = Lengths {
            zero: fill_part(0),
            shared: fill_part(1),
            one: fill_part(2),
        };
        Pools { cells, len }
    }

    /// Takes the hole `c`, which `p` may play and which is still in a pool.
    pub(super) fn remove(&mut self, p: Player, c: Cell) {
        for part in [1, 2 * p.index()] {
            let (start, len) = (START[part], self.len.of(part));
            if let Some(i) = self.cells[start..start + len].iter().position(|&s| s == c) {
                self.take_at(p, part == 1, i);
                return;
            }
        }
    }

    /// Takes a random hole `p` may play, or `None` when it has none: the shared holes count
    /// first, then `p`'s own, and the pick is swapped out by the last hole of its part.
    #[inline]
    pub(super) fn take(&mut self, p: Player, rng: &mut FastRng) -> Option<Cell> {
        let shared = self.len.shared;
        let total = shared + self.len.own(p);
        if total == 0 {
            return None;
        }
        let r = rng.below(total as u32) as usize;
        // Selects rather than branches, which the random `r` would mispredict.
        let in_shared = r < shared;
        let i = if in_shared { r } else { r - shared };
        Some(self.take_at(p, in_shared, i))
    }

    /// Takes the `i`-th hole of the shared part or of `p`'s own, swapping the part's last
    /// hole into its place.
    #[inline(always)]
    fn take_at(&mut self, p: Player, in_shared: bool, i: usize) -> Cell {
        let len = &mut self.len;
        let (start, left) = if in_shared {
            (START[1], len.shared)
        } else {
            (START[2] * p.index(), len.own(p))
        };
        let zero = !in_shared & (p == Player::Zero);
        len.shared -= in_shared as usize;
        len.zero -= zero as usize;
        len.one -= (!in_shared & !zero) as usize;
        let (at, last) = (start + i, start + left - 1);
        let c = self.cells[at];
        self.cells[at] = self.cells[last];
        c
    }
}

/// Plays random pegs from `pos` (a position that is not over) until a side connects
/// (`Some(winner)`) or the player to move has no legal hole (`None`, a draw). Returns the
/// result and the number of pegs placed.
pub fn playout(pos: &mut Position, rng: &mut FastRng) -> (Option<Player>, u32) {
    play_out(pos, rng, None, |_, _, _| None)
}

/// The one playout loop. Before each peg, `reply(board, mover, last)` may name the hole the
/// mover plays instead of a random one (`last` is the peg placed before, at first the caller's
/// `last`); a reply must be vacant and allowed to the mover. Inlined into each caller, so the
/// plain playout's reply that is always `None` costs nothing.
#[inline(always)]
pub(super) fn play_out<F>(
    pos: &mut Position,
    rng: &mut FastRng,
    mut last: Option<Cell>,
    mut reply: F,
) -> (Option<Player>, u32)
where
    F: FnMut(&Board, Player, Option<Cell>) -> Option<Cell>,
{
    let mut pools = Pools::of(pos);
    let mut plies = 0;
    loop {
        let p = pos.to_move();
        let c = match reply(pos.board(), p, last) {
            Some(c) => {
                pools.remove(p, c);
                c
            }
            None => match pools.take(p, rng) {
                Some(c) => c,
                None => return (None, plies),
            },
        };
        plies += 1;
        if pos.place_and_check(c) {
            return (Some(p), plies);
        }
        last = Some(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Outcome;

    #[test]
    fn the_pools_hold_every_hole_once_by_who_may_use_it() {
        let pools = Pools::of(&Position::new());
        assert_eq!([0, 1, 2].map(|k| pools.len.of(k)), [20, 100, 20]);
        let mut seen = Bitboard::EMPTY;
        for (k, part) in PARTS.iter().enumerate() {
            for &c in &pools.cells[START[k]..START[k] + pools.len.of(k)] {
                assert!(part.has(c) && !seen.has(c), "{c} in part {k}");
                seen.insert(c);
                let (zero, one) = (c.allowed_for(Player::Zero), c.allowed_for(Player::One));
                assert_eq!(
                    k,
                    [(true, false), (true, true), (false, true)]
                        .iter()
                        .position(|&a| a == (zero, one))
                        .unwrap()
                );
            }
        }
        assert_eq!(seen, Bitboard::HOLES);
    }

    #[test]
    fn a_playout_ends_in_the_result_the_rules_give() {
        for seed in 0..200 {
            let mut rng = FastRng::new(seed);
            let mut pos = Position::new();
            let (winner, plies) = playout(&mut pos, &mut rng);
            let expected = match winner {
                Some(p) => Outcome::Win(p),
                None => Outcome::Draw,
            };
            assert_eq!(pos.outcome(), Some(expected), "seed {seed}");
            let pegs = pos.board().occupied().count();
            assert_eq!(pegs, plies);
            for p in Player::BOTH {
                assert!(pos
                    .board()
                    .pegs(p)
                    .and_not(crate::bitboard::Bitboard::allowed_for(p))
                    .is_empty());
            }
        }
    }
}
