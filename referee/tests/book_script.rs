//! `scripts/balanced-book`, the script that makes the balanced books: its candidates are
//! distinct openings drawn from the seed (of the inner holes, or a first peg anywhere player
//! 0 may play), `screen` keeps the pairs the search values within the band and names a bot
//! that gives no value, `select` keeps exactly the openings whose player 0 scored within the
//! band over enough games and names a bad line, and the committed books (at 800 iterations
//! and at CodinGame's clocks) are read by the referee, every opening scored within 40-60%,
//! those at CodinGame's clocks exactly what `select` makes of the games committed beside them.

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

#[test]
fn with_first_any_a_pairs_first_peg_may_be_any_hole_of_player_0() {
    let Some(run) = script(&[
        "candidates",
        "--ones",
        "0",
        "--twos",
        "200",
        "--first",
        "any",
    ]) else {
        return;
    };
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    let pairs: Vec<Vec<Cell>> = out
        .lines()
        .map(|l| l.split(' ').map(|p| p.parse().unwrap()).collect())
        .collect();
    assert_eq!(pairs.len(), 200, "{out}");
    assert_eq!(out.lines().collect::<HashSet<_>>().len(), 200, "{out}");
    let inner = |c: &Cell| (2..=9).contains(&c.x()) && (2..=9).contains(&c.y());
    for pair in &pairs {
        assert!(
            (1..=10).contains(&pair[0].x()),
            "{pair:?}: player 1's column"
        );
        assert!(inner(&pair[1]) && pair[0] != pair[1], "{pair:?}");
    }
    // About 44 of 120 holes of player 0 are outside the inner square.
    let outer = pairs.iter().filter(|p| !inner(&p[0])).count();
    assert!((30..=120).contains(&outer), "{outer} outer first pegs");
    assert!(pairs.iter().any(|p| p[0].y() == 0 || p[0].y() == 11));
    let run = script(&["candidates", "--first", "edge"]).unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("--first edge"));
}

#[test]
fn screen_keeps_the_pairs_the_search_values_within_the_band_and_names_a_failing_bot() {
    let dir = scratch("book-screen");
    let file = dir.join("candidates.txt");
    std::fs::write(&file, "C4\nC9 E5\nF6 G7   # a comment\n\n").unwrap();
    let analyst = common::bot("analyst.sh");
    let Some(run) = script(&[
        "screen",
        "--bot",
        &analyst,
        "--ms",
        "5",
        "--jobs",
        "2",
        file.to_str().unwrap(),
    ]) else {
        return;
    };
    let out = text(&run.stdout);
    assert!(run.status.success(), "{out}{}", text(&run.stderr));
    let kept: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    // The stand-in values player 0 at 0.52 after E5 and 0.83 after G7.
    assert_eq!(
        kept,
        ["C4       # not screened", "C9 E5    # value 0.520"],
        "{out}"
    );
    assert!(out.contains("2 of two pegs screened"), "{out}");
    assert!(out.contains("2 of 3 kept"), "{out}");
    let book = dir.join("book.txt");
    std::fs::write(&book, &out).unwrap();
    let openings = read_openings(&book).expect("the referee reads a screened file");
    assert_eq!(openings.len(), 2);

    let mute = common::bot("analyst.sh mute");
    let run = script(&["screen", "--bot", &mute, file.to_str().unwrap()]).unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(
        err.contains("gave no value after 'C9 E5'") && err.contains("broken on purpose"),
        "{err}"
    );
    let run = script(&["screen", file.to_str().unwrap()]).unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("--bot"), "{}", text(&run.stderr));
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

/// Checks a committed book: the referee reads every line, there are at least `at_least`
/// openings, and each was scored within 40-60% over `games` games.
fn check_book(name: &str, at_least: usize, games: &str) {
    let path = workspace_root().join("docs/openings").join(name);
    let openings = read_openings(&path).expect("the referee reads the book");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(openings.len(), lines.len());
    assert!(
        openings.len() >= at_least,
        "{name}: {} openings",
        openings.len()
    );
    for line in lines {
        let comment = line.split_once("# ").expect("a score comment").1;
        let score: f64 = comment.split(' ').next().unwrap().parse().unwrap();
        assert!((0.4..=0.6).contains(&score), "{name}: {line}");
        assert!(
            comment.ends_with(&format!("over {games} games")),
            "{name}: {line}"
        );
    }
}

#[test]
fn the_committed_books_are_read_by_the_referee_and_scored_within_the_band() {
    check_book("balanced.txt", 40, "32");
    check_book("balanced-clock.txt", 20, "16");
    check_book("balanced-gen8.txt", 20, "16");
    check_book("balanced-gen13.txt", 20, "16");
}

/// The openings of a book at CodinGame's clocks, in order with their scores, are what `select`
/// makes of the games committed beside it.
#[test]
fn the_books_at_codingames_clocks_are_what_select_makes_of_their_games() {
    let books: [(&str, &[&str]); 3] = [
        ("balanced-clock.txt", &["clock-results.jsonl"]),
        (
            "balanced-gen8.txt",
            &["clock-results-gen8.jsonl", "clock-results-gen8-2.jsonl"],
        ),
        (
            "balanced-gen13.txt",
            &[
                "clock-results-gen13.jsonl",
                "clock-results-gen13-2.jsonl",
                "clock-results-gen13-2b.jsonl",
            ],
        ),
    ];
    let openings = workspace_root().join("docs/openings");
    let kept = |text: &str| -> Vec<String> {
        let lines = text.lines().filter(|l| !l.starts_with('#'));
        lines.map(str::to_string).collect()
    };
    for (book, games) in books {
        let paths: Vec<String> = games
            .iter()
            .map(|g| openings.join(g).to_str().unwrap().to_string())
            .collect();
        let mut args = vec!["select", "--min-games", "16"];
        args.extend(paths.iter().map(String::as_str));
        let Some(run) = script(&args) else {
            return;
        };
        assert!(run.status.success(), "{}", text(&run.stderr));
        let committed = std::fs::read_to_string(openings.join(book)).unwrap();
        assert_eq!(kept(&text(&run.stdout)), kept(&committed), "{book}");
    }
}
