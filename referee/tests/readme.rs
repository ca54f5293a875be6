//! The README's strength table says what its records say: each row's games, Elo ± 95% (as
//! `match` and `merge` work them out) or points, recomputed from the record files it names
//! in `docs/matches/`.

use std::path::{Path, PathBuf};
use twixt_referee::record::read_records;
use twixt_referee::stats::Estimate;
use twixt_referee::tally::Tally;

/// The heading of the README's section that holds the table.
const SECTION: &str = "## How strong";

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The text from `SECTION` to the next `## ` heading.
fn section(text: &str) -> &str {
    let start = text
        .find(SECTION)
        .expect("the README has a strength section");
    let rest = &text[start + SECTION.len()..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

/// One row of the table: its cells, trimmed.
fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(str::trim).collect()
}

/// The record files a cell names (backquoted `*.jsonl`), under `docs/matches/`.
fn record_files(cell: &str) -> Vec<PathBuf> {
    let matches = workspace_root().join("docs/matches");
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| name.ends_with(".jsonl"))
        .map(|name| matches.join(name))
        .collect()
}

/// Engine A's counts over every game of the files, in order.
fn tally(files: &[PathBuf]) -> Tally {
    let mut tally = Tally::default();
    for file in files {
        let records = read_records(file).unwrap_or_else(|e| panic!("{e:#}"));
        records.iter().for_each(|r| tally.add(r));
    }
    tally
}

/// A's points as the README writes them: `79`, or `79.5` with a draw's half.
fn points(tally: &Tally) -> String {
    let halves = 2 * tally.wdl.wins + tally.wdl.draws;
    if halves.is_multiple_of(2) {
        (halves / 2).to_string()
    } else {
        format!("{:.1}", halves as f64 / 2.0)
    }
}

/// The result cell as the records give it: `+230.2 ± 40.3 Elo` where the README quotes an Elo,
/// else `POINTS/GAMES`.
fn result(quoted: &str, tally: &Tally) -> String {
    if quoted.ends_with(" Elo") {
        let e = Estimate::from_penta(&tally.penta).expect("whole pairs");
        format!("{:+.1} ± {:.1} Elo", e.elo, e.elo_error)
    } else {
        format!("{}/{}", points(tally), tally.wdl.games())
    }
}

#[test]
fn the_strength_table_is_its_records() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let rows: Vec<Vec<&str>> = section(&readme)
        .lines()
        .filter(|l| l.starts_with('|') && l.contains(".jsonl"))
        .map(cells)
        .collect();
    assert!(rows.len() >= 3, "the table has {} rows", rows.len());
    for row in rows {
        let [_, _, games, quoted, records] = row[..] else {
            panic!("a row of five cells: {row:?}");
        };
        let files = record_files(records);
        assert!(!files.is_empty(), "{row:?}");
        let tally = tally(&files);
        assert_eq!(games, tally.wdl.games().to_string(), "{row:?}");
        assert_eq!(quoted, result(quoted, &tally), "{row:?}");
    }
}
