//! The bot's turns: answers, the book and the table, joining a game, bad input.

use super::*;
use crate::testing::mv;

fn run(input: &str) -> (i32, String, String) {
    run_with(input, false)
}

/// [`run`], without the book where `no_book`.
fn run_with(input: &str, no_book: bool) -> (i32, String, String) {
    let opts = Options {
        playouts: Some(200),
        seed: Some(1),
        no_book,
        ..Options::default()
    };
    let (mut out, mut log) = (Vec::new(), Vec::new());
    let code = Bot::new(opts).run(input.as_bytes(), &mut out, &mut log);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(log).unwrap(),
    )
}

#[test]
fn answers_each_turn_and_exits_quietly_at_eof() {
    // Turn 1 is the opening table's first peg; turn 2, after player 1's C3, the search's.
    let first = opening::first_peg(first_pick(1));
    let (code, out, log) = run(&format!("FIRST\n0\n0\n0\n0\nC3\n1\n{first}\n0\n1\nC3\n0\n"));
    assert_eq!(code, 0);
    let moves: Vec<Move> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(moves[0], Move::Peg(first), "{out}");
    assert_eq!(moves.len(), 2, "{out}");
    let taken = [first, "C3".parse().unwrap()];
    assert!(
        matches!(moves[1], Move::Peg(c) if c.allowed_for(Player::Zero) && !taken.contains(&c)),
        "{out}"
    );
    let turn_2 = log.lines().find(|l| l.starts_with("turn 2:")).unwrap_or("");
    assert!(
        turn_2.contains(" visits "),
        "the search answers turn 2: {log}"
    );
    assert_eq!(
        log.lines().filter(|l| l.starts_with("turn ")).count(),
        2,
        "{log}"
    );
}

#[test]
fn answers_a_first_peg_from_the_book() {
    // The centre is worth swapping (`docs/BOT.md`); the table keeps it.
    let (code, out, log) = run("F6\n0\n0\n1\nF6\n0\n");
    assert_eq!(code, 0);
    assert!(out.starts_with("SWAP book"), "{out}");
    assert!(log.contains("SWAP (book)"), "{log}");
    let (_, out, _) = run_with("F6\n0\n0\n1\nF6\n0\n", true);
    assert!(out.starts_with("F8 reply"), "{out}");
}

#[test]
fn swaps_as_the_opening_table_says_without_the_book() {
    for (first, swap) in [
        ("F6", false),
        ("E6", true),
        ("E2", false),
        ("K12", false),
        ("I7", true),
    ] {
        assert_eq!(opening::should_swap(first.parse().unwrap()), swap);
        let input = format!("{first}\n0\n0\n1\n{first}\n0\n");
        assert_eq!(
            run_with(&input, true).1.starts_with("SWAP"),
            swap,
            "{first}"
        );
    }
}

#[test]
fn answers_a_first_peg_it_keeps_with_the_table_reply_without_the_book() {
    for first in ["B1", "C2", "K11", "E10"] {
        let c: crate::cell::Cell = first.parse().unwrap();
        assert!(!opening::should_swap(c), "{first}");
        let reply = opening::table_reply(c).unwrap();
        let (code, out, log) = run_with(&format!("{first}\n0\n0\n1\n{first}\n0\n"), true);
        assert_eq!(code, 0);
        assert!(out.starts_with(&format!("{reply} reply")), "{first}: {out}");
        assert!(log.contains(&format!("{reply} (opening table)")), "{log}");
    }
}

/// The `reused` count logged for turn `n`.
fn reused_on_turn(log: &str, n: u32) -> u32 {
    let prefix = format!("turn {}:", n);
    let line = log.lines().find(|l| l.starts_with(&prefix)).unwrap();
    line.split("reused ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn opens_with_the_table_peg_and_keeps_its_search_for_the_reply() {
    let first = opening::first_peg(first_pick(1));
    let (code, out, log) = run(&format!("FIRST\n0\n0\n0\n0\nC3\n1\n{first}\n0\n1\nC3\n0\n"));
    assert_eq!(code, 0);
    assert!(out.starts_with(&format!("{first} ")), "{out}");
    assert!(reused_on_turn(&log, 2) > 0, "{log}");
}

#[test]
fn plays_the_book_s_move_where_it_knows_the_position_and_searches_with_no_book() {
    let first = opening::first_peg(first_pick(1));
    let seen = Position::after(&format!("{first} C3")).unwrap();
    let d4 = Move::Peg("D4".parse().unwrap());
    let entry: &'static str = Box::leak(book::entry(&seen, d4).unwrap().into_boxed_str());
    let input = format!("FIRST\n0\n0\n0\n0\nC3\n1\n{first}\n0\n1\nC3\n0\n");
    for no_book in [false, true] {
        let opts = Options {
            playouts: Some(300),
            seed: Some(1),
            no_book,
            ..Options::default()
        };
        let mut bot = Bot::new(opts);
        bot.book = entry;
        let (mut out, mut log) = (Vec::new(), Vec::new());
        assert_eq!(bot.run(input.as_bytes(), &mut out, &mut log), 0);
        let (out, log) = (
            String::from_utf8(out).unwrap(),
            String::from_utf8(log).unwrap(),
        );
        let second = out.lines().nth(1).unwrap_or_default();
        assert_eq!(second.starts_with("D4 "), !no_book, "{out}\n{log}");
        assert_eq!(log.contains("D4 (book)"), !no_book, "{log}");
    }
}

#[test]
fn without_swaps_the_search_answers_a_first_peg_the_table_would_swap() {
    let first: crate::cell::Cell = "E6".parse().unwrap();
    assert!(opening::should_swap(first) && opening::table_reply(first).is_some());
    let opts = Options {
        playouts: Some(200),
        seed: Some(1),
        no_swap: true,
        ..Options::default()
    };
    let (mut out, mut log) = (Vec::new(), Vec::new());
    let input = format!("{first}\n0\n0\n1\n{first}\n0\n");
    Bot::new(opts).run(input.as_bytes(), &mut out, &mut log);
    let (out, log) = (
        String::from_utf8(out).unwrap(),
        String::from_utf8(log).unwrap(),
    );
    let mv: Move = out.split_whitespace().next().unwrap().parse().unwrap();
    assert!(
        matches!(mv, Move::Peg(c) if c.allowed_for(Player::One) && c != first),
        "{mv}"
    );
    // Neither the table's SWAP nor its reply: the search's line, with its visits.
    assert!(!log.contains("(opening table)"), "{log}");
    assert!(log.contains(" visits "), "{log}");
}

#[test]
fn the_search_after_a_swap_carries_over_to_the_next_turn() {
    // E7 is swapped to player 1's G5; player 0 answers D4. The swap turn's search saw
    // every reply at least once (200 playouts, about 120 replies).
    let (code, out, log) = run("E7\n0\n0\n1\nE7\n0\nD4\n1\nG5\n0\n1\nD4\n0\n");
    assert_eq!(code, 0);
    assert!(out.starts_with("SWAP"), "{out}");
    assert!(reused_on_turn(&log, 2) > 0, "{log}");
}

#[test]
fn a_bot_joining_a_game_under_way_plays_the_side_it_is_told() {
    // E7 SWAP D4: player 1 (G5 after the swap) to move, with as many pegs as player 0 and
    // none on a border, so the position alone says player 0.
    let input = "D4\n1\nG5\n0\n1\nD4\n0\n";
    let opts = Options {
        playouts: Some(200),
        seed: Some(1),
        ..Options::default()
    };
    let mut guessing = Bot::new(opts.clone());
    guessing.run(input.as_bytes(), &mut Vec::new(), &mut Vec::new());
    assert_eq!(guessing.side, Some(Player::Zero));
    // After its own SWAP: E7 was player 0's (now mirrored), the swap no peg.
    let own = crate::position::last_pegs(&[mv("E7"), Move::Swap]);
    let mut joined = Bot::joining(opts, Player::One, own);
    let mut out = Vec::new();
    assert_eq!(joined.run(input.as_bytes(), &mut out, &mut Vec::new()), 0);
    let out = String::from_utf8(out).unwrap();
    let mv: Move = out.split_whitespace().next().unwrap().parse().unwrap();
    let pos = Position::after("E7 SWAP D4").unwrap();
    assert!(pos.legal_moves().contains(&mv), "{out}");
    // One turn answered, this one: the last pegs are that answer's, then D4.
    assert_eq!(joined.side, Some(Player::One));
    assert_eq!(joined.turns, 1);
    assert_eq!(
        joined.last_pegs,
        [mv.peg(), Some(crate::testing::cell("D4"))]
    );
}

#[test]
fn unknown_board_exits_with_status_two() {
    let (code, out, log) = run("FIRST\n0\n0\nxyz\n");
    assert_eq!(code, EXIT_BAD_INPUT);
    assert!(out.is_empty());
    assert!(log.contains("line 4: 'xyz'"), "{log}");
}

#[test]
fn a_bad_segment_is_reported_and_a_legal_move_still_played() {
    let (code, out, log) = run("E6\n1\nE5\n0\n1\nE6\n1\nE6 E5\n");
    assert_eq!(code, 0);
    assert!(
        log.contains("line 8: segment E6 E5 is not a knight move"),
        "{log}"
    );
    let mv: Move = out.split_whitespace().next().unwrap().parse().unwrap();
    assert!(matches!(mv, Move::Peg(c) if !["E5", "E6"].contains(&c.to_string().as_str())));
}
