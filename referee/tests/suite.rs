//! `suite`: a bot asked the collapse positions again, its answers held to the move that lost
//! and to a recorded reference move; `--record` keeps answers without losing the other lines;
//! bad fixtures and bad answers are named.

mod common;

use common::{bot, scratch, text};
use std::path::Path;
use std::process::{Command, Output};
use twixt::position::Move;
use twixt_reference::{turn_input, RefGame};

/// Writes fixture `name` in `dir`: the position after `moves`, where `played` lost.
fn fixture(dir: &Path, name: &str, moves: &str, played: &str) {
    let parsed: Vec<Move> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
    let game = RefGame::from_moves(&parsed).unwrap();
    std::fs::write(dir.join(format!("{name}.txt")), turn_input(&game)).unwrap();
    let lines = format!(
        "source: games.jsonl:4\nseed: 7\nmoves: {moves}\nplayed: {played}\nphase: middle game\n"
    );
    std::fs::write(dir.join(format!("{name}.moves")), lines).unwrap();
}

fn suite(dir: &Path, cmd: &str, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .arg("suite")
        .arg(dir)
        .arg(cmd)
        .args(more)
        .output()
        .unwrap()
}

#[test]
fn answers_are_held_to_the_move_that_lost_and_to_the_recorded_one() {
    let dir = scratch("suite-answers");
    fixture(&dir, "a-7-ply2", "E5 H8", "D7");
    fixture(&dir, "b-7-ply3", "E5 H8 D7", "G10");
    // The move that lost, again in both (G10 is the answer to the second).
    let out = suite(&dir, &bot("scripted.sh D7"), &[]);
    let first = text(&out.stdout);
    assert!(out.status.success(), "{first}");
    let lines: Vec<&str> = first.lines().collect();
    assert!(lines[0].contains("a-7-ply2") && lines[0].contains("= the move that lost"));
    assert!(
        lines[1].contains("failed: D7 is not legal there"),
        "{first}"
    );
    assert!(
        lines[2].contains(
            "2 positions: the deep move 0 of 0 (-), the move that lost 1 of 2 (50%), \
             no legal move 1, not asked (side unknown) 0"
        ),
        "{first}"
    );
    // A reference search's moves, kept under `deep` with the other lines as they were.
    let out = suite(&dir, &bot("scripted.sh F9"), &["--record", "deep"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let kept = std::fs::read_to_string(dir.join("a-7-ply2.moves")).unwrap();
    assert!(kept.starts_with("source: games.jsonl:4\nseed: 7\nmoves: E5 H8\nplayed: D7\n"));
    assert!(
        kept.contains("\ndeep: F9\ndeep-value: -\ndeep-by: "),
        "{kept}"
    );
    // Recorded again: the key's lines are replaced, not repeated.
    suite(&dir, &bot("scripted.sh 'F10 55%'"), &["--record", "deep"]);
    let kept = std::fs::read_to_string(dir.join("a-7-ply2.moves")).unwrap();
    assert_eq!(kept.matches("deep:").count(), 1, "{kept}");
    assert!(kept.contains("deep: F10\ndeep-value: 55%\n"), "{kept}");
    let out = suite(&dir, &bot("scripted.sh 'F10 61%'"), &[]);
    let report = text(&out.stdout);
    let first = report.lines().next().unwrap();
    for part in ["lost with D7", "deep F10", "now F10 61%", "= deep"] {
        assert!(first.contains(part), "{part}: {report}");
    }
    assert!(
        report.contains("the deep move 2 of 2 (100%), the move that lost 0 of 2 (0%)"),
        "{report}"
    );
}

#[test]
fn a_position_whose_input_does_not_tell_the_side_is_not_asked() {
    let dir = scratch("suite-side");
    // After the swap, player 0 to move has one peg to player 1's two, none on a border: a
    // process starting here takes itself for player 1.
    fixture(&dir, "a-7-ply4", "E5 SWAP F7 G8", "D7");
    // Told by a peg on player 0's border row.
    fixture(&dir, "b-7-ply4", "E5 SWAP F12 G8", "D7");
    let out = suite(&dir, &bot("scripted.sh D7"), &[]);
    let report = text(&out.stdout);
    let lines: Vec<&str> = report.lines().collect();
    assert!(
        lines[0].contains("not asked: the input does not tell the side"),
        "{report}"
    );
    assert!(lines[1].contains("= the move that lost"), "{report}");
    assert!(report
        .contains("the move that lost 1 of 1 (100%), no legal move 0, not asked (side unknown) 1"));
}

#[test]
fn a_silent_bot_and_bad_fixtures_are_named() {
    let dir = scratch("suite-bad");
    fixture(&dir, "a-7-ply2", "E5 H8", "D7");
    let out = suite(&dir, &bot("silent.sh"), &["--clock-ms", "300"]);
    assert!(text(&out.stdout).contains("failed: no answer in 300 ms"));
    std::fs::write(dir.join("b.moves"), "moves: E5\nplayed D7\n").unwrap();
    let out = suite(&dir, &bot("scripted.sh D7"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("b.moves:2: not `key: value`"), "{err}");
    std::fs::write(dir.join("b.moves"), "moves: E5\nplayed: D7\n").unwrap();
    let err = text(&suite(&dir, &bot("scripted.sh D7"), &[]).stderr);
    assert!(err.contains("b.txt"), "{err}");
    std::fs::write(dir.join("b.txt"), "FIRST\n0\n0\n0\n0\n").unwrap();
    std::fs::write(dir.join("b.moves"), "moves: E5 E5\nplayed: D7\n").unwrap();
    let err = text(&suite(&dir, &bot("scripted.sh D7"), &[]).stderr);
    assert!(err.contains("b.moves: move 2"), "{err}");
    let empty = scratch("suite-empty");
    let err = text(&suite(&empty, &bot("scripted.sh D7"), &[]).stderr);
    assert!(err.contains("no .moves files"), "{err}");
}

#[test]
fn the_committed_loss_fixtures_are_the_turn_inputs_of_their_moves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/losses");
    let mut seen = 0;
    for set in ["t1j", "balanced"] {
        let fixtures = twixt_referee::losses::suite::read_dir(&root.join(set)).unwrap();
        for f in &fixtures {
            let game = f.game().unwrap();
            assert_eq!(f.input, turn_input(&game), "{}", f.name);
            assert!(
                f.get("played").is_some() && f.get("deep").is_some(),
                "{}",
                f.name
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 32);
}
