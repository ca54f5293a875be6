//! Training examples from self-play games: every searched position's candidate moves with
//! their features, and the share of the search's visits each got.

use crate::data::Game;
use twixt::knowledge::features::{Active, Context};
use twixt::position::last_pegs;
use twixt::{Move, Position};

/// One searched position: its candidates' features and the visit shares to learn.
#[derive(Clone, Debug)]
pub struct Example {
    /// The features of each candidate move.
    pub moves: Vec<Active>,
    /// The share of the search's visits each candidate got (they sum to 1).
    pub target: Vec<f32>,
    /// The game the position is from.
    pub game: u32,
}

/// The examples of one game, in order; positions whose search gave no visits are left out.
pub fn of_game(game: &Game) -> Vec<Example> {
    let mut out = Vec::new();
    let mut pos = Position::new();
    let mut played: Vec<Move> = Vec::new();
    for ply in &game.plies {
        if let Some(search) = &ply.search {
            let total: u32 = search.visits.iter().map(|&(_, n)| n).sum();
            if total > 0 {
                let [last_opp, last_own] = last_pegs(&played);
                let ctx = Context::new(&pos, last_opp, last_own);
                out.push(Example {
                    moves: search
                        .visits
                        .iter()
                        .map(|&(m, _)| ctx.features(m))
                        .collect(),
                    target: search
                        .visits
                        .iter()
                        .map(|&(_, v)| v as f32 / total as f32)
                        .collect(),
                    game: game.index,
                });
            }
        }
        pos.play_unchecked(ply.mv);
        played.push(ply.mv);
    }
    out
}
