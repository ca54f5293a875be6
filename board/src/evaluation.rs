//! The evaluation graph of a whole game: the engine's value for the player to move at every
//! ply, searched on a thread of its own at a fixed budget a ply ([`PLAYOUTS`], with a fixed
//! seed, so the same game gives the same graph), published ply by ply for the page to poll.
//! Like the live analysis it holds one of the server's [`Slots`](crate::slots::Slots) and one
//! tree's [`Allowance`] of the memory budget while it runs; it stops when asked or when its
//! tab drops it (the board left the game).
//!
//! From the values, each move whose mover's value falls by at least a [`THRESHOLDS`] step is
//! marked, with the move and line the search preferred at the ply before it.

use crate::background::{Background, Ended};
use crate::memory::Allowance;
use crate::slots::Slot;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use twixt::position::{last_pegs_after, LastPegs, Move, Outcome, Position};
use twixt::search::params::Params;
use twixt::search::{Limits, Searcher};

/// The search's playouts (iterations) at each ply: enough for a steady value, few enough
/// that a game of 60 plies is drawn in a few seconds.
pub const PLAYOUTS: u64 = 5_000;
/// The search's seed: the same game gives the same graph.
pub const SEED: u64 = 0x7017_2026;
/// The playouts searched between two looks at whether to stop.
const CHUNK: u64 = 500;
/// How many moves of the preferred line are kept.
const LINE_PLIES: usize = 8;

/// The falls of the mover's value (in [0, 1], from before its move to after it) that mark a
/// move, largest first: the page and docs/BOARD.md name them.
pub const THRESHOLDS: [(f32, &str); 3] =
    [(0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy")];

/// The engine's view of one ply's position.
#[derive(Clone, Debug, Serialize)]
pub struct PlyValue {
    /// The value for the player to move, in [0, 1] (1 or 0 where the game is won, 0.5 drawn).
    pub value: f32,
    /// The move the search prefers, none where the game is over.
    pub best: Option<String>,
    /// Its expected line, the move first.
    pub line: Vec<String>,
}

/// A move marked as an inaccuracy, a mistake or a blunder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mark {
    /// The ply the move was played at (from 0): the move list's move `ply`.
    pub ply: usize,
    /// `"inaccuracy"`, `"mistake"` or `"blunder"` ([`THRESHOLDS`]).
    pub kind: &'static str,
    /// How far the mover's value fell.
    pub fall: f32,
    /// The move the search preferred there.
    pub better: String,
    /// Its expected line, the move first.
    pub line: Vec<String>,
}

/// What the graph shows now.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GraphView {
    /// Whether plies are still being searched.
    pub running: bool,
    /// The moves evaluated: the graph is of this line.
    pub moves: Vec<String>,
    /// The values so far, ply 0 first; all `moves.len() + 1` once done.
    pub values: Vec<PlyValue>,
    /// The moves marked so far.
    pub marks: Vec<Mark>,
    /// The playouts a ply.
    pub playouts: u64,
    /// Why it stopped, once it has.
    pub ended: Option<String>,
}

/// A running (or finished) evaluation of a game: a [`Background`] search.
pub type Evaluation = Background<GraphView>;

impl Ended for GraphView {
    fn ended(&mut self, why: String) {
        self.running = false;
        self.ended = Some(why);
    }
}

impl Evaluation {
    /// Starts evaluating every ply of `moves` (legal, from the empty board) at `playouts` a
    /// ply on a thread of its own, holding `slot` while it runs, its tree within `memory`.
    pub fn of(moves: Vec<Move>, playouts: u64, slot: Slot, memory: Allowance) -> Evaluation {
        let view = GraphView {
            running: true,
            moves: moves.iter().map(Move::to_string).collect(),
            playouts,
            ..GraphView::default()
        };
        Background::start(view, slot, memory, move |max_nodes, stop, view| {
            evaluate(&moves, playouts, max_nodes, stop, view)
        })
    }
}

/// Searches every ply in turn, publishing each value and the marks; says why it stopped.
fn evaluate(
    moves: &[Move],
    playouts: u64,
    max_nodes: usize,
    stop: &AtomicBool,
    view: &Mutex<GraphView>,
) -> String {
    let params = Params {
        max_nodes,
        ..Params::default()
    };
    let mut searcher = Searcher::new(params, SEED);
    let mut pos = Position::new();
    let mut last: LastPegs = [None; 2];
    for ply in 0..=moves.len() {
        if stop.load(Ordering::SeqCst) {
            return "stopped".to_string();
        }
        searcher.set_history(last);
        let Some(value) = ply_value(&mut searcher, &pos, playouts, stop) else {
            return "stopped".to_string();
        };
        let mut v = view.lock().unwrap_or_else(|e| e.into_inner());
        v.values.push(value);
        v.marks = marks(&v.values, moves);
        drop(v);
        if let Some(&mv) = moves.get(ply) {
            pos.play_unchecked(mv);
            last = last_pegs_after(last, mv);
        }
    }
    "done".to_string()
}

/// The value of `pos` for the player to move: the result where the game is over, else the
/// search's after `playouts` iterations (in chunks of [`CHUNK`], so that a stop is heard), with
/// its preferred move and line; `None` when stopped.
fn ply_value(
    searcher: &mut Searcher,
    pos: &Position,
    playouts: u64,
    stop: &AtomicBool,
) -> Option<PlyValue> {
    let over = |value| PlyValue {
        value,
        best: None,
        line: Vec::new(),
    };
    match pos.outcome() {
        Some(Outcome::Win(p)) => return Some(over(if p == pos.to_move() { 1.0 } else { 0.0 })),
        Some(Outcome::Draw) => return Some(over(0.5)),
        None => {}
    }
    let chunk = |done: u64| Limits {
        iterations: Some(CHUNK.min(playouts - done).max(1)),
        ..Limits::default()
    };
    let mut report = searcher.analyse(pos, pos.legal_moves(), &chunk(0))?;
    let mut done = report.iterations.max(1);
    while done < playouts {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        report = searcher.analyse_on(pos, &chunk(done))?;
        done += report.iterations.max(1);
    }
    let line = searcher
        .analysis(1, LINE_PLIES)
        .first()
        .map(|l| l.line.iter().map(Move::to_string).collect())
        .unwrap_or_default();
    Some(PlyValue {
        value: report.value,
        best: Some(report.best.to_string()),
        line,
    })
}

/// The marked moves of the plies valued so far: move `i` (from ply `i` to `i + 1`) where
/// the mover's value fell from `values[i]` to `1 - values[i + 1]` by a [`THRESHOLDS`] step,
/// and `moves[i]` was not the move the search preferred.
pub fn marks(values: &[PlyValue], moves: &[Move]) -> Vec<Mark> {
    let mut out = Vec::new();
    for (ply, pair) in values.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        let fall = before.value - (1.0 - after.value);
        let kind = THRESHOLDS.iter().find(|t| fall >= t.0).map(|t| t.1);
        let played = moves.get(ply).map(Move::to_string);
        let better = before.best.as_ref().filter(|&b| Some(b) != played.as_ref());
        if let (Some(kind), Some(better)) = (kind, better) {
            out.push(Mark {
                ply,
                kind,
                fall,
                better: better.clone(),
                line: before.line.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Budget;
    use crate::slots::Slots;
    use std::time::{Duration, Instant};

    fn valued(value: f32, best: &str) -> PlyValue {
        PlyValue {
            value,
            best: Some(best.to_string()),
            line: vec![best.to_string(), "E5".to_string()],
        }
    }

    #[test]
    fn a_fall_past_each_threshold_is_marked_with_the_better_move() {
        // Ply 0: 0.6 for the mover; after move 0 the opponent has 0.45, so the mover 0.55:
        // a fall of 0.05, unmarked. Move 1 leaves its mover 1 - 0.9 = 0.1 of 0.45: a blunder.
        // Move 2 leaves 1 - 0.75 = 0.25 of 0.9: a blunder too; move 3 0.6 of 0.75: 0.15.
        let values = [
            valued(0.6, "F6"),
            valued(0.45, "G7"),
            valued(0.9, "H8"),
            valued(0.75, "J9"),
            valued(0.4, "K10"),
        ];
        let played: Vec<Move> = ["E5", "F7", "G9", "H7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let m = marks(&values, &played);
        let kinds: Vec<(usize, &str)> = m.iter().map(|m| (m.ply, m.kind)).collect();
        assert_eq!(kinds, [(1, "blunder"), (2, "blunder"), (3, "inaccuracy")]);
        assert_eq!(m[0].better, "G7");
        assert_eq!(m[0].line, ["G7", "E5"]);
        assert!((m[2].fall - 0.15).abs() < 1e-6);
        let middle = [valued(0.5, "F6"), valued(0.75, "G7")];
        assert_eq!(marks(&middle, &played)[0].kind, "mistake");
        let best = ["F6".parse().unwrap()];
        assert!(
            marks(&middle, &best).is_empty(),
            "the search's own move is not marked"
        );
    }

    #[test]
    fn every_ply_is_valued_the_same_each_time_and_the_slot_is_given_back() {
        let slots = Slots::new(1);
        let budget = Budget::new(1 << 30, 2);
        let moves: Vec<Move> = ["F6", "E7", "G8"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let run = || {
            let slot = slots.take().unwrap();
            let e = Evaluation::of(moves.clone(), 300, slot, budget.allow(1, "t").unwrap());
            let until = Instant::now() + Duration::from_secs(30);
            while e.view().running && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
            e.view()
        };
        let v = run();
        assert!(!v.running);
        assert_eq!(v.values.len(), 4);
        assert!(v.values.iter().all(|p| (0.0..=1.0).contains(&p.value)));
        assert!(v.values.iter().all(|p| p.best.is_some()));
        assert_eq!(slots.running(), 0, "the slot is given back");
        let again = run();
        let values = |v: &GraphView| v.values.iter().map(|p| p.value).collect::<Vec<_>>();
        assert_eq!(values(&v), values(&again), "a fixed seed and budget");
    }

    #[test]
    fn a_won_game_ends_at_a_certain_value_and_a_stop_ends_it() {
        // Player 0 wins at once after these 12 moves: the game ends with that move.
        let start = "E1 B5 F3 B7 E5 C9 F7 J5 E9 J7 F11 K9";
        let pos = Position::after(start).unwrap();
        let wins = |&mv: &Move| {
            let mut p = pos.clone();
            p.play_unchecked(mv);
            p.outcome() == Some(Outcome::Win(twixt::cell::Player::Zero))
        };
        let win = pos.legal_moves().into_iter().find(wins).unwrap();
        let mut moves: Vec<Move> = start.split(' ').map(|m| m.parse().unwrap()).collect();
        moves.push(win);
        let slots = Slots::new(1);
        let budget = Budget::new(1 << 30, 2);
        let allow = || budget.allow(1, "t").unwrap();
        let e = Evaluation::of(moves.clone(), 200, slots.take().unwrap(), allow());
        while e.view().running {
            std::thread::sleep(Duration::from_millis(20));
        }
        let last = e.view().values.pop().unwrap();
        assert_eq!(
            (last.value, last.best),
            (0.0, None),
            "the player to move lost"
        );
        let long = Evaluation::of(moves, 1_000_000, slots.take().unwrap(), allow());
        long.stop();
        while long.view().running {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(long.view().ended.as_deref(), Some("stopped"));
    }
}
