//! `docs/STRENGTH.md` as the index and the records make it: a short head, the shipped bot's
//! matches against its baseline, every match newest first, what each one measured with the
//! command that repeats it, and the hand-written history.

use super::figures::Figures;
use super::index::{Entry, Index};
use std::cmp::Reverse;
use std::fmt::Write;
use std::path::Path;

/// The page's head: what a row is and how its figures are made.
const HEAD: &str = "# Playing strength: every match, from its records

Made by `twixt-referee table docs/matches/index.toml` from the index of matches
(`docs/matches/index.toml`, one entry a match) and their records (`docs/matches/*.jsonl`, one
JSON line a game); a test fails when this file differs from what the command makes, so edit the
index, never this file.

- A row is one match between engines A and B, in pairs that play each opening twice with the
  seats swapped. Elo ± is A's over B with its 95% interval, from the pairs' pentanomial counts
  (fastchess's formulas); A's points are given in all, then as player 0 + as player 1.
- The verdict is the SPRT's, the first bound its likelihood ratio reached in the order the games
  were recorded; without an SPRT, whether the 95% interval leaves out an even score.
- Figures in *italics* are as reported when the match was played: its records were not committed.
- Under the table, each match says in a line or two what it measured, and gives the command
  that repeats it from a clone (after `cargo build --release`), or, marked \"as run\", the
  command as it was run with binaries or opponents from outside the repository.
";

/// One match as the table shows it.
pub struct Row<'a> {
    /// Its entry in the index.
    pub entry: &'a Entry,
    /// Its figures, when its records were committed.
    pub figures: Option<Figures>,
}

/// The whole page. `out_dir` is the folder the page is written to, so that its links to the
/// records are relative to it.
pub fn page(index: &Index, rows: &[Row], history: &str, out_dir: &Path) -> String {
    let mut order: Vec<&Row> = rows.iter().collect();
    order.sort_by_key(|r| {
        let e = r.entry;
        Reverse((e.date.to_string(), e.number(), e.id.clone()))
    });
    let links = Links::new(index, out_dir);
    let mut out = format!("{HEAD}\n## The shipped bot against its baseline\n\n");
    let headline: Vec<&Row> = order.iter().copied().filter(|r| r.entry.headline).collect();
    table(&mut out, &headline, &links);
    out.push_str("\n## Every match, newest first\n\n");
    table(&mut out, &order, &links);
    out.push_str("\n## What each match measured, and its command\n\n");
    for r in &order {
        details(&mut out, r.entry);
    }
    if !history.is_empty() {
        out.push('\n');
        out.push_str(history.trim_end());
        out.push('\n');
    }
    out
}

fn table(out: &mut String, rows: &[&Row], links: &Links) {
    out.push_str(
        "| # | date | A | B | openings | clock | games | Elo ± 95% | A's points (p0 + p1) | verdict | records |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for r in rows {
        let e = r.entry;
        let [games, elo, points, verdict] = figures(r);
        let records = if e.records.is_empty() {
            "not committed".to_string()
        } else {
            let each: Vec<String> = e.records.iter().map(|f| links.record(f)).collect();
            each.join(", ")
        };
        let _ = writeln!(
            out,
            "| [{id}](#m{id}) | {} | {} | {} | {} | {} | {games} | {elo} | {points} | {verdict} | {records} |",
            e.date,
            cell(&e.a),
            cell(&e.b),
            cell(&e.openings),
            cell(&e.clock),
            id = e.id,
        );
    }
}

/// Games, Elo, points and verdict: computed, or as reported in italics.
fn figures(r: &Row) -> [String; 4] {
    if let Some(f) = &r.figures {
        return [f.games().to_string(), f.elo(), f.points(), f.verdict()];
    }
    let rep = r
        .entry
        .reported
        .as_ref()
        .expect("checked: records or reported");
    let italic = |s: &str| format!("*{}*", cell(s));
    let or_dash = |s: &Option<String>| s.as_deref().map_or("-".to_string(), italic);
    [
        italic(&rep.games.to_string()),
        or_dash(&rep.elo),
        or_dash(&rep.points),
        italic(&rep.verdict),
    ]
}

/// A match's line under the table: what it measured, then its command.
fn details(out: &mut String, e: &Entry) {
    let command = match (&e.command, &e.as_run) {
        (Some(c), _) => format!("Repeat: `{c}`"),
        (None, Some(c)) => format!("As run: `{c}`"),
        (None, None) => unreachable!("checked: a command or the command as run"),
    };
    let sprt = match &e.sprt {
        Some(s) if !command.contains("--sprt") => format!(" SPRT {s}."),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "- <a name=\"m{id}\"></a>**{id}**: {} {command}{sprt}",
        one_line(&e.what),
        id = e.id
    );
}

/// A table cell's text: one line, no bare `|`.
fn cell(text: &str) -> String {
    one_line(text).replace('|', "\\|")
}

/// The text on one line, its runs of white space made single spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Links from the page's folder to the index's records.
struct Links {
    prefix: String,
}

impl Links {
    fn new(index: &Index, out_dir: &Path) -> Links {
        let records = super::index::folder_of(&index.path);
        Links {
            prefix: relative(out_dir, records),
        }
    }

    /// `[gen5-vs-d003f5e-empty](matches/gen5-vs-d003f5e-empty.jsonl)`.
    fn record(&self, name: &str) -> String {
        let stem = name.strip_suffix(".jsonl").unwrap_or(name);
        format!("[{}]({}{name})", cell(stem), self.prefix)
    }
}

/// The path from folder `from` to folder `to` as a link prefix (`matches/`, `../docs/matches/`,
/// or empty for the same folder), from their absolute forms where they exist.
pub(super) fn relative(from: &Path, to: &Path) -> String {
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (from, to) = (absolute(from), absolute(to));
    let (f, t): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out = String::new();
    for _ in common..f.len() {
        out.push_str("../");
    }
    for c in &t[common..] {
        out.push_str(&c.as_os_str().to_string_lossy());
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_go_from_the_page_to_the_records() {
        let dir = std::env::temp_dir().join(format!("twixt-table-links-{}", std::process::id()));
        let records = dir.join("docs/matches");
        std::fs::create_dir_all(&records).unwrap();
        assert_eq!(relative(&dir.join("docs"), &records), "matches/");
        assert_eq!(relative(&records, &records), "");
        std::fs::create_dir_all(records.join("x")).unwrap();
        assert_eq!(relative(&records.join("x"), &dir.join("docs")), "../../");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn cells_hold_one_line_and_no_bare_bar() {
        assert_eq!(cell(" a |b\n c "), "a \\|b c");
    }
}
