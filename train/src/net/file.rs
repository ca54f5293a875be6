//! The value model's file: its `f32` parameters as text, one a line, with a checksum.
//!
//! ```text
//! twixt-value 1
//! inputs I
//! hidden H
//! holes K               only with a policy head (K is POLICY_HOLES)
//! w0
//! ...
//! w(N-1)                N = I·H + 3·H + 1 (+ K·2·H + K), in the order of `Layout`
//! crc32 XXXXXXXX        of the N weight lines, each with its newline
//! ```
//! Weights are written with Rust's shortest round-trip formatting, so reading a model back
//! gives the very same `f32`s. Damage is an error naming the line and its byte offset.

use super::model::{Layout, Model};
use anyhow::{bail, Context, Result};
use std::path::Path;
use twixt::knowledge::inputs::INPUTS;
use twixt::knowledge::network::{MAX_HIDDEN, POLICY_HOLES};

const MAGIC: &str = "twixt-value 1";

/// The text of a model file.
pub fn to_text(model: &Model) -> String {
    let body: String = model.params.iter().map(|w| format!("{w:?}\n")).collect();
    let holes = match model.layout.policy {
        true => format!("holes {POLICY_HOLES}\n"),
        false => String::new(),
    };
    format!(
        "{MAGIC}\ninputs {INPUTS}\nhidden {}\n{holes}{body}crc32 {:08x}\n",
        model.layout.hidden,
        crc32fast::hash(body.as_bytes())
    )
}

/// Writes a model file.
pub fn write(path: &Path, model: &Model) -> Result<()> {
    std::fs::write(path, to_text(model)).with_context(|| path.display().to_string())
}

/// Reads a model file.
pub fn read(path: &Path) -> Result<Model> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    parse(&text).with_context(|| path.display().to_string())
}

/// Parses the text of a model file.
pub fn parse(text: &str) -> Result<Model> {
    let mut lines = Lines {
        text,
        at: 0,
        line: 0,
    };
    lines.expect(MAGIC)?;
    lines.expect(&format!("inputs {INPUTS}"))?;
    let (line, at, n) = lines.next()?;
    let hidden = line
        .strip_prefix("hidden ")
        .and_then(|h| h.parse::<usize>().ok())
        .filter(|h| (1..=MAX_HIDDEN).contains(h))
        .with_context(|| {
            format!("line {n} (offset {at}): '{line}' where 'hidden H' belongs, H from 1 to {MAX_HIDDEN}")
        })?;
    let before = (lines.at, lines.line);
    let policy = lines.next()?.0 == format!("holes {POLICY_HOLES}");
    if !policy {
        (lines.at, lines.line) = before;
    }
    let layout = Layout { hidden, policy };
    let body_start = lines.at;
    let mut params = Vec::with_capacity(layout.params());
    for _ in 0..layout.params() {
        let (line, at, n) = lines.next()?;
        let w: f32 = line
            .parse()
            .with_context(|| format!("line {n} (offset {at}): '{line}' is not a weight"))?;
        if !w.is_finite() {
            bail!("line {n} (offset {at}): weight '{line}' is not a finite number");
        }
        params.push(w);
    }
    let body = &text[body_start..lines.at];
    let (line, at, n) = lines.next()?;
    let expected = format!("crc32 {:08x}", crc32fast::hash(body.as_bytes()));
    if line != expected {
        bail!("line {n} (offset {at}): '{line}' where the weights give '{expected}'");
    }
    if lines.at != text.len() {
        bail!("offset {}: text after the checksum", lines.at);
    }
    Ok(Model { layout, params })
}

/// A cursor over the file's lines that knows its line number and byte offset.
struct Lines<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    /// The next line, its byte offset and its number (from 1).
    fn next(&mut self) -> Result<(&'a str, usize, usize)> {
        let rest = &self.text[self.at..];
        let Some(end) = rest.find('\n') else {
            bail!(
                "line {} (offset {}): the file ends early",
                self.line + 1,
                self.at
            );
        };
        let at = self.at;
        self.at += end + 1;
        self.line += 1;
        Ok((&rest[..end], at, self.line))
    }

    fn expect(&mut self, want: &str) -> Result<()> {
        let (line, at, n) = self.next()?;
        if line != want {
            bail!("line {n} (offset {at}): '{line}' where '{want}' belongs");
        }
        Ok(())
    }
}
