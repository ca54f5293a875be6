//! `scripts/opening-table`, the script that prints the opening tables from their games and
//! the one place their scoring is written, so the engine's tables are held to their games
//! here: on the committed games it prints the scores, the replies, the swaps and the first
//! pegs the engine ships (`twixt::bot::opening`), it counts a game from any hole on the
//! quarter line it mirrors, it takes the line of eight games or more that scores least, and it
//! names a line that is not a no-swap game instead of printing a table.

mod common;

use common::{python_script, scratch, text};
use std::path::Path;
use std::process::Output;
use twixt::bot::opening::{score, should_swap, table_first_pegs, table_reply};
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

/// The rows of table `name` (`P0_SCORE` or `REPLY`) that the script printed as Rust, each
/// row's entries as written.
fn rust_rows(out: &str, name: &str) -> Vec<Vec<String>> {
    let start = out
        .find(&format!("const {name}"))
        .unwrap_or_else(|| panic!("no table {name} in\n{out}"));
    let rows = out[start..]
        .lines()
        .take_while(|l| *l != "];")
        .filter(|l| l.trim_start().starts_with('['));
    rows.map(|l| {
        let inside = &l[l.find('[').unwrap() + 1..l.find(']').unwrap()];
        inside
            .split(", ")
            .map(|e| e.trim_matches('"').to_owned())
            .collect()
    })
    .collect()
}

#[test]
fn the_script_prints_the_tables_the_bot_ships() {
    let Some(run) = script(&["--check"]) else {
        return;
    };
    let (out, err) = (text(&run.stdout), text(&run.stderr));
    assert!(run.status.success(), "{out}{err}");
    let (scores, replies) = (rust_rows(&out, "P0_SCORE"), rust_rows(&out, "REPLY"));
    assert_eq!((scores.len(), replies.len()), (6, 6), "{out}");
    for c in quarter() {
        let (x, y) = (c.x() as usize - 1, c.y() as usize);
        assert_eq!(
            score(c).map(|s| s.to_string()),
            Some(scores[y][x].clone()),
            "{c}"
        );
        assert_eq!(
            table_reply(c).map(|r| r.to_string()),
            Some(replies[y][x].clone()),
            "{c}"
        );
    }
    let swapped = listed(&out, "player 1 swaps");
    for c in quarter() {
        assert_eq!(swapped.contains(&c), should_swap(c), "{c}: {swapped:?}");
    }
    let holes = quarter();
    let mut ours: Vec<Cell> = table_first_pegs()
        .into_iter()
        .filter(|c| holes.contains(c))
        .collect();
    ours.sort();
    let mut opens = listed(&out, "player 0's first pegs by the table");
    opens.sort();
    assert_eq!(opens, ours, "{out}");
}

/// A results file of `lines` (first peg, reply, winner), each a no-swap game as the referee
/// writes it.
fn games(dir: &Path, name: &str, lines: &[(&str, &str, &str)]) -> String {
    let path = dir.join(name);
    let body: String = lines
        .iter()
        .map(|(first, reply, winner)| {
            format!(
                "{{\"moves\":[\"{first}\",\"{reply}\"],\"opening\":1,\"winner\":{winner},\
                 \"cmd0\":\"bot --no-swap\",\"cmd1\":\"bot --no-swap\"}}\n"
            )
        })
        .collect();
    std::fs::write(&path, body).unwrap();
    path.to_string_lossy().into_owned()
}

/// The output of `scripts/opening-table --partial FILES`, which must succeed; `None` without
/// python3.
fn partial(files: &[&str]) -> Option<String> {
    let run = script(&[&["--partial"], files].concat())?;
    let out = text(&run.stdout);
    assert!(run.status.success(), "{out}{}", text(&run.stderr));
    Some(out)
}

/// The line of the script's output that starts with `start`.
fn line_of(out: &str, start: &str) -> String {
    let found = out.lines().find(|l| l.starts_with(start));
    found
        .unwrap_or_else(|| panic!("no line '{start}' in\n{out}"))
        .to_owned()
}

#[test]
fn a_mirrored_game_counts_on_its_quarter_line_and_a_bad_line_is_named() {
    let dir = scratch("opening-script");
    // C2 answered by G9, and its mirror images; H8 answered by G9 is E5 answered by F4.
    let mirrored = [
        ("C2", "G9", "0"),
        ("J2", "F9", "0"),
        ("C11", "G4", "1"),
        ("J11", "F4", "null"),
        ("C2", "F5", "1"),
        ("H8", "G9", "1"),
    ];
    let file = games(&dir, "mirrored.jsonl", &mirrored);
    let Some(out) = partial(&[&file]) else {
        return;
    };
    assert_eq!(line_of(&out, "  C2:"), "  C2: G9 2.5/4, F5 0/1", "{out}");
    assert_eq!(line_of(&out, "  E5:"), "  E5: F4 0/1", "{out}");
    assert_eq!(line_of(&out, "| 2 |"), "| 2 | - | - | - | - | - |", "{out}");
    assert!(
        !out.contains("P0_SCORE"),
        "a partial measurement is no table: {out}"
    );

    let whole = script(&[&file]).unwrap();
    assert_eq!(whole.status.code(), Some(2), "{}", text(&whole.stdout));
    let err = text(&whole.stderr);
    assert!(err.contains("no line of 8 games from B1 "), "{err}");

    for (first, why) in [("A5", "is not a first peg of player 0"), ("SWAP", "")] {
        let lines = [("C2", "G9", "0"), ("D3", "G9", "1"), (first, "G9", "0")];
        let file = games(&dir, "bad.jsonl", &lines);
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
fn the_reply_is_the_line_of_eight_games_that_scores_least() {
    let dir = scratch("opening-script-reply");
    // C2: G9 lost 6 of 8 for player 0, F5 lost all 8, E6 lost all 7 (too few to trust).
    let mut lines = vec![("C2", "G9", "1"); 6];
    lines.extend([("C2", "G9", "0"); 2]);
    lines.extend([("C2", "F5", "1"); 8]);
    lines.extend([("C2", "E6", "1"); 7]);
    let file = games(&dir, "lines.jsonl", &lines);
    let Some(out) = partial(&[&file]) else {
        return;
    };
    assert_eq!(
        line_of(&out, "  C2:"),
        "  C2: F5* 0/8, G9 2/8, E6 0/7",
        "{out}"
    );
    // (0 + 2) / (8 + 4) = 16.7%.
    assert_eq!(
        line_of(&out, "| 2 |"),
        "| 2 | - | F5 0/8 **17** | - | - | - |"
    );
}

#[test]
fn a_later_file_replaces_an_earlier_ones_games_hole_by_hole() {
    let dir = scratch("opening-script-later");
    let old_lines = [("C2", "G9", "0"), ("C2", "G9", "0"), ("D3", "G9", "1")];
    let old = games(&dir, "old.jsonl", &old_lines);
    let new = games(
        &dir,
        "new.jsonl",
        &[("J2", "F9", "1"), ("E5", "G9", "null")],
    );
    let Some(out) = partial(&[&old, &new]) else {
        return;
    };
    // C2 is the new file's one loss alone; D3 keeps the old file's game.
    assert_eq!(line_of(&out, "  C2:"), "  C2: G9 0/1", "{out}");
    assert_eq!(line_of(&out, "  D3:"), "  D3: G9 0/1", "{out}");
    assert_eq!(line_of(&out, "  E5:"), "  E5: G9 0.5/1", "{out}");
    assert!(out.starts_with("3 games (1 drawn)"), "{out}");
    assert!(out.contains("old.jsonl: D3\n"), "{out}");
    assert!(out.contains("new.jsonl: C2 E5\n"), "{out}");
}
