//! The text file both models are kept in, the policy's ([`crate::policy::file`]) and the value
//! network's ([`crate::net::file`]): a magic line, the model's header lines, its `f32`
//! weights one a line, and a checksum.
//!
//! ```text
//! MAGIC
//! key value             each model's own header lines
//! w0
//! ...
//! w(N-1)
//! crc32 XXXXXXXX        of the N weight lines, each with its newline
//! ```
//! Weights are written with Rust's shortest round-trip formatting, so reading a model back
//! gives the very same `f32`s. Damage is an error naming the line and its byte offset, and
//! [`read`] names the file too.

use anyhow::{bail, Context, Result};
use std::path::Path;

/// The text of a model file: `head` (the magic line and the header lines, each with its
/// newline), the weights and their checksum.
pub fn to_text(head: &str, weights: &[f32]) -> String {
    let body: String = weights.iter().map(|w| format!("{w:?}\n")).collect();
    format!(
        "{head}{body}crc32 {:08x}\n",
        crc32fast::hash(body.as_bytes())
    )
}

/// Writes `text` to `path`; an error names the file.
pub fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| path.display().to_string())
}

/// Reads the file `path` and parses it with `parse`; an error names the file, then the line.
pub fn read<T>(path: &Path, parse: impl FnOnce(&str) -> Result<T>) -> Result<T> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    parse(&text).with_context(|| path.display().to_string())
}

/// A cursor over a model file's lines that knows each line's number and byte offset.
pub struct Lines<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text,
            at: 0,
            line: 0,
        }
    }

    /// Where the next line is: `line N (offset O)`.
    fn place(&self) -> String {
        format!("line {} (offset {})", self.line + 1, self.at)
    }

    /// The next line (without its newline) and where it is; an error at the end of the text.
    pub fn line(&mut self) -> Result<(&'a str, String)> {
        let place = self.place();
        let rest = &self.text[self.at..];
        let Some(end) = rest.find('\n') else {
            bail!("{place}: the file ends early");
        };
        self.at += end + 1;
        self.line += 1;
        Ok((&rest[..end], place))
    }

    /// Reads the line `want`; another line is an error that names both.
    pub fn expect(&mut self, want: &str) -> Result<()> {
        let (line, place) = self.line()?;
        if line != want {
            bail!("{place}: '{line}' where '{want}' belongs");
        }
        Ok(())
    }

    /// Reads the line `want` if it is next, and says whether it was; any other line is left.
    pub fn optional(&mut self, want: &str) -> bool {
        let before = (self.at, self.line);
        match self.line() {
            Ok((line, _)) if line == want => true,
            _ => {
                (self.at, self.line) = before;
                false
            }
        }
    }

    /// Reads `n` weights, their checksum and the end of the text: each weight a finite `f32`,
    /// the checksum that of their lines.
    pub fn weights(&mut self, n: usize) -> Result<Vec<f32>> {
        let start = self.at;
        let mut weights = Vec::with_capacity(n);
        for k in 0..n {
            let (line, place) = self
                .line()
                .with_context(|| format!("weight {k} of {n} is missing"))?;
            let w: f32 = line
                .parse()
                .with_context(|| format!("{place}: '{line}' is not a weight"))?;
            if !w.is_finite() {
                bail!("{place}: weight '{line}' is not a finite number");
            }
            weights.push(w);
        }
        let body = &self.text[start..self.at];
        let (line, place) = self.line()?;
        let expected = format!("crc32 {:08x}", crc32fast::hash(body.as_bytes()));
        if line != expected {
            bail!("{place}: '{line}' where the weights give '{expected}' (the file is damaged)");
        }
        if self.at != self.text.len() {
            bail!("{}: text after the checksum", self.place());
        }
        Ok(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<f32>> {
        let mut lines = Lines::new(text);
        lines.expect("magic")?;
        let holes = lines.optional("holes 3");
        lines.weights(if holes { 3 } else { 2 })
    }

    fn error(text: &str) -> String {
        format!("{:#}", parse(text).unwrap_err())
    }

    #[test]
    fn weights_round_trip_and_an_optional_line_is_read_only_where_it_stands() {
        let text = to_text("magic\n", &[0.1, -2.5]);
        assert_eq!(parse(&text).unwrap(), [0.1, -2.5]);
        let text = to_text("magic\nholes 3\n", &[1.0, f32::MIN_POSITIVE, 3.0]);
        assert_eq!(parse(&text).unwrap(), [1.0, f32::MIN_POSITIVE, 3.0]);
    }

    #[test]
    fn damage_names_the_line_and_its_offset() {
        let text = to_text("magic\n", &[0.1, -2.5]);
        assert_eq!(
            error("magi\n"),
            "line 1 (offset 0): 'magi' where 'magic' belongs"
        );
        assert_eq!(
            error(&text.replace("-2.5", "x")),
            "line 3 (offset 10): 'x' is not a weight: invalid float literal"
        );
        assert_eq!(
            error(&text.replace("-2.5", "inf")),
            "line 3 (offset 10): weight 'inf' is not a finite number"
        );
        assert!(error(&text.replace("-2.5", "-2.6")).starts_with("line 4 (offset 15): 'crc32 "));
        assert_eq!(
            error("magic\n0.1\n"),
            "weight 1 of 2 is missing: line 3 (offset 10): the file ends early"
        );
        assert_eq!(
            error(&format!("{text}more\n")),
            format!("line 5 (offset {}): text after the checksum", text.len())
        );
        let path = Path::new("/no/such/model");
        let e = format!("{:#}", read(path, parse).unwrap_err());
        assert!(e.starts_with("/no/such/model: "), "{e}");
    }
}
