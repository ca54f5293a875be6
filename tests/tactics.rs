//! Positions the bot has never seen, taken from random games and judged with the reference
//! rules: where the player to move can win at once, the built bot must win; where the
//! opponent threatens to win at once and one move can stop it, the bot must stop it; where
//! the player to move has a forced win in two (a move after which every reply loses to a win
//! at once), the bot must keep it.

// Host-only test code.
#![allow(clippy::incompatible_msrv)]

mod bot_process;

use bot_process::run_bot;
use twixt::rng::FastRng;
use twixt::search::tactics;
use twixt::{Move, Position};
use twixt_reference::turn_input;
use twixt_reference::RefGame;

const EACH: usize = 25;

/// The mover's moves that win at once, in index order.
fn winning_moves(g: &RefGame) -> impl Iterator<Item = Move> + '_ {
    let me = g.to_move();
    g.legal_holes(me)
        .into_iter()
        .map(Move::Peg)
        .filter(move |&m| {
            let mut next = g.clone();
            next.play(m).is_ok() && next.winner() == Some(me)
        })
}

/// The mover's moves that win at once.
fn wins(g: &RefGame) -> Vec<Move> {
    winning_moves(g).collect()
}

/// The mover's moves after which the opponent has no win at once.
fn stops(g: &RefGame) -> Vec<Move> {
    g.legal_holes(g.to_move())
        .into_iter()
        .map(Move::Peg)
        .filter(|&m| {
            let mut next = g.clone();
            next.play(m).is_ok() && wins(&next).is_empty()
        })
        .collect()
}

/// Whether the mover can win at once (the reference rules).
fn has_win(g: &RefGame) -> bool {
    winning_moves(g).next().is_some()
}

/// Whether `mv` keeps a forced win in two for the mover, by the reference rules: the game
/// goes on, and every reply leaves the mover a win at once.
fn forces_win_in_two(g: &RefGame, mv: Move) -> bool {
    let mut next = g.clone();
    if next.play(mv).is_err() || next.outcome().is_some() {
        return false;
    }
    next.legal_moves().into_iter().all(|reply| {
        let mut after = next.clone();
        after.play(reply).is_ok() && after.outcome().is_none() && has_win(&after)
    })
}

/// Whether, by the engine's rules, the mover has a forced win in two but no win in one and
/// faces no threat. Only picks positions; the reference judges the bot's answers.
fn engine_sees_win_in_two(pos: &Position) -> bool {
    if tactics::can_win_now(pos) || !tactics::threats(pos).is_empty() {
        return false;
    }
    pos.legal_moves().into_iter().any(|mv| {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        !tactics::can_win_now(&next)
            && !tactics::threats(&next).is_empty()
            && next.legal_moves().into_iter().all(|reply| {
                let mut after = next.clone();
                after.play_unchecked(reply);
                tactics::can_win_now(&after)
            })
    })
}

/// Up to `n` positions from random games where the mover has a forced win in two, one per
/// game, at the first ply that has one.
fn wins_in_two(n: usize) -> Vec<RefGame> {
    let mut out = Vec::new();
    for seed in 1000..1400 {
        if out.len() == n {
            break;
        }
        let mut rng = FastRng::new(seed);
        let (mut g, mut pos) = (RefGame::new(), Position::new());
        while g.outcome().is_none() {
            if pos.legal_moves().len() > 1 && engine_sees_win_in_two(&pos) {
                out.push(g);
                break;
            }
            let holes = g.legal_holes(g.to_move());
            let mv = Move::Peg(holes[rng.below(holes.len() as u32) as usize]);
            g.play(mv).unwrap();
            pos.play(mv).unwrap();
        }
    }
    out
}

/// What a position asks of the bot, and the moves that answer it.
enum Task {
    Win(Vec<Move>),
    Stop(Vec<Move>),
}

/// Positions from random games: up to `EACH` of each task.
fn positions() -> (Vec<(RefGame, Task)>, [usize; 2]) {
    let mut out = Vec::new();
    let mut counts = [0usize; 2];
    let mut seed = 0;
    while counts.iter().any(|&n| n < EACH) && seed < 400 {
        let mut rng = FastRng::new(seed);
        seed += 1;
        let mut g = RefGame::new();
        while g.outcome().is_none() {
            let w = wins(&g);
            if !w.is_empty() {
                if counts[0] < EACH {
                    counts[0] += 1;
                    out.push((g.clone(), Task::Win(w)));
                }
                break;
            }
            if counts[1] < EACH && !wins(&g.passed()).is_empty() {
                let s = stops(&g);
                if !s.is_empty() {
                    counts[1] += 1;
                    out.push((g.clone(), Task::Stop(s)));
                }
            }
            let holes = g.legal_holes(g.to_move());
            let mv = Move::Peg(holes[rng.below(holes.len() as u32) as usize]);
            g.play(mv).unwrap();
        }
    }
    (out, counts)
}

fn bot_answer(input: &str, playouts: u64) -> Move {
    let run = run_bot(input, playouts, 5);
    assert_eq!(run.code, 0, "the bot failed: {}", run.stderr);
    let text = run.stdout;
    let token = text.split_whitespace().next().unwrap_or("");
    token
        .parse()
        .unwrap_or_else(|e| panic!("answer {text:?}: {e}"))
}

#[test]
fn the_bot_wins_in_one_and_stops_wins_in_one() {
    let (positions, counts) = positions();
    assert_eq!(counts, [EACH, EACH], "random games gave enough positions");
    let mut by_side = [0; 2];
    for (g, task) in &positions {
        by_side[g.to_move().index()] += 1;
        let mv = bot_answer(&turn_input(g), 300);
        let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
        let (ok, what) = match task {
            Task::Win(w) => (w.contains(&mv), "win"),
            Task::Stop(s) => (s.contains(&mv), "stop the opponent's win"),
        };
        assert!(ok, "after {}: {mv} does not {what}", moves.join(" "));
    }
    assert!(
        by_side.iter().all(|&n| n > 0),
        "both sides were tested: {by_side:?}"
    );
}

#[test]
fn the_bot_keeps_forced_wins_in_two() {
    let positions = wins_in_two(EACH);
    assert_eq!(positions.len(), EACH, "random games gave enough positions");
    let mut by_side = [0; 2];
    let mut misses = Vec::new();
    for g in &positions {
        assert!(!has_win(g), "the reference finds no win in one");
        by_side[g.to_move().index()] += 1;
        let mv = bot_answer(&turn_input(g), 20_000);
        if !forces_win_in_two(g, mv) {
            let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
            let keep: Vec<String> = g
                .legal_moves()
                .into_iter()
                .filter(|&m| forces_win_in_two(g, m))
                .map(|m| m.to_string())
                .collect();
            misses.push(format!(
                "after {}: {mv} instead of one of {}",
                moves.join(" "),
                keep.join(" ")
            ));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
    assert!(
        by_side.iter().all(|&n| n > 0),
        "both sides were tested: {by_side:?}"
    );
}
