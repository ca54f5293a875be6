//! `twixt-train codec`: what shipping a value model's input rows at fewer bits costs. Each
//! scheme rounds the rows to its levels, the model is scored with the rounded rows on the
//! data's held-out games, and the characters the rows would take are counted (15 bits a
//! character, as `twixt::knowledge::encoding` packs them). The other weights (hidden bias,
//! output layer) are a hundred numbers and stay as they are.

use super::file;
use super::fit::split_games;
use super::model::{log_loss, Model};
use super::quantized;
use super::samples::Samples;
use crate::data::{self, Source};
use anyhow::Result;
use std::path::PathBuf;

/// The options of `twixt-train codec`.
#[derive(clap::Args, Clone, Debug)]
pub struct CodecOptions {
    /// The model file to round.
    pub model: PathBuf,
    /// Data files whose held-out games (every tenth) score it; `FILE:N` reads the file's
    /// first N games.
    #[arg(required = true)]
    pub data: Vec<Source>,
}

/// How a weight row is rounded and packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Signed integers of `bits` bits (levels `-(2^(bits-1) - 1)..=2^(bits-1) - 1`), one
    /// scale for the whole tensor, packed as a bit stream.
    Bits { bits: u32, per_row: bool },
    /// Pairs of integers in `-90..=90`, one pair a character (181² ≤ 2^15).
    Pairs { per_row: bool },
}

impl Scheme {
    /// Every scheme measured.
    pub const ALL: [Scheme; 6] = [
        Scheme::Bits {
            bits: 8,
            per_row: false,
        },
        Scheme::Bits {
            bits: 8,
            per_row: true,
        },
        Scheme::Pairs { per_row: false },
        Scheme::Pairs { per_row: true },
        Scheme::Bits {
            bits: 7,
            per_row: false,
        },
        Scheme::Bits {
            bits: 6,
            per_row: true,
        },
    ];

    /// The largest integer a weight becomes.
    pub fn top(self) -> i32 {
        match self {
            Scheme::Bits { bits, .. } => (1 << (bits - 1)) - 1,
            Scheme::Pairs { .. } => 90,
        }
    }

    fn per_row(self) -> bool {
        match self {
            Scheme::Bits { per_row, .. } | Scheme::Pairs { per_row } => per_row,
        }
    }

    /// Characters for `rows` rows of `width` weights: the integers, and a 15-bit scale a
    /// row where each row has its own.
    pub fn chars(self, rows: usize, width: usize) -> usize {
        let n = rows * width;
        let ints = match self {
            Scheme::Bits { bits, .. } => (n * bits as usize).div_ceil(15),
            Scheme::Pairs { .. } => n.div_ceil(2),
        };
        ints + if self.per_row() { rows } else { 1 }
    }

    /// The name a report gives it.
    pub fn name(self) -> String {
        let scale = if self.per_row() { "a row" } else { "a tensor" };
        match self {
            Scheme::Bits { bits, .. } => format!("{bits}-bit stream, one scale {scale}"),
            Scheme::Pairs { .. } => format!("base-181 pairs, one scale {scale}"),
        }
    }
}

/// `weights` rounded to `levels` steps each side of 0, with one step for all of them sized
/// so that the largest magnitude is the top level; the largest rounding error.
pub fn round_to(weights: &mut [f32], levels: i32) -> f32 {
    let max = weights.iter().fold(0.0f32, |m, w| m.max(w.abs()));
    if max == 0.0 {
        return 0.0;
    }
    let step = max / levels as f32;
    let mut worst = 0.0f32;
    for w in weights.iter_mut() {
        let q = (*w / step).round().clamp(-(levels as f32), levels as f32) * step;
        worst = worst.max((q - *w).abs());
        *w = q;
    }
    worst
}

/// `model` with its input rows rounded by `scheme`.
pub fn rounded(model: &Model, scheme: Scheme) -> Model {
    let mut out = model.clone();
    let hidden = model.layout.hidden;
    let rows = &mut out.params[..model.layout.bias()];
    if scheme.per_row() {
        for row in rows.chunks_mut(hidden) {
            round_to(row, scheme.top());
        }
    } else {
        round_to(rows, scheme.top());
    }
    out
}

/// Runs `codec`: the held-out log-loss of the model in `f32`, as the engine's 15-bit integers
/// ship it today, and with its rows rounded by each scheme, beside the characters each takes.
pub fn run(o: &CodecOptions) -> Result<()> {
    let model = file::read(&o.model)?;
    let (_, held) = split_games(data::read_complete(&o.data)?, Some(0));
    let held = Samples::of_games(&held);
    anyhow::ensure!(!held.is_empty(), "no held-out positions in the data");
    let loss = |predict: &dyn Fn(usize) -> f32| {
        (0..held.len())
            .map(|i| f64::from(log_loss(predict(i), held.won[i])))
            .sum::<f64>()
            / held.len() as f64
    };
    let (hidden, weights) = (model.layout.hidden, model.layout.bias());
    let rows = weights / hidden;
    println!(
        "{} held-out positions; {} input rows of {hidden} weights",
        held.len(),
        rows
    );
    println!(
        "{:<40} {:>9} {:>7} {:>9}",
        "rows as", "log-loss", "chars", "w/char"
    );
    let line = |name: &str, l: f64, chars: usize| {
        let density = weights as f64 / chars as f64;
        println!("{name:<40} {l:>9.5} {chars:>7} {density:>9.3}");
    };
    line(
        "f32 (the trained model)",
        loss(&|i| model.predict(&held.get(i))),
        weights * 32 / 15,
    );
    // The rows at 15 bits; the policy head, which this does not score, at the default.
    let shipped = model.quantize(15, super::export::POLICY_BITS)?;
    line(
        "15-bit integers (39e8738 shipped)",
        loss(&|i| quantized::value(&shipped, &held.get(i))),
        weights,
    );
    for scheme in Scheme::ALL {
        let m = rounded(&model, scheme);
        line(
            &scheme.name(),
            loss(&|i| m.predict(&held.get(i))),
            scheme.chars(rows, hidden),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_keeps_the_largest_weight_and_errs_by_at_most_half_a_step() {
        let mut w = vec![0.7, -0.35, 0.01, 0.0, -0.7001];
        let worst = round_to(&mut w, 7);
        let step = 0.7001 / 7.0;
        assert!(worst <= step / 2.0 + 1e-6, "{worst}");
        assert!((w[4] + 0.7001).abs() < 1e-6);
        for v in &w {
            let k = v / step;
            assert!((k - k.round()).abs() < 1e-4, "{v} is not on the grid");
        }
    }

    #[test]
    fn the_schemes_count_their_characters() {
        let pairs = Scheme::Pairs { per_row: false };
        assert_eq!(pairs.chars(952, 32), 952 * 16 + 1);
        let bits = Scheme::Bits {
            bits: 8,
            per_row: true,
        };
        assert_eq!(bits.chars(952, 32), (952 * 32 * 8usize).div_ceil(15) + 952);
        assert_eq!(pairs.top(), 90);
    }
}
