//! A match between engines A and B: games in pairs with the seats swapped, several at once,
//! openings per pair, results kept one JSON line per game (so a match can resume), a result
//! block every few pairs and the SPRT's verdict.

use super::engines::Engines;
use super::game::{play_game, GameSetup};
use super::openings::{random_opening, read_openings};
use super::record::{mend_tail, read_records_if_any, GameRecord, MatchSlot};
use super::shard::Shard;
use super::sprt::{Sprt, Verdict};
use super::tally::Tally;
use anyhow::{anyhow, bail, Context, Result};
use indicatif::ProgressBar;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use twixt::cell::Player;
use twixt::position::Move;

/// The options of `match`, besides the engines'.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchOptions {
    /// Number of games (rounded up to whole pairs).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// One line of opening moves per pair (blank lines and # comments skipped).
    #[arg(long, conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Start each pair from this many random pegs drawn from the seed.
    #[arg(long)]
    pub random_openings: Option<usize>,
    /// The match seed: game seeds, opening choice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// SPRT on pairs, normalized model: --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Keep one JSON line per game here.
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Skip the games already in --results.
    #[arg(long, requires = "results")]
    pub resume: bool,
    /// Print a result block every this many pairs.
    #[arg(long, default_value_t = 5)]
    pub report_every: usize,
    /// Play only the I-th of N disjoint slices of the pairs (pair p when p mod N = I-1), with
    /// the seeds and openings of the whole match; `merge` counts the slices' results as one.
    #[arg(long, value_name = "I/N", conflicts_with = "sprt")]
    pub shard: Option<Shard>,
}

impl MatchOptions {
    /// Games played at once (at least one).
    pub fn workers(&self) -> usize {
        self.concurrency.max(1)
    }

    fn pairs(&self) -> usize {
        self.games.div_ceil(2)
    }
}

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

impl Openings {
    /// The openings `--openings` or `--random-openings` ask for.
    pub fn from_options(options: &MatchOptions) -> Result<Openings> {
        Ok(match (&options.openings, options.random_openings) {
            (Some(path), _) => Openings::List(read_openings(path)?),
            (None, Some(plies)) => Openings::Random(plies),
            (None, None) => Openings::None,
        })
    }

    /// The opening of pair `pair` in a match with seed `seed`.
    pub fn of_pair(&self, pair: usize, seed: u64) -> Vec<Move> {
        match self {
            Openings::None => Vec::new(),
            Openings::List(list) => list[(pair + seed as usize) % list.len()].clone(),
            Openings::Random(plies) => random_opening(*plies, seed ^ ((pair as u64) << 20)),
        }
    }
}

/// Everything a match needs: its engines, its options, and what the options name (the
/// openings read, the SPRT parsed).
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engines A and B.
    pub engines: Engines,
    /// The options, as given.
    pub options: MatchOptions,
    /// The openings of the pairs.
    pub openings: Openings,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// No progress bar (a caller such as `tune` shows its own).
    pub quiet: bool,
}

impl MatchConfig {
    /// The match of `engines` under `options`: reads the openings and parses the SPRT.
    pub fn new(engines: Engines, options: MatchOptions) -> Result<MatchConfig> {
        Ok(MatchConfig {
            openings: Openings::from_options(&options)?,
            sprt: options.sprt.as_deref().map(Sprt::parse).transpose()?,
            quiet: false,
            engines,
            options,
        })
    }

    /// The setup of game `game` (0 or 1) of pair `pair`: A is player 0 in the first game.
    pub fn setup(&self, pair: usize, game: usize) -> GameSetup {
        let seed = self.options.seed;
        let slot = MatchSlot::new(pair, game);
        let opening = self.openings.of_pair(pair, seed);
        let game_seed = seed.wrapping_add((2 * pair + game) as u64);
        GameSetup::new(&self.engines, game, opening, game_seed, Some(slot))
    }

    /// The counts of the games already played (with `--resume`) and the games left to play;
    /// the results file, if any, is made ready to be appended to.
    fn starting_point(&self) -> Result<(Tally, Vec<(usize, usize)>)> {
        if let Some(path) = &self.options.results {
            mend_tail(path)?;
        }
        let mut tally = Tally::default();
        let mut done = HashSet::new();
        for r in self.previous()? {
            tally.add(&r);
            done.extend(r.slot.map(|s| (s.pair, s.game)));
        }
        let shard = self.options.shard;
        let jobs = (0..self.options.pairs())
            .filter(|&p| shard.is_none_or(|s| s.has(p)))
            .flat_map(|p| [(p, 0), (p, 1)])
            .filter(|j| !done.contains(j))
            .collect();
        Ok((tally, jobs))
    }

    /// Games already in the results file that belong to this match's pairs (the first record
    /// of each game, should one be there twice); an error if they were played by other commands
    /// or under other clocks.
    fn previous(&self) -> Result<Vec<GameRecord>> {
        let (Some(path), true) = (&self.options.results, self.options.resume) else {
            return Ok(Vec::new());
        };
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (i, r) in read_records_if_any(path)?.into_iter().enumerate() {
            let slot = r.slot.ok_or_else(|| {
                anyhow!(
                    "{}: record {} is not a match game (it has no slot)",
                    path.display(),
                    i + 1
                )
            })?;
            check_previous(&r, &self.setup(slot.pair, slot.game))
                .with_context(|| path.display().to_string())?;
            let ours = self.options.shard.is_none_or(|s| s.has(slot.pair));
            if slot.pair < self.options.pairs() && ours && seen.insert((slot.pair, slot.game)) {
                out.push(r);
            }
        }
        Ok(out)
    }
}

/// Whether a previous record is a game of this setup: the same commands (compared with `{seed}`
/// replaced, as records keep them) and, when the record has them, the same clocks.
fn check_previous(r: &GameRecord, setup: &GameSetup) -> Result<()> {
    let slot = r.slot.expect("checked by the caller");
    let at = format!("pair {}, game {}", slot.pair, slot.game);
    let expected = [setup.command(Player::Zero), setup.command(Player::One)];
    if [&r.cmd0, &r.cmd1] != [&expected[0], &expected[1]] {
        bail!(
            "holds a game of other commands ({at}: {:?} vs {:?})",
            r.cmd0,
            r.cmd1
        );
    }
    match r.clocks {
        Some(c) if c != setup.clocks => bail!(
            "holds a game under other clocks ({at}: player 0 {}; player 1 {})",
            c[0],
            c[1]
        ),
        _ => Ok(()),
    }
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

    /// The match's last line.
    pub fn line(self) -> &'static str {
        match self {
            MatchEnd::Played => "Match finished.",
            MatchEnd::H1 => "SPRT: H1 accepted (A is stronger by about elo1 or more).",
            MatchEnd::H0 => "SPRT: H0 accepted (A is not stronger than elo0).",
            MatchEnd::Inconclusive => {
                "SPRT: inconclusive (no bound reached before the games ran out)."
            }
        }
    }
}

/// Runs the match, printing as it goes; returns how it ended and the final counts.
pub fn run_match(cfg: &MatchConfig) -> Result<(MatchEnd, Tally)> {
    let (mut tally, jobs) = cfg.starting_point()?;
    let total = jobs.len() + tally.wdl.games() as usize;
    let bar = if cfg.quiet {
        ProgressBar::hidden()
    } else {
        twixt_host::progress::bar(total as u64, (total - jobs.len()) as u64, "games")
    };
    let stopped = match verdict_end(cfg, &tally) {
        Some(end) => Ok(Some(end)),
        None => play_jobs(cfg, jobs, &mut tally, &bar),
    };
    bar.finish_and_clear();
    let end = stopped?.unwrap_or(if cfg.sprt.is_some() {
        MatchEnd::Inconclusive
    } else {
        MatchEnd::Played
    });
    Ok((end, tally))
}

/// Plays `jobs` on the workers and counts each game; the SPRT's verdict if one stopped the
/// match, or the first error (a game that could not be played or written).
fn play_jobs(
    cfg: &MatchConfig,
    jobs: Vec<(usize, usize)>,
    tally: &mut Tally,
    bar: &ProgressBar,
) -> Result<Option<MatchEnd>> {
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let workers = spawn_workers(cfg, jobs, tx, &stop);
    let mut stopped = Ok(None);
    for result in rx {
        if matches!(stopped, Ok(None)) {
            stopped = result.and_then(|r| count_game(cfg, tally, &r, bar));
            if !matches!(stopped, Ok(None)) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    workers.into_iter().for_each(|w| {
        let _ = w.join();
    });
    stopped
}

/// Keeps and counts one game; after a pair, the periodic block and the SPRT's verdict.
fn count_game(
    cfg: &MatchConfig,
    tally: &mut Tally,
    r: &GameRecord,
    bar: &ProgressBar,
) -> Result<Option<MatchEnd>> {
    if let Some(path) = &cfg.options.results {
        r.append_to(path)?;
    }
    let pairs_before = tally.penta.pairs();
    tally.add(r);
    bar.inc(1);
    Ok(if tally.penta.pairs() > pairs_before {
        on_pair(cfg, tally, bar)
    } else {
        None
    })
}

/// After a pair: the periodic block, and the SPRT's verdict.
fn on_pair(cfg: &MatchConfig, tally: &Tally, bar: &ProgressBar) -> Option<MatchEnd> {
    let pairs = tally.penta.pairs() as usize;
    if pairs.is_multiple_of(cfg.options.report_every.max(1)) {
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

/// Runs the match as `match` and `test` show it: the engines, a result block every few pairs,
/// then the final block, each engine's faults and answer times (under `names`), and how it
/// ended.
pub fn run_printed(cfg: &MatchConfig, names: [&str; 2]) -> Result<MatchEnd> {
    warn_about_cores(cfg.options.workers());
    print!("{}", cfg.engines.describe());
    if let Some(shard) = cfg.options.shard {
        println!("shard {shard}: this run plays only its slice of the pairs; merge adds them up");
    }
    let (end, tally) = run_match(cfg)?;
    let bar = ProgressBar::hidden();
    say(
        &bar,
        &format!("--- final ---\n{}", tally.block(cfg.sprt.as_ref())),
    );
    print!("{}", tally.engine_lines(names));
    println!("{}", end.line());
    Ok(end)
}

fn warn_about_cores(concurrency: usize) {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    if concurrency > cores {
        eprintln!(
            "warning: --concurrency {concurrency} is above the {cores} cores of this machine: bots \
             that think for their whole clock fight for cores, and overload shows up as timeouts"
        );
    }
}

/// Prints to stdout, above the progress bar (which is on stderr, when it is a terminal).
pub fn say(bar: &ProgressBar, text: &str) {
    bar.suspend(|| print!("{text}"));
}

type Outcome = Result<GameRecord>;

/// `concurrency` threads taking jobs in order until none is left or `stop` is set.
fn spawn_workers(
    cfg: &MatchConfig,
    jobs: Vec<(usize, usize)>,
    tx: mpsc::Sender<Outcome>,
    stop: &Arc<AtomicBool>,
) -> Vec<thread::JoinHandle<()>> {
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    (0..cfg.options.workers())
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
    use crate::clocks::Clocks;
    use crate::fixtures::{options, record, SLOW_CLOCKS};
    use crate::record::Reason;

    fn config(args: &[&str]) -> MatchConfig {
        let engines = Engines {
            clocks: [Clocks::CODINGAME, SLOW_CLOCKS],
            ..Engines::codingame("a {seed}", "b")
        };
        MatchConfig::new(engines, options(args)).unwrap()
    }

    #[test]
    fn engine_b_keeps_its_clock_in_both_seats() {
        let cfg = config(&["--seed", "7", "--random-openings", "2"]);
        for game in 0..2 {
            let setup = cfg.setup(3, game);
            let b_player = Player::BOTH[1 - game];
            assert_eq!(setup.command(b_player), "b");
            assert_eq!(setup.command(b_player.other()), format!("a {}", 13 + game));
            assert_eq!(setup.clocks[b_player.index()], SLOW_CLOCKS);
            assert_eq!(setup.clocks[1 - b_player.index()], Clocks::CODINGAME);
            assert_eq!(setup.slot, Some(MatchSlot::new(3, game)));
            assert_eq!(setup.opening, cfg.setup(3, 0).opening);
            assert_eq!(setup.opening.len(), 2);
        }
    }

    #[test]
    fn a_previous_game_must_have_the_same_commands_and_clocks() {
        let setup = config(&[]).setup(0, 1);
        let r = GameRecord {
            cmd0: setup.command(Player::Zero),
            cmd1: setup.command(Player::One),
            clocks: Some(setup.clocks),
            slot: setup.slot,
            ..record("E5", Some(0), Reason::Timeout)
        };
        assert!(check_previous(&r, &setup).is_ok());
        let other = |r: GameRecord| check_previous(&r, &setup).unwrap_err().to_string();
        let clocks = other(GameRecord {
            clocks: Some([Clocks::CODINGAME; 2]),
            ..r.clone()
        });
        assert!(clocks.starts_with("holds a game under other clocks (pair 0, game 1: "));
        let cmds = other(GameRecord {
            cmd0: "c".into(),
            ..r
        });
        assert!(cmds.starts_with("holds a game of other commands (pair 0, game 1: "));
    }
}
