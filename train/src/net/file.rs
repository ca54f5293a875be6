//! The value model's file: its `f32` parameters as text, in the format of
//! [`crate::weights_text`].
//!
//! ```text
//! twixt-value 1
//! inputs I
//! hidden H
//! holes K               only with a policy head (K is POLICY_HOLES)
//! w0
//! ...
//! w(N-1)                N = I·H + 3·H + 1 (+ K·2·H + K + L), in the order of `Layout`
//! crc32 XXXXXXXX        of the N weight lines, each with its newline
//! ```
//! (L is the policy's local weights, `local::LOCAL`.)

use super::model::{Layout, Model};
use crate::weights_text::{self, Lines};
use anyhow::{Context, Result};
use std::path::Path;
use twixt::knowledge::inputs::INPUTS;
use twixt::knowledge::network::{MAX_HIDDEN, POLICY_HOLES};

const MAGIC: &str = "twixt-value 1";

/// The text of a model file.
pub fn to_text(model: &Model) -> String {
    let holes = match model.layout.policy {
        true => format!("holes {POLICY_HOLES}\n"),
        false => String::new(),
    };
    let head = format!(
        "{MAGIC}\ninputs {INPUTS}\nhidden {}\n{holes}",
        model.layout.hidden
    );
    weights_text::to_text(&head, &model.params)
}

/// Writes a model file.
pub fn write(path: &Path, model: &Model) -> Result<()> {
    weights_text::write(path, &to_text(model))
}

/// Reads a model file.
pub fn read(path: &Path) -> Result<Model> {
    weights_text::read(path, parse)
}

/// Parses the text of a model file.
pub fn parse(text: &str) -> Result<Model> {
    let mut lines = Lines::new(text);
    lines.expect(MAGIC)?;
    lines.expect(&format!("inputs {INPUTS}"))?;
    let (line, place) = lines.line()?;
    let hidden = line
        .strip_prefix("hidden ")
        .and_then(|h| h.parse::<usize>().ok())
        .filter(|h| (1..=MAX_HIDDEN).contains(h))
        .with_context(|| {
            format!("{place}: '{line}' where 'hidden H' belongs, H from 1 to {MAX_HIDDEN}")
        })?;
    let policy = lines.optional(&format!("holes {POLICY_HOLES}"));
    let layout = Layout { hidden, policy };
    let params = lines.weights(layout.params())?;
    Ok(Model { layout, params })
}

#[cfg(test)]
mod tests {
    use super::*;
    use twixt::knowledge::network::local::LOCAL;

    #[test]
    fn the_weight_count_is_the_one_the_header_comment_gives() {
        for (hidden, policy) in [(1, false), (32, false), (64, true)] {
            let layout = Layout { hidden, policy };
            let (i, h, k, l) = (INPUTS, hidden, POLICY_HOLES, LOCAL);
            let n = i * h + 3 * h + 1 + if policy { k * 2 * h + k + l } else { 0 };
            assert_eq!(layout.params(), n);
            let model = Model {
                layout,
                params: vec![0.5; n],
            };
            let header = if policy { 4 } else { 3 };
            assert_eq!(to_text(&model).lines().count(), header + n + 1);
        }
    }
}
