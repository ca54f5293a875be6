//! Makes a test fixture: a real turn input and, beside it, what a right answer is, both
//! computed with the slow reference rules (never the bot's own board).
//!
//! ```text
//! cargo run --example fixture -- NAME moves "E5 F7 ..."      the position after these moves
//! cargo run --example fixture -- NAME random SEED PLIES      random moves that do not win
//! cargo run --example fixture -- NAME few SEED HOLES         ... until the mover has <= HOLES
//! options after those: --accept swap|noswap|any (default: wins, else blocks, else any)
//! ```
//! It writes `fixtures/NAME.txt` and `fixtures/NAME.expect`.

use std::process::exit;
use twixt::rng::FastRng;
use twixt::{Move, Player};
use twixt_reference::turn_input;
use twixt_reference::RefGame;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: fixture NAME moves \"E5 F7\" | NAME random SEED PLIES | NAME few SEED HOLES [--accept swap|noswap|any]");
        exit(2);
    }
    let (name, how) = (&args[0], &args[1]);
    let game = match how.as_str() {
        "moves" => replay(&args[2]),
        "random" => random_game(number(&args, 2), |g| {
            g.moves().len() >= number(&args, 3) as usize
        }),
        "few" => random_game(number(&args, 2), |g| {
            g.legal_holes(g.to_move()).len() <= number(&args, 3) as usize
        }),
        _ => fail(&format!("unknown way '{}'", how)),
    };
    let accept_flag = args
        .iter()
        .position(|a| a == "--accept")
        .map(|i| args[i + 1].as_str());
    let legal = game.legal_moves();
    let (accept, why) = match accept_flag {
        Some("swap") => (vec![Move::Swap], "swap".to_string()),
        Some("noswap") => (
            legal.iter().copied().filter(|m| *m != Move::Swap).collect(),
            "no swap".into(),
        ),
        Some("any") => (legal.clone(), "any legal move".into()),
        _ => auto_accept(&game, &legal),
    };
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    let expect = format!(
        "# {name}: {why}\n# after: {}\nside: {}\nlegal: {}\naccept: {}\n",
        moves.join(" "),
        game.to_move(),
        list(&legal),
        if accept.len() == legal.len() {
            "any".to_string()
        } else {
            list(&accept)
        }
    );
    write(&format!("fixtures/{name}.txt"), &turn_input(&game));
    write(&format!("fixtures/{name}.expect"), &expect);
    eprintln!(
        "{name}: {} pegs, side {} to move, {why}: {} of {} moves accepted",
        game.moves().len(),
        game.to_move(),
        accept.len(),
        legal.len()
    );
}

fn number(args: &[String], i: usize) -> u64 {
    args.get(i)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| fail("expected a number"))
}

fn fail(msg: &str) -> ! {
    eprintln!("fixture: {msg}");
    exit(2)
}

fn write(path: &str, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
}

fn list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn replay(moves: &str) -> RefGame {
    let moves: Vec<Move> = moves
        .split_whitespace()
        .map(|m| m.parse().unwrap_or_else(|e| fail(&format!("{m}: {e}"))))
        .collect();
    RefGame::from_moves(&moves).unwrap_or_else(|(i, e)| fail(&format!("move {}: {e}", i + 1)))
}

/// The moves after which the mover has won.
fn wins(g: &RefGame, moves: &[Move]) -> Vec<Move> {
    let me = g.to_move();
    moves
        .iter()
        .copied()
        .filter(|&m| {
            let mut next = g.clone();
            next.play(m).is_ok() && next.winner() == Some(me)
        })
        .collect()
}

/// Wins if there are any; else the moves that leave the opponent no win in one if it has one
/// now; else every move.
fn auto_accept(g: &RefGame, legal: &[Move]) -> (Vec<Move>, String) {
    let w = wins(g, legal);
    if !w.is_empty() {
        return (w, format!("win in one for player {}", g.to_move()));
    }
    let opp_wins = |next: &RefGame| wins(next, &next.legal_moves()).len();
    let safe: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            let mut next = g.clone();
            next.play(m).is_ok() && opp_wins(&next) == 0
        })
        .collect();
    if safe.len() < legal.len() && !safe.is_empty() {
        return (
            safe,
            format!("player {} must stop a win in one", g.to_move()),
        );
    }
    (legal.to_vec(), "any legal move".to_string())
}

/// Random moves that never win, until `stop` says so (or no such move is left).
fn random_game(seed: u64, stop: impl Fn(&RefGame) -> bool) -> RefGame {
    let mut rng = FastRng::new(seed);
    let mut g = RefGame::new();
    while !stop(&g) && g.outcome().is_none() {
        let holes = g.legal_holes(g.to_move());
        let me: Player = g.to_move();
        let start = rng.below(holes.len() as u32) as usize;
        let quiet = (0..holes.len())
            .map(|k| holes[(start + k) % holes.len()])
            .find(|&c| {
                let mut next = g.clone();
                next.play(Move::Peg(c)).is_ok()
                    && next.winner() != Some(me)
                    && next.outcome().is_none()
            });
        match quiet {
            Some(c) => g
                .play(Move::Peg(c))
                .unwrap_or_else(|e| fail(&e.to_string())),
            None => break,
        }
    }
    g
}
