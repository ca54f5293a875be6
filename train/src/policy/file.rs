//! The policy's model file: its weights as text, in the format of [`crate::weights_text`].
//!
//! ```text
//! twixt-policy 1
//! features N            N is FEATURES
//! hidden H bits B       only with a hidden layer; H is HIDDEN, its weights B-bit integers
//! w0
//! ...
//! w(M-1)
//! crc32 XXXXXXXX        of the M weight lines, each with its newline
//! ```
//!
//! M is N, or with a hidden layer N + (N + 2) · H: the linear weights, then the hidden
//! layer's integers (`twixt::knowledge::hidden`): its rows (one a feature, H each), its
//! biases and its output weights.

use crate::weights_text::{self, Lines};
use anyhow::{bail, Result};
use std::path::Path;
use twixt::knowledge::features::FEATURES;
use twixt::knowledge::hidden::{Hidden, HIDDEN};
use twixt::knowledge::Policy;

const MAGIC: &str = "twixt-policy 1";

/// The text of a model file.
pub fn to_text(policy: &Policy) -> String {
    let mut head = format!("{MAGIC}\nfeatures {}\n", policy.weights.len());
    let mut all = policy.weights.clone();
    if let Some(h) = &policy.hidden {
        head += &format!("hidden {HIDDEN} bits {}\n", h.bits);
        all.extend(h.ints().iter().map(|&i| i as f32));
    }
    weights_text::to_text(&head, &all)
}

/// Writes a model file.
pub fn write(path: &Path, policy: &Policy) -> Result<()> {
    weights_text::write(path, &to_text(policy))
}

/// Reads a model file.
pub fn read(path: &Path) -> Result<Policy> {
    weights_text::read(path, parse)
}

/// Parses the text of a model file.
pub fn parse(text: &str) -> Result<Policy> {
    let mut lines = Lines::new(text);
    lines.expect(MAGIC)?;
    lines.expect(&format!("features {FEATURES}"))?;
    let bits = (2..=8).find(|b| lines.optional(&format!("hidden {HIDDEN} bits {b}")));
    let Some(bits) = bits else {
        return Ok(Policy::linear(lines.weights(FEATURES)?));
    };
    let all = lines.weights(FEATURES + (FEATURES + 2) * HIDDEN)?;
    let top = (1 << (bits - 1)) - 1;
    let ints: Vec<i32> = all[FEATURES..].iter().map(|&w| w as i32).collect();
    if let Some(k) =
        (0..ints.len()).find(|&k| ints[k] as f32 != all[FEATURES + k] || ints[k].abs() > top)
    {
        bail!(
            "line {}: '{:?}' is not an integer of {bits} bits (within ±{top}), as the hidden layer's weights are",
            4 + FEATURES + k,
            all[FEATURES + k]
        );
    }
    Ok(Policy {
        weights: all[..FEATURES].to_vec(),
        hidden: Some(Hidden::from_ints(bits, &ints)),
    })
}
