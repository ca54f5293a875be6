//! Real turn inputs from `fixtures/` piped into the built `twixt-bot`, each checked against
//! its sidecar `.expect` file (made with the reference rules by `examples/fixture.rs`, or by
//! hand for the bad inputs in `fixtures/bad/`).

mod bot_process;

use bot_process::{run_bot, BotRun};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use twixt::{Cell, Move, Player};

/// The `key: value` lines of a sidecar file.
fn read_expect(path: &Path) -> HashMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn moves(list: &str) -> Vec<Move> {
    list.split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect()
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map_or(false, |e| e == "txt"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no fixtures in {dir}");
    v
}

/// The answer's move, checked to be one line with a message of at most 20 characters.
fn answer_move(out: &str, name: &str) -> Move {
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{name}: one answer line, got {out:?}");
    let (mv, msg) = lines[0].split_once(' ').unwrap_or((lines[0], ""));
    assert!(
        msg.chars().count() <= 20,
        "{name}: message too long: {msg:?}"
    );
    mv.parse()
        .unwrap_or_else(|e| panic!("{name}: answer {:?}: {e}", lines[0]))
}

#[test]
fn every_fixture_gets_a_right_answer() {
    for path in fixtures("fixtures") {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let input = std::fs::read_to_string(&path).unwrap();
        let expect = read_expect(&path.with_extension("expect"));
        let legal = moves(&expect["legal"]);
        let accept = match expect["accept"].as_str() {
            "any" => legal.clone(),
            list => moves(list),
        };
        for seed in 1..=3 {
            let BotRun {
                code,
                stdout: out,
                stderr: err,
            } = run_bot(&input, 1500, seed);
            assert_eq!(code, 0, "{name}: exit status; stderr: {err}");
            let mv = answer_move(&out, &name);
            assert!(
                legal.contains(&mv),
                "{name} (seed {seed}): {mv} is not legal"
            );
            assert!(
                accept.contains(&mv),
                "{name} (seed {seed}): {mv} is not one of {accept:?}"
            );
        }
    }
}

#[test]
fn bad_input_is_named_by_line_and_still_answered_when_the_board_is_known() {
    for path in fixtures("fixtures/bad") {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        // Bytes, not text: a fixture may hold bytes that are not UTF-8.
        let input = std::fs::read(&path).unwrap();
        let expect = read_expect(&path.with_extension("expect"));
        let BotRun {
            code,
            stdout: out,
            stderr: err,
        } = run_bot(&input, 1500, 1);
        assert!(!err.contains("panicked"), "{name}: the bot panicked: {err}");
        assert_eq!(
            code.to_string(),
            expect["exit"],
            "{name}: exit status; stderr: {err}"
        );
        // Every bad fixture says what stderr holds: a line, or `none` (the input is sound).
        match expect.get("stderr").map(String::as_str) {
            Some("none") => assert!(!err.contains("line "), "{name}: stderr: {err}"),
            Some(msg) => assert!(err.contains(msg), "{name}: stderr lacks {msg:?}: {err}"),
            None => panic!("{name}.expect names no stderr (a line, or none)"),
        }
        if code != 0 {
            assert!(out.is_empty(), "{name}: no answer expected, got {out:?}");
            continue;
        }
        let side = Player::from_index(expect["side"].parse().unwrap()).unwrap();
        let occupied: Vec<Cell> = expect["occupied"]
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        match answer_move(&out, &name) {
            Move::Peg(c) => {
                assert!(
                    c.allowed_for(side),
                    "{name}: {c} is barred to player {side}"
                );
                assert!(!occupied.contains(&c), "{name}: {c} is taken");
            }
            Move::Swap => panic!("{name}: SWAP is not allowed here"),
        }
    }
}
