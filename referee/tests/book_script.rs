//! `scripts/balanced-book`, the script that makes the balanced book: its candidates are
//! distinct openings of the inner holes drawn from the seed, `select` keeps exactly the
//! openings whose player 0 scored within the band over enough games and names a bad line, and
//! the committed book is one the referee reads, every opening scored within 40-60%.

mod common;

use common::{python_script, scratch, text, workspace_root};
use std::collections::HashSet;
use std::path::Path;
use std::process::Output;
use twixt::Cell;
use twixt_referee::openings::read_openings;

/// Runs `python3 scripts/balanced-book ARGS`; `None` without python3.
fn script(args: &[&str]) -> Option<Output> {
    python_script("balanced-book", args)
}

#[test]
fn the_candidates_are_distinct_inner_openings_drawn_from_the_seed() {
    let Some(run) = script(&["candidates", "--ones", "10", "--twos", "40", "--seed", "5"]) else {
        return;
    };
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 50, "{out}");
    assert_eq!(lines.iter().collect::<HashSet<_>>().len(), 50, "{out}");
    for (i, line) in lines.iter().enumerate() {
        let pegs: Vec<Cell> = line.split(' ').map(|p| p.parse().unwrap()).collect();
        assert_eq!(pegs.len(), if i < 10 { 1 } else { 2 }, "{line}");
        assert!(pegs
            .iter()
            .all(|c| (2..=9).contains(&c.x()) && (2..=9).contains(&c.y())));
        assert!(pegs.len() == 1 || pegs[0] != pegs[1], "{line}");
    }
    let again = script(&["candidates", "--ones", "10", "--twos", "40", "--seed", "5"]).unwrap();
    assert_eq!(text(&again.stdout), out);
    let other = script(&["candidates", "--ones", "10", "--twos", "40", "--seed", "6"]).unwrap();
    assert_ne!(text(&other.stdout), out);
}

/// A results file of games (opening moves, winner) as the referee writes them.
fn games(dir: &Path, name: &str, lines: &[(&str, &str)]) -> String {
    let path = dir.join(name);
    let body: String = lines
        .iter()
        .map(|(opening, winner)| {
            let n = opening.split(' ').count();
            let moves: Vec<String> = opening
                .split(' ')
                .chain(["B2", "K11"])
                .map(|m| format!("\"{m}\""))
                .collect();
            format!(
                "{{\"moves\":[{}],\"opening\":{n},\"winner\":{winner},\"reason\":\"connected\"}}\n",
                moves.join(",")
            )
        })
        .collect();
    std::fs::write(&path, body).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn select_keeps_the_openings_scored_within_the_band_and_names_a_bad_line() {
    let dir = scratch("book-script");
    let mut played = Vec::new();
    // Player 0's points: E5 2 of 4 (kept), F6 G8 3 of 4 (out), D4 1.5 of 4 with a draw
    // (0.375, out), H7 C5 2 of 5 (0.40, kept on the band's edge), J9 2 of 3 (too few games).
    for w in ["0", "1", "0", "1"] {
        played.push(("E5", w));
    }
    for w in ["0", "0", "0", "1"] {
        played.push(("F6 G8", w));
    }
    for w in ["0", "null", "1", "1"] {
        played.push(("D4", w));
    }
    for w in ["0", "1", "0", "1", "1"] {
        played.push(("H7 C5", w));
    }
    for w in ["0", "1", "0"] {
        played.push(("J9", w));
    }
    let file = games(&dir, "games.jsonl", &played);
    let Some(run) = script(&["select", "--min-games", "4", &file]) else {
        return;
    };
    let out = text(&run.stdout);
    assert!(run.status.success(), "{out}{}", text(&run.stderr));
    let kept: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(kept, ["E5", "H7 C5"], "{out}");
    assert!(out.contains("20 games of 5 openings"), "{out}");
    assert!(out.contains("E5       # 0.500 over 4 games"), "{out}");

    let bad = dir.join("bad.jsonl");
    let first = std::fs::read_to_string(&file).unwrap();
    let first = first.lines().next().unwrap();
    std::fs::write(&bad, format!("{first}\n{{\"moves\":[]}}\n")).unwrap();
    let run = script(&["select", bad.to_str().unwrap()]).unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(
        err.contains("bad.jsonl:2: not a game of twixt-referee"),
        "{err}"
    );
    let run = script(&["select", dir.join("missing.jsonl").to_str().unwrap()]).unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("missing.jsonl"),
        "{}",
        text(&run.stderr)
    );
}

#[test]
fn the_committed_book_is_read_by_the_referee_and_scored_within_the_band() {
    let path = workspace_root().join("docs/openings/balanced.txt");
    let openings = read_openings(&path).expect("the referee reads the book");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(openings.len(), lines.len());
    assert!(openings.len() >= 40, "{} openings", openings.len());
    for line in lines {
        let comment = line.split_once("# ").expect("a score comment").1;
        let score: f64 = comment.split(' ').next().unwrap().parse().unwrap();
        assert!((0.4..=0.6).contains(&score), "{line}");
        assert!(comment.ends_with("over 32 games"), "{line}");
    }
}
