//! Self-play: the engine's search against itself, in-process, a fixed number of iterations a
//! move, from random openings. Every game is kept with its result; the positions of full
//! searches also with the root's visits and the search's value. With `--fast`, only a share
//! of the moves is searched fully and the rest get a small search that is not recorded
//! (KataGo's playout cap randomisation): many more games an hour for a value, and still
//! visit counts for a policy.

use crate::data::{self, Game, Header, Ply, Search};
use crate::starts;
use anyhow::{anyhow, bail, Context, Result};
use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Instant;
use twixt::knowledge::encoding::DecodeError;
use twixt::knowledge::network::Network;
use twixt::knowledge::Policy;
use twixt::position::last_pegs;
use twixt::rng::FastRng;
use twixt::search::params::Params;
use twixt::search::{Limits, RootMove, Searcher};
use twixt::{Move, Outcome, Player, Position};
use twixt_host::{progress, Shard};

/// The options of `twixt-train selfplay`.
#[derive(clap::Args, Clone, Debug)]
pub struct SelfplayOptions {
    /// The data file to write (see `twixt_train::data` for its format).
    #[arg(long, short)]
    pub out: PathBuf,
    /// How many games the run holds (with --resume: in all, those already played included).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// MCTS iterations of a full search (recorded with its visits).
    #[arg(long, default_value_t = 20_000)]
    pub iterations: u32,
    /// MCTS iterations of a fast move, which is played but not recorded; without it every
    /// move is a full search.
    #[arg(long, value_name = "ITERATIONS")]
    pub fast: Option<u32>,
    /// With --fast: the share of moves (drawn at random) that are full searches, in [0, 1].
    #[arg(long, default_value_t = 0.25)]
    pub full_share: f64,
    /// Random pegs before the searches take over (after the start's moves, with --starts).
    #[arg(long, default_value_t = 2)]
    pub opening: u8,
    /// A starts file (`twixt-train starts`): game i begins from its line i mod N, then
    /// `--opening` random pegs, then the searches.
    #[arg(long, value_name = "FILE")]
    pub starts: Option<PathBuf>,
    /// The run's seed: game i is seeded by it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Add to an existing file of the same settings the games it lacks.
    #[arg(long)]
    pub resume: bool,
    /// Play only the I-th of N disjoint slices of the games (game i when i mod N = I-1), with
    /// the seeds of the whole run: slices run on many machines, and `fit` reads all their files.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// A search parameter of the teacher (repeatable), as `twixt-bot --set`.
    #[arg(long, value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

impl SelfplayOptions {
    fn header(&self, params: &Params, starts: &[Vec<Move>]) -> Result<Header> {
        if !(0.0..=1.0).contains(&self.full_share) {
            bail!("--full-share {} is not in [0, 1]", self.full_share);
        }
        let (fast, full_share) = match self.fast {
            Some(0) => bail!("--fast 0: a fast move needs at least one iteration"),
            Some(n) => (n, (self.full_share * 1000.0).round() as u16),
            None => (0, 1000),
        };
        Ok(Header {
            iterations: self.iterations,
            fast,
            full_share,
            opening: self.opening,
            starts: match self.starts {
                Some(_) => starts::fingerprint(starts),
                None => 0,
            },
            seed: self.seed,
            teacher: data::fingerprint(params),
        })
    }

    fn params(&self) -> Result<Params> {
        let mut params = Params::default();
        for pair in &self.set {
            let (name, value) = pair
                .split_once('=')
                .with_context(|| format!("--set needs NAME=VALUE, not '{pair}'"))?;
            params.set(name, value).map_err(anyhow::Error::msg)?;
        }
        Ok(params)
    }
}

/// Plays game `index` of a run from `start` (checked legal and open by [`starts::read`]):
/// `opening` random pegs drawn from the seed, then searches until the game ends: full
/// searches of `iterations`, or where the header has fast moves, a full search for a
/// `full_share` of the moves drawn from the seed and a fast one for the rest.
pub fn play_game(header: Header, params: &Params, index: u32, start: &[Move]) -> Game {
    let seed = header.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index as u64;
    let mut rng = FastRng::new(seed);
    let mut searcher = Searcher::new(params.clone(), seed);
    let limits = |iterations: u32| Limits {
        soft_deadline: None,
        hard_deadline: None,
        iterations: Some(iterations as u64),
    };
    let (full, fast) = (limits(header.iterations), limits(header.fast));
    let mut pos = Position::new();
    let mut plies: Vec<Ply> = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    for &mv in start {
        pos.play_unchecked(mv);
        moves.push(mv);
        plies.push(Ply { mv, search: None });
    }
    let unsearched = start.len() + header.opening as usize;
    while pos.outcome().is_none() {
        let ply = if plies.len() < unsearched {
            random_peg(&pos, &mut rng)
        } else {
            searcher.set_history(last_pegs(&moves));
            if header.fast == 0 || rng.below(1000) < u32::from(header.full_share) {
                searched(&mut searcher, &pos, &full)
            } else {
                Ply {
                    mv: searched(&mut searcher, &pos, &fast).mv,
                    search: None,
                }
            }
        };
        pos.play_unchecked(ply.mv);
        moves.push(ply.mv);
        plies.push(ply);
    }
    let winner = match pos.outcome() {
        Some(Outcome::Win(p)) => Some(p),
        _ => None,
    };
    Game {
        index,
        winner,
        opening: unsearched.min(plies.len()) as u8,
        plies,
    }
}

fn random_peg(pos: &Position, rng: &mut FastRng) -> Ply {
    let holes: Vec<_> = pos.legal_holes().iter().collect();
    let c = holes[rng.below(holes.len() as u32) as usize];
    Ply {
        mv: Move::Peg(c),
        search: None,
    }
}

fn searched(searcher: &mut Searcher, pos: &Position, limits: &Limits) -> Ply {
    let report = searcher
        .choose(pos, limits)
        .expect("the game is not over, so there is a move");
    let root = if report.root.is_empty() {
        // A win in one: the search knows its move for sure.
        vec![RootMove {
            mv: report.best,
            visits: 1,
            value: 1.0,
        }]
    } else {
        report.root
    };
    Ply {
        mv: report.best,
        search: Some(Search::of_root(report.value, &root)),
    }
}

/// Refuses a teacher whose shipped knowledge does not decode, given what decoding the policy
/// and the network gave: its search would quietly fall back (to a uniform prior, to the
/// distance value) and the data would teach another teacher than the one asked for. Only
/// what `params` uses is asked for.
pub fn teacher_knowledge(
    params: &Params,
    policy: Result<(), DecodeError>,
    network: Result<(), DecodeError>,
) -> Result<()> {
    if params.policy_prior {
        policy.map_err(|e| {
            anyhow!("the shipped policy weights (src/knowledge/weights.rs) do not decode: {e}; the teacher would use a uniform prior")
        })?;
    }
    if params.value_net {
        network.map_err(|e| {
            anyhow!("the shipped value network (src/knowledge/net_weights.rs) does not decode: {e}; the teacher would use the distance value (or --set value_net=false)")
        })?;
    }
    Ok(())
}

/// Runs `selfplay`: plays the games the file lacks and appends them in the order of their
/// indices (a game that ends early waits for those before it).
pub fn run(options: &SelfplayOptions) -> Result<()> {
    let params = options.params()?;
    teacher_knowledge(
        &params,
        Policy::shipped().map(drop),
        Network::shipped().map(drop),
    )?;
    let starts = match &options.starts {
        Some(path) => starts::read(path)?,
        None => vec![Vec::new()],
    };
    let header = options.header(&params, &starts)?;
    let (mut file, done) = open(options, header)?;
    let ours = |i: &u32| options.shard.is_none_or(|s| s.has(*i as usize));
    let todo: Vec<u32> = (0..options.games)
        .filter(|i| ours(i) && !done.contains(i))
        .collect();
    let total = (0..options.games).filter(ours).count() as u64;
    let bar = progress::bar(total, total - todo.len() as u64, "games");
    let (tx, rx) = mpsc::channel();
    let workers = spawn(
        header,
        params,
        starts,
        todo.clone(),
        options.threads.max(1),
        tx,
    );
    let (start, mut positions) = (Instant::now(), 0u64);
    // Games are written in the order of their indices, whatever order the threads end them
    // in, so that one command always writes the same bytes (and checksums can be compared).
    let (mut waiting, mut next) = (BTreeMap::new(), 0);
    for game in rx {
        waiting.insert(game.index, game);
        while let Some(game) = todo.get(next).and_then(|i| waiting.remove(i)) {
            data::append(&mut file, &game)
                .with_context(|| format!("{}: writing", options.out.display()))?;
            positions += game.plies.iter().filter(|p| p.search.is_some()).count() as u64;
            let rate = positions as f64 / start.elapsed().as_secs_f64();
            progress::note(&bar, &format!("{positions} positions, {rate:.1}/s"));
            bar.inc(1);
            next += 1;
        }
    }
    workers
        .into_iter()
        .for_each(|w| w.join().expect("a self-play thread"));
    bar.finish();
    Ok(())
}

/// The file to append to and the games it already holds: a new file, or with `--resume` an
/// existing one of the same settings, its torn last record cut off.
fn open(options: &SelfplayOptions, header: Header) -> Result<(std::fs::File, HashSet<u32>)> {
    let path = &options.out;
    if !options.resume || !path.exists() {
        return Ok((data::create(path, header)?, HashSet::new()));
    }
    if data::packed::is_packed_file(path)? {
        bail!(
            "{}: a packed file; --resume adds to a data file (`twixt-train unpack` it, resume \
             the copy, and pack that again)",
            path.display()
        );
    }
    let existing = data::read(path)?;
    if existing.version != data::VERSION {
        bail!(
            "{}: a file of format version {}; this writes version {}, and a file holds one \
             (start a new file)",
            path.display(),
            existing.version,
            data::VERSION
        );
    }
    if existing.header != header {
        bail!(
            "{}: holds a run of other settings ({:?}), not {:?} (a teacher fingerprint \
             differs when the search behaves otherwise: other parameters, defaults or code)",
            path.display(),
            existing.header,
            header
        );
    }
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| path.display().to_string())?;
    if let Some(at) = existing.torn_at {
        eprintln!("{}: cutting a torn record at offset {at}", path.display());
        file.set_len(at)
            .with_context(|| path.display().to_string())?;
    }
    Ok((file, existing.games.iter().map(|g| g.index).collect()))
}

fn spawn(
    header: Header,
    params: Params,
    starts: Vec<Vec<Move>>,
    todo: Vec<u32>,
    threads: usize,
    tx: mpsc::Sender<Game>,
) -> Vec<thread::JoinHandle<()>> {
    let (todo, starts) = (Arc::new(todo), Arc::new(starts));
    let next = Arc::new(AtomicUsize::new(0));
    (0..threads)
        .map(|_| {
            let (todo, next, tx, params) = (todo.clone(), next.clone(), tx.clone(), params.clone());
            let starts = starts.clone();
            thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&index) = todo.get(i) else { return };
                let start = &starts[index as usize % starts.len()];
                if tx.send(play_game(header, &params, index, start)).is_err() {
                    return;
                }
            })
        })
        .collect()
}

/// The player who made ply `i` of a game (SWAP keeps the turn order).
pub fn mover(i: usize) -> Player {
    [Player::Zero, Player::One][i & 1]
}
