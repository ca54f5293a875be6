//! `twixt-referee losses`: every game a bot lost in results files (or a sample of them), where
//! its own value collapsed, sorted by phase (book, middle game, tactics), and the positions of
//! the collapses as turn inputs a later bot can be asked again ([`fixture`]).
//!
//! Our bot is the seat whose command contains `--ours`; [`collapse`] reads its values from
//! its messages and finds the move that lost; [`text`] prints the blocks and the table;
//! [`suite`] asks a bot those positions again.

pub mod collapse;
pub mod fixture;
pub mod suite;
pub mod text;

use crate::record::{read_readable, GameRecord};
use anyhow::{bail, Result};
use collapse::{Collapse, Phase};
use rand::{rngs::StdRng, SeedableRng};
use std::path::{Path, PathBuf};

/// The options of `twixt-referee losses`.
#[derive(Clone, Debug, clap::Args)]
pub struct LossesArgs {
    /// Results files (JSON lines, from match --results or game --record).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A text in our bot's command: in each game the seat whose command holds it is ours.
    #[arg(long)]
    pub ours: String,
    /// Show a random sample of N of the losses instead of all.
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// The seed of the sample (the same seed, the same sample).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write each loss's position at the collapse as a turn input (FILE.txt) and its moves
    /// (FILE.moves) to this folder.
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
}

/// One game we lost, and where it turned.
#[derive(Clone, Debug)]
pub struct Loss {
    /// The results file it came from.
    pub file: PathBuf,
    /// Its line there, from 1.
    pub line: usize,
    /// The game.
    pub record: GameRecord,
    /// Our player index.
    pub seat: u8,
    /// Our move that lost it.
    pub collapse: Collapse,
    /// Where that move falls.
    pub phase: Phase,
}

impl Loss {
    /// The loss of game `record`, `seat` being ours.
    pub fn new(file: &Path, line: usize, record: GameRecord, seat: u8) -> Loss {
        let collapse = collapse::collapse(&record, seat);
        let phase = collapse::phase(&record, seat, collapse.ply);
        Loss {
            file: file.to_path_buf(),
            line,
            record,
            seat,
            collapse,
            phase,
        }
    }

    /// `FILE:LINE`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

/// What the results files hold for our bot.
#[derive(Debug, Default)]
pub struct Games {
    /// The games read.
    pub games: usize,
    /// The games our bot won.
    pub won: usize,
    /// The games drawn.
    pub drawn: usize,
    /// The lost games, in file order.
    pub losses: Vec<Loss>,
    /// The lines that are not game records: `FILE:LINE: why`.
    pub left_out: Vec<String>,
}

/// Our seat in `record`: the one whose command contains `ours`, or why there is none.
pub fn our_seat(record: &GameRecord, ours: &str) -> Result<u8, String> {
    match (record.cmd0.contains(ours), record.cmd1.contains(ours)) {
        (true, false) => Ok(0),
        (false, true) => Ok(1),
        (found, _) => Err(format!(
            "{} command contains {ours:?} (player 0: {:?}, player 1: {:?})",
            if found { "each" } else { "no" },
            record.cmd0,
            record.cmd1
        )),
    }
}

/// Reads every game of `files`; a missing file, or a game in which `ours` names no seat or
/// both, is an error naming the file (and line). Lines that are not records are left out.
pub fn read_games(files: &[PathBuf], ours: &str) -> Result<Games> {
    let mut out = Games::default();
    for file in files {
        let readable = read_readable(file)?;
        for (line, why) in readable.unreadable {
            out.left_out.push(format!(
                "{}:{line}: not a game record: {why}",
                file.display()
            ));
        }
        for (line, record) in readable.records {
            let seat = match our_seat(&record, ours) {
                Ok(seat) => seat,
                Err(why) => bail!("{}:{line}: {why}", file.display()),
            };
            out.games += 1;
            match record.winner {
                None => out.drawn += 1,
                Some(w) if w == seat => out.won += 1,
                Some(_) => out.losses.push(Loss::new(file, line, record, seat)),
            }
        }
    }
    Ok(out)
}

/// `n` of `losses` drawn at random by `seed` (all if there are no more), in file order.
pub fn sample(losses: Vec<Loss>, n: usize, seed: u64) -> Vec<Loss> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut keep = rand::seq::index::sample(&mut rng, losses.len(), n.min(losses.len())).into_vec();
    keep.sort_unstable();
    let mut keep = keep.into_iter().peekable();
    let mut out = Vec::new();
    for (i, loss) in losses.into_iter().enumerate() {
        if keep.next_if_eq(&i).is_some() {
            out.push(loss);
        }
    }
    out
}

/// Runs `losses`: prints a block a loss and the table, writes the fixtures if asked.
pub fn run(args: &LossesArgs) -> Result<i32> {
    let mut games = read_games(&args.files, &args.ours)?;
    for line in &games.left_out {
        eprintln!("twixt-referee: {line}: left out");
    }
    let lost = games.losses.len();
    if let Some(n) = args.sample {
        games.losses = sample(std::mem::take(&mut games.losses), n, args.seed);
    }
    print!("{}", text::report(&games, lost));
    if let Some(dir) = &args.fixtures {
        let written = fixture::write_all(dir, &games.losses)?;
        for problem in &written.skipped {
            eprintln!("twixt-referee: {problem}");
        }
        for name in &written.side_unknown {
            eprintln!(
                "twixt-referee: {name}: its input does not tell a bot started there its side \
                 (a swap, no peg on a border): `suite` will not ask it"
            );
        }
        println!("{} fixtures written to {}", written.count, dir.display());
    }
    Ok(0)
}
