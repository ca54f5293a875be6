//! `twixt-train info`: what a data file holds.

use crate::data::{self, DataFile};
use std::fmt::Write;
use std::path::Path;
use twixt::Player;

/// A summary of a data file: its settings, games, positions, winners by seat and lengths.
pub fn summary(path: &Path, file: &DataFile) -> String {
    let h = file.header;
    let games = &file.games;
    let positions: usize = games
        .iter()
        .map(|g| g.plies.len() - g.opening as usize)
        .sum();
    let wins = |p: Player| games.iter().filter(|g| g.winner == Some(p)).count();
    let draws = games.iter().filter(|g| g.winner.is_none()).count();
    let mut lengths: Vec<usize> = games.iter().map(|g| g.plies.len()).collect();
    lengths.sort_unstable();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} iterations a move, {} random pegs first, seed {}",
        path.display(),
        h.iterations,
        h.opening,
        h.seed
    );
    let _ = writeln!(out, "games: {}, positions: {}", games.len(), positions);
    let _ = writeln!(
        out,
        "winners: player 0 {}, player 1 {}, draws {}",
        wins(Player::Zero),
        wins(Player::One),
        draws
    );
    if let (Some(first), Some(last)) = (lengths.first(), lengths.last()) {
        let _ = writeln!(
            out,
            "plies: {} to {}, median {}",
            first,
            last,
            lengths[lengths.len() / 2]
        );
    }
    if let Some(at) = file.torn_at {
        let _ = writeln!(
            out,
            "torn last record at offset {at} (selfplay --resume cuts it)"
        );
    }
    out
}

/// Reads `path` and prints its summary.
pub fn run(path: &Path) -> anyhow::Result<()> {
    print!("{}", summary(path, &data::read(path)?));
    Ok(())
}
