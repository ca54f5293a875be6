//! `twixt-referee`: plays Twixt-PP games between any two commands under CodinGame's rules and
//! clocks, and matches with the statistics that say which engine is stronger.
//!
//! Exit codes: `game` 0 when a game was played (whatever its result); `match` and `test` 0 when
//! all games were played without SPRT or when the SPRT accepted H1, 1 when it accepted H0, 3
//! when the games ran out first; `table --check` 1 when the page differs; 2 for the referee's
//! own errors (bad arguments, a command that cannot start, a commit whose bundle does not
//! compile).

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use twixt_referee::ab_test::{self, TestArgs};
use twixt_referee::brutaltester;
use twixt_referee::build::{self, BuildArgs};
use twixt_referee::engines::{EngineOptions, Engines};
use twixt_referee::game::{play_game, GameSetup};
use twixt_referee::losses::suite::{self, SuiteArgs};
use twixt_referee::losses::{self, LossesArgs};
use twixt_referee::matches::{run_printed, MatchConfig, MatchOptions};
use twixt_referee::openings::parse_opening;
use twixt_referee::record::{read_readable, read_records, GameRecord};
use twixt_referee::render::game_report;
use twixt_referee::report;
use twixt_referee::shard;
use twixt_referee::sprt::Sprt;
use twixt_referee::svg::game_svg;
use twixt_referee::table::{self, TableArgs};
use twixt_referee::tune;

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
    /// Write a results file as one self-contained HTML page: the match's statistics, plots,
    /// the table of the games and a replay viewer (open it in any browser, offline).
    Report(ReportArgs),
    /// Count the results files of a match's shards (match --shard I/N) as the one match they
    /// make, and print its result block.
    Merge(MergeArgs),
    /// Every game a bot lost (or a sample): its values, the move after which they stayed
    /// below half, the phase (book, middle game, tactics); the positions as fixtures.
    Losses(LossesArgs),
    /// Ask a bot the positions of `losses --fixtures` again: its answer against the move that
    /// lost and a reference search's move (recorded by an earlier run with --record KEY).
    Suite(SuiteArgs),
    /// Build commits' bots as CodinGame compiles them (cached by commit) and print the
    /// binaries' paths, one a line.
    Build(BuildArgs),
    /// Test commit A against commit B (or binaries, bin:PATH) as CodinGame runs them: a match
    /// at CodinGame's clocks from the balanced book, its results file and its HTML report.
    Test(TestArgs),
    /// Tune a bot's parameters by SPSA (OpenBench's schedule): see --help.
    #[command(long_about = tune::HELP)]
    Tune(TuneArgs),
    /// Write docs/STRENGTH.md from the index of matches and their records (--check: exit 1
    /// when it differs; --add RESULTS: add a match to the index first).
    Table(TableArgs),
}

#[derive(Args)]
struct TuneArgs {
    #[command(flatten)]
    options: tune::TuneOptions,
    #[command(flatten)]
    engines: EngineOptions,
}

#[derive(Args)]
struct MergeArgs {
    /// The shards' results files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The SPRT to judge the merged games by: --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Also write the whole pairs' games as one results file (a new file) for `report`.
    #[arg(long, short)]
    out: Option<PathBuf>,
}

#[derive(Args)]
struct ReportArgs {
    /// A JSON-lines results file (from match --results or game --record).
    file: PathBuf,
    /// The HTML file to write.
    #[arg(short, long)]
    output: PathBuf,
    /// The SPRT to judge the games by, as in match: --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
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
    /// Write its replay viewer to this HTML file.
    #[arg(long)]
    html: Option<PathBuf>,
    /// Colour the board (auto: when stdout is a terminal).
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    color: Colour,
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
    /// Write the game's replay viewer to this HTML file.
    #[arg(long)]
    html: Option<PathBuf>,
    /// Colour the board (auto: when stdout is a terminal).
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    color: Colour,
    #[command(flatten)]
    engines: EngineOptions,
}

#[derive(Args)]
struct MatchArgs {
    /// Command of engine A (the one the statistics are about).
    cmd_a: String,
    /// Command of engine B (its clock: --first-ms-b, --turn-ms-b, --margin-b).
    cmd_b: String,
    #[command(flatten)]
    options: MatchOptions,
    #[command(flatten)]
    engines: EngineOptions,
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
            Command::Match(m) => run_match_cmd(m),
            Command::Show(s) => run_show(&s),
            Command::Report(r) => run_report(&r),
            Command::Merge(m) => run_merge(&m),
            Command::Losses(l) => losses::run(&l),
            Command::Suite(s) => suite::run(&s),
            Command::Build(b) => build::run(&b),
            Command::Test(t) => ab_test::run(t),
            Command::Tune(t) => tune::run(&t.options, &t.engines),
            Command::Table(t) => table::run(&t),
        }
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("twixt-referee: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run_game(g: &GameArgs) -> Result<i32> {
    let opening = parse_opening(&g.opening).context("--opening")?;
    let engines = Engines::new(&g.cmd_a, &g.cmd_b, &g.engines)?;
    let a_player = usize::from(g.swap_seats);
    let record = play_game(&GameSetup::new(&engines, a_player, opening, g.seed, None))?;
    if let Some(path) = &g.record {
        record.append_to(path)?;
    }
    show(&record, g.color, [g.svg.as_deref(), g.html.as_deref()])?;
    Ok(0)
}

fn run_show(s: &ShowArgs) -> Result<i32> {
    let records = read_records(&s.file)?;
    let n = s.game.unwrap_or(records.len());
    let record = n
        .checked_sub(1)
        .and_then(|i| records.get(i))
        .with_context(|| format!("{} has no game {n}", s.file.display()))?;
    show(record, s.color, [s.svg.as_deref(), s.html.as_deref()])?;
    Ok(0)
}

/// Prints the board, the moves and the result, and writes the SVG and the HTML viewer if
/// asked (`files`: the SVG's path, the HTML's).
fn show(record: &GameRecord, colour: Colour, files: [Option<&Path>; 2]) -> Result<()> {
    let game = record.reference_game()?;
    let colour = match colour {
        Colour::Always => true,
        Colour::Never => false,
        Colour::Auto => std::io::stdout().is_terminal(),
    };
    print!("{}", game_report(&game, record, colour));
    if let Some(path) = files[0] {
        write_file(path, &game_svg(&game, record))?;
    }
    if let Some(path) = files[1] {
        write_file(path, &report::game_page(record)?)?;
    }
    Ok(())
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| path.display().to_string())
}

fn run_report(r: &ReportArgs) -> Result<i32> {
    let sprt = r.sprt.as_deref().map(Sprt::parse).transpose()?;
    let readable = read_readable(&r.file)?;
    let source = r.file.display().to_string();
    let made = report::match_report(readable, &source, sprt.as_ref())?;
    write_file(&r.output, &made.html)?;
    for line in &made.left_out {
        eprintln!("twixt-referee: {source}: left out {line}");
    }
    println!(
        "{}: {} games, {} lines left out",
        r.output.display(),
        made.games,
        made.left_out.len()
    );
    Ok(0)
}

fn run_merge(m: &MergeArgs) -> Result<i32> {
    let sprt = m.sprt.as_deref().map(Sprt::parse).transpose()?;
    let (games, torn) = shard::whole_pairs(shard::merged(&m.files)?);
    if !torn.is_empty() {
        let pairs: Vec<String> = torn.iter().map(|p| p.to_string()).collect();
        eprintln!(
            "twixt-referee: pair(s) {} have one game of two, left out: `match --resume` on \
             their shard plays the other",
            pairs.join(", ")
        );
    }
    if games.is_empty() {
        anyhow::bail!("no whole pair in {} file(s)", m.files.len());
    }
    if let Some(out) = &m.out {
        shard::write(&games, out)?;
    }
    print!("{}", shard::merged_block(&games, sprt.as_ref()));
    Ok(0)
}

fn run_match_cmd(m: MatchArgs) -> Result<i32> {
    let engines = Engines::new(&m.cmd_a, &m.cmd_b, &m.engines)?;
    let cfg = MatchConfig::new(engines, m.options)?;
    Ok(run_printed(&cfg, ["A", "B"])?.exit_code())
}
