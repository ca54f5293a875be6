//! `twixt-train`: self-play data for learning the bot's knowledge.
//!
//! Exit status: 0 on success, 2 for errors (bad arguments, a file that cannot be read, written
//! or understood).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use twixt_train::data::{merge, packed};
use twixt_train::distance::{self, DistanceOptions};
use twixt_train::info;
use twixt_train::net::fit::{self as net, NetOptions};
use twixt_train::policy::{self, command::FitOptions};
use twixt_train::selfplay::{self, SelfplayOptions};

#[derive(Parser)]
#[command(
    name = "twixt-train",
    version,
    about = "Learned knowledge for twixt-bot: self-play data from the engine's own search"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play the engine against itself and write every searched position with the root's
    /// visits, the search's value and the game's result.
    Selfplay(SelfplayOptions),
    /// Fit the policy to the search's visits in self-play data, and score it on held-out games.
    Fit(FitOptions),
    /// Fit the distance value's two weights (`value_bias`, `value_scale`) to self-play
    /// results, and score it on held-out games against the search's own estimate.
    Value(DistanceOptions),
    /// Fit the value network to self-play results, and score it on held-out games against
    /// the distance value and the search's own estimate.
    Net(NetOptions),
    /// Write the engine module that ships a model's weights in the bot.
    Export {
        /// The model file written by `fit`.
        model: PathBuf,
        /// The module to write.
        #[arg(long, short, default_value = policy::export::MODULE)]
        out: PathBuf,
    },
    /// Score the value network on games it never saw (results files of twixt-referee): its
    /// log-loss against the distance value's, and how it ranks the moves played.
    Probe(twixt_train::net::probe::ProbeOptions),
    /// Cut boards for self-play to start from (`selfplay --starts`) out of results files of
    /// twixt-referee: one from each decided game long enough.
    Starts(twixt_train::starts::StartsOptions),
    /// Count the games of results files that pass through a board of a starts file, and an
    /// engine's score in those and in the others: a test should meet no board it was fitted on.
    Overlap(twixt_train::overlap::OverlapOptions),
    /// Write the engine module that ships a value model's integers in the bot.
    ExportNet {
        /// The model file written by `net`.
        model: PathBuf,
        /// The module to write.
        #[arg(long, short, default_value = twixt_train::net::export::MODULE)]
        out: PathBuf,
        /// The golden values to write.
        #[arg(long, default_value = twixt_train::net::export::GOLDEN)]
        golden: PathBuf,
        /// Bits of an input row's weight (2 to 15).
        #[arg(long, default_value_t = twixt_train::net::export::ROW_BITS, value_parser = clap::value_parser!(u32).range(2..=15))]
        row_bits: u32,
        /// Bits of a policy weight (2 to 15).
        #[arg(long, default_value_t = twixt_train::net::export::POLICY_BITS, value_parser = clap::value_parser!(u32).range(2..=15))]
        policy_bits: u32,
    },
    /// Score a value model on data's held-out games with its input rows rounded to fewer
    /// bits by each packing measured, beside the characters each takes.
    Codec(twixt_train::net::codec::CodecOptions),
    /// Pack a data file for committing: its games in columns, compressed by zstd; every
    /// command reads the packed file as the data file, and `unpack` gives its bytes back.
    Pack {
        /// The data file.
        input: PathBuf,
        /// The packed file to write (a new file).
        output: PathBuf,
        /// Also print what each stream (column) takes, uncompressed and compressed.
        #[arg(long)]
        streams: bool,
    },
    /// Write the data file a packed file holds, byte for byte.
    Unpack {
        /// The packed file.
        input: PathBuf,
        /// The data file to write (a new file).
        output: PathBuf,
    },
    /// The book of the first plies, decided offline: count the positions recorded games
    /// reach, search them far longer than a turn, write the engine's book module.
    Book {
        #[command(subcommand)]
        command: twixt_train::book::BookCommand,
    },
    /// The shards of one self-play run (`selfplay --shard I/N` on many machines) as the one
    /// file the run writes on one machine, its games in order (the same bytes when whole).
    Merge {
        /// The file to write (a new file).
        #[arg(long, short)]
        out: PathBuf,
        /// The shards' data files (packed or not).
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// The run's number of games: refuse a merge that lacks any of them.
        #[arg(long)]
        games: Option<u32>,
    },
    /// The next generation from the shipped bot: self-play, the fits, export, bundle and the
    /// gate, each stage skipped when its outputs are there with their sums.
    Generation(twixt_train::generation::GenerationOptions),
    /// Make again the self-play data the repository does not hold, from its teacher's commit
    /// (train/data/regenerate.toml), each part checked against its sums.
    Regenerate(twixt_train::regenerate::RegenerateOptions),
    /// Summarise a data file: settings, games, positions, winners, lengths.
    Info {
        /// The data file.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Selfplay(options) => selfplay::run(&options),
        Command::Info { file } => info::run(&file),
        Command::Generation(options) => twixt_train::generation::run(&options),
        Command::Regenerate(options) => twixt_train::regenerate::run(&options),
        Command::Merge { out, shards, games } => merge::merge(&shards, &out, games).map(|m| {
            println!(
                "{}: {} games, {} searched positions, from {} shards",
                out.display(),
                m.games,
                m.searched,
                shards.len()
            )
        }),
        Command::Book { command } => twixt_train::book::run(&command),
        Command::Pack {
            input,
            output,
            streams,
        } => packed::pack_file(&input, &output, streams).map(|s| print!("{s}")),
        Command::Unpack { input, output } => {
            packed::unpack_file(&input, &output).map(|s| print!("{s}"))
        }
        Command::Fit(options) => policy::command::run(&options),
        Command::Value(options) => distance::run(&options),
        Command::Net(options) => net::run(&options),
        Command::Probe(options) => twixt_train::net::probe::run(&options),
        Command::Starts(options) => twixt_train::starts::run(&options),
        Command::Overlap(options) => twixt_train::overlap::run(&options),
        Command::Codec(options) => twixt_train::net::codec::run(&options),
        Command::Export { model, out } => policy::export::run(&model, &out),
        Command::ExportNet {
            model,
            out,
            golden,
            row_bits,
            policy_bits,
        } => twixt_train::net::export::run(&model, &out, &golden, (row_bits, policy_bits)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("twixt-train: {e:#}");
            ExitCode::from(2)
        }
    }
}
