//! `scripts/answer-times`, which sets the referee's count of each answer against the bot's
//! own (its stderr lines), first answers apart, and names a file it cannot read.

mod common;

use common::{python_script, scratch, text};
use std::fs;

/// A match of one game, in a folder of the test's own: player 0 answered 900 and 250 ms by the referee, its own count
/// 890 and 248; player 1 answered 950 ms (its own 940) and 260 (no line of its own).
fn one_game(test: &str) -> std::path::PathBuf {
    let dir = scratch(&format!("answer-times-{test}"));
    let record = r#"{"moves":["F6","E8","G8","E5"],"ms":[900,950,250,260],"winner":0,"reason":"connected","detail":"","cmd0":"a","cmd1":"b","seed":1,"slot":{"pair":0,"game":0,"a_player":0}}"#;
    fs::write(dir.join("r.jsonl"), format!("{record}\n")).unwrap();
    fs::create_dir(dir.join("err")).unwrap();
    let player0 = "turn 1: F6 (opening table) time 890 ms stall 1.0 ms\n\
                   turn 2: G8 value 0.5 visits 9 playouts 1000 nodes 9 reused 0 time 248 ms stall 0.5 ms\n";
    fs::write(dir.join("err/pair0-game0-player0.stderr"), player0).unwrap();
    let player1 =
        "twixt-bot: line 3: a problem\nturn 1: E8 (opening table) time 940 ms stall 2.0 ms\n";
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
        "later answers (2, 1 with the bot's own count): referee p50 260, p99 260, max 260; \
         bot p50 248, p99 248, max 248; difference p50 2, p99 2, max 2",
        "ends: connected 1",
        "later searched turns 1, mean playouts 1000",
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
