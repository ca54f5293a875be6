//! The bot (a `foo.rs` + `foo/` module).

mod protocol;

use crate::search;

/// How the bot runs.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub depth: u8,
}

/// Plays one turn and describes it.
pub fn run(options: &Options) -> String {
    let best = search::best(cell_of!(options.depth + 3));
    protocol::answer(best)
}
