//! How well a network does on held-out samples: the value's log-loss, and the policy's
//! top-1, top-5 and cross-entropy against the full searches' visit shares, beside the
//! feature softmax policy on the very same positions.

use super::model::{log_loss, softmax, Model};
use super::quantized;
use super::samples::Samples;
use crate::data::Game;
use crate::policy::{examples, fit};
use anyhow::{anyhow, Result};
use twixt::knowledge::network::Network;
use twixt::knowledge::Policy;

/// The mean log-loss of `predict` on the samples `which` of `set`.
pub fn mean_loss(set: &Samples, which: &[usize], predict: impl Fn(usize) -> f32) -> f64 {
    let sum: f64 = which
        .iter()
        .map(|&i| f64::from(log_loss(predict(i), set.won[i])))
        .sum();
    sum / which.len().max(1) as f64
}

/// A policy's agreement with the searches: the share of positions where its likeliest move
/// is the most visited, where the most visited is among its five likeliest, and its mean
/// cross-entropy against the visit shares.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ranking {
    /// Positions scored.
    pub positions: usize,
    /// Top-1 agreement.
    pub top1: f64,
    /// Top-5 agreement.
    pub top5: f64,
    /// Mean cross-entropy.
    pub cross_entropy: f64,
}

impl Ranking {
    /// Adds one position: the search's `shares` and the policy's `logits` of the same moves.
    pub fn add(&mut self, shares: &[f32], logits: &[f32]) {
        let q = softmax(logits);
        let best = (0..shares.len()).fold(0, |b, i| if shares[i] > shares[b] { i } else { b });
        let mut order: Vec<usize> = (0..q.len()).collect();
        order.sort_by(|&a, &b| q[b].total_cmp(&q[a]).then(a.cmp(&b)));
        self.top1 += f64::from(u8::from(order[0] == best));
        self.top5 += f64::from(u8::from(order.iter().take(5).any(|&i| i == best)));
        self.cross_entropy -= shares
            .iter()
            .zip(&q)
            .map(|(&t, &q)| f64::from(t) * f64::from(q.max(1e-12)).ln())
            .sum::<f64>();
        self.positions += 1;
    }

    /// The means.
    pub fn mean(mut self) -> Ranking {
        let n = self.positions.max(1) as f64;
        self.top1 /= n;
        self.top5 /= n;
        self.cross_entropy /= n;
        self
    }

    /// One line of a report.
    pub fn line(&self, name: &str) -> String {
        format!(
            "{name:<28} top-1 {:5.1}%  top-5 {:5.1}%  cross-entropy {:.4}  ({} positions)",
            100.0 * self.top1,
            100.0 * self.top5,
            self.cross_entropy,
            self.positions
        )
    }
}

/// The network's policy on every held-out sample with a full search.
pub fn network_policy(model: &Model, set: &Samples) -> Ranking {
    let mut r = Ranking::default();
    for i in 0..set.len() {
        let s = set.get(i);
        if let Some(p) = s.policy {
            let logits = model.target_logits(&model.forward(s.views), &s.surroundings(), &p);
            r.add(p.targets, &logits);
        }
    }
    r.mean()
}

/// The policy of the shipped integers `net` (with the samples' base logits, where they
/// carry them) on every held-out sample with a full search.
pub fn shipped_policy(net: &Network, set: &Samples) -> Ranking {
    let mut r = Ranking::default();
    for i in 0..set.len() {
        let s = set.get(i);
        if let Some(p) = s.policy {
            if let Some(mut logits) = quantized::logits(net, &s, p.holes) {
                logits.iter_mut().zip(p.base).for_each(|(l, b)| *l += b);
                r.add(p.targets, &logits);
            }
        }
    }
    r.mean()
}

/// The shipped feature policy on the full searches of the decided games of `games` (the
/// positions [`network_policy`] scores).
pub fn features_policy(games: &[Game]) -> Result<fit::Scores> {
    let decided: Vec<&Game> = games.iter().filter(|g| g.winner.is_some()).collect();
    let examples: Vec<_> = decided.into_iter().flat_map(examples::of_game).collect();
    let policy = Policy::shipped().map_err(|e| anyhow!("the shipped policy: {e}"))?;
    Ok(fit::score(&policy, &examples))
}
