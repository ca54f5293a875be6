//! Values shared by the unit tests: records, clocks, move lists, arguments.

use crate::clocks::Clocks;
use crate::record::{GameRecord, Reason};
use twixt::position::Move;

/// Engine B's clocks when they differ from A's: 5000 ms first turn, 3000 ms later.
pub(crate) const SLOW_CLOCKS: Clocks = Clocks {
    first_ms: 5000,
    turn_ms: 3000,
    margin_ms: 0,
};

/// The moves of a text such as `"E5 E7 SWAP"`.
pub(crate) fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().expect("a move"))
        .collect()
}

/// The options struct `T` parsed from `args` alone, as clap parses it inside a command.
pub(crate) fn options<T: clap::Args>(args: &[&str]) -> T {
    #[derive(clap::Parser)]
    struct Cli<T: clap::Args> {
        #[command(flatten)]
        options: T,
    }
    let args = std::iter::once("referee").chain(args.iter().copied());
    <Cli<T> as clap::Parser>::parse_from(args).options
}

/// Owned copies of `words`, as a command line gives them.
pub(crate) fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// A game of `moves` (answered in 10, 20, 30, ... ms) between commands `a` and `b`, seed 0, with
/// no opening, detail, messages, clocks or slot; a test sets more with `..record(...)`.
pub(crate) fn record(moves: &str, winner: Option<u8>, reason: Reason) -> GameRecord {
    let moves = strings(&moves.split_whitespace().collect::<Vec<_>>());
    GameRecord {
        ms: (1..=moves.len() as u64).map(|k| Some(10 * k)).collect(),
        moves,
        messages: Vec::new(),
        opening: 0,
        winner,
        reason,
        detail: String::new(),
        cmd0: "a".into(),
        cmd1: "b".into(),
        seed: 0,
        clocks: None,
        slot: None,
        engine0: None,
        engine1: None,
    }
}
