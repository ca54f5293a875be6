//! The hand-set prior (host-only): a child's virtual visits are valued `prior_far` for a hole
//! with no peg within two rows and columns, `prior_near` for one with, plus `prior_link` when
//! it is a knight's move from one of the mover's pegs (it would link) and `prior_block` when
//! it is a knight's move from an opponent's peg (it contests a link). The learned prior
//! replaced it (docs/BOT.md, "The move policy"); the host keeps it for the teachers of the
//! first data sets and for comparison (`--set policy_prior=false`).

use crate::bitboard::{Bitboard, KNIGHTS, NEAR};
use crate::cell::Cell;
use crate::position::{Move, Position};
use crate::search::params::Params;
use crate::search::tree::Tree;

/// The children of `node` (whose position is `pos`) given the hand-set prior: an even share,
/// and `prior_visits` virtual visits valued by [`Pegs::value`].
pub(super) fn expand(params: &Params, tree: &mut Tree, node: u32, pos: &Position) {
    let pegs = Pegs::of(pos);
    let even = 1.0 / tree.children(node).len() as f32;
    for i in tree.children(node) {
        let child = tree.get_mut(i);
        child.prior = even;
        child.visits = params.prior_visits;
        child.wins = params.prior_visits as f32 * pegs.value(params, child.mv);
    }
}

/// What the hand-set prior looks at, read off the position once per expansion.
pub(super) struct Pegs {
    occupied: Bitboard,
    mover: Bitboard,
    opponent: Bitboard,
}

impl Pegs {
    pub(super) fn of(pos: &Position) -> Pegs {
        let (board, p) = (pos.board(), pos.to_move());
        Pegs {
            occupied: board.occupied(),
            mover: board.pegs(p),
            opponent: board.pegs(p.other()),
        }
    }

    /// The prior value of `mv` for the player to move.
    pub(super) fn value(&self, params: &Params, mv: Move) -> f32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::position;

    fn value_of(moves: &str, hole: &str) -> f32 {
        let pegs = Pegs::of(&position(moves));
        pegs.value(&Params::default(), Move::Peg(hole.parse().unwrap()))
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
}
