//! `twixt-train value`: fits the engine's distance value ([`twixt::knowledge::value`]) to
//! self-play results. That value is a logistic regression on one input, the gap between the
//! two players' distances to their borders, so its fit is two numbers (`value_bias` and
//! `value_scale`, parameters of the search) found by Newton's method; the same held-out games
//! as `fit`'s score it against the search's own estimate of the same positions.

use crate::data::{self, Game, Source};
use crate::held_out::hold_out;
use anyhow::Result;
use twixt::knowledge::network;
use twixt::knowledge::value::distance;
use twixt::{Player, Position};

/// One position: the gap `d_opp - d_own` for its mover, whether the mover won, and what the
/// search made of the move it chose (for the mover, in [0, 1]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The opponent's distance less the mover's.
    pub gap: f64,
    /// 1 if the mover won, 0 if it lost.
    pub won: f64,
    /// The search's value of its chosen move.
    pub search: f64,
    /// The game it is from.
    pub game: u32,
}

/// The samples of one game: every searched position of a game that was not drawn.
pub fn samples(game: &Game) -> Vec<Sample> {
    let Some(winner) = game.winner else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut pos = Position::new();
    for ply in &game.plies {
        if let Some(search) = &ply.search {
            let me = pos.to_move();
            let d = |p: Player| f64::from(distance(pos.board(), p));
            out.push(Sample {
                gap: d(me.other()) - d(me),
                won: f64::from(u8::from(winner == me)),
                search: f64::from(search.value),
                game: game.index,
            });
        }
        pos.play_unchecked(ply.mv);
    }
    out
}

/// The logistic function: log-odds to a chance.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean log-loss of predictions `p` of the samples' results, scored as every report
/// scores ([`network::log_loss`]).
pub fn log_loss(samples: &[Sample], p: impl Fn(&Sample) -> f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| f64::from(network::log_loss(p(s) as f32, s.won as f32)))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The `(bias, scale)` of the logistic regression of the results on the gaps, by Newton's
/// method from zero (the log-likelihood is concave: it converges in a few steps).
pub fn fit(samples: &[Sample]) -> (f64, f64) {
    let (mut b, mut k) = (0.0, 0.0);
    for _ in 0..30 {
        let (mut g0, mut g1, mut h00, mut h01, mut h11) = (0.0, 0.0, 1e-9, 0.0, 1e-9);
        for s in samples {
            let p = sigmoid(b + k * s.gap);
            let (e, w) = (p - s.won, p * (1.0 - p));
            g0 += e;
            g1 += e * s.gap;
            h00 += w;
            h01 += w * s.gap;
            h11 += w * s.gap * s.gap;
        }
        let det = h00 * h11 - h01 * h01;
        if det.abs() < 1e-12 {
            break;
        }
        let (db, dk) = ((h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det);
        b -= db;
        k -= dk;
        if db.abs() + dk.abs() < 1e-10 {
            break;
        }
    }
    (b, k)
}

/// The options of `twixt-train value`.
#[derive(clap::Args, Clone, Debug)]
pub struct DistanceOptions {
    /// Data files written by `selfplay`, packed or not; `FILE:N` reads the file's first N
    /// games.
    #[arg(required = true)]
    pub data: Vec<Source>,
}

/// Runs `value`: prints the fit and its held-out scores.
pub fn run(options: &DistanceOptions) -> Result<()> {
    let games = data::read_complete(&options.data)?;
    let all: Vec<Sample> = games.iter().flat_map(samples).collect();
    let (held, train) = hold_out(all, |s| s.game)?;
    let (b, k) = fit(&train);
    let share = train.iter().map(|s| s.won).sum::<f64>() / train.len() as f64;
    println!("value_bias {b:.4}  value_scale {k:.4}");
    println!("held-out log-loss of the mover's result:");
    println!("  constant {share:.3}    {:.4}", log_loss(&held, |_| share));
    println!(
        "  distance value    {:.4}",
        log_loss(&held, |s| sigmoid(b + k * s.gap))
    );
    println!("  search's value    {:.4}", log_loss(&held, |s| s.search));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_the_weights_of_a_logistic_law() {
        // Results drawn so that a gap g wins with chance sigmoid(0.2 + 0.8 g), exactly in
        // proportion: 1000 samples per gap.
        let mut samples = Vec::new();
        for g in -4..=4 {
            let p = sigmoid(0.2 + 0.8 * f64::from(g));
            let wins = (p * 1000.0).round() as usize;
            for n in 0..1000 {
                let won = f64::from(u8::from(n < wins));
                let gap = f64::from(g);
                samples.push(Sample {
                    gap,
                    won,
                    search: 0.5,
                    game: 1,
                });
            }
        }
        let (b, k) = fit(&samples);
        assert!((b - 0.2).abs() < 0.01 && (k - 0.8).abs() < 0.01, "{b} {k}");
        assert!(log_loss(&samples, |s| sigmoid(b + k * s.gap)) < log_loss(&samples, |_| 0.5));
    }
}
