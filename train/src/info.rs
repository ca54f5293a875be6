//! `twixt-train info`: what a data file holds.

use crate::data::{self, DataFile};
use std::fmt::Write;
use std::path::Path;
use twixt::Player;

/// A summary of a data file: its settings, games, positions, winners by seat and lengths.
pub fn summary(path: &Path, file: &DataFile) -> String {
    let h = file.header;
    let games = &file.games;
    let positions: usize = games.iter().map(|g| g.plies.len()).sum();
    let full: usize = games
        .iter()
        .map(|g| g.plies.iter().filter(|p| p.search.is_some()).count())
        .sum();
    let wins = |p: Player| games.iter().filter(|g| g.winner == Some(p)).count();
    let draws = games.iter().filter(|g| g.winner.is_none()).count();
    let mut lengths: Vec<usize> = games.iter().map(|g| g.plies.len()).collect();
    lengths.sort_unstable();
    let mut out = String::new();
    let moves = match h.fast {
        0 => format!("{} iterations a move", h.iterations),
        n => format!(
            "{} iterations a fast move, {} a full search ({:.1}% of the moves)",
            n,
            h.iterations,
            f64::from(h.full_share) / 10.0
        ),
    };
    let _ = writeln!(
        out,
        "{} (format {}): {moves}, {} random pegs first, seed {}, teacher {}",
        path.display(),
        file.version,
        h.opening,
        h.seed,
        h.teacher
    );
    let _ = writeln!(
        out,
        "games: {}, positions: {positions}, full searches: {full}",
        games.len()
    );
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

/// Reads `path` and prints its summary (and, for a packed file, that it is one).
pub fn run(path: &Path) -> anyhow::Result<()> {
    print!("{}", summary(path, &data::read(path)?));
    if data::packed::is_packed_file(path)? {
        println!("packed (`twixt-train unpack` gives the data file back)");
    }
    Ok(())
}
