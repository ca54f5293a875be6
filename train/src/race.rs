//! `twixt-train race`: fits the distance race's correction of the network's value
//! ([`twixt::knowledge::race`]) to self-play results, scores it on held-out games, and writes
//! the engine module that ships it.
//!
//! The correction is a logistic regression over the network's log-odds and three one-hot
//! tables (the mover's distance, the opponent's, their gap), so it is fitted by Newton's
//! method with a small ridge that keeps the entries no sample reaches at zero. It must be
//! fitted on games the network never saw: on its own training games the network's log-odds
//! are too sure, and the tables would learn too little.

use crate::data::{self, Game};
use crate::fitcmd::hold_out;
use crate::net::{export, file};
use crate::value::sigmoid;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use twixt::knowledge::network::{self, Network};
use twixt::knowledge::race::{entries, Race, GAP, LAST};
use twixt::knowledge::value::distance;
use twixt::search::tactics;
use twixt::Position;

/// Where the engine keeps the shipped correction, under the workspace root.
pub const MODULE: &str = "src/knowledge/race_weights.rs";

/// The correction's weights in one vector: scale, bias, then the three tables.
const OWN: usize = 2;
const OPP: usize = OWN + LAST + 1;
const GAPS: usize = OPP + LAST + 1;
/// How many weights the correction has.
pub const WEIGHTS: usize = GAPS + 2 * GAP as usize + 1;

/// The ridge on the tables' entries, per sample.
const RIDGE: f64 = 1e-4;

/// One position: the network's log-odds for its mover, the two distances, the result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The network's log-odds that the mover wins.
    pub logit: f64,
    /// The mover's distance to its borders.
    pub own: u8,
    /// The opponent's.
    pub opp: u8,
    /// 1 if the mover won, 0 if it lost.
    pub won: f64,
    /// The game it is from.
    pub game: u32,
}

impl Sample {
    /// The indices of the weights this sample reads besides the scale, and its log-odds input.
    fn active(&self) -> [usize; 4] {
        let (m, o, g) = entries(self.own, self.opp);
        [1, OWN + m, OPP + o, GAPS + g]
    }
}

/// The samples of one game: every position after its random opening where the mover cannot
/// win at once (the search values those as won without asking the network), in games that
/// were not drawn.
pub fn samples(net: &Network, game: &Game) -> Vec<Sample> {
    let Some(winner) = game.winner else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut pos = Position::new();
    for (ply, step) in game.plies.iter().enumerate() {
        if ply >= usize::from(game.opening) && !tactics::can_win_now(&pos) {
            let me = pos.to_move();
            out.push(Sample {
                logit: f64::from(net.logit(&net.accumulate(pos.board()), me)),
                own: distance(pos.board(), me),
                opp: distance(pos.board(), me.other()),
                won: f64::from(u8::from(winner == me)),
                game: game.index,
            });
        }
        pos.play_unchecked(step.mv);
    }
    out
}

/// The correction's log-odds for `s` under the weights `w`.
fn logit(w: &[f64; WEIGHTS], s: &Sample) -> f64 {
    w[0] * s.logit + s.active().iter().map(|&i| w[i]).sum::<f64>()
}

/// The weights as the engine holds them.
pub fn race(w: &[f64; WEIGHTS]) -> Race {
    let mut r = Race {
        scale: w[0] as f32,
        bias: w[1] as f32,
        own: [0.0; LAST + 1],
        opp: [0.0; LAST + 1],
        gap: [0.0; 2 * GAP as usize + 1],
    };
    let copy = |out: &mut [f32], from: usize| {
        for (k, o) in out.iter_mut().enumerate() {
            *o = w[from + k] as f32;
        }
    };
    copy(&mut r.own, OWN);
    copy(&mut r.opp, OPP);
    copy(&mut r.gap, GAPS);
    r
}

/// Newton's method from the network as it is (scale 1, everything else 0): the
/// log-likelihood less the ridge is concave, so a few steps converge.
pub fn fit(samples: &[Sample]) -> [f64; WEIGHTS] {
    let mut w = [0.0; WEIGHTS];
    w[0] = 1.0;
    let ridge = RIDGE * samples.len() as f64;
    for _ in 0..25 {
        let mut grad = [0.0; WEIGHTS];
        let mut hess = [[0.0; WEIGHTS]; WEIGHTS];
        for (k, row) in hess.iter_mut().enumerate().skip(2) {
            row[k] = ridge;
            grad[k] = ridge * w[k];
        }
        hess[0][0] = 1e-9;
        hess[1][1] = 1e-9;
        for s in samples {
            let p = sigmoid(logit(&w, s));
            let (e, h) = (p - s.won, p * (1.0 - p));
            let x = s.active().map(|i| (i, 1.0));
            let x = [(0, s.logit), x[0], x[1], x[2], x[3]];
            for &(i, xi) in &x {
                grad[i] += e * xi;
                for &(j, xj) in &x {
                    hess[i][j] += h * xi * xj;
                }
            }
        }
        let step = solve(hess, grad);
        let size: f64 = step.iter().map(|d| d.abs()).sum();
        for (wi, d) in w.iter_mut().zip(step) {
            *wi -= d;
        }
        if size < 1e-9 {
            break;
        }
    }
    w
}

/// `x` with `a · x = b`, `a` symmetric positive definite (Cholesky).
fn solve(mut a: [[f64; WEIGHTS]; WEIGHTS], mut b: [f64; WEIGHTS]) -> [f64; WEIGHTS] {
    for j in 0..WEIGHTS {
        let d = (a[j][j] - (0..j).map(|k| a[j][k] * a[j][k]).sum::<f64>()).sqrt();
        a[j][j] = d;
        for i in j + 1..WEIGHTS {
            a[i][j] = (a[i][j] - (0..j).map(|k| a[i][k] * a[j][k]).sum::<f64>()) / d;
        }
    }
    for i in 0..WEIGHTS {
        b[i] = (b[i] - (0..i).map(|k| a[i][k] * b[k]).sum::<f64>()) / a[i][i];
    }
    for i in (0..WEIGHTS).rev() {
        b[i] = (b[i] - (i + 1..WEIGHTS).map(|k| a[k][i] * b[k]).sum::<f64>()) / a[i][i];
    }
    b
}

/// The mean log-loss of predictions `p` of the samples' results.
pub fn log_loss(samples: &[Sample], p: impl Fn(&Sample) -> f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| f64::from(network::log_loss(p(s) as f32, s.won as f32)))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The text of the generated module, fitted on `source` (named in its header).
pub fn module(r: &Race, source: &str) -> String {
    let list = |v: &[f32]| {
        let items: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
        items.join(", ")
    };
    format!(
        "//! The shipped correction of the network's value by the distance race\n\
         //! ([`super::race`]). Generated by `twixt-train race {source}`: do not edit.\n\
         \n\
         use super::race::Race;\n\
         \n\
         /// The correction.\n\
         pub const RACE: Race = Race {{\n    \
         scale: {:?},\n    bias: {:?},\n    own: [{}],\n    opp: [{}],\n    gap: [{}],\n}};\n",
        r.scale,
        r.bias,
        list(&r.own),
        list(&r.opp),
        list(&r.gap)
    )
}

/// The options of `twixt-train race`.
#[derive(clap::Args, Clone, Debug)]
pub struct RaceOptions {
    /// Data files written by `selfplay`, of games the network never saw.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// A model file whose network to correct instead of the shipped one.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Bits of the model's input rows, as it would ship (with `--model`).
    #[arg(long, default_value_t = export::ROW_BITS, value_parser = clap::value_parser!(u32).range(2..=15))]
    pub row_bits: u32,
    /// Write the engine module here (`src/knowledge/race_weights.rs` ships it).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

fn network(o: &RaceOptions) -> Result<Network> {
    match &o.model {
        Some(path) => file::read(path)?
            .quantize(o.row_bits, export::POLICY_BITS)
            .with_context(|| path.display().to_string()),
        None => Network::shipped().map_err(|e| anyhow::anyhow!("the shipped network: {e}")),
    }
}

/// Runs `race`: prints the fit's held-out scores and writes the module if asked.
pub fn run(o: &RaceOptions) -> Result<()> {
    let net = network(o)?;
    let games = data::read_complete(&o.data)?;
    let all: Vec<Sample> = games.iter().flat_map(|g| samples(&net, g)).collect();
    let (held, train) = hold_out(all, |s| s.game)?;
    let w = fit(&train);
    if w.iter().any(|x| !x.is_finite()) {
        bail!("the fit diverged: {w:?}");
    }
    let fitted = race(&w);
    println!("held-out log-loss of the mover's result:");
    let net_alone = log_loss(&held, |s| sigmoid(s.logit));
    println!("  network           {net_alone:.4}");
    let corrected = log_loss(&held, |s| sigmoid(logit(&w, s)));
    println!("  with the race     {corrected:.4}");
    println!("{fitted:?}");
    if let Some(out) = &o.out {
        let names: Vec<String> = o.data.iter().map(|p| name(p)).collect();
        write(out, &module(&fitted, &names.join(" ")))?;
    }
    Ok(())
}

fn write(out: &Path, text: &str) -> Result<()> {
    std::fs::write(out, text).with_context(|| out.display().to_string())?;
    println!(
        "{}: {} UTF-16 units",
        out.display(),
        text.encode_utf16().count()
    );
    Ok(())
}

/// A data file's name without its folder, for the module's header.
fn name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results follow a known correction exactly in proportion: 1,000 a cell
    /// of network log-odds and distances.
    fn law(truth: &[f64; WEIGHTS]) -> Vec<Sample> {
        let mut out = Vec::new();
        for z in [-1.0, 0.0, 1.5] {
            for (own, opp) in [(2, 5), (5, 2), (4, 4), (3, 7), (24, 3), (6, 6)] {
                let s = |won| Sample {
                    logit: z,
                    own,
                    opp,
                    won,
                    game: 1,
                };
                let p = sigmoid(logit(truth, &s(0.0)));
                let wins = (p * 1000.0).round() as usize;
                out.extend((0..1000).map(|n| s(f64::from(u8::from(n < wins)))));
            }
        }
        out
    }

    #[test]
    fn newton_recovers_the_predictions_of_a_known_correction() {
        let mut truth = [0.0; WEIGHTS];
        truth[0] = 0.8;
        truth[1] = 0.2;
        truth[OWN + 2] = 1.0;
        truth[OPP + 2] = -1.2;
        truth[OWN + LAST] = -1.5;
        truth[GAPS + GAP as usize + 3] = 0.4;
        let samples = law(&truth);
        let w = fit(&samples);
        for s in &samples {
            let (p, q) = (sigmoid(logit(&w, s)), sigmoid(logit(&truth, s)));
            assert!((p - q).abs() < 0.02, "{s:?}: fitted {p}, true {q}");
        }
        assert!(
            log_loss(&samples, |s| sigmoid(logit(&w, s)))
                < log_loss(&samples, |s| sigmoid(s.logit))
        );
        // No sample has the mover 9 pegs away: the ridge keeps its entry at zero.
        assert_eq!(w[OWN + 9], 0.0);
    }

    #[test]
    fn the_module_holds_the_weights_the_engine_reads() {
        let mut w = [0.0; WEIGHTS];
        w[0] = 0.5;
        w[OPP + 1] = -2.25;
        w[GAPS] = 1.5;
        let r = race(&w);
        assert_eq!((r.scale, r.opp[1], r.gap[0]), (0.5, -2.25, 1.5));
        let text = module(&r, "a.bin");
        assert!(
            text.contains("scale: 0.5,") && text.contains("gap: [1.5, 0.0,"),
            "{text}"
        );
        assert!(text.contains("`twixt-train race a.bin`"), "{text}");
    }
}
