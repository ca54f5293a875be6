//! Learned knowledge: a policy over moves, a linear softmax over the [`features`] of each
//! move, trained by `twixt-train fit` from the search's own visits in self-play.

pub mod encoding;
pub mod features;
mod weights;

use features::{Active, FEATURES};

/// A policy's weights: one per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// The weight of each feature, indexed as in [`features`].
    pub weights: Vec<f32>,
}

impl Policy {
    /// A policy with every weight zero (every move equally likely).
    pub fn uniform() -> Policy {
        Policy {
            weights: vec![0.0; FEATURES],
        }
    }

    /// The policy that ships with the bot (`weights.rs`, written by `twixt-train export`).
    pub fn shipped() -> Policy {
        let weights = encoding::decode(weights::TEXT, weights::COUNT)
            .filter(|w| w.len() == FEATURES)
            .unwrap_or_else(|| vec![0.0; FEATURES]);
        Policy { weights }
    }

    /// The unnormalised log-probability of a move with features `a`.
    #[inline]
    pub fn logit(&self, a: &Active) -> f32 {
        a.iter().map(|(i, n)| self.weights[i] * n).sum()
    }
}
