//! Whole games between scripted bots: known move lists end with the winner and reason the
//! reference rules give, and the record, the board, the SVG and the stderr files say so.

mod common;

use common::{bot, game, known_bot, records_file, referee, run_in, scratch, KNOWN};
use twixt_referee::record::Reason;

#[test]
fn a_known_game_ends_connected_for_player_one() {
    let run = game("known", &known_bot(0, 0), &known_bot(1, 0), 2000, 1000);
    let r = run.record();
    assert_eq!(
        (r.winner, r.reason),
        (Some(1), Reason::Connected),
        "{}",
        r.detail
    );
    let expected: Vec<&str> = KNOWN[0]
        .split(' ')
        .zip(KNOWN[1].split(' '))
        .flat_map(|(a, b)| [a, b])
        .collect();
    assert_eq!(r.moves, expected);
    assert_eq!(r.ms.len(), 14);
    assert!(r.ms.iter().all(|m| m.is_some()));
    let out = run.stdout();
    assert!(out.contains("winner: player 1 (connected)"), "{out}");
    assert!(out.contains(" 14. L8"), "the move list is printed: {out}");
    // The board's rows (from the column header on): player 1's pegs and links are drawn.
    let board = &out[out.find("    A   B").expect("the board is drawn")..];
    let row5 = board.lines().find(|l| l.starts_with("  5 ")).unwrap();
    assert!(
        row5.starts_with("  5 Ooo"),
        "A5 with its link to C6: {row5}"
    );
    // `show` draws the recorded game again, the same way.
    let rec = records_file(&run.dir);
    let shown = referee(
        &run.dir,
        &["show", rec.to_str().unwrap(), "--game", "1"],
        &rec,
    );
    assert_eq!(shown.stdout(), out);
}

#[test]
fn swap_seats_gives_player_zero_to_b_and_messages_are_kept() {
    let dir = scratch("seats");
    let svg = dir.join("g.svg");
    let a = known_bot(1, 0);
    let b = bot("scripted.sh E2 E3 E4 E10 E11 F11 'G11 bye now'");
    let extra = [
        "--swap-seats",
        "--seed",
        "9",
        "--svg",
        svg.to_str().unwrap(),
    ];
    let run = run_in(&dir, "game", &a, &b, &extra);
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
    let run = game(
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
    let errs = dir.join("errs");
    let extra = ["--opening", "E2 A5", "--stderr-dir", errs.to_str().unwrap()];
    let run = run_in(&dir, "game", &known_bot(0, 1), &known_bot(1, 1), &extra);
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
    let run = game("random", &a, &b, 3000, 2000);
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

/// A random game (played by ../shared's random bots) that fills the board until player 0, to
/// move after 136 moves, has no legal hole left.
const DRAWN: &str = "D7 D2 E5 E2 C2 B5 J3 J11 F9 F8 G10 H2 C10 C3 C1 B3 B11 A10 B4 A4 G6 G9 I5 J2 \
F2 F3 B12 A11 E6 E3 I7 J6 I10 J10 G7 H3 F5 F6 D10 D5 C11 C4 F11 G2 E11 E9 B7 A6 G4 H4 G8 H7 E10 \
E8 E4 D11 H12 I9 H10 I8 J5 J8 B10 L7 K6 K9 I2 L10 F1 L11 J1 F10 G1 A9 H9 K4 D8 G3 D1 L3 D12 H6 I4 \
K2 E12 D4 C5 C8 K5 E7 H1 K8 B1 G5 H8 B2 I3 I6 K7 A2 J12 L8 H5 C9 D3 J9 G12 L4 H11 D6 K10 K3 F7 B9 \
J4 K11 K1 L2 C6 G11 C12 B6 F4 D9 I1 J7 K12 A7 B8 C7 E1 A8 F12 I11 I12 A3";

#[test]
fn a_full_board_without_a_legal_hole_is_a_draw() {
    let moves: Vec<&str> = DRAWN.split_whitespace().collect();
    let side = |p: usize| -> String {
        let mine: Vec<&str> = moves.iter().skip(p).step_by(2).copied().collect();
        bot(&format!("scripted.sh {}", mine.join(" ")))
    };
    let run = game("draw", &side(0), &side(1), 2000, 1000);
    let r = run.record();
    assert_eq!((r.winner, r.reason), (None, Reason::Draw), "{}", r.detail);
    assert_eq!(r.detail, "player 0 has no legal hole");
    assert_eq!(r.moves, moves);
    assert!(run.stdout().contains("draw: player 0 has no legal hole"));
}
