//! Random playouts: uniformly random legal pegs until a side connects or the player to move
//! has no hole left.

use crate::bitboard::Bitboard;
use crate::cell::{Cell, Player};
use crate::position::Position;
use crate::rng::FastRng;

/// Vacant holes split by who may use them: both players, or only one of them.
pub(super) struct Pools {
    shared: [Cell; 100],
    shared_len: usize,
    own: [[Cell; 20]; 2],
    own_len: [usize; 2],
}

/// Writes the cells of `set` into `out` in index order; returns how many.
#[inline]
fn fill(out: &mut [Cell], set: Bitboard) -> usize {
    let mut n = 0;
    for c in set.iter() {
        out[n] = c;
        n += 1;
    }
    n
}

impl Pools {
    pub(super) fn of(pos: &Position) -> Pools {
        let first = Cell::CENTRE;
        let mut pools = Pools {
            shared: [first; 100],
            shared_len: 0,
            own: [[first; 20]; 2],
            own_len: [0; 2],
        };
        let vacant = Bitboard::HOLES.and_not(pos.board().occupied());
        let (zero, one) = (Bitboard::ALLOWED_ZERO, Bitboard::ALLOWED_ONE);
        pools.shared_len = fill(&mut pools.shared, vacant.and(zero).and(one));
        pools.own_len[0] = fill(&mut pools.own[0], vacant.and_not(one));
        pools.own_len[1] = fill(&mut pools.own[1], vacant.and_not(zero));
        pools
    }

    /// Takes the hole `c`, which `p` may play and which is still in a pool.
    pub(super) fn remove(&mut self, p: Player, c: Cell) {
        if let Some(i) = self.shared[..self.shared_len].iter().position(|&s| s == c) {
            self.shared_len -= 1;
            self.shared[i] = self.shared[self.shared_len];
        } else {
            let own = &mut self.own[p.index()];
            let len = &mut self.own_len[p.index()];
            if let Some(i) = own[..*len].iter().position(|&s| s == c) {
                *len -= 1;
                own[i] = own[*len];
            }
        }
    }

    /// Takes a random hole `p` may play, or `None` when it has none.
    #[inline]
    pub(super) fn take(&mut self, p: Player, rng: &mut FastRng) -> Option<Cell> {
        let own_len = self.own_len[p.index()];
        let total = self.shared_len + own_len;
        if total == 0 {
            return None;
        }
        let r = rng.below(total as u32) as usize;
        if r < self.shared_len {
            self.shared_len -= 1;
            let c = self.shared[r];
            self.shared[r] = self.shared[self.shared_len];
            Some(c)
        } else {
            let own = &mut self.own[p.index()];
            let i = r - self.shared_len;
            let c = own[i];
            own[i] = own[own_len - 1];
            self.own_len[p.index()] = own_len - 1;
            Some(c)
        }
    }
}

/// Plays random pegs from `pos` (a position that is not over) until a side connects
/// (`Some(winner)`) or the player to move has no legal hole (`None`, a draw). Returns the
/// result and the number of pegs placed.
pub fn playout(pos: &mut Position, rng: &mut FastRng) -> (Option<Player>, u32) {
    let mut pools = Pools::of(pos);
    let mut plies = 0;
    loop {
        let p = pos.to_move();
        let c = match pools.take(p, rng) {
            Some(c) => c,
            None => return (None, plies),
        };
        plies += 1;
        if pos.place_and_check(c) {
            return (Some(p), plies);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Outcome;

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
