//! SPSA as OpenBench and fishtest run it: each iteration moves every parameter by `±c_k` at
//! random, plays the two versions against each other, and steps `θ` towards the one that won,
//! by `a_k / c_k` per game won net.
//!
//! The gains are stated by their end values, per parameter: with `N` iterations and
//! `A = a_ratio · N`,
//! - `c_k = c_end · N^γ / (k+1)^γ`, so the last perturbation is `c_end`;
//! - `a_k = r_end · c_end² · (A+N)^α / (A+k+1)^α`, so the last `a_k / c_k²` is `r_end`;
//! - `θ ← clamp(θ + a_k / c_k · (wins − losses of θ+) · Δ)`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The method's settings besides the parameters.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    /// Iterations in the run (`N`).
    pub iterations: usize,
    /// `A` as a share of `N` (OpenBench: 0.1).
    pub a_ratio: f64,
    /// The decay of `a_k` (0.602).
    pub alpha: f64,
    /// The decay of `c_k` (0.101).
    pub gamma: f64,
    /// The last `a_k / c_k²`, the same for every parameter (OpenBench: 0.002).
    pub r_end: f64,
}

/// One tuned parameter: its range, whether it takes whole numbers, its last perturbation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Axis {
    /// The name `--set` takes.
    pub name: String,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed.
    pub max: f64,
    /// Whether the bot takes only whole numbers.
    pub integer: bool,
    /// The perturbation of the last iteration (`c_end`).
    pub c_end: f64,
}

impl Axis {
    fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.min, self.max)
    }
}

/// `c_k` and `a_k` of `axis` at iteration `k` (from 0).
pub fn gains(s: &Schedule, axis: &Axis, k: usize) -> (f64, f64) {
    let n = s.iterations as f64;
    let big_a = s.a_ratio * n;
    let t = k as f64 + 1.0;
    let c = axis.c_end * n.powf(s.gamma) / t.powf(s.gamma);
    let a = s.r_end * axis.c_end.powi(2) * (big_a + n).powf(s.alpha) / (big_a + t).powf(s.alpha);
    (c, a)
}

/// What iteration `k` plays: the signs `Δ` and the two versions `θ+` and `θ−`.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// `+1` or `-1` per parameter.
    pub delta: Vec<f64>,
    /// `θ + c_k Δ`, clamped (and rounded at random for whole-number parameters).
    pub plus: Vec<f64>,
    /// `θ − c_k Δ`, likewise.
    pub minus: Vec<f64>,
}

/// The probe of iteration `k` around `theta`, drawn from `seed` and `k` alone, so that a
/// resumed run draws what the first would have. A whole-number parameter is rounded down
/// after adding one uniform draw to both versions (OpenBench's random rounding: on average
/// the versions are `θ ± c_k`).
pub fn probe(s: &Schedule, axes: &[Axis], theta: &[f64], seed: u64, k: usize) -> Probe {
    let mut rng = StdRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut p = Probe {
        delta: Vec::new(),
        plus: Vec::new(),
        minus: Vec::new(),
    };
    for (axis, &t) in axes.iter().zip(theta) {
        let d = if rng.gen::<bool>() { 1.0 } else { -1.0 };
        let (c, _) = gains(s, axis, k);
        let (mut hi, mut lo) = (axis.clamp(t + c * d), axis.clamp(t - c * d));
        if axis.integer {
            let u: f64 = rng.gen();
            (hi, lo) = (axis.clamp((hi + u).floor()), axis.clamp((lo + u).floor()));
        }
        p.delta.push(d);
        p.plus.push(hi);
        p.minus.push(lo);
    }
    p
}

/// `θ` after iteration `k`, whose probe `p` gave `θ+` `wins - losses` games net.
pub fn update(
    s: &Schedule,
    axes: &[Axis],
    theta: &[f64],
    p: &Probe,
    k: usize,
    net: f64,
) -> Vec<f64> {
    axes.iter()
        .zip(theta)
        .zip(&p.delta)
        .map(|((axis, &t), &d)| {
            let (c, a) = gains(s, axis, k);
            axis.clamp(t + a / c * net * d)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Schedule = Schedule {
        iterations: 1000,
        a_ratio: 0.1,
        alpha: 0.602,
        gamma: 0.101,
        r_end: 0.002,
    };

    fn axis(integer: bool) -> Axis {
        Axis {
            name: "x".into(),
            min: 0.0,
            max: 100.0,
            integer,
            c_end: 4.0,
        }
    }

    #[test]
    fn the_gains_end_where_they_are_stated() {
        let a = axis(false);
        let (c_last, a_last) = gains(&S, &a, S.iterations - 1);
        assert!((c_last - 4.0).abs() < 1e-9, "{c_last}");
        assert!((a_last / c_last.powi(2) - 0.002).abs() < 1e-12);
        let (c0, a0) = gains(&S, &a, 0);
        assert!((c0 - 4.0 * 1000f64.powf(0.101)).abs() < 1e-9);
        assert!(c0 > c_last && a0 > a_last, "both shrink");
    }

    #[test]
    fn a_probe_is_symmetric_and_the_same_when_drawn_again() {
        let axes = [axis(false), axis(false)];
        let p = probe(&S, &axes, &[50.0, 50.0], 7, 3);
        let (c, _) = gains(&S, &axes[0], 3);
        for i in 0..2 {
            assert!((p.plus[i] - (50.0 + c * p.delta[i])).abs() < 1e-9);
            assert!((p.minus[i] - (50.0 - c * p.delta[i])).abs() < 1e-9);
        }
        assert_eq!(p, probe(&S, &axes, &[50.0, 50.0], 7, 3));
        let signs: Vec<f64> = (0..64)
            .map(|k| probe(&S, &axes, &[50.0; 2], 7, k).delta[0])
            .collect();
        assert!(signs.contains(&1.0) && signs.contains(&-1.0));
    }

    #[test]
    fn whole_numbers_are_rounded_at_random_to_the_mean_and_kept_in_range() {
        let axes = [axis(true)];
        let (c, _) = gains(&S, &axes[0], 0);
        let draws: Vec<Probe> = (0..4000)
            .map(|seed| probe(&S, &axes, &[50.0], seed, 0))
            .collect();
        let mean_gap: f64 = draws
            .iter()
            .map(|p| (p.plus[0] - p.minus[0]) * p.delta[0])
            .sum::<f64>()
            / draws.len() as f64;
        assert!(
            (mean_gap - 2.0 * c).abs() < 0.05,
            "{mean_gap} against {}",
            2.0 * c
        );
        assert!(draws
            .iter()
            .all(|p| p.plus[0].fract() == 0.0 && p.minus[0].fract() == 0.0));
        let edge = probe(&S, &axes, &[100.0], 1, 0);
        assert!(edge.plus[0] <= 100.0 && edge.minus[0] <= 100.0);
    }

    #[test]
    fn theta_steps_towards_the_version_that_won() {
        let axes = [axis(false), axis(false)];
        let p = Probe {
            delta: vec![1.0, -1.0],
            plus: vec![],
            minus: vec![],
        };
        let (c, a) = gains(&S, &axes[0], 10);
        let theta = update(&S, &axes, &[50.0, 50.0], &p, 10, 2.0);
        assert!((theta[0] - (50.0 + 2.0 * a / c)).abs() < 1e-9);
        assert!((theta[1] - (50.0 - 2.0 * a / c)).abs() < 1e-9);
        assert_eq!(update(&S, &axes, &[50.0, 50.0], &p, 10, 0.0), [50.0, 50.0]);
        let clamped = update(&S, &axes, &[100.0, 0.0], &p, 10, 1e9);
        assert_eq!(clamped, [100.0, 0.0]);
    }
}
