//! `losses`: the collapse of each lost game read from our messages, its phase, the sample, the
//! fixtures (turn inputs the engine reads back to the game's position), and bad input named.

mod common;

use common::{scratch, text, KNOWN};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use twixt::protocol::TurnReader;
use twixt::{Move, Player};
use twixt_referee::losses::collapse::{Kind, Phase};
use twixt_referee::losses::{read_games, sample};
use twixt_referee::record::{GameRecord, Reason};
use twixt_reference::RefGame;

/// The known game, in order: player 1 joins columns A and L on ply 13 (the 14th move).
fn known_moves() -> Vec<String> {
    let [zero, one] = KNOWN.map(|s| s.split(' ').collect::<Vec<_>>());
    zero.iter()
        .zip(&one)
        .flat_map(|(a, b)| [a.to_string(), b.to_string()])
        .collect()
}

/// The known game with `ours` as player 0's command (so it lost), seed `seed`, and player 0's
/// messages at plies 0, 2, 4, ... from `values`.
fn lost_game(seed: u64, values: &[&str]) -> GameRecord {
    let moves = known_moves();
    let mut messages = vec![None; moves.len()];
    for (i, v) in values.iter().enumerate() {
        messages[2 * i] = Some(v.to_string());
    }
    GameRecord {
        ms: vec![Some(5); moves.len()],
        moves,
        messages,
        opening: 0,
        winner: Some(1),
        reason: Reason::Connected,
        detail: "player 1 joined columns A and L".into(),
        cmd0: format!("bot-ours --seed {seed}"),
        cmd1: "t1j 1500".into(),
        seed,
        clocks: None,
        slot: None,
        engine0: None,
        engine1: None,
    }
}

/// The same game with the seats' commands swapped: ours won it.
fn won_game(seed: u64) -> GameRecord {
    let r = lost_game(seed, &[]);
    GameRecord {
        cmd0: r.cmd1.clone(),
        cmd1: r.cmd0.clone(),
        ..r
    }
}

/// The values of a collapse at ply 6 (45%, 55% before it): the middle game.
const MIDDLE: [&str; 7] = ["opening", "60%", "55%", "45%", "40%", "30%", "20%"];
/// A collapse at ply 2, our second move (45%, 55% before): the book.
const BOOK: [&str; 7] = ["55%", "45%", "52%x", "book", "40%", "30%", "20%"];
/// A collapse at ply 8, within the last 6 of 14 plies (45%, 60% before): tactics.
const TACTICS: [&str; 7] = ["opening", "60%", "55%", "60%", "45%", "30%", "20%"];

fn write_results(path: &Path, records: &[GameRecord], extra: &str) {
    let lines: String = records.iter().map(|r| r.to_json() + "\n").collect();
    std::fs::write(path, lines + extra).unwrap();
}

fn losses(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .arg("losses")
        .args(args)
        .output()
        .expect("the referee runs")
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn each_loss_gets_its_collapse_and_phase() {
    let dir = scratch("losses-phases");
    let file = dir.join("games.jsonl");
    let games = [
        lost_game(1, &MIDDLE),
        won_game(2),
        lost_game(3, &BOOK),
        lost_game(4, &TACTICS),
    ];
    write_results(&file, &games, "");
    let read = read_games(std::slice::from_ref(&file), "bot-ours").unwrap();
    assert_eq!((read.games, read.won, read.drawn), (4, 1, 0));
    let got: Vec<_> = read
        .losses
        .iter()
        .map(|l| {
            (
                l.line,
                l.seat,
                l.collapse.ply,
                l.collapse.value,
                l.collapse.before,
                l.phase,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, 0, 6, Some(0.45), Some(0.55), Phase::Middle),
            (3, 0, 2, Some(0.45), Some(0.55), Phase::Book),
            (4, 0, 8, Some(0.45), Some(0.6), Phase::Tactics),
        ]
    );
    assert!(read.losses.iter().all(|l| l.collapse.kind == Kind::Fell));

    let out = losses(&[path(&file), "--ours", "bot-ours"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("4 games: ours won 1, drew 0, lost 3"),
        "{stdout}"
    );
    let middle = format!(
        "{}:1  seed 1  ours: player 0 (cmd0)  14 plies",
        file.display()
    );
    assert!(stdout.contains(&middle), "{stdout}");
    assert!(stdout.contains("  values: 0:opening 2:60% 4:55% 6:45% 8:40% 10:30% 12:20%\n"));
    let collapse = "  collapse at ply 6: we played E10 (45% after, 55% before); they answered G6\n";
    assert!(stdout.contains(collapse), "{stdout}");
    for row in [
        "book                 1         0       1",
        "middle game          1         0       1",
    ] {
        assert!(stdout.contains(row), "{stdout}");
    }
    assert!(stdout.contains("tactics              1         0       1"));
    assert!(stdout.contains("all                  3         0       3"));
}

#[test]
fn values_that_never_cross_half_put_the_collapse_at_our_first_or_last_move() {
    let dir = scratch("losses-never");
    let file = dir.join("games.jsonl");
    let never_above = lost_game(1, &["opening", "40%", "45%"]);
    let never_below = lost_game(2, &["opening", "40%", "45%", "60%", "50%", "70%", "win"]);
    write_results(&file, &[never_above, never_below], "");
    let read = read_games(&[file], "bot-ours").unwrap();
    let [a, b] = [&read.losses[0].collapse, &read.losses[1].collapse];
    assert_eq!((a.kind, a.ply, a.before), (Kind::NeverAbove, 0, None));
    assert_eq!(
        (b.kind, b.ply, b.value, b.before),
        (Kind::NeverBelow, 12, Some(1.0), Some(0.7))
    );
    assert_eq!(
        (read.losses[0].phase, read.losses[1].phase),
        (Phase::Book, Phase::Tactics)
    );
}

#[test]
fn the_sample_is_the_same_for_the_same_seed() {
    let dir = scratch("losses-sample");
    let file = dir.join("games.jsonl");
    let games: Vec<GameRecord> = (0..12).map(|s| lost_game(s, &MIDDLE)).collect();
    write_results(&file, &games, "");
    let seeds = |n: usize, seed: u64| -> Vec<u64> {
        let read = read_games(std::slice::from_ref(&file), "bot-ours").unwrap();
        sample(read.losses, n, seed)
            .iter()
            .map(|l| l.record.seed)
            .collect()
    };
    let first = seeds(4, 7);
    assert_eq!(first.len(), 4);
    assert!(
        first.windows(2).all(|w| w[0] < w[1]),
        "file order: {first:?}"
    );
    assert_eq!(seeds(4, 7), first);
    assert_ne!(
        (1..6).map(|s| seeds(4, s)).collect::<Vec<_>>(),
        vec![first.clone(); 5]
    );
    assert_eq!(seeds(50, 1), (0..12).collect::<Vec<_>>());

    let run = |seed: &str| {
        text(
            &losses(&[
                path(&file),
                "--ours",
                "bot-ours",
                "--sample",
                "4",
                "--seed",
                seed,
            ])
            .stdout,
        )
    };
    assert_eq!(run("7"), run("7"));
    assert!(
        run("7").starts_with("12 games: ours won 0, drew 0, lost 12; a sample of 4 of the losses")
    );
}

/// The position a fixture's turn input describes: its first line, the player to move and
/// each player's pegs, as the engine's protocol reader reads it.
fn read_turn(text: &str) -> (String, Player, [Vec<twixt::Cell>; 2]) {
    let mut reader = TurnReader::new(text.as_bytes());
    let first = reader.first_line().expect("a first line");
    let turn = reader.rest_of_turn(first.clone());
    assert!(
        turn.errors.is_empty() && turn.pegs_known,
        "{:?}",
        turn.errors
    );
    let me = turn.input.infer_side();
    let setup = turn.input.setup(me);
    setup.validate().expect("a sound position");
    let mut pegs = setup.pegs;
    pegs.iter_mut().for_each(|p| p.sort());
    (first.1, me, pegs)
}

#[test]
fn fixtures_are_the_turn_inputs_of_the_collapse_positions() {
    let dir = scratch("losses-fixtures");
    let file = dir.join("t1j-x.jsonl");
    write_results(
        &file,
        &[lost_game(11, &MIDDLE), lost_game(12, &TACTICS)],
        "",
    );
    let fixtures: PathBuf = dir.join("fixtures");
    let out = losses(&[
        path(&file),
        "--ours",
        "bot-ours",
        "--fixtures",
        path(&fixtures),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("2 fixtures written to"));
    let moves: Vec<Move> = known_moves().iter().map(|m| m.parse().unwrap()).collect();
    for (seed, k) in [(11, 6), (12, 8)] {
        let name = fixtures.join(format!("t1j-x-{seed}-ply{k}"));
        let turn = std::fs::read_to_string(name.with_extension("txt")).unwrap();
        let game = RefGame::from_moves(&moves[..k]).unwrap();
        let (last, me, pegs) = read_turn(&turn);
        assert_eq!((last, me), (moves[k - 1].to_string(), Player::Zero));
        let mut want = [game.pegs(Player::Zero), game.pegs(Player::One)];
        want.iter_mut().for_each(|p| p.sort());
        assert_eq!(pegs, want);
        let listed = std::fs::read_to_string(name.with_extension("moves")).unwrap();
        let before: Vec<String> = known_moves()[..k].to_vec();
        assert!(
            listed.contains(&format!("\nmoves: {}\n", before.join(" "))),
            "{listed}"
        );
        let played = format!("\nplayed: {}\nvalue: 45%\n", moves[k]);
        assert!(listed.contains(&played), "{listed}");
        assert!(listed.contains(&format!("\nply: {k}\n")) && listed.contains("\nseat: 0\n"));
    }
}

#[test]
fn a_fixture_whose_input_does_not_tell_the_side_is_named() {
    let dir = scratch("losses-side");
    let file = dir.join("swapped.jsonl");
    // Ours (player 0) collapses at ply 4, after E5 SWAP F7 G8: one peg of ours, two of theirs,
    // none on a border, so a process started there takes itself for player 1.
    let moves = strings(&["E5", "SWAP", "F7", "G8", "H9", "F10"]);
    let game = GameRecord {
        ms: vec![Some(5); moves.len()],
        messages: ["opening", "-", "60%", "-", "40%", "-"]
            .iter()
            .map(|m| (*m != "-").then(|| m.to_string()))
            .collect(),
        moves,
        winner: Some(1),
        reason: Reason::Timeout,
        ..lost_game(21, &[])
    };
    write_results(&file, &[game], "");
    let fixtures = dir.join("fixtures");
    let out = losses(&[
        path(&file),
        "--ours",
        "bot-ours",
        "--fixtures",
        path(&fixtures),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(fixtures.join("swapped-21-ply4.txt").exists());
    let err = text(&out.stderr);
    assert!(
        err.contains("swapped-21-ply4: its input does not tell a bot started there its side"),
        "{err}"
    );
}

#[test]
fn our_seat_must_be_one_command_and_bad_lines_are_named() {
    let dir = scratch("losses-bad");
    let file = dir.join("games.jsonl");
    let other = GameRecord {
        cmd0: "a".into(),
        ..lost_game(2, &MIDDLE)
    };
    write_results(&file, &[lost_game(1, &MIDDLE), other], "");
    let neither = losses(&[path(&file), "--ours", "bot-ours"]);
    assert_eq!(neither.status.code(), Some(2));
    let err = text(&neither.stderr);
    assert!(
        err.contains(&format!(
            "{}:2: no command contains \"bot-ours\"",
            file.display()
        )),
        "{err}"
    );
    let both = losses(&[path(&file), "--ours", "1"]);
    assert!(text(&both.stderr).contains(":1: each command contains \"1\""));
    let bad = dir.join("bad.jsonl");
    write_results(&bad, &[lost_game(1, &MIDDLE)], "{\"moves\": [\nnot json\n");
    let out = losses(&[path(&bad), "--ours", "bot-ours"]);
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    for line in [2, 3] {
        assert!(
            err.contains(&format!("{}:{line}: not a game record", bad.display())),
            "{err}"
        );
    }
    assert!(text(&out.stdout).contains("lost 1; 2 lines left out"));
    let missing = losses(&[path(&dir.join("missing.jsonl")), "--ours", "x"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("missing.jsonl"));
}
