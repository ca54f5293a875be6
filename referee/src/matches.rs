//! A match between engines A and B: games in pairs with the seats swapped, several at once,
//! openings per pair, results kept one JSON line per game (so a match can resume), a result
//! block every few pairs and the SPRT's verdict.

use super::clocks::{by_player, Clocks};
use super::game::{play_game, GameSetup};
use super::openings::random_opening;
use super::record::{read_records, GameRecord, MatchSlot};
use super::sprt::{Sprt, Verdict};
use super::tally::Tally;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use twixt::cell::Player;
use twixt::position::Move;

/// Where a pair's opening comes from.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Every game starts from the empty board.
    None,
    /// Pair `i` plays line `(i + seed) % len` of a file.
    List(Vec<Vec<Move>>),
    /// Pair `i` plays this many random pegs, drawn from the match seed and `i`.
    Random(usize),
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The commands of engine A and engine B.
    pub cmds: [String; 2],
    /// How many games (rounded up to whole pairs).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The clocks of engine A and of engine B (each keeps its own when seats swap).
    pub clocks: [Clocks; 2],
    /// The openings.
    pub openings: Openings,
    /// The match seed.
    pub seed: u64,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// Where to keep one JSON line per game.
    pub results: Option<PathBuf>,
    /// Whether to skip the games already in `results`.
    pub resume: bool,
    /// A result block every this many pairs.
    pub report_every: usize,
    /// Where to keep the bots' stderr.
    pub stderr_dir: Option<PathBuf>,
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// All games were played and there was no SPRT.
    Played,
    /// The SPRT accepted H1.
    H1,
    /// The SPRT accepted H0.
    H0,
    /// All games were played and the SPRT reached neither bound.
    Inconclusive,
}

impl MatchEnd {
    /// The exit code `match` returns: 0 played or H1, 1 H0, 3 inconclusive (2 is for errors).
    pub fn exit_code(self) -> i32 {
        match self {
            MatchEnd::Played | MatchEnd::H1 => 0,
            MatchEnd::H0 => 1,
            MatchEnd::Inconclusive => 3,
        }
    }
}

impl MatchConfig {
    fn pairs(&self) -> usize {
        self.games.div_ceil(2)
    }

    /// The setup of game `game` (0 or 1) of pair `pair`: A is player 0 in the first game.
    pub fn setup(&self, pair: usize, game: usize) -> GameSetup {
        let [a, b] = self.cmds.clone();
        let opening = match &self.openings {
            Openings::None => Vec::new(),
            Openings::List(list) => list[(pair + self.seed as usize) % list.len()].clone(),
            Openings::Random(plies) => random_opening(*plies, self.seed ^ ((pair as u64) << 20)),
        };
        GameSetup {
            cmds: if game == 0 { [a, b] } else { [b, a] },
            clocks: by_player(self.clocks, game),
            opening,
            seed: self.seed.wrapping_add((2 * pair + game) as u64),
            stderr_dir: self.stderr_dir.clone(),
            slot: Some(MatchSlot {
                pair,
                game,
                a_player: game as u8,
            }),
        }
    }

    /// Games already in the results file that belong to this match's pairs (the first record
    /// of each game, should one be there twice); an error if they were played by other commands or
    /// under other clocks.
    fn previous(&self) -> Result<Vec<GameRecord>, String> {
        let Some(path) = self.results.as_ref().filter(|_| self.resume) else {
            return Ok(Vec::new());
        };
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for r in read_records(path)? {
            let slot = r.slot.ok_or("a results line without its match slot")?;
            check_previous(&r, &self.setup(slot.pair, slot.game))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if slot.pair < self.pairs() && seen.insert((slot.pair, slot.game)) {
                out.push(r);
            }
        }
        Ok(out)
    }
}

/// Whether a previous record is a game of this setup: the same commands (compared with `{seed}`
/// replaced, as records keep them) and, when the record has them, the same clocks.
fn check_previous(r: &GameRecord, setup: &GameSetup) -> Result<(), String> {
    let slot = r.slot.expect("checked by the caller");
    let at = format!("pair {}, game {}", slot.pair, slot.game);
    let expected = [setup.command(Player::Zero), setup.command(Player::One)];
    if [&r.cmd0, &r.cmd1] != [&expected[0], &expected[1]] {
        return Err(format!(
            "holds a game of other commands ({at}: {:?} vs {:?})",
            r.cmd0, r.cmd1
        ));
    }
    match r.clocks {
        Some(c) if c != setup.clocks => Err(format!(
            "holds a game under other clocks ({at}: player 0 {}; player 1 {})",
            c[0], c[1]
        )),
        _ => Ok(()),
    }
}

/// Runs the match, printing as it goes; returns how it ended and the final counts.
pub fn run_match(cfg: &MatchConfig) -> Result<(MatchEnd, Tally), String> {
    let previous = cfg.previous()?;
    let mut tally = Tally::default();
    let done: HashSet<(usize, usize)> = previous
        .iter()
        .filter_map(|r| r.slot.map(|s| (s.pair, s.game)))
        .collect();
    previous.iter().for_each(|r| tally.add(r));
    let jobs: Vec<(usize, usize)> = (0..cfg.pairs())
        .flat_map(|p| [(p, 0), (p, 1)])
        .filter(|j| !done.contains(j))
        .collect();
    let bar = progress_bar(2 * cfg.pairs(), done.len());
    if let Some(end) = verdict_end(cfg, &tally) {
        bar.finish_and_clear();
        return Ok((end, tally));
    }
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let workers = spawn_workers(cfg, jobs, tx, &stop);
    let mut end = None;
    let mut error = None;
    for result in rx {
        if end.is_some() || error.is_some() {
            continue;
        }
        let pairs_before = tally.penta.pairs();
        match result.and_then(|r| count_game(cfg, &mut tally, &r)) {
            Ok(()) => bar.inc(1),
            Err(e) => error = Some(e),
        }
        if tally.penta.pairs() > pairs_before {
            end = on_pair(cfg, &tally, &bar);
        }
        if end.is_some() || error.is_some() {
            stop.store(true, Ordering::SeqCst);
        }
    }
    workers.into_iter().for_each(|w| {
        let _ = w.join();
    });
    bar.finish_and_clear();
    if let Some(e) = error {
        return Err(e);
    }
    let end = end.unwrap_or(if cfg.sprt.is_some() {
        MatchEnd::Inconclusive
    } else {
        MatchEnd::Played
    });
    Ok((end, tally))
}

fn count_game(cfg: &MatchConfig, tally: &mut Tally, r: &GameRecord) -> Result<(), String> {
    if let Some(path) = &cfg.results {
        r.append_to(path)?;
    }
    tally.add(r);
    Ok(())
}

/// After a pair: the periodic block, and the SPRT's verdict.
fn on_pair(cfg: &MatchConfig, tally: &Tally, bar: &ProgressBar) -> Option<MatchEnd> {
    let pairs = tally.penta.pairs() as usize;
    if pairs.is_multiple_of(cfg.report_every.max(1)) {
        let block = tally.block(cfg.sprt.as_ref());
        say(bar, &format!("--- after {pairs} pairs ---\n{block}"));
    }
    verdict_end(cfg, tally)
}

fn verdict_end(cfg: &MatchConfig, tally: &Tally) -> Option<MatchEnd> {
    let sprt = cfg.sprt?;
    match sprt.verdict(sprt.llr(&tally.penta)) {
        Verdict::AcceptH1 => Some(MatchEnd::H1),
        Verdict::AcceptH0 => Some(MatchEnd::H0),
        Verdict::Continue => None,
    }
}

/// Prints to stdout, above the progress bar (which is on stderr, when it is a terminal).
pub fn say(bar: &ProgressBar, text: &str) {
    bar.suspend(|| print!("{text}"));
}

fn progress_bar(total: usize, done: usize) -> ProgressBar {
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:40} {pos}/{len} games, eta {eta}")
            .expect("a valid template"),
    );
    bar.set_position(done as u64);
    bar
}

type Outcome = Result<GameRecord, String>;

/// `concurrency` threads taking jobs in order until none is left or `stop` is set.
fn spawn_workers(
    cfg: &MatchConfig,
    jobs: Vec<(usize, usize)>,
    tx: mpsc::Sender<Outcome>,
    stop: &Arc<AtomicBool>,
) -> Vec<thread::JoinHandle<()>> {
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    (0..cfg.concurrency.max(1))
        .map(|_| {
            let (cfg, jobs, next, tx, stop) = (
                cfg.clone(),
                jobs.clone(),
                next.clone(),
                tx.clone(),
                stop.clone(),
            );
            thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= jobs.len() || stop.load(Ordering::SeqCst) {
                    return;
                }
                let (pair, game) = jobs[i];
                if tx.send(play_game(&cfg.setup(pair, game))).is_err() {
                    return;
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_b_keeps_its_clock_in_both_seats() {
        let b = Clocks {
            first_ms: 5000,
            turn_ms: 3000,
            margin_ms: 0,
        };
        let cfg = MatchConfig {
            cmds: ["a".into(), "b".into()],
            games: 2,
            concurrency: 1,
            clocks: [Clocks::default(), b],
            openings: Openings::None,
            seed: 1,
            sprt: None,
            results: None,
            resume: false,
            report_every: 1,
            stderr_dir: None,
        };
        for game in 0..2 {
            let setup = cfg.setup(0, game);
            let b_player = Player::BOTH[1 - game];
            assert_eq!(setup.command(b_player), "b");
            assert_eq!(setup.clocks[b_player.index()], b);
            assert_eq!(setup.clocks[1 - b_player.index()], Clocks::default());
        }
    }
}
