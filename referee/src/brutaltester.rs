//! cg-brutaltester's referee contract: `-p1 CMD -p2 CMD [-d seed=N] [-l FILE] [-s]`.
//!
//! The referee plays one game and prints one score per player on stdout (1 for the winner,
//! 0 for the loser, -1 for a loser by timeout, illegal move or crash, 0 and 0 for a draw),
//! then the game's parameters (`seed=N`). `-l` writes the game's JSON record (this project's
//! record, not CodinGame's replay format); `-s` (show the game in a browser) is ignored.

use super::engines::Engines;
use super::game::{play_game, GameSetup};
use super::record::GameRecord;
use anyhow::{bail, Context, Result};
use std::path::PathBuf;

/// The parsed arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrutalArgs {
    /// Player commands in order (`-p1`, `-p2`).
    pub players: Vec<String>,
    /// The seed from `-d seed=N`.
    pub seed: Option<u64>,
    /// The log file from `-l`.
    pub log: Option<PathBuf>,
}

/// Whether the command line looks like cg-brutaltester's (it starts with `-p1`, `-d`, ...).
pub fn is_brutal(args: &[String]) -> bool {
    args.first()
        .is_some_and(|a| matches!(a.as_str(), "-p1" | "-p2" | "-d" | "-l" | "-s"))
}

/// Parses the contract's arguments.
pub fn parse(args: &[String]) -> Result<BrutalArgs> {
    let mut out = BrutalArgs::default();
    let mut players: Vec<(usize, String)> = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .with_context(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "-s" => {}
            "-l" => out.log = Some(PathBuf::from(value()?)),
            "-d" => out.seed = parse_seed(&value()?)?.or(out.seed),
            f if f.starts_with("-p") && f[2..].parse::<usize>().is_ok() => {
                players.push((f[2..].parse().expect("checked"), value()?));
            }
            other => bail!("unknown argument {other:?}"),
        }
    }
    players.sort();
    out.players = players.into_iter().map(|(_, c)| c).collect();
    if out.players.len() != 2 {
        bail!("Twixt needs exactly two players, -p1 and -p2");
    }
    Ok(out)
}

/// `seed=N` among `key=value` pairs separated by newlines, `!` or spaces.
fn parse_seed(props: &str) -> Result<Option<u64>> {
    for kv in props.split(['\n', '!', ' ']) {
        if let Some(v) = kv.trim().strip_prefix("seed=") {
            let seed = v.trim().parse::<i64>().context("seed")?;
            return Ok(Some(seed as u64));
        }
    }
    Ok(None)
}

/// The stdout the contract asks for.
pub fn scores_text(r: &GameRecord) -> String {
    let score = |p: u8| match r.winner {
        None => 0,
        Some(w) if w == p => 1,
        Some(_) if r.reason.is_fault() => -1,
        Some(_) => 0,
    };
    format!("{}\n{}\nseed={}\n", score(0), score(1), r.seed)
}

/// Plays the game; returns the text for stdout.
pub fn run(args: &BrutalArgs) -> Result<String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    let engines = Engines::codingame(&args.players[0], &args.players[1]);
    let record = play_game(&GameSetup::new(&engines, 0, Vec::new(), seed, None))?;
    if let Some(path) = &args.log {
        std::fs::write(path, record.to_json() + "\n")
            .with_context(|| path.display().to_string())?;
    }
    Ok(scores_text(&record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{record, strings};
    use crate::record::Reason;

    #[test]
    fn the_contract_parses() {
        let a = strings(&[
            "-p1", "./a 1", "-p2", "b", "-d", "seed=42", "-l", "x.json", "-s",
        ]);
        assert!(is_brutal(&a));
        let p = parse(&a).unwrap();
        assert_eq!(p.players, vec!["./a 1", "b"]);
        assert_eq!(p.seed, Some(42));
        assert_eq!(p.log, Some(PathBuf::from("x.json")));
        assert!(parse(&strings(&["-p1", "a"])).is_err());
        assert!(!is_brutal(&strings(&["game", "a", "b"])));
    }

    #[test]
    fn scores_follow_the_winner_and_the_fault() {
        let mut r = GameRecord {
            seed: 5,
            ..record("E5 E7", Some(1), Reason::Connected)
        };
        assert_eq!(scores_text(&r), "0\n1\nseed=5\n");
        r.reason = Reason::Timeout;
        assert_eq!(scores_text(&r), "-1\n1\nseed=5\n");
        r.winner = None;
        r.reason = Reason::Draw;
        assert_eq!(scores_text(&r), "0\n0\nseed=5\n");
    }
}
