//! `twixt-train probe`: what a value network makes of games it never trained on, such as a
//! match's results file. Two figures: its log-loss on every position of the decided games
//! (against the distance value's, by phase of the game), and where the move actually played
//! ranks among the legal moves by the network's value one ply ahead: a value that guides a
//! search must tell a position's moves apart, not only who is ahead.

use super::{export, file};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use twixt::knowledge::features::Context as Features;
use twixt::knowledge::network::{self, Network};
use twixt::knowledge::value;
use twixt::knowledge::{Policy, Scorer};
use twixt::position::last_pegs;
use twixt::search::params::Params;
use twixt::{Move, Position};

/// The options of `twixt-train probe`.
#[derive(clap::Args, Clone, Debug)]
pub struct ProbeOptions {
    /// Results files of `twixt-referee match` or `game --record` (JSON lines).
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// A model file to probe instead of the shipped network.
    #[arg(long)]
    pub model: Option<PathBuf>,
}

/// The log-loss of `p` for a game the mover won or lost.
fn log_loss(p: f32, won: bool) -> f64 {
    f64::from(network::log_loss(p, f32::from(u8::from(won))))
}

/// The share of legal pegs that `score` ranks above `played` for the mover, a peg scored the
/// same as the one played counting half (the distance value's integer gaps tie many pegs, and
/// counting none of them would flatter it).
fn rank_share(pos: &Position, played: Move, score: impl Fn(Move) -> f32) -> Option<f64> {
    let pegs: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| m != Move::Swap)
        .collect();
    let mine = pegs.contains(&played).then(|| score(played))?;
    let scores: Vec<f32> = pegs.iter().map(|&m| score(m)).collect();
    let above = scores.iter().filter(|&&v| v > mine).count();
    let tied = scores.iter().filter(|&&v| v == mine).count() - 1;
    Some((above as f64 + tied as f64 / 2.0) / pegs.len() as f64)
}

/// A move's score one ply ahead by `value` (the value of a position for the player to move):
/// the mover's chance after it, 1 where it ends the game.
fn one_ply_ahead<'a>(
    pos: &'a Position,
    value: impl Fn(&Position) -> f32 + 'a,
) -> impl Fn(Move) -> f32 + 'a {
    move |m| {
        let mut p = pos.clone();
        p.play_unchecked(m);
        match p.outcome() {
            Some(_) => 1.0,
            None => 1.0 - value(&p),
        }
    }
}

/// The median and quartiles of `shares`, sorted here, as percentages.
fn quartiles(shares: &mut [f64]) -> [f64; 3] {
    shares.sort_by(f64::total_cmp);
    [0.5, 0.25, 0.75].map(|f| 100.0 * shares[((shares.len() - 1) as f64 * f) as usize])
}

/// Runs `probe`.
pub fn run(o: &ProbeOptions) -> Result<()> {
    let net = match &o.model {
        Some(path) => file::read(path)?
            .quantize(export::ROW_BITS, export::POLICY_BITS)
            .with_context(|| path.display().to_string())?,
        None => Network::shipped().map_err(|e| anyhow::anyhow!("the shipped network: {e}"))?,
    };
    let d = Params::default();
    // By phase (plies 0-9, 10-19, 20-29, 30 on): network loss, distance loss, positions.
    let mut phases = [(0.0, 0.0, 0usize); 4];
    // The played move's rank share by the network, the distance value and the policy.
    let mut ranks = [Vec::new(), Vec::new(), Vec::new()];
    let scorer =
        Scorer::new(Policy::shipped().map_err(|e| anyhow::anyhow!("the shipped policy: {e}"))?);
    let net_value = |p: &Position| net.value(&net.accumulate(p.board()), p.to_move());
    let distance = |p: &Position| value::value(p, d.value_bias, d.value_scale);
    for path in &o.results {
        for crate::starts::Recorded { moves, winner, .. } in crate::starts::decided_games(path)? {
            let mut pos = Position::new();
            for (i, &mv) in moves.iter().enumerate() {
                let me = pos.to_move();
                let (v, dist) = (net_value(&pos), distance(&pos));
                let phase = &mut phases[(i / 10).min(3)];
                phase.0 += log_loss(v, me == winner);
                phase.1 += log_loss(dist, me == winner);
                phase.2 += 1;
                if i >= 2 {
                    let [opponent_s, own] = last_pegs(&moves[..i]);
                    let ctx = Features::new(&pos, opponent_s, own);
                    let shares = [
                        rank_share(&pos, mv, one_ply_ahead(&pos, net_value)),
                        rank_share(&pos, mv, one_ply_ahead(&pos, distance)),
                        rank_share(&pos, mv, |m| scorer.logit(&ctx, m)),
                    ];
                    for (r, share) in ranks.iter_mut().zip(shares) {
                        r.extend(share);
                    }
                }
                pos.play_unchecked(mv);
            }
        }
    }
    let all = phases
        .iter()
        .fold((0.0, 0.0, 0), |a, p| (a.0 + p.0, a.1 + p.1, a.2 + p.2));
    if all.2 == 0 || ranks[0].is_empty() {
        bail!("no decided game to probe");
    }
    println!(
        "log-loss on {} positions: network {:.4}, distance value {:.4}",
        all.2,
        all.0 / all.2 as f64,
        all.1 / all.2 as f64
    );
    for (k, p) in phases.iter().enumerate().filter(|(_, p)| p.2 > 0) {
        let plies = ["0-9", "10-19", "20-29", "30 on"][k];
        println!(
            "  plies {plies:>5}: network {:.4}, distance value {:.4} ({} positions)",
            p.0 / p.2 as f64,
            p.1 / p.2 as f64,
            p.2
        );
    }
    let count = ranks[0].len();
    let names = [
        "network one ply ahead",
        "distance value one ply ahead",
        "policy's logits",
    ];
    for (name, shares) in names.iter().zip(&mut ranks) {
        let [median, low, high] = quartiles(shares);
        println!(
            "the move played, among the legal pegs by the {name}: {median:.1}% ranked above it at the median (quartiles {low:.1}%, {high:.1}%; {count} positions)"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rank_share_counts_the_pegs_above_and_half_the_ties() {
        let pos = Position::new();
        let played: Move = "F6".parse().unwrap();
        let n = pos.legal_moves().len() as f64;
        // A score blind to the move ties every peg with the one played.
        let flat = rank_share(&pos, played, |_| 0.5).unwrap();
        assert!((flat - (n - 1.0) / 2.0 / n).abs() < 1e-12, "{flat}");
        // The opponent's chance is `on_f6` once F6 is taken, `1 - on_f6` otherwise.
        let f6 = played.peg().unwrap();
        let valued = |on_f6: f32| {
            move |p: &Position| match p.board().owner(f6) {
                Some(_) => on_f6,
                None => 1.0 - on_f6,
            }
        };
        // Lowest after the peg played: nothing above it.
        let best = rank_share(&pos, played, one_ply_ahead(&pos, valued(0.1)));
        assert_eq!(best, Some(0.0));
        // Highest after it: every other peg above it.
        let worst = rank_share(&pos, played, one_ply_ahead(&pos, valued(0.9)));
        assert_eq!(worst, Some((n - 1.0) / n));
        // A move that is not a legal peg has no rank.
        assert_eq!(rank_share(&pos, Move::Swap, |_| 0.5), None);
    }
}
