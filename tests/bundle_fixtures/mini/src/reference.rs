//! Host-only (uses clap): the bundler must never read this, let alone ship it.

use clap::Parser;

#[derive(Parser)]
pub struct Referee {
    games: u32,
}
