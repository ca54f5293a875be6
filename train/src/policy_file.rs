//! The policy's model file: its weights as text, in the format of [`crate::weights_text`].
//!
//! ```text
//! twixt-policy 1
//! features N            N is FEATURES
//! w0
//! ...
//! w(N-1)
//! crc32 XXXXXXXX        of the N weight lines, each with its newline
//! ```

use crate::weights_text::{self, Lines};
use anyhow::Result;
use std::path::Path;
use twixt::knowledge::features::FEATURES;
use twixt::knowledge::Policy;

const MAGIC: &str = "twixt-policy 1";

/// The text of a model file.
pub fn to_text(policy: &Policy) -> String {
    let head = format!("{MAGIC}\nfeatures {}\n", policy.weights.len());
    weights_text::to_text(&head, &policy.weights)
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
    Ok(Policy {
        weights: lines.weights(FEATURES)?,
    })
}
