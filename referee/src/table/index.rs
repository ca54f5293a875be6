//! The index of matches (`docs/matches/index.toml`): one `[[match]]` entry a match, written by
//! hand or by `table --add`, saying what played, how, what the match meant, where its records
//! are and the command that repeats it. Figures are written here only for a match whose
//! records were not committed; every other figure is computed from the records.

use crate::sprt::Sprt;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use toml::value::Datetime;
use toml::Spanned;

/// The index file as written.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct IndexFile {
    /// The hand-written page of what moved strength, relative to the index's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<String>,
    /// The matches, in the file's order.
    #[serde(rename = "match", default)]
    pub matches: Vec<Spanned<Entry>>,
}

/// One match.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Its name in the table: the old table's row number for the matches it held (history
    /// cites them), the next number for a new one, or a short tag (letters, digits, `-`).
    pub id: String,
    /// The day it was played (or, for old rows, the day its row was written).
    pub date: Datetime,
    /// Engine A, the one the figures are about: a commit where known, else the name used.
    pub a: String,
    /// Engine B.
    pub b: String,
    /// Where games started: `balanced book`, `random pegs 2`, `empty board`, ...
    pub openings: String,
    /// The clocks the engines played under.
    pub clock: String,
    /// What the match measured and what it decided, in a line or two.
    pub what: String,
    /// The results files, relative to the index's folder (several for a resumed or sharded
    /// match, or runs at several seeds counted as one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<String>,
    /// The SPRT it ran under, as `match --sprt` takes it: `elo0=0 elo1=30 alpha=0.05 beta=0.05`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// A command that repeats it from a clone of the repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The command as it was run, where it cannot be run from a clone (binaries or opponents
    /// outside the repository, options since removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_run: Option<String>,
    /// One of the shipped bot's matches against its baseline, shown first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub headline: bool,
    /// The figures as reported, for a match without committed records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported: Option<Reported>,
}

/// The figures of a match whose records were not committed, as its row gave them.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Reported {
    /// The games played (a number, or a text such as `100 + 100`).
    pub games: Count,
    /// A's Elo with its 95% interval, if one was computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<String>,
    /// A's points, overall and by seat where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<String>,
    /// The SPRT's verdict or what the figures showed.
    pub verdict: String,
}

/// A count as written: a number, or a text where a row summed several runs.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Count {
    /// A plain number.
    Number(u64),
    /// A text such as `100 + 100`.
    Text(String),
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Number(n) => write!(f, "{n}"),
            Count::Text(t) => f.write_str(t),
        }
    }
}

/// The index, read and checked: its entries in the file's order.
#[derive(Clone, Debug)]
pub struct Index {
    /// The index file.
    pub path: PathBuf,
    /// The history page's path, if the index names one.
    pub history: Option<PathBuf>,
    /// The matches.
    pub entries: Vec<Entry>,
}

impl Index {
    /// Reads and checks an index file. An error names the file and, for a bad entry, its
    /// place (entry number and line) and id.
    pub fn read(path: &Path) -> Result<Index> {
        let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
        Index::parse(&text, path)
    }

    /// [`Index::read`] of a text read from `path`.
    pub fn parse(text: &str, path: &Path) -> Result<Index> {
        let file: IndexFile = toml::from_str(text)
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
        let mut ids = HashSet::new();
        let mut entries = Vec::new();
        for (i, spanned) in file.matches.into_iter().enumerate() {
            let line = 1 + text[..spanned.span().start].matches('\n').count();
            let entry = spanned.into_inner();
            let place = || {
                format!(
                    "{}: match {} (line {line}, id {:?})",
                    path.display(),
                    i + 1,
                    entry.id
                )
            };
            entry.check().with_context(place)?;
            if !ids.insert(entry.id.clone()) {
                bail!("{}: the id is used by an earlier match", place());
            }
            entries.push(entry);
        }
        let folder = folder_of(path);
        Ok(Index {
            path: path.to_path_buf(),
            history: file.history.map(|h| folder.join(h)),
            entries,
        })
    }

    /// The path of a record file named by an entry (relative to the index's folder).
    pub fn record_path(&self, name: &str) -> PathBuf {
        folder_of(&self.path).join(name)
    }
}

/// The folder a file is in (`.` for a bare file name).
pub(super) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

impl Entry {
    /// What makes an entry usable: its fields filled in and consistent.
    fn check(&self) -> Result<()> {
        if self.id.is_empty()
            || !self
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            bail!("id: letters, digits and '-' only, not {:?}", self.id);
        }
        if self.date.date.is_none() || self.date.time.is_some() {
            bail!("date: a day such as 2026-11-28, not {}", self.date);
        }
        let texts = [
            ("a", &self.a),
            ("b", &self.b),
            ("openings", &self.openings),
            ("clock", &self.clock),
            ("what", &self.what),
        ];
        for (name, text) in texts {
            if text.trim().is_empty() {
                bail!("{name}: empty");
            }
        }
        match (self.records.is_empty(), &self.reported) {
            (true, None) => bail!("neither records nor reported figures"),
            (false, Some(_)) => {
                bail!("both records and reported figures: the records' figures are computed")
            }
            _ => {}
        }
        if self.command.is_none() && self.as_run.is_none() {
            bail!("neither a command nor the command as run");
        }
        self.sprt().map(|_| ())
    }

    /// The SPRT the match ran under, if any.
    pub fn sprt(&self) -> Result<Option<Sprt>> {
        self.sprt
            .as_deref()
            .map(|s| Sprt::parse(&[s.to_string()]).context("sprt"))
            .transpose()
    }

    /// The id as a number, for a numbered match.
    pub fn number(&self) -> Option<u64> {
        self.id.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENTRY: &str = r#"
[[match]]
id = "7"
date = 2026-11-21
a = "rave_k=500"
b = "plain UCT"
openings = "random pegs 2"
clock = "60 ms a turn"
what = "RAVE against plain UCT."
as_run = "twixt-referee match A B"
reported = { games = 300, elo = "+49.0 ± 36.6", verdict = "kept" }
"#;

    fn parse(text: &str) -> Result<Index> {
        Index::parse(text, Path::new("docs/matches/index.toml"))
    }

    #[test]
    fn an_entry_reads_with_its_figures_and_paths() {
        let index = parse(&format!("history = \"history.md\"\n{ENTRY}")).unwrap();
        let e = &index.entries[0];
        assert_eq!(
            (e.id.as_str(), e.date.to_string()),
            ("7", "2026-11-21".into())
        );
        assert_eq!(e.reported.as_ref().unwrap().games, Count::Number(300));
        assert_eq!(e.number(), Some(7));
        assert_eq!(
            index.history,
            Some(PathBuf::from("docs/matches/history.md"))
        );
        assert_eq!(
            index.record_path("x.jsonl"),
            PathBuf::from("docs/matches/x.jsonl")
        );
    }

    #[test]
    fn a_bad_entry_is_named_by_its_place_and_id() {
        let second = ENTRY.replace("\"7\"", "\"8\"").replace("60 ms a turn", " ");
        let err = parse(&format!("{ENTRY}{second}")).unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            "docs/matches/index.toml: match 2 (line 13, id \"8\"): clock: empty"
        );
        let twice = parse(&format!("{ENTRY}{ENTRY}")).unwrap_err();
        assert!(
            twice
                .to_string()
                .ends_with("match 2 (line 13, id \"7\"): the id is used by an earlier match"),
            "{twice}"
        );
    }

    #[test]
    fn figures_come_from_records_or_are_reported_but_not_both() {
        let both = ENTRY.replace("as_run", "records = [\"r.jsonl\"]\nas_run");
        let neither = ENTRY.replace("reported =", "# reported =");
        let bad_sprt = ENTRY.replace("as_run", "sprt = \"elo0=0 elo1=30\"\nas_run");
        for (text, why) in [
            (both, "both records and reported figures"),
            (neither, "neither records nor reported figures"),
            (bad_sprt, "sprt: SPRT: alpha is missing"),
        ] {
            let err = format!("{:#}", parse(&text).unwrap_err());
            assert!(err.contains(why), "{err}");
        }
    }

    #[test]
    fn a_toml_error_or_an_unknown_field_names_the_file_and_line() {
        let typo = ENTRY.replace("what =", "waht =");
        let err = parse(&typo).unwrap_err().to_string();
        assert!(err.starts_with("docs/matches/index.toml: "), "{err}");
        assert!(
            err.contains("line 9") && err.contains("unknown field `waht`"),
            "{err}"
        );
        let date = parse(&ENTRY.replace("2026-11-21", "\"yesterday\"")).unwrap_err();
        assert!(date.to_string().contains("line 4"), "{date}");
    }
}
