//! `scripts/opening-table`, the script that prints the opening table from its games: on the
//! committed games it prints the table, the swaps and the first pegs the engine ships
//! (`twixt::bot::opening`), it counts a game from any hole on the quarter hole it mirrors, and
//! it names a line that is not a no-swap game instead of printing a table.

mod common;

use common::{python_script, scratch, text};
use std::path::Path;
use std::process::Output;
use twixt::bot::opening::{first_pegs, score, should_swap};
use twixt::Cell;

/// Runs `python3 scripts/opening-table ARGS`; `None` without python3.
fn script(args: &[&str]) -> Option<Output> {
    python_script("opening-table", args)
}

/// The quarter board's holes: columns B-F, rows 1-6.
fn quarter() -> Vec<Cell> {
    let names = (1..=6).flat_map(|r| "BCDEF".chars().map(move |c| format!("{c}{r}")));
    names.map(|n| n.parse().unwrap()).collect()
}

/// The holes listed after `label` on a line of the script's output.
fn listed(out: &str, label: &str) -> Vec<Cell> {
    let line = out.lines().find(|l| l.starts_with(label));
    let line = line.unwrap_or_else(|| panic!("no line '{label}' in\n{out}"));
    let holes = line.split_once(": ").unwrap().1.split_whitespace();
    holes.map(|h| h.parse().unwrap()).collect()
}

/// The rows of the `P0_SCORE` table the script printed as Rust.
fn rust_rows(out: &str) -> Vec<Vec<u8>> {
    let start = out
        .find("const P0_SCORE")
        .unwrap_or_else(|| panic!("no table in\n{out}"));
    let rows = out[start..]
        .lines()
        .filter(|l| l.trim_start().starts_with('['));
    rows.map(|l| {
        let inside = &l[l.find('[').unwrap() + 1..l.find(']').unwrap()];
        inside.split(", ").map(|n| n.parse().unwrap()).collect()
    })
    .collect()
}

#[test]
fn the_script_prints_the_table_the_bot_ships() {
    let Some(run) = script(&["--check"]) else {
        return;
    };
    let (out, err) = (text(&run.stdout), text(&run.stderr));
    assert!(run.status.success(), "{out}{err}");
    let rows = rust_rows(&out);
    assert_eq!(rows.len(), 6, "{out}");
    for c in quarter() {
        let printed = rows[c.y() as usize][c.x() as usize - 1];
        assert_eq!(score(c), Some(printed), "{c}: the script printed {printed}");
    }
    let swapped = listed(&out, "player 1 swaps");
    for c in quarter() {
        assert_eq!(swapped.contains(&c), should_swap(c), "{c}: {swapped:?}");
    }
    let holes = quarter();
    let mut ours: Vec<Cell> = first_pegs()
        .into_iter()
        .filter(|c| holes.contains(c))
        .collect();
    ours.sort();
    let mut opens = listed(&out, "player 0 opens on");
    opens.sort();
    assert_eq!(opens, ours, "{out}");
}

/// A results file of `lines` (first peg, winner), each a no-swap game as the referee writes it.
fn games(dir: &Path, name: &str, lines: &[(&str, &str)]) -> String {
    let path = dir.join(name);
    let body: String = lines
        .iter()
        .map(|(first, winner)| {
            format!(
                "{{\"moves\":[\"{first}\",\"G9\"],\"opening\":1,\"winner\":{winner},\
                 \"cmd0\":\"bot --no-swap\",\"cmd1\":\"bot --no-swap\"}}\n"
            )
        })
        .collect();
    std::fs::write(&path, body).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_mirrored_hole_counts_on_its_quarter_hole_and_a_bad_line_is_named() {
    let dir = scratch("opening-script");
    // C2's mirror images J2, C11 and J11, and E5's L-side twin H8, besides C2 itself.
    let mirrored = [
        ("C2", "0"),
        ("J2", "0"),
        ("C11", "1"),
        ("J11", "null"),
        ("H8", "1"),
    ];
    let file = games(&dir, "mirrored.jsonl", &mirrored);
    let Some(run) = script(&["--partial", &file]) else {
        return;
    };
    let out = text(&run.stdout);
    assert!(run.status.success(), "{out}{}", text(&run.stderr));
    let row = |r: &str| out.lines().find(|l| l.starts_with(r)).unwrap().to_owned();
    assert_eq!(
        row("| 2 |"),
        "| 2 | - | 2.5/4 **63** | - | - | - |",
        "{out}"
    );
    assert_eq!(row("| 5 |"), "| 5 | - | - | - | 0/1 **0** | - |", "{out}");
    assert!(
        !out.contains("P0_SCORE"),
        "a partial measurement is no table: {out}"
    );

    let whole = script(&[&file]).unwrap();
    assert_eq!(whole.status.code(), Some(2), "{}", text(&whole.stdout));
    assert!(
        text(&whole.stderr).contains("no games from B1 "),
        "{}",
        text(&whole.stderr)
    );

    for (first, why) in [("A5", "not a hole player 0 may open on"), ("SWAP", "")] {
        let file = games(&dir, "bad.jsonl", &[("C2", "0"), ("D3", "1"), (first, "0")]);
        let run = script(&["--partial", &file]).unwrap();
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{first}: {err}");
        assert!(err.contains(&format!("{file}:3: ")), "{first}: {err}");
        assert!(err.contains(why), "{first}: {err}");
    }
    let torn = dir.join("torn.jsonl");
    std::fs::write(&torn, "{\"moves\":").unwrap();
    let run = script(&["--partial", torn.to_str().unwrap()]).unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("torn.jsonl:1: not a game record"));
}

#[test]
fn a_later_file_replaces_an_earlier_ones_games_hole_by_hole() {
    let dir = scratch("opening-script-later");
    let old = games(&dir, "old.jsonl", &[("C2", "0"), ("C2", "0"), ("D3", "1")]);
    let new = games(&dir, "new.jsonl", &[("J2", "1"), ("E5", "null")]);
    let Some(run) = script(&["--partial", &old, &new]) else {
        return;
    };
    let out = text(&run.stdout);
    assert!(run.status.success(), "{out}{}", text(&run.stderr));
    let row = |r: &str| out.lines().find(|l| l.starts_with(r)).unwrap().to_owned();
    // C2 is the new file's one loss alone; D3 keeps the old file's game.
    assert_eq!(row("| 2 |"), "| 2 | - | 0/1 **0** | - | - | - |", "{out}");
    assert_eq!(row("| 3 |"), "| 3 | - | - | 0/1 **0** | - | - |", "{out}");
    assert_eq!(
        row("| 5 |"),
        "| 5 | - | - | - | 0.5/1 **50** | - |",
        "{out}"
    );
    assert!(out.starts_with("3 games (1 drawn)"), "{out}");
    assert!(out.contains("old.jsonl: D3\n"), "{out}");
    assert!(out.contains("new.jsonl: C2 E5\n"), "{out}");
}
