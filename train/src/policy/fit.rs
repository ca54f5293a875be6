//! Fitting the policy: a softmax over each position's candidate moves, with a linear logit
//! in the moves' features, trained to predict the search's visit shares (cross-entropy),
//! by full-batch gradient descent with Adam: deterministic, no seed needed.

use super::examples::Example;
use anyhow::{bail, Result};
use twixt::knowledge::features::FEATURES;
use twixt::knowledge::Policy;

/// How the fit runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Passes over the training set.
    pub epochs: usize,
    /// Adam's step size.
    pub rate: f32,
    /// L2 penalty on the weights, per example.
    pub l2: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epochs: 300,
            rate: 0.05,
            l2: 1e-4,
        }
    }
}

/// How well a policy predicts a set of examples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scores {
    /// Positions scored.
    pub positions: usize,
    /// Share where the policy's best move is the most visited one.
    pub top1: f64,
    /// Share where the most visited move is among the policy's five best.
    pub top5: f64,
    /// Mean cross-entropy of the visit shares under the policy, in nats.
    pub log_loss: f64,
}

/// The softmax of the logits of `ex`'s moves.
fn probabilities(policy: &Policy, ex: &Example) -> Vec<f64> {
    let logits: Vec<f64> = ex.moves.iter().map(|a| policy.logit(a) as f64).collect();
    let max = logits.iter().cloned().fold(f64::MIN, f64::max);
    let exp: Vec<f64> = logits.iter().map(|l| (l - max).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

/// Scores `policy` on `examples`.
pub fn score(policy: &Policy, examples: &[Example]) -> Scores {
    let mut s = Scores::default();
    for ex in examples {
        let p = probabilities(policy, ex);
        let best = argmax(ex.target.iter().map(|&t| t as f64));
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by(|&a, &b| p[b].total_cmp(&p[a]).then(a.cmp(&b)));
        s.top1 += (order[0] == best) as u32 as f64;
        s.top5 += order.iter().take(5).any(|&i| i == best) as u32 as f64;
        s.log_loss -= ex
            .target
            .iter()
            .zip(&p)
            .map(|(&t, &q)| t as f64 * q.max(1e-12).ln())
            .sum::<f64>();
        s.positions += 1;
    }
    let n = s.positions.max(1) as f64;
    s.top1 /= n;
    s.top5 /= n;
    s.log_loss /= n;
    s
}

fn argmax(values: impl Iterator<Item = f64>) -> usize {
    let mut best = (f64::MIN, 0);
    for (i, v) in values.enumerate() {
        if v > best.0 {
            best = (v, i);
        }
    }
    best.1
}

/// The gradient of the mean cross-entropy (plus the L2 penalty) at `policy`, and that mean
/// cross-entropy.
fn gradient(policy: &Policy, examples: &[Example], l2: f32) -> (Vec<f64>, f64) {
    let mut g = vec![0.0f64; FEATURES];
    let mut loss = 0.0;
    for ex in examples {
        let p = probabilities(policy, ex);
        for ((a, &t), &q) in ex.moves.iter().zip(&ex.target).zip(&p) {
            loss -= t as f64 * q.max(1e-12).ln();
            let d = q - t as f64;
            for (i, n) in a.iter() {
                g[i] += d * n as f64;
            }
        }
    }
    let n = examples.len().max(1) as f64;
    for (gi, &w) in g.iter_mut().zip(&policy.weights) {
        *gi = *gi / n + l2 as f64 * w as f64;
    }
    (g, loss / n)
}

/// Fits a policy to `train`, calling `progress(epoch)` after each pass. A fit whose loss or
/// weights stop being finite numbers is an error naming the epoch and the loss.
pub fn fit(
    train: &[Example],
    settings: Settings,
    mut progress: impl FnMut(usize),
) -> Result<Policy> {
    let mut policy = Policy::uniform();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = vec![0.0f64; FEATURES];
    let mut v = vec![0.0f64; FEATURES];
    for epoch in 1..=settings.epochs {
        let (g, loss) = gradient(&policy, train, settings.l2);
        let bad = policy.weights.iter().position(|w| !w.is_finite());
        if !loss.is_finite() || bad.is_some() {
            bail!(
                "epoch {epoch}: the training cross-entropy is {loss}{}: the fit diverged (a \
                 smaller --rate may hold it); no model written",
                bad.map_or(String::new(), |i| format!(
                    ", weight {i} is {}",
                    policy.weights[i]
                ))
            );
        }
        for i in 0..FEATURES {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let m_hat = m[i] / (1.0 - b1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - b2.powi(epoch as i32));
            policy.weights[i] -= (settings.rate as f64 * m_hat / (v_hat.sqrt() + eps)) as f32;
        }
        progress(epoch);
    }
    if let Some(i) = policy.weights.iter().position(|w| !w.is_finite()) {
        bail!(
            "epoch {}: weight {i} is {}: the fit diverged (a smaller --rate may hold it); no \
             model written",
            settings.epochs,
            policy.weights[i]
        );
    }
    Ok(policy)
}
