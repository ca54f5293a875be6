//! Positions the bot has never seen, taken from random games and judged with the reference
//! rules: where the player to move can win at once, the built bot must win; where the
//! opponent threatens to win at once and one move can stop it, the bot must stop it.

// Host-only test code.
#![allow(clippy::incompatible_msrv)]

mod bot_process;

use bot_process::run_bot;
use twixt::rng::FastRng;
use twixt::Move;
use twixt_reference::turn_input;
use twixt_reference::RefGame;

const EACH: usize = 25;

/// The mover's moves that win at once.
fn wins(g: &RefGame) -> Vec<Move> {
    let me = g.to_move();
    g.legal_holes(me)
        .into_iter()
        .map(Move::Peg)
        .filter(|&m| {
            let mut next = g.clone();
            next.play(m).is_ok() && next.winner() == Some(me)
        })
        .collect()
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

fn bot_answer(input: &str) -> Move {
    let run = run_bot(input, 300, 5);
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
        let mv = bot_answer(&turn_input(g));
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
