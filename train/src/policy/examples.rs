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
    of_game_pruned(game, None)
}

/// The examples of one game, with each search's visits pruned ([`pruned`]) for the
/// exploration constant `prune` when there is one.
pub fn of_game_pruned(game: &Game, prune: Option<f32>) -> Vec<Example> {
    let mut out = Vec::new();
    let mut pos = Position::new();
    let mut played: Vec<Move> = Vec::new();
    for ply in &game.plies {
        if let Some(search) = &ply.search {
            let visits: Vec<u32> = match prune {
                Some(c) => pruned(&search.visits, &search.values, c),
                None => search.visits.iter().map(|&(_, n)| n).collect(),
            };
            let total: u32 = visits.iter().sum();
            if total > 0 {
                let [last_opp, last_own] = last_pegs(&played);
                let ctx = Context::new(&pos, last_opp, last_own);
                out.push(Example {
                    moves: search
                        .visits
                        .iter()
                        .map(|&(m, _)| ctx.features(m))
                        .collect(),
                    target: visits.iter().map(|&v| v as f32 / total as f32).collect(),
                    game: game.index,
                });
            }
        }
        pos.play_unchecked(ply.mv);
        played.push(ply.mv);
    }
    out
}

/// Policy target pruning, after KataGo's, for this search's UCT (`q + c * sqrt(ln N / n)`):
/// each move but the most visited keeps only the visits at which its score would still reach
/// the most visited one's final score, `c^2 ln N / (S - q)^2`, and a move left with one visit
/// or none keeps none. The visits exploration gave a move that its value did not earn leave
/// the target. Moves without a recorded value (format 2) keep theirs; the prior's virtual
/// visits and the minimax mix are left out of the scores.
pub fn pruned(visits: &[(Move, u32)], values: &[Option<f32>], c: f32) -> Vec<u32> {
    let mut out: Vec<u32> = visits.iter().map(|&(_, n)| n).collect();
    let total: u32 = out.iter().sum();
    let best = (0..out.len()).max_by_key(|&i| (out[i], std::cmp::Reverse(i)));
    let (Some(best), true) = (best, total > 1) else {
        return out;
    };
    let Some(q_best) = values.get(best).copied().flatten() else {
        return out;
    };
    let ln_n = (total as f32).ln();
    let score = q_best + c * (ln_n / out[best] as f32).sqrt();
    for (i, n) in out.iter_mut().enumerate() {
        let q = match values.get(i).copied().flatten() {
            Some(q) if i != best && q < score => q,
            _ => continue,
        };
        let earned = c * c * ln_n / ((score - q) * (score - q));
        let kept = (*n).min(earned.floor() as u32);
        *n = if kept <= 1 { 0 } else { kept };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use twixt::Cell;

    fn peg(i: usize) -> Move {
        Move::Peg(Cell::new(i as i32 + 1, 1).unwrap())
    }

    #[test]
    fn exploration_visits_leave_the_target_and_the_best_keeps_its_own() {
        let visits = [
            (peg(0), 800),
            (peg(1), 150),
            (peg(2), 40),
            (peg(3), 2),
            (peg(4), 0),
        ];
        let values = [Some(0.6), Some(0.58), Some(0.3), Some(0.0), None];
        let out = pruned(&visits, &values, 0.3);
        assert_eq!(out[0], 800, "the most visited keeps all");
        assert_eq!(out[1], 150, "a close value earned its visits");
        // S = 0.6 + 0.3 sqrt(ln 992 / 800) = 0.6278; 0.09 ln 992 / 0.3278^2 = 5.8, and
        // for the value 0, 1.6.
        assert_eq!(out[2], 5);
        assert_eq!(out[3], 0, "two visits, one earned: none kept");
        assert_eq!(out[4], 0);
        // Without values (format 2) nothing changes; with c = 0 only the best is left.
        let none = [None; 5];
        assert_eq!(pruned(&visits, &none, 0.3), [800, 150, 40, 2, 0]);
        assert_eq!(pruned(&visits, &values, 0.0), [800, 0, 0, 0, 0]);
    }
}
