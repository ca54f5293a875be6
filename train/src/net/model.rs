//! The value network in `f32` for training: the engine's shape
//! ([`twixt::knowledge::network`]), its forward pass, its gradient, and its rounding to the
//! integers that ship.

use super::samples::Sample;
use anyhow::{bail, Result};
pub use twixt::knowledge::network::layout::{BIAS, OUT, OUT_BIAS, PARAMS};
pub use twixt::knowledge::network::log_loss;
use twixt::knowledge::network::{split_bias, Network, BIAS_LIMIT, HIDDEN, LIMIT, QA, QB};
use twixt::rng::FastRng;

/// The weights, flat: input rows, hidden bias, the two output halves, output bias.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// All the parameters, in [`Model`]'s order (the order of the shipped integers).
    pub params: Vec<f32>,
}

/// What the forward pass keeps for the backward one.
pub struct Forward {
    /// Each view's hidden units before clipping.
    pub units: [[f32; HIDDEN]; 2],
    /// The chance that the mover wins.
    pub p: f32,
}

impl Model {
    /// A model with small random input weights from `seed`, hidden biases that put every unit
    /// in its linear part, and output weights of alternating sign.
    pub fn new(seed: u64) -> Model {
        let mut rng = FastRng::new(seed);
        let mut params = vec![0.0; PARAMS];
        for w in &mut params[..BIAS] {
            *w = (rng.below(20_001) as f32 / 10_000.0 - 1.0) * 0.05;
        }
        params[BIAS..OUT].fill(0.5);
        for (j, w) in params[OUT..OUT_BIAS].iter_mut().enumerate() {
            let sign = if j < HIDDEN { 1.0 } else { -1.0 };
            *w = sign * (rng.below(20_001) as f32 / 10_000.0) * 0.2;
        }
        Model { params }
    }

    /// The forward pass on one sample's views.
    pub fn forward(&self, views: [&[u16]; 2]) -> Forward {
        let mut units = [[0.0f32; HIDDEN]; 2];
        let mut z = self.params[OUT_BIAS];
        for (half, view) in views.iter().enumerate() {
            let u = &mut units[half];
            u.copy_from_slice(&self.params[BIAS..OUT]);
            for &i in *view {
                let row = &self.params[i as usize * HIDDEN..][..HIDDEN];
                u.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            let out = &self.params[OUT + half * HIDDEN..][..HIDDEN];
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

    /// Adds the gradient of the log-loss on `sample` (views `views`) to `grad`; returns the
    /// loss.
    pub fn backward(&self, views: [&[u16]; 2], won: f32, grad: &mut [f32]) -> f32 {
        let f = self.forward(views);
        let dz = f.p - won;
        grad[OUT_BIAS] += dz;
        for (half, view) in views.iter().enumerate() {
            let out = OUT + half * HIDDEN;
            let mut du = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = f.units[half][j];
                grad[out + j] += dz * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    du[j] = dz * self.params[out + j];
                }
            }
            grad[BIAS..OUT]
                .iter_mut()
                .zip(&du)
                .for_each(|(g, d)| *g += d);
            for &i in *view {
                let row = &mut grad[i as usize * HIDDEN..][..HIDDEN];
                row.iter_mut().zip(&du).for_each(|(g, d)| *g += d);
            }
        }
        log_loss(f.p, won)
    }

    /// The chance that the mover wins a sample.
    pub fn predict(&self, s: &Sample) -> f32 {
        self.forward(s.views).p
    }

    /// The first parameter that is a NaN or an infinity, with its index.
    pub fn first_non_finite(&self) -> Option<(usize, f32)> {
        self.params
            .iter()
            .copied()
            .enumerate()
            .find(|(_, w)| !w.is_finite())
    }

    /// The integers that ship: each weight scaled and rounded, clamped to 15 bits (the
    /// output bias to 28). A NaN or infinite weight is refused: it has no integer, and `as`
    /// would quietly make it 0.
    pub fn quantize(&self) -> Result<Network> {
        if let Some((at, w)) = self.first_non_finite() {
            bail!("weight {at} is {w}: a model with a weight that is not finite cannot ship");
        }
        let q = |w: f32, scale: i32, limit: i32| {
            (w * scale as f32)
                .round()
                .clamp(-(limit as f32), limit as f32) as i32
        };
        let mut ints: Vec<i32> = Vec::with_capacity(PARAMS + 1);
        ints.extend(self.params[..OUT].iter().map(|&w| q(w, QA, LIMIT)));
        ints.extend(self.params[OUT..OUT_BIAS].iter().map(|&w| q(w, QB, LIMIT)));
        ints.extend(split_bias(q(self.params[OUT_BIAS], QA * QB, BIAS_LIMIT)));
        Ok(Network::from_ints(&ints)?)
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
    /// with weight decay `l2` on the input rows.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], batch: usize, rate: f32, l2: f32) {
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
            let g = g * scale + if i < BIAS { l2 * *p } else { 0.0 };
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}
