//! Knowledge of positions beyond the rules: a policy over moves, a softmax over a linear
//! logit of the [`features`] of each move and a [`hidden`] layer over them, trained by
//! `twixt-train fit` from the search's own visits in self-play and shipped as text
//! ([`encoding`]); the board patterns it reads ([`save`], the
//! two-way tables of `shapes`); the distance [`value`] (host-only); and the value [`network`],
//! one hidden layer over the one-hot [`inputs`] of each player's view with an optional policy
//! head (host-only),
//! trained by `twixt-train net` and shipped as streams of narrow integers (`net_weights`,
//! [`network::codec`]).

pub mod encoding;
pub mod features;
pub mod hidden;
pub mod inputs;
mod net_weights;
pub mod network;
pub mod save;
mod shapes;
#[cfg(not(codingame))]
pub mod value;
mod weights;

use crate::cell::{Cell, Player, CELLS};
use crate::position::Move;
use encoding::DecodeError;
use features::{Active, Context, FEATURES};
use hidden::{Hidden, Units};

/// A policy's weights: one per feature, and where it has one, a [`hidden`] layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// The weight of each feature, indexed as in [`features`].
    pub weights: Vec<f32>,
    /// The hidden layer, whose output adds to the linear logit.
    pub hidden: Option<Hidden>,
}

impl Policy {
    /// A policy with every weight zero (every move equally likely).
    pub fn uniform() -> Policy {
        Policy::linear(vec![0.0; FEATURES])
    }

    /// A policy of these weights and no hidden layer.
    pub fn linear(weights: Vec<f32>) -> Policy {
        Policy {
            weights,
            hidden: None,
        }
    }

    /// The policy that ships with the bot (`weights.rs`, written by `twixt-train export`), or
    /// why its text does not decode to one weight a feature.
    pub fn shipped() -> Result<Policy, DecodeError> {
        // The module's own count first, so that a stale export is named as one.
        let weights = encoding::decode(weights::TEXT, weights::COUNT)?;
        if weights.len() != FEATURES {
            return Err(DecodeError::Count {
                found: weights.len(),
                expected: FEATURES,
            });
        }
        let hidden = match weights::HIDDEN_TEXT {
            "" => None,
            text => Some(Hidden::decode(text)?),
        };
        Ok(Policy { weights, hidden })
    }

    /// [`Policy::shipped`], or after a loud line on stderr the uniform policy: a bot that
    /// plays weaker still answers, where one that stops loses.
    pub fn shipped_or_uniform() -> Policy {
        Policy::shipped().unwrap_or_else(|e| {
            eprintln!("{}", shipped_failure(e));
            Policy::uniform()
        })
    }

    /// The unnormalised log-probability of a move with features `a`.
    #[inline]
    pub fn logit(&self, a: &Active) -> f32 {
        match &self.hidden {
            None => self.linear_logit(a),
            Some(h) => h.logit(&self.weights, a, (0.0, h.bias)),
        }
    }

    /// The linear part of the logit.
    fn linear_logit(&self, a: &Active) -> f32 {
        a.iter().fold(0.0, |sum, (i, n)| sum + self.weights[i] * n)
    }
}

/// The line that says the shipped weights are broken and what playing without them means.
pub fn shipped_failure(e: DecodeError) -> String {
    format!(
        "twixt-bot: WARNING: the shipped policy weights do not decode ({}): playing much weaker \
         with a uniform prior; re-export them with twixt-train export",
        e
    )
}

/// A policy made ready for the search: besides its weights, the sums of every hole with no
/// peg near it ([`features::quiet`]) for each mover, the linear logit's and the hidden
/// units', summed once here rather than at every expansion (on a board of a few pegs, most
/// holes).
pub struct Scorer {
    policy: Policy,
    /// The quiet linear sums, by mover and cell index.
    quiet: [[f32; CELLS]; 2],
    /// The quiet hidden units' sums, by mover times `CELLS` plus cell index (empty without a
    /// hidden layer).
    quiet_units: Vec<Units>,
}

impl Scorer {
    /// Prepares `policy`.
    pub fn new(policy: Policy) -> Scorer {
        let mut table = [[0.0; CELLS]; 2];
        let cells = if policy.hidden.is_some() {
            2 * CELLS
        } else {
            0
        };
        let mut units = vec![[0; hidden::HIDDEN]; cells];
        for p in Player::BOTH {
            for c in (0..CELLS).filter_map(Cell::from_index) {
                let a = features::quiet(p, c);
                table[p.index()][c.index()] = policy.linear_logit(&a);
                if let Some(h) = &policy.hidden {
                    units[p.index() * CELLS + c.index()] = h.sums(&a);
                }
            }
        }
        Scorer {
            policy,
            quiet: table,
            quiet_units: units,
        }
    }

    /// The policy it scores with.
    #[cfg(not(codingame))]
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The logit of `mv` in `ctx`: to the bit `policy.logit(&ctx.features(mv))`, since a
    /// quiet hole's sum starts from its stored prefix and adds the rest in the same order.
    #[inline]
    pub fn logit(&self, ctx: &Context, mv: Move) -> f32 {
        let w = &self.policy.weights;
        let m = ctx.mover().index();
        match (&self.policy.hidden, mv) {
            (None, Move::Peg(c)) if ctx.is_quiet(c) => {
                ctx.far_logit(w, c, self.quiet[m][c.index()])
            }
            (None, _) => ctx.logit(w, mv),
            (Some(h), Move::Peg(c)) if ctx.is_quiet(c) => {
                let units = self.quiet_units[m * CELLS + c.index()];
                ctx.far_net_logit(w, h, c, (self.quiet[m][c.index()], units))
            }
            (Some(h), _) => ctx.net_logit(w, h, mv),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_decode_and_a_failure_is_said_loudly() {
        let shipped = Policy::shipped().expect("the shipped weights decode");
        assert_ne!(shipped, Policy::uniform());
        let line = shipped_failure(DecodeError::Foreign(7));
        assert!(line.contains("WARNING"), "{line}");
        assert!(
            line.contains("(character 7 is not a weight character)"),
            "{line}"
        );
        assert!(line.contains("uniform prior"), "{line}");
    }
}
