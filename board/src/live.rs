//! The live analysis: the engine's search of one position on a thread of its own, in slices
//! of a fifth of a second that go on in the same tree ([`Searcher::analyse_on`]); after each
//! slice the root's moves (visits, share, value, prior, expected line) are published for the
//! page to poll. It stops when asked, at its time limit, or when its tab is dropped. It holds
//! one of the server's [`Slots`](crate::slots::Slots) while it runs, and hands it to its tab's
//! bot when the bot's turn stops it; its one tree stays within the [`Allowance`] it reserved
//! from the memory budget, given back when its thread has dropped the tree.

use crate::background::{Background, Ended};
use crate::memory::Allowance;
use crate::slots::Slot;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use twixt::position::{LastPegs, Move, Position};
use twixt::search::params::Params;
use twixt::search::{Found, Limits, RootLine, Searcher};

/// The length of one slice: the view is renewed about five times a second.
const SLICE: Duration = Duration::from_millis(200);
/// How many root moves are listed with their lines (the heat map has them all).
const TOP: usize = 8;
/// How many moves of each line are kept.
const PV_PLIES: usize = 10;

/// One root move as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct LineView {
    /// The move (`E5`, `SWAP`).
    pub mv: String,
    /// The search's visits.
    pub visits: u32,
    /// Its share of the root's visits, in [0, 1].
    pub share: f32,
    /// Its value for the player to move, in [0, 1].
    pub value: f32,
    /// The learned prior.
    pub prior: f32,
    /// The expected line, the move first.
    pub line: Vec<String>,
}

impl From<&RootLine> for LineView {
    fn from(l: &RootLine) -> LineView {
        LineView {
            mv: l.mv.to_string(),
            visits: l.visits,
            share: l.share,
            value: l.value,
            prior: l.prior,
            line: l.line.iter().map(Move::to_string).collect(),
        }
    }
}

/// What the analysis shows now.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnalysisView {
    /// Whether the search is still going.
    pub running: bool,
    /// Milliseconds searched so far.
    pub ms: u64,
    /// The time limit, in ms.
    pub limit_ms: u64,
    /// Iterations so far.
    pub iterations: u64,
    /// How many times the view was renewed.
    pub updates: u64,
    /// The most visited root moves, most first.
    pub lines: Vec<LineView>,
    /// Every root peg with its share of the visits (the heat map).
    pub heat: Vec<(String, f32)>,
    /// What the bot would play without searching (a win in one or two), if anything.
    pub note: Option<String>,
    /// Why the search stopped, once it has.
    pub ended: Option<String>,
}

/// A running (or finished) analysis of one position: a [`Background`] search.
pub type Analysis = Background<AnalysisView>;

impl Ended for AnalysisView {
    fn ended(&mut self, why: String) {
        self.running = false;
        self.ended = Some(why);
    }
}

/// The position to search and the last two pegs before it (the opponent's, the mover's).
pub struct Job {
    /// The position.
    pub position: Position,
    /// The last pegs, for the learned prior: the opponent's, then the mover's own.
    pub history: LastPegs,
    /// How long to search at most.
    pub limit: Duration,
}

impl Analysis {
    /// Starts searching `job` on a thread of its own, holding `slot` while it runs, its tree
    /// within `memory`; [`Background::hand_over`] gives the slot to its tab's bot.
    pub fn of(job: Job, slot: Slot, memory: Allowance) -> Analysis {
        let view = AnalysisView {
            running: true,
            limit_ms: job.limit.as_millis() as u64,
            ..AnalysisView::default()
        };
        Background::start(view, slot, memory, move |max_nodes, stop, view| {
            search(&job, max_nodes, stop, view)
        })
    }
}

/// Searches slice by slice, in a tree of at most `max_nodes` nodes, until stopped or out of
/// time; says why it stopped.
fn search(job: &Job, max_nodes: usize, stop: &AtomicBool, view: &Mutex<AnalysisView>) -> String {
    let pos = &job.position;
    let params = Params {
        max_nodes,
        ..Params::default()
    };
    let mut searcher = Searcher::new(params, rand::random());
    let note = searcher.tactical(pos).map(|r| match r.found {
        Found::WinInOne => format!(
            "{} wins at once: the bot plays it without searching",
            r.best
        ),
        _ => format!("{} wins in two: the bot plays it without searching", r.best),
    });
    view.lock().unwrap_or_else(|e| e.into_inner()).note = note;
    let start = Instant::now();
    let end = start + job.limit;
    let mut iterations = 0;
    let mut first = true;
    loop {
        if stop.load(Ordering::SeqCst) {
            return "stopped".to_string();
        }
        let now = Instant::now();
        if now >= end {
            return format!("time limit of {} ms reached", job.limit.as_millis());
        }
        let limits = Limits {
            soft_deadline: Some((now + SLICE).min(end)),
            hard_deadline: None,
            iterations: None,
        };
        searcher.set_history(job.history);
        let report = if std::mem::take(&mut first) {
            searcher.analyse(pos, pos.legal_moves(), &limits)
        } else {
            searcher.analyse_on(pos, &limits)
        };
        let Some(report) = report else {
            return "no move to search: the game is over".to_string();
        };
        iterations += report.iterations;
        let all = searcher.analysis(usize::MAX, PV_PLIES);
        let mut v = view.lock().unwrap_or_else(|e| e.into_inner());
        v.ms = start.elapsed().as_millis() as u64;
        v.iterations = iterations;
        v.updates += 1;
        v.lines = all.iter().take(TOP).map(LineView::from).collect();
        v.heat = all
            .iter()
            .filter(|l| l.mv != Move::Swap)
            .map(|l| (l.mv.to_string(), l.share))
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Budget;
    use crate::slots::Slots;

    fn job(moves: &str, ms: u64) -> Job {
        Job {
            position: Position::after(moves).unwrap(),
            history: [None, None],
            limit: Duration::from_millis(ms),
        }
    }

    fn allow() -> Allowance {
        Budget::new(1 << 30, 2).allow(1, "the analysis").unwrap()
    }

    fn wait(a: &Analysis) -> AnalysisView {
        let until = Instant::now() + Duration::from_secs(10);
        while a.view().running && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        a.view()
    }

    #[test]
    fn the_view_is_renewed_slice_by_slice_until_the_limit() {
        let slots = Slots::new(1);
        let a = Analysis::of(job("F6 E7 G8", 700), slots.take().unwrap(), allow());
        let v = wait(&a);
        assert!(!v.running);
        assert!(v.updates >= 3, "{} updates in 700 ms", v.updates);
        assert_eq!(v.ended.as_deref(), Some("time limit of 700 ms reached"));
        assert_eq!(v.lines.len(), TOP);
        assert!(v.lines.windows(2).all(|w| w[0].visits >= w[1].visits));
        // The heat is every legal peg's share of the root's visits: as the listed lines'
        // visits stand to one another, so do their heat, and SWAP has none.
        let legal = job("F6 E7 G8", 0).position.legal_holes().count();
        assert_eq!(v.heat.len(), legal as usize);
        let heat = |mv: &str| v.heat.iter().find(|h| h.0 == mv).map(|h| h.1).unwrap();
        let top = &v.lines[0];
        for l in &v.lines[1..] {
            let (this, expected) = (
                heat(&l.mv) * top.visits as f32,
                heat(&top.mv) * l.visits as f32,
            );
            assert!(
                (this - expected).abs() <= 1e-3 * expected.max(1.0),
                "{}",
                l.mv
            );
        }
        assert!(v.lines[0].line.len() > 1 && v.lines[0].line[0] == v.lines[0].mv);
        let visits: u64 = v.lines.iter().map(|l| l.visits as u64).sum();
        assert!(visits <= v.iterations);
        drop(a);
        assert_eq!(slots.running(), 0, "the slot is given back");
        let b = Analysis::of(job("F6", 60_000), slots.take().unwrap(), allow());
        let slot = b.hand_over().expect("a running analysis holds its slot");
        assert!(b.hand_over().is_none(), "handed over once");
        assert_eq!(slots.running(), 1, "the slot went on, not back");
        assert!(!wait(&b).running);
        drop(slot);
        assert_eq!(slots.running(), 0);
    }

    #[test]
    fn a_stop_ends_it_and_tactics_are_noted() {
        let slots = Slots::new(2);
        let won = "E1 B5 F3 B7 E5 C9 F7 J5 E9 J7 F11 K9";
        let a = Analysis::of(job(won, 60_000), slots.take().unwrap(), allow());
        std::thread::sleep(Duration::from_millis(300));
        a.stop();
        let v = wait(&a);
        assert!(!v.running, "a minute's analysis ended when stopped");
        assert_eq!(v.ended.as_deref(), Some("stopped"));
        assert!(v.note.unwrap().contains("wins at once"));
    }
}
