//! `twixt-train book`: the book of the first plies, decided offline (issue 50, step 4). The
//! positions CodinGame games reach in their first plies ([`lines`], from the referee's
//! results files) are searched far longer than a turn allows ([`search`]), and the searches'
//! moves are written into the engine as `src/bot/book_moves.rs` ([`export`]), keyed as
//! `twixt::bot::book` looks them up; [`disagree`] lists where they change the bot's play,
//! for a match that checks them.

pub mod disagree;
pub mod export;
pub mod lines;
pub mod search;

use anyhow::Result;
use twixt::{Move, Position};

/// The subcommands of `twixt-train book`.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Count the positions of the first plies of recorded games, by their book key: one
    /// line a position, `COUNT KEY MOVES...`, most frequent first.
    Lines(lines::LinesOptions),
    /// Search each position of a `lines` file at a fixed number of iterations: one JSON line
    /// a position, in the file's order (resumes an existing output).
    Search(search::SearchOptions),
    /// Write the engine module of the book from searched positions, each entry checked
    /// against the engine's own lookup.
    Export(export::ExportOptions),
    /// Write the positions where the deep searches and a turn's searches of them choose
    /// different moves as referee openings (to match the book against the search there).
    Disagree(disagree::DisagreeOptions),
}

/// Runs a `twixt-train book` subcommand.
pub fn run(command: &BookCommand) -> Result<()> {
    match command {
        BookCommand::Lines(options) => lines::run(options),
        BookCommand::Search(options) => search::run(options),
        BookCommand::Export(options) => export::run(options),
        BookCommand::Disagree(options) => disagree::run(options),
    }
}

/// Plays the move spelt `text` (`F6`, `SWAP`) in `pos`, or says why it cannot be played.
pub fn play_text(pos: &mut Position, text: &str) -> Result<(), String> {
    let mv: Move = text
        .parse()
        .map_err(|e| format!("'{text}' is not a move ({e})"))?;
    pos.play(mv).map_err(|e| format!("'{text}': {e}"))
}

/// The position after `moves` from the empty board, or which ply cannot be played and why.
pub fn replay(moves: &[String]) -> Result<Position, String> {
    let mut pos = Position::new();
    for (i, text) in moves.iter().enumerate() {
        play_text(&mut pos, text).map_err(|e| format!("ply {}: {e}", i + 1))?;
    }
    Ok(pos)
}
