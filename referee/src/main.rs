//! `twixt-referee`: plays Twixt-PP games between any two commands under CodinGame's rules and
//! clocks, and matches with the statistics that say which engine is stronger.
//!
//! Exit codes: `game` 0 when a game was played (whatever its result); `match` 0 when all games
//! were played without SPRT or when the SPRT accepted H1, 1 when it accepted H0, 3 when the games
//! ran out first; 2 for the referee's own errors (bad arguments, a command that cannot start).

use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use twixt::position::Move;
use twixt_referee::brutaltester;
use twixt_referee::clocks::{by_player, Clocks};
use twixt_referee::game::{play_game, GameSetup};
use twixt_referee::matches::{run_match, say, MatchConfig, Openings};
use twixt_referee::openings::{parse_opening, read_openings};
use twixt_referee::record::{read_records, GameRecord};
use twixt_referee::render::game_report;
use twixt_referee::sprt::Sprt;
use twixt_referee::svg::game_svg;
use twixt_reference::RefGame;

#[derive(Parser)]
#[command(
    name = "twixt-referee",
    version,
    about = "Twixt-PP referee and arena: games and matches between any two bot commands, judged by the reference rules",
    after_help = "Also accepts cg-brutaltester's referee contract: twixt-referee -p1 CMD -p2 CMD [-d seed=N] [-l FILE]"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play one game and show the final board, the moves and the result.
    Game(GameArgs),
    /// Play games in seat-swapped pairs and report W/D/L, pentanomial, Elo, nElo, LOS, SPRT.
    Match(MatchArgs),
    /// Show a recorded game (from --record or --results): board, moves, result.
    Show(ShowArgs),
}

#[derive(Args)]
struct ShowArgs {
    /// A JSON-lines file of game records.
    file: PathBuf,
    /// Which game, counting from 1 (default: the last).
    #[arg(long)]
    game: Option<usize>,
    /// Draw it to this SVG file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Colour the board (auto: when stdout is a terminal).
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    color: Colour,
}

#[derive(Args, Clone)]
struct ClockArgs {
    /// Milliseconds for a bot's first turn (engine B's too, unless --first-ms-b).
    #[arg(long, default_value_t = 1000)]
    first_ms: u64,
    /// Milliseconds for every later turn (engine B's too, unless --turn-ms-b).
    #[arg(long, default_value_t = 300)]
    turn_ms: u64,
    /// Extra milliseconds granted on every turn before an answer is late (engine B's too,
    /// unless --margin-b).
    #[arg(long, default_value_t = 0)]
    margin: u64,
    /// Milliseconds for B's first turn, whichever seat it plays [default: --first-ms].
    #[arg(long, value_name = "MS")]
    first_ms_b: Option<u64>,
    /// Milliseconds for B's later turns, whichever seat it plays [default: --turn-ms].
    #[arg(long, value_name = "MS")]
    turn_ms_b: Option<u64>,
    /// Extra milliseconds for B on every turn, whichever seat it plays [default: --margin].
    #[arg(long, value_name = "MS")]
    margin_b: Option<u64>,
    /// Keep each bot's stderr in a file in this directory.
    #[arg(long)]
    stderr_dir: Option<PathBuf>,
}

impl ClockArgs {
    /// The clocks of engine A and of engine B.
    fn clocks(&self) -> [Clocks; 2] {
        let a = Clocks {
            first_ms: self.first_ms,
            turn_ms: self.turn_ms,
            margin_ms: self.margin,
        };
        let b = Clocks {
            first_ms: self.first_ms_b.unwrap_or(a.first_ms),
            turn_ms: self.turn_ms_b.unwrap_or(a.turn_ms),
            margin_ms: self.margin_b.unwrap_or(a.margin_ms),
        };
        [a, b]
    }

    fn stderr_dir(&self) -> Result<Option<PathBuf>, String> {
        if let Some(d) = &self.stderr_dir {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        Ok(self.stderr_dir.clone())
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Colour {
    Auto,
    Always,
    Never,
}

#[derive(Args)]
struct GameArgs {
    /// Command of bot A (player 0 unless --swap-seats), e.g. "target/release/twixt-bot --seed 1".
    cmd_a: String,
    /// Command of bot B (its clock: --first-ms-b, --turn-ms-b, --margin-b). `{seed}` in a
    /// command is replaced by the game's seed.
    cmd_b: String,
    /// Give player 0 to bot B.
    #[arg(long)]
    swap_seats: bool,
    /// The game's seed (recorded, and substituted for `{seed}` in the commands).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Moves played before the bots take over, e.g. "E5 F7".
    #[arg(long, default_value = "")]
    opening: String,
    /// Append the game as one JSON line to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Draw the final position to this SVG file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Colour the board (auto: when stdout is a terminal).
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    color: Colour,
    #[command(flatten)]
    clock: ClockArgs,
}

#[derive(Args)]
struct MatchArgs {
    /// Command of engine A (the one the statistics are about).
    cmd_a: String,
    /// Command of engine B (its clock: --first-ms-b, --turn-ms-b, --margin-b).
    cmd_b: String,
    /// Number of games (rounded up to whole pairs).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// One line of opening moves per pair (blank lines and # comments skipped).
    #[arg(long, conflicts_with = "random_openings")]
    openings: Option<PathBuf>,
    /// Start each pair from this many random pegs drawn from the seed.
    #[arg(long)]
    random_openings: Option<usize>,
    /// The match seed: game seeds, opening choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// SPRT on pairs, normalized model: --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Keep one JSON line per game here.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Skip the games already in --results.
    #[arg(long, requires = "results")]
    resume: bool,
    /// Print a result block every this many pairs.
    #[arg(long, default_value_t = 5)]
    report_every: usize,
    #[command(flatten)]
    clock: ClockArgs,
}

fn main() -> ExitCode {
    twixt_referee::signals::install();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = if brutaltester::is_brutal(&args) {
        brutaltester::parse(&args)
            .and_then(|a| brutaltester::run(&a))
            .map(|out| {
                print!("{out}");
                0
            })
    } else {
        match Cli::parse().command {
            Command::Game(g) => run_game(&g),
            Command::Match(m) => run_match_cmd(&m),
            Command::Show(s) => run_show(&s),
        }
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("twixt-referee: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_game(g: &GameArgs) -> Result<i32, String> {
    let (a, b) = (g.cmd_a.clone(), g.cmd_b.clone());
    let setup = GameSetup {
        cmds: if g.swap_seats { [b, a] } else { [a, b] },
        clocks: by_player(g.clock.clocks(), usize::from(g.swap_seats)),
        opening: parse_opening(&g.opening)?,
        seed: g.seed,
        stderr_dir: g.clock.stderr_dir()?,
        slot: None,
    };
    let record = play_game(&setup)?;
    if let Some(path) = &g.record {
        record.append_to(path)?;
    }
    show(&record, g.color, g.svg.as_deref())?;
    Ok(0)
}

fn run_show(s: &ShowArgs) -> Result<i32, String> {
    let records = read_records(&s.file)?;
    let n = s.game.unwrap_or(records.len());
    let record = n
        .checked_sub(1)
        .and_then(|i| records.get(i))
        .ok_or(format!("{} has no game {n}", s.file.display()))?;
    show(record, s.color, s.svg.as_deref())?;
    Ok(0)
}

/// Prints the board, the moves and the result, and draws the SVG if asked.
fn show(record: &GameRecord, colour: Colour, svg: Option<&Path>) -> Result<(), String> {
    let game = replay(record)?;
    let colour = match colour {
        Colour::Always => true,
        Colour::Never => false,
        Colour::Auto => std::io::stdout().is_terminal(),
    };
    print!("{}", game_report(&game, record, colour));
    if let Some(path) = svg {
        std::fs::write(path, game_svg(&game, record))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The reference game of a record's moves.
fn replay(r: &GameRecord) -> Result<RefGame, String> {
    let moves = r
        .moves
        .iter()
        .map(|m| m.parse::<Move>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    RefGame::from_moves(&moves).map_err(|(i, e)| format!("record move {}: {e}", i + 1))
}

fn run_match_cmd(m: &MatchArgs) -> Result<i32, String> {
    let openings = match (&m.openings, m.random_openings) {
        (Some(path), _) => Openings::List(read_openings(path)?),
        (None, Some(plies)) => Openings::Random(plies),
        (None, None) => Openings::None,
    };
    let sprt = m.sprt.as_deref().map(Sprt::parse).transpose()?;
    let cfg = MatchConfig {
        cmds: [m.cmd_a.clone(), m.cmd_b.clone()],
        games: m.games,
        concurrency: m.concurrency.max(1),
        clocks: m.clock.clocks(),
        openings,
        seed: m.seed,
        sprt,
        results: m.results.clone(),
        resume: m.resume,
        report_every: m.report_every,
        stderr_dir: m.clock.stderr_dir()?,
    };
    warn_about_cores(cfg.concurrency);
    for (name, (cmd, clock)) in ["A", "B"].iter().zip(cfg.cmds.iter().zip(cfg.clocks)) {
        println!("{name}: {cmd} [clock: {clock}]");
    }
    let (end, tally) = run_match(&cfg)?;
    let bar = indicatif::ProgressBar::hidden();
    say(
        &bar,
        &format!("--- final ---\n{}", tally.block(cfg.sprt.as_ref())),
    );
    print!("{}", tally.engine_lines(["A", "B"]));
    println!("{}", end_line(end));
    Ok(end.exit_code())
}

fn end_line(end: twixt_referee::matches::MatchEnd) -> &'static str {
    use twixt_referee::matches::MatchEnd::*;
    match end {
        Played => "Match finished.",
        H1 => "SPRT: H1 accepted (A is stronger by about elo1 or more).",
        H0 => "SPRT: H0 accepted (A is not stronger than elo0).",
        Inconclusive => "SPRT: inconclusive (no bound reached before the games ran out).",
    }
}

fn warn_about_cores(concurrency: usize) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if concurrency > cores {
        eprintln!(
            "warning: --concurrency {concurrency} is above the {cores} cores of this machine: bots \
             that think for their whole clock fight for cores, and overload shows up as timeouts"
        );
    }
}
