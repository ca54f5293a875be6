//! `report`, `game --html` and `show --html`: one self-contained page per results file or
//! game, damaged files reported as far as they can be read, an empty one refused.

mod common;

use common::{known_bot, known_match, referee, report, run_in, scratch};
use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Asserts that `html` is one page that loads nothing: no address, no outside file. The links
/// to `twixt-board` on the loopback are followed only by a click and load nothing: they are
/// taken out first.
fn assert_self_contained(html: &str) {
    let board_link = format!(" href=\"{}", twixt_referee::report::BOARD);
    let html = &html
        .replace(&board_link, "")
        .replace(twixt_referee::report::BOARD, "");
    for pattern in [
        "http:", "https:", "//", " src=", " href=", "@import", "url(",
    ] {
        let outside = html
            .match_indices(pattern)
            .filter(|(i, _)| !is_in_script_comment_or_json(html, *i))
            .count();
        assert_eq!(outside, 0, "the page refers to {pattern:?}");
    }
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
}

/// `//` starts the viewer script's comments and appears in no address: allowed there only.
fn is_in_script_comment_or_json(html: &str, at: usize) -> bool {
    let line_start = html[..at].rfind('\n').map_or(0, |i| i + 1);
    html[line_start..at].trim().is_empty() && html[at..].starts_with("//")
}

#[test]
fn a_match_report_is_one_page_with_the_summary_plots_table_and_viewer() {
    let dir = scratch("report");
    let results = known_match(&dir);
    let sprt = ["--sprt", "elo0=0", "elo1=300", "alpha=0.05", "beta=0.05"];
    let (run, out) = report(&dir, &results, &sprt);
    assert_eq!(run.output.status.code(), Some(0), "{}", run.stdout());
    assert!(run.stdout().contains("2 games, 0 lines left out"));
    let html = read(&out);
    assert_self_contained(&html);
    let board = format!("{}#moves=", twixt_referee::report::BOARD);
    assert_eq!(
        html.matches(&board).count(),
        2,
        "each game links to the board"
    );
    for expected in [
        "Elo: ",
        "nElo: ",
        "LOS: ",
        "Ptnml(0-2): ",
        "LLR: ",
        "A: ",
        "[clock: 1000 ms first turn, 300 ms later]",
        "A&#39;s score over the games",
        "LLR over the pairs",
        "A: answer times",
        "B: answer times",
        "<tr data-game=\"1\">",
        "id=\"board\"",
        "id=\"games\"",
        "player 1 joined columns A and L",
    ] {
        assert!(html.contains(expected), "the report lacks {expected:?}");
    }
}

#[test]
fn a_damaged_results_file_still_gives_a_report_and_names_its_bad_lines() {
    let dir = scratch("report-damaged");
    let results = known_match(&dir);
    let good = read(&results);
    let first = good.lines().next().unwrap();
    let foreign = first.replace("scripted.sh", "other.sh");
    let damaged = format!("{first}\nnot a record\n{foreign}\n{}", &first[..30]);
    std::fs::write(&results, damaged).unwrap();
    let (run, out) = report(&dir, &results, &[]);
    let stderr = String::from_utf8_lossy(&run.output.stderr).into_owned();
    assert_eq!(run.output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("left out line 2: not a game record"),
        "{stderr}"
    );
    assert!(
        stderr.contains("left out line 3: a game of another match"),
        "{stderr}"
    );
    assert!(
        stderr.contains("left out line 4: not a game record"),
        "{stderr}"
    );
    let html = read(&out);
    assert!(html.contains("3 line(s) of"), "the page names them");
    assert!(html.contains("<tr data-game=\"0\">") && !html.contains("<tr data-game=\"1\">"));
}

#[test]
fn an_empty_results_file_is_a_clear_error() {
    let dir = scratch("report-empty");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "\n").unwrap();
    let (run, out) = report(&dir, &empty, &[]);
    let stderr = String::from_utf8_lossy(&run.output.stderr).into_owned();
    assert_eq!(run.output.status.code(), Some(2));
    assert!(
        stderr.contains("holds no game that can be shown: it is empty"),
        "{stderr}"
    );
    assert!(!out.exists(), "no page is written");
    let missing = dir.join("missing.jsonl");
    let (run, _) = report(&dir, &missing, &[]);
    assert_eq!(run.output.status.code(), Some(2));
}

#[test]
fn game_and_show_write_the_same_viewer_for_one_game() {
    let dir = scratch("game-html");
    let played = dir.join("played.html");
    let run = run_in(
        &dir,
        "game",
        &known_bot(0, 0),
        &known_bot(1, 0),
        &["--html", played.to_str().unwrap()],
    );
    assert_eq!(run.output.status.code(), Some(0), "{}", run.stdout());
    let shown = dir.join("shown.html");
    let file = common::records_file(&dir);
    let args = [
        "show",
        file.to_str().unwrap(),
        "--html",
        shown.to_str().unwrap(),
    ];
    let run = referee(&dir, &args, &file);
    assert_eq!(run.output.status.code(), Some(0));
    let html = read(&played);
    assert_self_contained(&html);
    assert_eq!(html, read(&shown));
    assert!(html.contains("Player 1 wins (connected)") && html.contains("id=\"board\""));
}
