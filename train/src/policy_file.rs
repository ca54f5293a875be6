//! The model file: a policy's weights as text, one per line, with a checksum.
//!
//! ```text
//! twixt-policy 1
//! features N
//! w0
//! ...
//! w(N-1)
//! crc32 XXXXXXXX        of the N weight lines, each with its newline
//! ```
//! Weights are written with Rust's shortest round-trip formatting, so reading a model back
//! gives the very same `f32`s. Damage is an error naming the line and its byte offset.

use anyhow::{bail, Context, Result};
use std::path::Path;
use twixt::knowledge::features::FEATURES;
use twixt::knowledge::Policy;

const MAGIC: &str = "twixt-policy 1";

/// The text of a model file.
pub fn to_text(policy: &Policy) -> String {
    let body: String = policy.weights.iter().map(|w| format!("{w:?}\n")).collect();
    format!(
        "{MAGIC}\nfeatures {}\n{body}crc32 {:08x}\n",
        policy.weights.len(),
        crc32fast::hash(body.as_bytes())
    )
}

/// Writes a model file.
pub fn write(path: &Path, policy: &Policy) -> Result<()> {
    std::fs::write(path, to_text(policy)).with_context(|| path.display().to_string())
}

/// Reads a model file.
pub fn read(path: &Path) -> Result<Policy> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    parse(&text).with_context(|| path.display().to_string())
}

/// Parses the text of a model file.
pub fn parse(text: &str) -> Result<Policy> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        lines.push((offset, line));
        offset += line.len();
    }
    let at = |i: usize| {
        let o = lines.get(i).map_or(text.len(), |l| l.0);
        format!("line {} (offset {o})", i + 1)
    };
    let line = |i: usize| lines.get(i).map(|l| l.1.trim_end_matches('\n'));
    if line(0) != Some(MAGIC) {
        bail!(
            "{}: not a model file (it starts {:?}, not {MAGIC:?})",
            at(0),
            line(0).unwrap_or("")
        );
    }
    let n: usize = line(1)
        .and_then(|l| l.strip_prefix("features "))
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("{}: expected `features N`", at(1)))?;
    if n != FEATURES {
        bail!(
            "{}: the model has {n} features, this engine {FEATURES}",
            at(1)
        );
    }
    let mut weights = Vec::with_capacity(n);
    for i in 2..2 + n {
        let w =
            line(i).with_context(|| format!("{}: the file ends before weight {}", at(i), i - 1))?;
        let w = w
            .parse::<f32>()
            .with_context(|| format!("{}: {w:?} is not a number", at(i)))?;
        if !w.is_finite() {
            bail!("{}: weight {w} is not a finite number", at(i));
        }
        weights.push(w);
    }
    let body_start = lines.get(2).map_or(text.len(), |l| l.0);
    let body_end = lines.get(2 + n).map_or(text.len(), |l| l.0);
    let crc = line(2 + n)
        .and_then(|l| l.strip_prefix("crc32 "))
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .with_context(|| format!("{}: expected `crc32 XXXXXXXX`", at(2 + n)))?;
    if crc != crc32fast::hash(&text.as_bytes()[body_start..body_end]) {
        bail!(
            "{}: the checksum does not match the weights (the file is damaged)",
            at(2 + n)
        );
    }
    if lines.len() > 3 + n {
        bail!("{}: text after the checksum", at(3 + n));
    }
    Ok(Policy { weights })
}
