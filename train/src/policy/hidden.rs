//! Fitting the policy's hidden layer (`twixt::knowledge::hidden`) beside its linear logit,
//! like the linear policy (a softmax over each position's candidates, cross-entropy against
//! the search's visit shares), from a linear policy, by minibatch Adam over shuffled
//! positions with a seed. The fit runs in floats; the engine's layer is their rounding to
//! integers ([`rounded`]).

use super::examples::Example;
use anyhow::{bail, Result};
use twixt::knowledge::features::{Active, FEATURES};
use twixt::knowledge::hidden::{Hidden, HIDDEN};
use twixt::knowledge::Policy;
use twixt::rng::FastRng;

/// Where each part of the fit's weights starts: the linear weights (at 0), the rows, the
/// biases and the outputs.
const ROWS: usize = FEATURES;
const BIAS: usize = ROWS + FEATURES * HIDDEN;
const OUT: usize = BIAS + HIDDEN;
/// How many weights the fit moves.
const WEIGHTS: usize = OUT + HIDDEN;

/// The fit's weights: `base`'s linear ones, rows within ±0.1 and biases within 0.25 ± 0.1,
/// output weights zero (the layer says nothing yet). Wider rows, which leave more sums
/// outside the clamp's [0, 1] at once, fitted worse held out (3.1784 nats against 3.1747 on
/// gen2-gen4's 69,280 held-out positions). A `base` with a hidden layer is gone on from: its
/// layer's integers over `2^(bits − 2)` are the rows, biases and outputs (a warm start).
fn start(base: &Policy, seed: u64) -> Vec<f32> {
    if let Some(layer) = &base.hidden {
        let one = f32::from(layer.one());
        let rest = layer.ints().into_iter().map(|i| i as f32 / one);
        return base.weights.iter().copied().chain(rest).collect();
    }
    let mut rng = FastRng::new(seed);
    let mut w = vec![0.0; WEIGHTS];
    w[..FEATURES].copy_from_slice(&base.weights);
    for (k, x) in w[ROWS..OUT].iter_mut().enumerate() {
        let bias = if k >= BIAS - ROWS { 0.25 } else { 0.0 };
        *x = bias + (rng.below(2001) as f32 - 1000.0) / 10_000.0;
    }
    w
}

/// The policy of the fit's weights `w`, the hidden layer's rounded to `bits`-bit integers
/// over `2^(bits − 2)`.
pub fn rounded(w: &[f32], bits: u32) -> Policy {
    let one = (1 << (bits - 2)) as f32;
    let top = (1 << (bits - 1)) - 1;
    let ints: Vec<i32> = w[ROWS..]
        .iter()
        .map(|x| ((x * one).round() as i32).clamp(-top, top))
        .collect();
    Policy {
        weights: w[..FEATURES].to_vec(),
        hidden: Some(Hidden::from_ints(bits, &ints)),
    }
}

/// The logit of a move with features `a` under the fit's weights, leaving the hidden units'
/// sums in `sums`.
fn forward(w: &[f32], a: &Active, sums: &mut [f32; HIDDEN]) -> f32 {
    sums.copy_from_slice(&w[BIAS..OUT]);
    let mut logit = 0.0;
    for (i, n) in a.iter() {
        logit += w[i] * n;
        let row = &w[ROWS + i * HIDDEN..ROWS + (i + 1) * HIDDEN];
        for (s, r) in sums.iter_mut().zip(row) {
            *s += r * n;
        }
    }
    let out = &w[OUT..];
    logit
        + sums
            .iter()
            .zip(out)
            .map(|(s, o)| s.clamp(0.0, 1.0) * o)
            .sum::<f32>()
}

/// How the fit runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Passes over the training set.
    pub epochs: usize,
    /// Adam's step size.
    pub rate: f32,
    /// Positions a step.
    pub batch: usize,
    /// L2 penalty on the weights.
    pub l2: f32,
    /// Threads that share each batch.
    pub threads: usize,
    /// Seeds the first rows and the order of the positions.
    pub seed: u64,
}

/// Adds the cross-entropy gradient of `ex` at `w` to `g`; returns the example's
/// cross-entropy.
fn add_gradient(w: &[f32], ex: &Example, g: &mut [f32]) -> f64 {
    let mut sums = vec![[0.0f32; HIDDEN]; ex.moves.len()];
    let mut p: Vec<f32> = ex
        .moves
        .iter()
        .zip(sums.iter_mut())
        .map(|(a, s)| forward(w, a, s))
        .collect();
    let max = p.iter().cloned().fold(f32::MIN, f32::max);
    let mut total = 0.0;
    for l in p.iter_mut() {
        *l = (*l - max).exp();
        total += *l;
    }
    let mut loss = 0.0;
    for ((a, &t), (q, s)) in ex.moves.iter().zip(&ex.target).zip(p.iter().zip(&sums)) {
        let q = q / total;
        loss -= t as f64 * (q as f64).max(1e-12).ln();
        let d = q - t;
        let mut dsum = [0.0f32; HIDDEN];
        for j in 0..HIDDEN {
            g[OUT + j] += d * s[j].clamp(0.0, 1.0);
            if s[j] > 0.0 && s[j] < 1.0 {
                dsum[j] = d * w[OUT + j];
                g[BIAS + j] += dsum[j];
            }
        }
        for (i, n) in a.iter() {
            g[i] += d * n;
            let row = &mut g[ROWS + i * HIDDEN..ROWS + (i + 1) * HIDDEN];
            for (r, ds) in row.iter_mut().zip(&dsum) {
                *r += ds * n;
            }
        }
    }
    loss
}

/// Fits a hidden layer beside `base`'s logits to `train` (or goes on with `base`'s own layer,
/// where it has one), calling `progress(epoch, loss,
/// weights)` after each pass, and returns the fit's weights (for [`rounded`]); an error when
/// the loss stops being a finite number.
pub fn fit(
    base: &Policy,
    train: &[Example],
    settings: Settings,
    mut progress: impl FnMut(usize, f64, &[f32]),
) -> Result<Vec<f32>> {
    let mut w = start(base, settings.seed);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let (mut m, mut v) = (vec![0.0f32; WEIGHTS], vec![0.0f32; WEIGHTS]);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = FastRng::new(settings.seed ^ 0x5eed);
    let mut step = 0i32;
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let mut epoch_loss = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            let (g, loss) = batch_gradient(&w, train, batch, settings.threads);
            if !loss.is_finite() {
                bail!(
                    "epoch {epoch}: the training cross-entropy is {loss}: the fit diverged (a \
                     smaller --rate may hold it); no model written"
                );
            }
            epoch_loss += loss;
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for k in 0..WEIGHTS {
                let gk = g[k] * scale + settings.l2 * w[k];
                m[k] = b1 * m[k] + (1.0 - b1) * gk;
                v[k] = b2 * v[k] + (1.0 - b2) * gk * gk;
                w[k] -= settings.rate * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
            }
        }
        progress(epoch, epoch_loss / train.len().max(1) as f64, &w);
    }
    Ok(w)
}

/// Positions whose gradient is summed apart: a batch is summed part by part in this order
/// whatever the threads, so that the fit does not depend on them.
const PART: usize = 16;

/// A part's summed gradient and cross-entropy.
type PartSum = (Vec<f32>, f64);

/// The summed gradient and cross-entropy of the examples `batch` indexes, over `threads`.
fn batch_gradient(
    w: &[f32],
    train: &[Example],
    batch: &[usize],
    threads: usize,
) -> (Vec<f32>, f64) {
    let parts: Vec<&[usize]> = batch.chunks(PART).collect();
    let threads = threads.clamp(1, parts.len().max(1));
    let mut sums: Vec<PartSum> = vec![(Vec::new(), 0.0); parts.len()];
    std::thread::scope(|scope| {
        let mut slots: Vec<Vec<(usize, &mut PartSum)>> = (0..threads).map(|_| Vec::new()).collect();
        for (k, slot) in sums.iter_mut().enumerate() {
            slots[k % threads].push((k, slot));
        }
        for mine in slots {
            let parts = &parts;
            scope.spawn(move || {
                for (k, slot) in mine {
                    let mut g = vec![0.0f32; WEIGHTS];
                    let loss = parts[k]
                        .iter()
                        .map(|&i| add_gradient(w, &train[i], &mut g))
                        .sum();
                    *slot = (g, loss);
                }
            });
        }
    });
    let mut total = (vec![0.0f32; WEIGHTS], 0.0);
    for (g, loss) in sums {
        for (t, x) in total.0.iter_mut().zip(&g) {
            *t += x;
        }
        total.1 += loss;
    }
    total
}
