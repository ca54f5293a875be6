//! Random games played on both rule books, shared by the differential and property tests.

#![allow(dead_code)]

use twixt::rng::FastRng;
use twixt::{Bridge, Cell, Move, Player, Position};
use twixt_reference::RefGame;

/// Picks a random legal move of the reference game (swapping with probability 1/3 when
/// allowed), or `None` when the game is over.
pub fn random_move(game: &RefGame, rng: &mut FastRng) -> Option<Move> {
    if game.outcome().is_some() {
        return None;
    }
    if game.swap_allowed() && rng.below(3) == 0 {
        return Some(Move::Swap);
    }
    let holes = game.legal_holes(game.to_move());
    Some(Move::Peg(holes[rng.below(holes.len() as u32) as usize]))
}

/// The fast board's links of `p` as sorted pairs of cells in index order.
pub fn fast_links(pos: &Position, p: Player) -> Vec<(Cell, Cell)> {
    let mut v: Vec<(Cell, Cell)> = pos
        .board()
        .links(p)
        .map(|b: Bridge| {
            let (a, c) = b.ends();
            (a.min(c), a.max(c))
        })
        .collect();
    v.sort();
    v
}
