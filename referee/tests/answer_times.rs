//! `scripts/answer-times`, which sets the referee's count of each answer against the bot's
//! own (its stderr lines), first answers apart, and names a file it cannot read.

mod common;

use common::{python_script, scratch, text};
use std::fs;

/// A match of one game, in a folder of the test's own. By the referee player 0 answered 900,
/// 250 and 240 ms, by its own count 890, 248 (1000 playouts) and 238 (500); player 1 answered
/// 950, 260 and 230 ms, by its own count 940, none, and 228 (3000 playouts).
fn one_game(test: &str) -> std::path::PathBuf {
    let dir = scratch(&format!("answer-times-{test}"));
    let record = r#"{"moves":["F6","E8","G8","E5","H8","D4"],"ms":[900,950,250,260,240,230],"winner":0,"reason":"connected","detail":"","cmd0":"a","cmd1":"b","seed":1,"slot":{"pair":0,"game":0,"a_player":0}}"#;
    fs::write(dir.join("r.jsonl"), format!("{record}\n")).unwrap();
    fs::create_dir(dir.join("err")).unwrap();
    let searched = |turn: u32, mv: &str, playouts: u32, ms: u32| {
        format!("turn {turn}: {mv} value 0.5 visits 9 playouts {playouts} nodes 9 reused 0 time {ms} ms stall 0.5 ms\n")
    };
    let player0 = "turn 1: F6 (opening table) time 890 ms stall 1.0 ms\n".to_string()
        + &searched(2, "G8", 1000, 248)
        + &searched(3, "H8", 500, 238);
    fs::write(dir.join("err/pair0-game0-player0.stderr"), player0).unwrap();
    let player1 =
        "twixt-bot: line 3: a problem\nturn 1: E8 (opening table) time 940 ms stall 2.0 ms\n"
            .to_string()
            + &searched(3, "D4", 3000, 228);
    fs::write(dir.join("err/pair0-game0-player1.stderr"), player1).unwrap();
    dir
}

#[test]
fn first_and_later_answers_are_counted_by_the_referee_and_by_the_bot() {
    let dir = one_game("times");
    let (r, e) = (dir.join("r.jsonl"), dir.join("err"));
    let Some(run) = python_script("answer-times", &[r.to_str().unwrap(), e.to_str().unwrap()])
    else {
        return;
    };
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    let expected = [
        "first answers (2, 2 with the bot's own count): referee p50 950, p99 950, max 950; \
         bot p50 940, p99 940, max 940; difference p50 10, p99 10, max 10",
        "later answers (4, 3 with the bot's own count): referee p50 250, p99 260, max 260; \
         bot p50 238, p99 248, max 248; difference p50 2, p99 2, max 2",
        "ends: connected 1",
        // Each engine apart, named by its command: a's turns 2 and 3, b's turn 3.
        "a: searched turns 2-10: 2, mean playouts 750 (each turn's mean alike)",
        "b: searched turns 2-10: 1, mean playouts 3000 (each turn's mean alike)",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{out}");
}

#[test]
fn a_missing_or_corrupt_file_is_named() {
    let dir = one_game("missing");
    let e = dir.join("err");
    let missing = dir.join("none.jsonl");
    let Some(run) = python_script(
        "answer-times",
        &[missing.to_str().unwrap(), e.to_str().unwrap()],
    ) else {
        return;
    };
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("none.jsonl"),
        "{}",
        text(&run.stderr)
    );
    let corrupt = dir.join("bad.jsonl");
    let good = fs::read_to_string(dir.join("r.jsonl")).unwrap();
    fs::write(&corrupt, format!("{good}not json\n")).unwrap();
    let run = python_script(
        "answer-times",
        &[corrupt.to_str().unwrap(), e.to_str().unwrap()],
    )
    .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(err.contains("bad.jsonl: line 2"), "{err}");
}

#[test]
fn a_line_that_is_no_game_record_is_named() {
    let dir = one_game("record");
    let (bad, e) = (dir.join("moves.jsonl"), dir.join("err"));
    fs::write(&bad, "{\"moves\":[]}\n").unwrap();
    let Some(run) = python_script(
        "answer-times",
        &[bad.to_str().unwrap(), e.to_str().unwrap()],
    ) else {
        return;
    };
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(
        err.contains("moves.jsonl: line 1: not a game record"),
        "{err}"
    );
}
