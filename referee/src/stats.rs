//! Match statistics as fastchess reports them: W/D/L, pentanomial pair counts, Elo with its
//! 95% interval, normalized Elo (nElo), the likelihood of superiority (LOS) and the draw ratio.
//!
//! Formulas (checked against fastchess's `elo_pentanomial.cpp` and M. Van den Bergh, "Comments
//! on Normalized Elo"): a pair's score is its points / 2, in {0, 1/4, 1/2, 3/4, 1}; `s` is their
//! mean and `v` their variance (per pair); Elo = -400 log10(1/s - 1); the interval is
//! `s ± 1.96 sqrt(v / pairs)` mapped through the same curve and halved; nElo =
//! `(s - 1/2) / sqrt(2 v) · 800 / ln 10`; LOS = `(1 - erf(-(s - 1/2) / sqrt(2 v / pairs))) / 2`.

use std::fmt;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959963984540054;

/// Elo per unit of the logistic's natural scale: 800 / ln 10.
pub fn nelo_scale() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// Games won, drawn and lost by engine A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games A won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

impl Wdl {
    /// All games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game, scored 0, 1 or 2 half-points for A.
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Drawn games over all games, 0 with none.
    pub fn draw_ratio(&self) -> f64 {
        ratio(self.draws as f64, self.games() as f64)
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// Pairs counted by A's points in the pair: index 0 = 0 (LL), 1 = 1/2 (LD), 2 = 1 (DD or
/// WL), 3 = 3/2 (WD), 4 = 2 (WW). The same order as fastchess's pentanomial vectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Adds one pair, scored 0..=4 half-points for A.
    pub fn add(&mut self, half_points: u8) {
        self.0[half_points.min(4) as usize] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The fraction of pairs in each class (all 0 with no pairs).
    pub fn frequencies(&self) -> [f64; 5] {
        let n = self.pairs() as f64;
        self.0.map(|c| ratio(c as f64, n))
    }
}

/// The score of each pentanomial class, as a fraction of the pair's 2 points.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Mean and variance of a discrete distribution on `xs` with probabilities `ps`.
pub fn mean_variance(xs: &[f64], ps: &[f64]) -> (f64, f64) {
    let mu: f64 = xs.iter().zip(ps).map(|(x, p)| x * p).sum();
    let var = xs
        .iter()
        .zip(ps)
        .map(|(x, p)| p * (x - mu) * (x - mu))
        .sum();
    (mu, var)
}

/// A score (0..1) as an Elo difference; infinite at 0 and 1, NaN outside.
pub fn score_to_elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The estimates from pentanomial counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Pairs counted.
    pub pairs: u64,
    /// A's mean score per game, 0..1.
    pub score: f64,
    /// The variance of one pair's score (as a fraction of 2 points).
    pub variance: f64,
    /// Elo difference A - B.
    pub elo: f64,
    /// Half the width of its 95% interval.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half the width of its 95% interval.
    pub nelo_error: f64,
    /// Likelihood of superiority of A, 0..1.
    pub los: f64,
}

impl Estimate {
    /// Computes the estimates; `None` with no pairs.
    pub fn from_penta(p: &Penta) -> Option<Estimate> {
        let pairs = p.pairs();
        if pairs == 0 {
            return None;
        }
        let (score, variance) = mean_variance(&PAIR_SCORES, &p.frequencies());
        let sd_mean = (variance / pairs as f64).sqrt();
        let (lo, hi) = score_bounds(score, sd_mean);
        let nelo_of = |s: f64| nelo_from_score(s, variance);
        Some(Estimate {
            pairs,
            score,
            variance,
            elo: score_to_elo(score),
            elo_error: (score_to_elo(hi) - score_to_elo(lo)) / 2.0,
            nelo: nelo_of(score),
            nelo_error: (nelo_of(hi) - nelo_of(lo)) / 2.0,
            los: los(score, sd_mean),
        })
    }

    /// The ends of the 95% interval in Elo: infinite where the score's interval reaches 0 or
    /// 1, NaN where it passes them (a match won nearly pair for pair has no upper end).
    pub fn elo_bounds(&self) -> (f64, f64) {
        let (lo, hi) = score_bounds(self.score, (self.variance / self.pairs as f64).sqrt());
        (score_to_elo(lo), score_to_elo(hi))
    }
}

/// The 95% interval of a mean score with standard error `sd_mean`.
fn score_bounds(score: f64, sd_mean: f64) -> (f64, f64) {
    (score - Z95 * sd_mean, score + Z95 * sd_mean)
}

/// nElo of a score, given the variance of one pair's score; 0 when there is no spread at all
/// and the score is even.
fn nelo_from_score(score: f64, variance: f64) -> f64 {
    if variance == 0.0 && score == 0.5 {
        return 0.0;
    }
    (score - 0.5) / (2.0 * variance).sqrt() * nelo_scale()
}

/// Likelihood of superiority: P(true score > 1/2) under a normal approximation.
fn los(score: f64, sd_mean: f64) -> f64 {
    if sd_mean == 0.0 {
        return match score.partial_cmp(&0.5) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        };
    }
    (1.0 - libm::erf(-(score - 0.5) / (std::f64::consts::SQRT_2 * sd_mean))) / 2.0
}

/// A number with two decimals, or `inf`/`-inf`/`nan` spelled plainly.
pub struct Fixed2(pub f64);

impl fmt::Display for Fixed2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            // Adding 0.0 turns -0.0 into 0.0, and rounding to -0.00 is avoided the same way.
            let v = if self.0.abs() < 0.005 {
                0.0
            } else {
                self.0 + 0.0
            };
            write!(f, "{v:.2}")
        } else if self.0.is_nan() {
            f.write_str("nan")
        } else if self.0 > 0.0 {
            f.write_str("inf")
        } else {
            f.write_str("-inf")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn fastchess_vector_gives_its_nelo() {
        // fastchess: pentanomial [379, 10170, 21828, 10640, 343] -> nElo 3.05 +/- 2.31.
        let e = Estimate::from_penta(&Penta([379, 10170, 21828, 10640, 343])).unwrap();
        assert!(close(e.nelo, 3.05, 0.005), "{}", e.nelo);
        assert!(close(e.nelo_error, 2.31, 0.005), "{}", e.nelo_error);
    }

    #[test]
    fn a_win_and_a_loss_pair_by_pair_is_even() {
        // One pair LL and one WW: s = 1/2, v = (1/4 + 1/4) / 2 = 1/4.
        let e = Estimate::from_penta(&Penta([1, 0, 0, 0, 1])).unwrap();
        assert_eq!((e.score, e.variance, e.elo, e.nelo), (0.5, 0.25, 0.0, 0.0));
        assert!(close(e.los, 0.5, 1e-12));
    }

    #[test]
    fn hand_computed_small_match() {
        // Pairs WD and WW: s = (0.75 + 1) / 2 = 0.875; v = 0.125^2 = 0.015625.
        // Elo = 400 log10(7) = 338.04; nElo = 0.375 / sqrt(0.03125) * 347.436 = 737.03.
        // sd of the mean = sqrt(0.015625 / 2) = 0.0883883; LOS = Phi(0.375 / 0.0883883)
        // = Phi(4.2426) = 0.999989.
        let e = Estimate::from_penta(&Penta([0, 0, 0, 1, 1])).unwrap();
        assert!(close(e.score, 0.875, 1e-12));
        assert!(close(e.variance, 0.015625, 1e-12));
        assert!(close(e.elo, 338.04, 0.01), "{}", e.elo);
        assert!(close(e.nelo, 737.03, 0.01), "{}", e.nelo);
        assert!(close(e.los, 0.999989, 1e-6), "{}", e.los);
        // The upper bound passes 1, so the Elo interval is unbounded: only its low end is a
        // number (s - 1.96 sd = 0.70176, 400 log10(0.70176 / 0.29824) = 148.66).
        assert_eq!(Fixed2(e.elo_error).to_string(), "nan");
        let (lo, hi) = e.elo_bounds();
        assert!(close(lo, 148.66, 0.01) && hi.is_nan(), "{lo} {hi}");
    }

    #[test]
    fn no_spread_at_all() {
        let e = Estimate::from_penta(&Penta([0, 0, 3, 0, 0])).unwrap();
        assert_eq!((e.elo, e.nelo, e.los), (0.0, 0.0, 0.5));
        assert!(Estimate::from_penta(&Penta::default()).is_none());
    }

    #[test]
    fn wdl_counts_and_draw_ratio() {
        let mut w = Wdl::default();
        for hp in [2, 1, 0, 1] {
            w.add(hp);
        }
        assert_eq!((w.wins, w.draws, w.losses), (1, 2, 1));
        assert!(close(w.draw_ratio(), 0.5, 1e-12));
    }
}
