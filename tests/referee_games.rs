//! Whole games between scripted bots: known move lists end with the winner and reason the
//! reference rules give, and the record, the board, the SVG and the stderr files say so.

mod common;

use common::{bot, game, referee, scratch};
use twixt::arena::record::Reason;

/// Player 1 joins columns A and L on its 7th peg (the reference rules' own test game).
const P0: &str = "E2 E3 E4 E10 E11 F11 G11";
const P1: &str = "A5 C6 E5 G6 I5 K6 L8";

#[test]
fn a_known_game_ends_connected_for_player_one() {
    let (run, _) = game(
        "known",
        &bot(&format!("scripted.sh {P0}")),
        &bot(&format!("scripted.sh {P1}")),
        2000,
        1000,
    );
    let r = run.record();
    assert_eq!(
        (r.winner, r.reason),
        (Some(1), Reason::Connected),
        "{}",
        r.detail
    );
    let expected: Vec<&str> = P0
        .split(' ')
        .zip(P1.split(' '))
        .flat_map(|(a, b)| [a, b])
        .collect();
    assert_eq!(r.moves, expected);
    assert_eq!(r.ms.len(), 14);
    assert!(r.ms.iter().all(|m| m.is_some()));
    let out = run.stdout();
    assert!(out.contains("winner: player 1 (connected)"), "{out}");
    assert!(out.contains(" 14. L8"), "the move list is printed: {out}");
    assert!(
        out.contains('O') && out.contains('o'),
        "pegs and links are drawn"
    );
}

#[test]
fn swap_seats_gives_player_zero_to_b_and_messages_are_kept() {
    let dir = scratch("seats");
    let rec = dir.join("g.jsonl");
    let svg = dir.join("g.svg");
    let a = bot(&format!("scripted.sh {P1}"));
    let b = bot("scripted.sh E2 E3 E4 E10 E11 F11 'G11 bye now'");
    let args = [
        "game",
        &a,
        &b,
        "--swap-seats",
        "--seed",
        "9",
        "--record",
        rec.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ];
    let run = referee(&dir, &args, &rec);
    let r = run.record();
    assert_eq!(
        (r.winner, r.reason, r.seed),
        (Some(1), Reason::Connected, 9)
    );
    assert_eq!(r.cmd0, b);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<line") && svg.contains("Player 1 wins"));
    // Player 0's last answer carried a message, which does not count as part of the move.
    assert_eq!(r.moves[12], "G11");
    assert_eq!(r.messages[12].as_deref(), Some("bye now"));
}

#[test]
fn a_swap_is_played_and_told_to_player_zero() {
    // Player 0 plays C5, player 1 swaps (its peg lands on E3), the game goes on, and player 0,
    // out of scripted moves, times out.
    let (run, _) = game(
        "swap",
        &bot("scripted.sh C5 D6"),
        &bot("scripted.sh SWAP F8"),
        2000,
        300,
    );
    let r = run.record();
    assert_eq!(r.moves, vec!["C5", "SWAP", "D6", "F8"]);
    assert_eq!(
        (r.winner, r.reason),
        (Some(1), Reason::Timeout),
        "{}",
        r.detail
    );
}

#[test]
fn an_opening_is_played_before_the_bots_and_stderr_is_kept() {
    let dir = scratch("opening");
    let rec = dir.join("g.jsonl");
    let errs = dir.join("errs");
    let a = bot("scripted.sh E3 E4 E10 E11 F11 G11");
    let b = bot("scripted.sh C6 E5 G6 I5 K6 L8");
    let args = [
        "game",
        &a,
        &b,
        "--opening",
        "E2 A5",
        "--record",
        rec.to_str().unwrap(),
        "--stderr-dir",
        errs.to_str().unwrap(),
    ];
    let run = referee(&dir, &args, &rec);
    let r = run.record();
    assert_eq!(
        (r.winner, r.reason, r.opening),
        (Some(1), Reason::Connected, 2)
    );
    assert_eq!(&r.ms[..3], &[None, None, r.ms[2]]);
    assert!(r.ms[2].is_some());
    assert_eq!(std::fs::read_dir(errs).unwrap().count(), 2);
}

#[test]
fn random_bots_finish_a_game_with_a_board_result() {
    let (Some(a), Some(b)) = (common::random_bot("1"), common::random_bot("2")) else {
        return;
    };
    let (run, _) = game("random", &a, &b, 3000, 2000);
    let r = run.record();
    assert!(
        matches!(r.reason, Reason::Connected | Reason::Draw),
        "{}",
        r.detail
    );
}

#[test]
fn usage_errors_exit_non_zero() {
    let dir = scratch("usage");
    let rec = dir.join("none.jsonl");
    let run = referee(&dir, &["game", "/nonexistent/bot", "also-not-there"], &rec);
    assert_eq!(run.output.status.code(), Some(2));
    let run = referee(&dir, &["game", "a", "b", "--opening", "A5"], &rec);
    assert_eq!(run.output.status.code(), Some(2));
}
