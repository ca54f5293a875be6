//! Priors for new nodes: virtual visits whose value comes from a cheap look at the hole.
//!
//! A new child starts with `prior_visits` visits worth `value` each, where `value` is
//! `prior_far` for a hole with no peg within two rows and columns, `prior_near` for one with,
//! plus `prior_link` when it is a knight's move from one of the mover's pegs (it would link)
//! and `prior_block` when it is a knight's move from an opponent's peg (it contests a link).
//! Every child gets the same number of virtual visits, so only their values differ, and the
//! search no longer visits each of a node's hundred-odd children once before any twice.

use super::params::Params;
use super::tree::Tree;
use crate::bitboard::{Bitboard, KNIGHTS};
use crate::cell::{Cell, CELLS};
use crate::position::{Move, Position};

/// Every hole's box of holes at most two columns and two rows away (the hole left out).
static NEAR: [Bitboard; CELLS] = near_table();

const fn near_table() -> [Bitboard; CELLS] {
    let mut out = [Bitboard::EMPTY; CELLS];
    let mut i = 0;
    while i < CELLS {
        if let Some(c) = Cell::from_index(i) {
            let mut d = 0;
            while d < 25 {
                let (dx, dy) = (d % 5 - 2, d / 5 - 2);
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

/// What a prior looks at, read off the position once per expansion.
struct Pegs {
    occupied: Bitboard,
    mover: Bitboard,
    opponent: Bitboard,
}

impl Pegs {
    fn of(pos: &Position) -> Pegs {
        let (board, p) = (pos.board(), pos.to_move());
        Pegs {
            occupied: board.occupied(),
            mover: board.pegs(p),
            opponent: board.pegs(p.other()),
        }
    }

    fn value(&self, params: &Params, mv: Move) -> f32 {
        let c: Cell = match mv {
            Move::Peg(c) => c,
            Move::Swap => return 0.5,
        };
        if NEAR[c.index()].and(self.occupied).is_empty() {
            return params.prior_far;
        }
        let knights = KNIGHTS[c.index()];
        let mut v = params.prior_near;
        if !knights.and(self.mover).is_empty() {
            v += params.prior_link;
        }
        if !knights.and(self.opponent).is_empty() {
            v += params.prior_block;
        }
        v
    }
}

/// The prior value of `mv` for the player to move in `pos` (for tests: the search reads
/// [`Pegs`] once per expansion).
#[cfg(test)]
pub fn value(params: &Params, pos: &Position, mv: Move) -> f32 {
    Pegs::of(pos).value(params, mv)
}

/// Adds `moves` as the children of `node` (whose position is `pos`), each with its prior
/// when `prior_visits` is above zero. Returns whether they were added (the memory bound).
pub fn expand(params: &Params, tree: &mut Tree, node: u32, pos: &Position, moves: &[Move]) -> bool {
    if !tree.expand(node, moves.iter().copied()) {
        return false;
    }
    let n0 = params.prior_visits;
    if n0 > 0 {
        let pegs = Pegs::of(pos);
        for i in tree.children(node) {
            let child = tree.get_mut(i);
            child.visits = n0;
            child.wins = n0 as f32 * pegs.value(params, child.mv);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::position;

    fn value_of(moves: &str, hole: &str) -> f32 {
        let pos = position(moves);
        value(&Params::default(), &pos, Move::Peg(hole.parse().unwrap()))
    }

    #[test]
    fn holes_are_ranked_by_their_neighbourhood() {
        let p = Params::default();
        // Player 0 has E5, player 1 has H8; player 0 to move.
        let moves = "E5 H8";
        assert_eq!(value_of(moves, "B11"), p.prior_far);
        assert_eq!(value_of(moves, "E7"), p.prior_near);
        assert_eq!(value_of(moves, "D7"), p.prior_near + p.prior_link);
        assert_eq!(value_of(moves, "I6"), p.prior_near + p.prior_block);
        assert_eq!(
            value_of(moves, "G6"),
            p.prior_near + p.prior_link + p.prior_block
        );
    }

    #[test]
    fn every_child_gets_the_same_virtual_visits() {
        let params = Params {
            prior_visits: 8,
            ..Params::default()
        };
        let pos = position("E5 H8");
        let moves: Vec<Move> = pos.legal_holes().iter().map(Move::Peg).collect();
        let mut tree = Tree::new(1000);
        assert!(expand(&params, &mut tree, 0, &pos, &moves));
        for i in tree.children(0) {
            let n = tree.get(i);
            assert_eq!(n.visits, 8);
            assert_eq!(n.value(), value(&params, &pos, n.mv));
        }
    }
}
