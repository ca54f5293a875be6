//! The sequential probability ratio test on pentanomial pairs, in the normalized-Elo model
//! (fastchess's and fishtest's default): H0 says nElo = elo0, H1 says nElo = elo1.
//!
//! The log-likelihood ratio is `N · Σ p̂ᵢ (ln p1ᵢ - ln p0ᵢ)` where `pⱼ` is the distribution
//! closest to the observed `p̂` (maximum likelihood) among those whose normalized score
//! `t = (μ - 1/2) / σ` equals `tⱼ = √2 · eloⱼ / (800 / ln 10)`; it is found by the fixed-point
//! iteration of section 4.1 of M. Van den Bergh's "Comments on Normalized Elo". Empty classes
//! count as 0.001 pairs, as fastchess does, so the logarithms stay finite.

use super::stats::{mean_variance, nelo_scale, Penta, PAIR_SCORES};
use anyhow::{bail, Context, Result};

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// nElo under H0.
    pub elo0: f64,
    /// nElo under H1.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR reached the upper bound: A is better by about elo1 (H1).
    AcceptH1,
    /// The LLR reached the lower bound: A is not better than elo0 (H0).
    AcceptH0,
    /// Neither bound is reached.
    Continue,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, all four required).
    pub fn parse(words: &[String]) -> Result<Sprt> {
        let mut vals = [None; 4];
        let names = ["elo0", "elo1", "alpha", "beta"];
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w
                .split_once('=')
                .with_context(|| format!("SPRT: expected key=value, got {w:?}"))?;
            let i = names
                .iter()
                .position(|n| *n == k)
                .with_context(|| format!("SPRT: unknown parameter {k:?}"))?;
            vals[i] = Some(v.parse::<f64>().with_context(|| format!("SPRT: {k}"))?);
        }
        let get = |i: usize| vals[i].with_context(|| format!("SPRT: {} is missing", names[i]));
        let s = Sprt {
            elo0: get(0)?,
            elo1: get(1)?,
            alpha: get(2)?,
            beta: get(3)?,
        };
        s.validate().map(|_| s)
    }

    fn validate(&self) -> Result<()> {
        let prob = |x: f64| x > 0.0 && x < 1.0;
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            bail!("SPRT: elo0 must be less than elo1");
        }
        if !prob(self.alpha) || !prob(self.beta) || self.alpha + self.beta >= 1.0 {
            bail!("SPRT: alpha and beta must be in (0, 1) with alpha + beta < 1");
        }
        Ok(())
    }

    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::AcceptH1
        } else if llr <= lo {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }

    /// The log-likelihood ratio of H1 against H0 for these pairs (0 with none).
    pub fn llr(&self, penta: &Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        // WL and DD share class 2 already; regularize empty classes.
        let counts = penta.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let phat = counts.map(|c| c / total);
        let t = |elo: f64| std::f64::consts::SQRT_2 * elo / nelo_scale();
        let p0 = mle_with_t(&phat, t(self.elo0));
        let p1 = mle_with_t(&phat, t(self.elo1));
        let mean_log_ratio: f64 = (0..5).map(|i| phat[i] * (p1[i].ln() - p0[i].ln())).sum();
        total * mean_log_ratio
    }
}

/// The distribution closest to `phat` whose `(μ - 1/2) / σ` is `t` (Van den Bergh, 4.1).
///
/// The fixed-point iteration only behaves near its answer, so for a large `|t|` (a wide
/// elo1 or very one-sided results) it walks there from `t = 0` in small steps of `t`.
fn mle_with_t(phat: &[f64; 5], t: f64) -> [f64; 5] {
    let steps = (t.abs() / 0.05).ceil().max(1.0) as usize;
    let mut p = [0.2; 5];
    for k in 1..=steps {
        p = fixed_point(phat, t * k as f64 / steps as f64, p);
    }
    p
}

fn fixed_point(phat: &[f64; 5], t: f64, mut p: [f64; 5]) -> [f64; 5] {
    for _ in 0..1000 {
        let (mu, var) = mean_variance(&PAIR_SCORES, &p);
        let sigma = var.sqrt();
        let phi = PAIR_SCORES.map(|a| {
            let z = (a - mu) / sigma;
            a - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        let theta = solve_theta(phat, &phi);
        let next: [f64; 5] = std::array::from_fn(|i| phat[i] / (1.0 + theta * phi[i]));
        let diff = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if diff < 1e-10 {
            break;
        }
    }
    p
}

/// The root of `Σ p̂ᵢ φᵢ / (1 + θ φᵢ) = 0` for θ in `(-1 / max φ, -1 / min φ)`, where the sum
/// falls from +∞ to -∞; found by bisection.
fn solve_theta(phat: &[f64; 5], phi: &[f64; 5]) -> f64 {
    let lo_phi = phi.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi_phi = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if lo_phi >= 0.0 || hi_phi <= 0.0 {
        return 0.0;
    }
    let f = |x: f64| -> f64 { (0..5).map(|i| phat[i] * phi[i] / (1.0 + x * phi[i])).sum() };
    let (mut a, mut b) = (-1.0 / hi_phi, -1.0 / lo_phi);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if m <= a || m >= b {
            break;
        }
        if f(m) > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::strings;

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn fastchess_vector_gives_its_llr() {
        // fastchess: pentanomial [379, 10170, 21828, 10640, 343], elo0=0, elo1=2,
        // normalized model: LLR 2.946.
        let llr = sprt(0.0, 2.0).llr(&Penta([379, 10170, 21828, 10640, 343]));
        assert!((llr - 2.946).abs() < 0.0015, "{llr}");
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        // ln(0.05 / 0.95) = -2.944, ln(0.95 / 0.05) = 2.944.
        let (lo, hi) = sprt(0.0, 5.0).bounds();
        assert!((lo + 2.9444).abs() < 1e-4 && (hi - 2.9444).abs() < 1e-4);
        let s = sprt(0.0, 5.0);
        assert_eq!(s.verdict(3.0), Verdict::AcceptH1);
        assert_eq!(s.verdict(-3.0), Verdict::AcceptH0);
        assert_eq!(s.verdict(0.0), Verdict::Continue);
    }

    #[test]
    fn the_mle_has_the_asked_normalized_score() {
        let even = [0.1, 0.2, 0.4, 0.2, 0.1];
        let lopsided = [0.998, 0.0005, 0.0005, 0.0005, 0.0005];
        for (phat, t) in [
            (even, -0.2),
            (even, 0.0),
            (even, 0.05),
            (even, 0.3),
            (lopsided, 1.22),
        ] {
            let p = mle_with_t(&phat, t);
            let (mu, var) = mean_variance(&PAIR_SCORES, &p);
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-6, "t = {t}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn a_symmetric_result_favours_neither_side_of_zero() {
        // With elo0 = -elo1 and perfectly symmetric counts, the LLR is 0.
        let llr = sprt(-5.0, 5.0).llr(&Penta([10, 20, 40, 20, 10]));
        assert!(llr.abs() < 1e-9, "{llr}");
        // Winning every pair makes H1 (A stronger) more likely.
        assert!(sprt(0.0, 5.0).llr(&Penta([0, 0, 0, 0, 50])) > 0.0);
        assert!(sprt(0.0, 5.0).llr(&Penta([50, 0, 0, 0, 0])) < 0.0);
        // Also with a wide elo1, where the iteration has to walk to its answer.
        assert!(sprt(0.0, 300.0).llr(&Penta([0, 0, 0, 0, 5])) > 2.0);
        assert!(sprt(0.0, 300.0).llr(&Penta([5, 0, 0, 0, 0])) < -2.0);
    }

    #[test]
    fn parameters_parse_and_validate() {
        let s = Sprt::parse(&strings(&["elo0=0", "elo1=5", "alpha=0.05", "beta=0.1"])).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert!(Sprt::parse(&["elo0=5 elo1=0 alpha=0.05 beta=0.05".into()]).is_err());
        assert!(Sprt::parse(&["elo0=0 elo1=5 alpha=0.05".into()]).is_err());
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::stats::Estimate;
    use proptest::prelude::*;

    fn reversed(p: &Penta) -> Penta {
        let mut r = p.0;
        r.reverse();
        Penta(r)
    }

    proptest! {
        /// Seen from B's side (the counts reversed, the hypotheses negated) nothing changes.
        #[test]
        fn swapping_the_engines_mirrors_everything(
            counts in prop::array::uniform5(0u64..200),
            elo0 in -10.0f64..0.0,
            width in 0.5f64..10.0,
        ) {
            let p = Penta(counts);
            prop_assume!(p.pairs() > 0);
            let a = Sprt { elo0, elo1: elo0 + width, alpha: 0.05, beta: 0.05 };
            let b = Sprt { elo0: -a.elo1, elo1: -a.elo0, ..a };
            // H1 for A is H0 for B, so the LLR changes sign.
            prop_assert!((a.llr(&p) + b.llr(&reversed(&p))).abs() < 1e-6 * (1.0 + a.llr(&p).abs()));
            let (ea, eb) = (Estimate::from_penta(&p).unwrap(), Estimate::from_penta(&reversed(&p)).unwrap());
            prop_assert!((ea.score + eb.score - 1.0).abs() < 1e-12);
            prop_assert!((ea.los + eb.los - 1.0).abs() < 1e-9);
        }
    }
}
