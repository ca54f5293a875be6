//! The network in `f32` for training: the engine's shape ([`twixt::knowledge::network`], its
//! parameters in [`Layout`]'s order), its forward pass and its gradient for both heads (its
//! rounding to the integers that ship is [`super::integers`]).

use super::samples::{PolicyTarget, Sample, Surroundings};
use twixt::knowledge::network::local;
use twixt::knowledge::network::{hole_cell, MAX_HIDDEN};
pub use twixt::knowledge::network::{log_loss, Layout};
use twixt::rng::FastRng;

/// A network's weights, flat in [`Layout`]'s order.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Where each part of `params` is.
    pub layout: Layout,
    /// All the parameters.
    pub params: Vec<f32>,
}

/// What the forward pass keeps for the backward one.
pub struct Forward {
    /// Each view's hidden units before clipping (the mover's, then the opponent's).
    pub units: [[f32; MAX_HIDDEN]; 2],
    /// The chance that the mover wins.
    pub p: f32,
}

/// What one sample cost: the value's log-loss, and the policy's cross-entropy against the
/// search's visit shares (0 for a sample without them).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Loss {
    /// The value's log-loss.
    pub value: f32,
    /// The policy's cross-entropy.
    pub policy: f32,
}

/// The softmax of `logits`.
pub fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().fold(f32::MIN, |m, &l| m.max(l));
    let exp: Vec<f32> = logits.iter().map(|&l| (l - max).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

impl Model {
    /// A model of `layout` with small random input and policy weights from `seed`, hidden
    /// biases that put every unit in its linear part, and value outputs of alternating sign.
    pub fn new(seed: u64, layout: Layout) -> Model {
        let mut rng = FastRng::new(seed);
        let mut unit = || rng.below(20_001) as f32 / 10_000.0;
        let mut params = vec![0.0; layout.params()];
        let h = layout.hidden;
        params[..layout.bias()]
            .iter_mut()
            .for_each(|w| *w = (unit() - 1.0) * 0.05);
        params[layout.bias()..layout.out()].fill(0.5);
        for (j, w) in params[layout.out()..layout.out_bias()]
            .iter_mut()
            .enumerate()
        {
            *w = if j < h { 1.0 } else { -1.0 } * unit() * 0.2;
        }
        if layout.policy {
            let (from, to) = (layout.policy(), layout.policy_bias());
            params[from..to]
                .iter_mut()
                .for_each(|w| *w = (unit() - 1.0) * 0.05);
        }
        Model { layout, params }
    }

    /// This model with a fresh policy head (weights drawn from `seed` as [`Model::new`]
    /// draws them), its value's weights kept; a model with a head is returned as it is.
    pub fn with_policy_head(self, seed: u64) -> Model {
        if self.layout.policy {
            return self;
        }
        let layout = Layout {
            policy: true,
            ..self.layout
        };
        let mut params = Model::new(seed, layout).params;
        params[..self.params.len()].copy_from_slice(&self.params);
        Model { layout, params }
    }

    /// The first parameter that is a NaN or an infinity, with its index.
    pub fn first_non_finite(&self) -> Option<(usize, f32)> {
        self.params
            .iter()
            .copied()
            .enumerate()
            .find(|(_, w)| !w.is_finite())
    }

    /// The forward pass of the value on one sample's views.
    pub fn forward(&self, views: [&[u16]; 2]) -> Forward {
        let (l, h) = (self.layout, self.layout.hidden);
        let mut units = [[0.0f32; MAX_HIDDEN]; 2];
        let mut z = self.params[l.out_bias()];
        for (half, view) in views.iter().enumerate() {
            let u = &mut units[half][..h];
            u.copy_from_slice(&self.params[l.bias()..l.out()]);
            for &i in *view {
                let row = &self.params[i as usize * h..][..h];
                u.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            let out = &self.params[l.out() + half * h..][..h];
            z += u
                .iter()
                .zip(out)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        Forward {
            units,
            p: 1.0 / (1.0 + (-z).exp()),
        }
    }

    /// The policy's logits of `holes` from the units of a forward pass, the cells around
    /// with its surroundings ([`Sample::surroundings`]).
    pub fn logits(&self, f: &Forward, around: &Surroundings, holes: &[u16]) -> Vec<f32> {
        let (l, h) = (self.layout, self.layout.hidden);
        holes
            .iter()
            .map(|&k| {
                let w = &self.params[l.policy() + k as usize * 2 * h..][..2 * h];
                let mut z = self.params[l.policy_bias() + k as usize];
                for half in 0..2 {
                    let u = &f.units[half][..h];
                    let wh = &w[half * h..][..h];
                    z += u
                        .iter()
                        .zip(wh)
                        .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                        .sum::<f32>();
                }
                let v = hole_cell(k as usize);
                local::each(
                    v,
                    |w| around.holds(v, w),
                    |i| z += self.params[l.local() + i],
                );
                z
            })
            .collect()
    }

    /// The logits of a search's moves `p` that its visit shares are learned from: the head's,
    /// plus the base policy's where the samples carry them.
    pub fn target_logits(&self, f: &Forward, around: &Surroundings, p: &PolicyTarget) -> Vec<f32> {
        let mut logits = self.logits(f, around, p.holes);
        logits.iter_mut().zip(p.base).for_each(|(l, b)| *l += b);
        logits
    }

    /// Adds the gradient of the sample's loss to `grad` (the policy's cross-entropy weighted
    /// by `policy_weight`); returns the losses.
    pub fn backward(&self, s: &Sample, policy_weight: f32, grad: &mut [f32]) -> Loss {
        let (l, h) = (self.layout, self.layout.hidden);
        let f = self.forward(s.views);
        let dz = f.p - s.won;
        grad[l.out_bias()] += dz;
        // The loss's slope at each clipped unit, the mover's then the opponent's.
        let mut dc = [[0.0f32; MAX_HIDDEN]; 2];
        for (half, d) in dc.iter_mut().enumerate() {
            let out = l.out() + half * h;
            for j in 0..h {
                grad[out + j] += dz * f.units[half][j].clamp(0.0, 1.0);
                d[j] = dz * self.params[out + j];
            }
        }
        let mut loss = Loss {
            value: log_loss(f.p, s.won),
            policy: 0.0,
        };
        if let (Some(p), true) = (&s.policy, l.policy) {
            let around = s.surroundings();
            let q = softmax(&self.target_logits(&f, &around, p));
            for ((&k, &t), &q) in p.holes.iter().zip(p.targets).zip(&q) {
                loss.policy -= t * q.max(1e-12).ln();
                let d = policy_weight * (q - t);
                let w = l.policy() + k as usize * 2 * h;
                grad[l.policy_bias() + k as usize] += d;
                let v = hole_cell(k as usize);
                local::each(v, |w| around.holds(v, w), |i| grad[l.local() + i] += d);
                for half in 0..2 {
                    for j in 0..h {
                        grad[w + half * h + j] += d * f.units[half][j].clamp(0.0, 1.0);
                        dc[half][j] += d * self.params[w + half * h + j];
                    }
                }
            }
        }
        for (half, view) in s.views.iter().enumerate() {
            let mut du = [0.0f32; MAX_HIDDEN];
            for j in 0..h {
                let a = f.units[half][j];
                if a > 0.0 && a < 1.0 {
                    du[j] = dc[half][j];
                }
            }
            let du = &du[..h];
            grad[l.bias()..l.out()]
                .iter_mut()
                .zip(du)
                .for_each(|(g, d)| *g += d);
            for &i in *view {
                let row = &mut grad[i as usize * h..][..h];
                row.iter_mut().zip(du).for_each(|(g, d)| *g += d);
            }
        }
        loss
    }

    /// The chance that the mover of a sample wins.
    pub fn predict(&self, s: &Sample) -> f32 {
        self.forward(s.views).p
    }
}

/// Adam's state for one model's parameters.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    /// Fresh state for `n` parameters.
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step of size `rate` along the mean gradient `grad` (summed over `batch` samples),
    /// with weight decay `l2` on the parameters before `decayed` (the input rows).
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        batch: usize,
        rate: f32,
        (l2, decayed): (f32, usize),
    ) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        let scale = 1.0 / batch as f32;
        for (i, ((p, &g), (m, v))) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
            .enumerate()
        {
            let g = g * scale + if i < decayed { l2 * *p } else { 0.0 };
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}
