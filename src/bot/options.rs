//! The bot's command line: playing options, and which command it asks for.

use super::args::{number, set_param};
pub use super::args::{CLOCK_MS, FIRST_CLOCK_MS, FIRST_THINK_MS, THINK_MS};
use crate::search::params::Params;

/// How long `twixt-bot bench` measures playouts when not told, in seconds.
pub const BENCH_SECONDS: f64 = 3.0;

/// How the bot plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Thinking time per turn after the first, in ms (the clock is 300 ms).
    pub think_ms: u64,
    /// Thinking time on the process's first turn, in ms (the clock is 1000 ms).
    pub first_think_ms: u64,
    /// The referee's clock for a turn after the first, in ms: a stalled search keeps its
    /// answer within 85% of it ([`super::reserve::hard_deadline`]).
    pub clock_ms: u64,
    /// The referee's clock for the first turn, in ms.
    pub first_clock_ms: u64,
    /// A fixed number of MCTS iterations per move instead of a clock.
    pub playouts: Option<u64>,
    /// Seed of the random stream (random when absent).
    pub seed: Option<u64>,
    /// No per-turn line on stderr (input problems are still reported).
    pub quiet: bool,
    /// Answer the opponent's first peg by the search: never SWAP, nor the book's or the
    /// opening table's answer (for measuring first pegs and replies by self-play); our own
    /// first peg on the empty board is still the opening's.
    pub no_swap: bool,
    /// Search the positions the book knows instead of playing its moves (for measuring the
    /// book).
    pub no_book: bool,
    /// Search parameters (`--set NAME=VALUE`).
    pub params: Params,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            think_ms: THINK_MS,
            first_think_ms: FIRST_THINK_MS,
            clock_ms: CLOCK_MS,
            first_clock_ms: FIRST_CLOCK_MS,
            playouts: None,
            seed: None,
            quiet: false,
            no_swap: false,
            no_book: false,
            params: Params::default(),
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Play a game over stdin/stdout.
    Play(Options),
    /// Measure playout speed for this many seconds and print the signature.
    Bench(f64),
    /// Search one turn input and show the root's best moves (`twixt-bot analyze`).
    Analyze(Request),
    /// List the tunable parameters with these values (`twixt-bot params`).
    Params(Params),
    /// Print the help.
    Help,
}

/// What `twixt-bot analyze` is asked (nothing in the CodinGame bundle, which has no analyze).
#[cfg(not(codingame))]
pub use super::analyze::Request;
#[cfg(codingame)]
pub type Request = ();

/// `twixt-bot analyze`'s arguments (`None` for its --help).
#[cfg(not(codingame))]
use super::analyze::parse as analyze_args;

/// The CodinGame bundle has no analyze, to save room.
#[cfg(codingame)]
fn analyze_args<I: Iterator<Item = String>>(_: I) -> Result<Option<Request>, String> {
    Err("analyze is not in the CodinGame bundle; run the cargo-built bot".to_string())
}

/// The help text (a pointer to it in the CodinGame bundle, to save room).
#[cfg(codingame)]
pub fn help() -> String {
    "twixt-bot: a Twixt-PP bot; see --help of the cargo-built bot".to_string()
}

/// The help text.
#[cfg(not(codingame))]
pub fn help() -> String {
    format!(
        "\
twixt-bot: a Twixt-PP bot speaking CodinGame's turn protocol on stdin/stdout

usage: twixt-bot [OPTIONS]            play one game (reads turns until EOF)
       twixt-bot bench [SECONDS]      playouts per second and the search signature
                                      (default {BENCH_SECONDS} s)
       twixt-bot analyze [FILE] [--ms N | --playouts N] [--top N] [--svg OUT] [--seed N]
                         [--set NAME=VALUE]
                                      the search's view of one turn input (see below)
       twixt-bot params [--set NAME=VALUE]...
                                      the tunable parameters, one a line: name, value,
                                      min, max, step (for twixt-referee tune)

options:
  --think-ms N        thinking time per turn after the first, ms (default {THINK_MS}; clock 300)
  --first-think-ms N  thinking time on the first turn, ms (default {FIRST_THINK_MS}; clock 1000)
  --clock-ms N        the referee's clock after the first turn, ms (default {CLOCK_MS})
  --first-clock-ms N  and on the first (default {FIRST_CLOCK_MS}): a stalled search answers in 85%
  --playouts N        a fixed number of MCTS iterations per move instead of a clock
                      (with --seed: the same input always gives the same answer)
  --seed N            seed of the random stream (default: random)
  --quiet             no per-turn line on stderr (input problems are still reported)
  --no-swap           answer a first peg by the search: no SWAP, no answer from the
                      book or the opening table (to measure openings by self-play;
                      our own first peg on the empty board is still the opening's)
  --no-book           search the positions the book knows (to measure the book)
  --set NAME=VALUE    set a search parameter (repeatable; for tuning matches), one of:
{params}
  -h, --help          this text

Each turn the bot prints one line: the move (E5, or SWAP) and its estimate (E5 62%).
stderr gets one line per turn: move, value, visits, playouts, tree nodes, time, stall.
Bad input: each problem is reported on stderr with its line; if the board is still known the
bot answers a legal move, otherwise it exits with status 2.

{analyze}",
        params = params_help(),
        analyze = super::analyze::help()
    )
}

/// One line per search parameter: its name, default and range.
#[cfg(not(codingame))]
fn params_help() -> String {
    let lines: Vec<String> = Params::SPECS
        .iter()
        .map(|s| {
            format!(
                "                        {:<13} default {}, range {}..={}",
                s.name, s.default, s.min, s.max
            )
        })
        .collect();
    lines.join("\n")
}

/// Parses the arguments (without the program name).
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut opts = Options::default();
    let mut args = args.into_iter();
    let mut first = true;
    while let Some(arg) = args.next() {
        let was_first = std::mem::replace(&mut first, false);
        match arg.as_str() {
            "bench" if was_first => {
                let seconds = match args.next() {
                    Some(s) => s
                        .parse::<f64>()
                        .ok()
                        .filter(|s| *s > 0.0 && *s <= 3600.0)
                        .ok_or(format!("bench: '{}' is not a number of seconds", s))?,
                    None => BENCH_SECONDS,
                };
                return Ok(Command::Bench(seconds));
            }
            "analyze" if was_first => {
                return analyze_args(args).map(|r| r.map_or(Command::Help, Command::Analyze))
            }
            "params" if was_first => return params_args(args),
            "-h" | "--help" => return Ok(Command::Help),
            "--quiet" | "-q" => opts.quiet = true,
            "--no-swap" => opts.no_swap = true,
            "--no-book" => opts.no_book = true,
            "--think-ms" => opts.think_ms = number(&arg, args.next())?,
            "--first-think-ms" => opts.first_think_ms = number(&arg, args.next())?,
            "--clock-ms" => opts.clock_ms = number(&arg, args.next())?,
            "--first-clock-ms" => opts.first_clock_ms = number(&arg, args.next())?,
            "--playouts" => opts.playouts = Some(number(&arg, args.next())?.max(1)),
            "--seed" => opts.seed = Some(number(&arg, args.next())?),
            "--set" => set_param(&mut opts.params, args.next())?,
            _ => return Err(format!("unknown argument '{}' (try --help)", arg)),
        }
    }
    thinking_within_clocks(&opts)?;
    Ok(Command::Play(opts))
}

/// CodinGame gives the bot no arguments: nothing to refuse.
#[cfg(codingame)]
fn thinking_within_clocks(_: &Options) -> Result<(), String> {
    Ok(())
}

/// Refuses a thinking time that is not below its clock: the answer would be late by
/// construction.
#[cfg(not(codingame))]
fn thinking_within_clocks(opts: &Options) -> Result<(), String> {
    for (name, think, clock) in [
        ("", opts.think_ms, opts.clock_ms),
        ("first-", opts.first_think_ms, opts.first_clock_ms),
    ] {
        if think >= clock {
            return Err(format!(
                "--{0}think-ms {1} is not below the clock (--{0}clock-ms {2}): the answer would be late",
                name, think, clock
            ));
        }
    }
    Ok(())
}

/// `twixt-bot params [--set NAME=VALUE]...`: the values to list.
fn params_args<I: Iterator<Item = String>>(mut args: I) -> Result<Command, String> {
    let mut params = Params::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--set" => set_param(&mut params, args.next())?,
            "-h" | "--help" => return Ok(Command::Help),
            _ => return Err(format!("params: unknown argument '{}'", arg)),
        }
    }
    Ok(Command::Params(params))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Command, String> {
        parse_args(s.split_whitespace().map(String::from))
    }

    #[test]
    fn flags_are_read() {
        let want = Options {
            think_ms: 100,
            first_think_ms: 250,
            clock_ms: 120,
            first_clock_ms: 400,
            playouts: Some(500),
            seed: Some(7),
            quiet: true,
            no_swap: true,
            no_book: true,
            params: Params::default(),
        };
        assert_eq!(
            parse(
                "--think-ms 100 --first-think-ms 250 --clock-ms 120 --first-clock-ms 400 \
                 --playouts 500 --seed 7 --quiet --no-swap --no-book"
            ),
            Ok(Command::Play(want))
        );
        assert_eq!(parse(""), Ok(Command::Play(Options::default())));
        assert_eq!(parse("bench"), Ok(Command::Bench(BENCH_SECONDS)));
        assert_eq!(parse("bench 0.5"), Ok(Command::Bench(0.5)));
        assert_eq!(parse("--help"), Ok(Command::Help));
        match parse("analyze fixtures/first.txt --top 2 --seed 3") {
            Ok(Command::Analyze(r)) => {
                assert_eq!(
                    (r.file.as_deref(), r.top, r.seed),
                    (Some("fixtures/first.txt"), 2, 3)
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse("analyze --help"), Ok(Command::Help));
        match parse("params --set exploration=0.3") {
            Ok(Command::Params(p)) => assert_eq!(p.exploration, 0.3),
            other => panic!("{other:?}"),
        }
        assert!(parse("params --quiet")
            .unwrap_err()
            .contains("params: unknown"));
        let help = help();
        assert!(
            help.contains(&format!("default {THINK_MS}; clock 300")),
            "{help}"
        );
        assert!(
            help.contains("clock_every   default 16, range 1..=4096"),
            "{help}"
        );
        assert!(help.contains("--svg OUT"), "{help}");
    }

    #[test]
    fn bad_flags_are_explained() {
        assert!(parse("--think-ms").unwrap_err().contains("needs a number"));
        assert!(parse("--seed x").unwrap_err().contains("'x'"));
        assert!(parse("--fast").unwrap_err().contains("unknown argument"));
        assert!(parse("bench -1").is_err());
        assert!(parse("--quiet analyze")
            .unwrap_err()
            .contains("unknown argument 'analyze'"));
        assert!(parse("analyze --quiet")
            .unwrap_err()
            .contains("unknown argument '--quiet'"));
        assert!(parse("--set exploration")
            .unwrap_err()
            .contains("NAME=VALUE"));
        assert!(parse("--set nope=1")
            .unwrap_err()
            .contains("unknown parameter"));
        assert_eq!(
            parse("--set clock_every=0"),
            Err("parameter clock_every: '0' is not a value in 1..=4096".to_string())
        );
        match parse("--set expand_after=3 --set exploration=0.2") {
            Ok(Command::Play(o)) => {
                assert_eq!((o.params.expand_after, o.params.exploration), (3, 0.2))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn thinking_past_the_clock_is_refused_with_the_flag_to_give() {
        assert_eq!(
            parse("--think-ms 300"),
            Err(
                "--think-ms 300 is not below the clock (--clock-ms 300): the answer would be \
                 late"
                    .to_string()
            )
        );
        let first = parse("--first-think-ms 2000").unwrap_err();
        assert!(
            first.starts_with(
                "--first-think-ms 2000 is not below the clock (--first-clock-ms 1000)"
            ),
            "{first}"
        );
        assert!(parse("--first-think-ms 2000 --first-clock-ms 3000").is_ok());
        assert!(parse("--think-ms 299").is_ok());
        assert!(parse("--clock-ms 100")
            .unwrap_err()
            .contains("--think-ms 256"));
    }
}
