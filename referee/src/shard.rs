//! One match over many machines: `--shard I/N` plays the I-th of N disjoint slices of its
//! pairs, and `merge` counts the slices' results files as the one match they make.
//!
//! Pair `p` belongs to slice `p mod N` (counted from 1 on the command line), so every slice
//! gets pairs from the whole match, and each pair keeps the seeds and the opening it has in
//! the unsharded match: merged slices are that match, game for game.

use super::record::{read_records, GameRecord, Pairing};
use super::sprt::Sprt;
use super::tally::Tally;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The slice `index` (from 0) of `count` slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Whether pair `pair` is this slice's.
    pub fn has(self, pair: usize) -> bool {
        pair % self.count == self.index
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with 1 <= I <= N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("expected I/N (such as 2/8), got {s:?}"))?;
        let number = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("{t:?}: {e}"));
        let (i, n) = (number(i)?, number(n)?);
        if n == 0 || i == 0 || i > n {
            return Err(format!("{s}: I/N needs 1 <= I <= N"));
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// The games of `files` as one match: an error, before anything is counted, for a file that
/// cannot be read, a record that is not a match game, games of another match, or a game that
/// two files both hold.
pub fn merged(files: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut first: Option<(Pairing, PathBuf)> = None;
    let mut seen: HashMap<(usize, usize), PathBuf> = HashMap::new();
    let mut out = Vec::new();
    for path in files {
        let records = read_records(path)?;
        for (i, r) in records.into_iter().enumerate() {
            let at = || format!("{}: record {}", path.display(), i + 1);
            let engines = r
                .pairing()
                .with_context(|| format!("{} is not a match game", at()))?;
            match &first {
                None => first = Some((engines, path.clone())),
                Some((e, p)) if *e != engines => bail!(
                    "{} is a game of another match than {}'s:\n{engines}against\n{e}",
                    at(),
                    p.display()
                ),
                Some(_) => {}
            }
            let slot = r.slot.expect("engines_of checked it");
            if let Some(other) = seen.insert((slot.pair, slot.game), path.clone()) {
                bail!(
                    "{} is pair {}, game {}, which {} holds too: shards must be disjoint",
                    at(),
                    slot.pair,
                    slot.game,
                    other.display()
                );
            }
            out.push(r);
        }
    }
    if out.is_empty() {
        bail!("no game in {} file(s)", files.len());
    }
    out.sort_by_key(|r| r.slot.map(|s| (s.pair, s.game)));
    Ok(out)
}

/// The result of merged games as `match` prints it at its end: the engines, the result block
/// (with `sprt`, its LLR), then per engine its faults and answer times and A's splits.
pub fn merged_block(games: &[GameRecord], sprt: Option<&Sprt>) -> String {
    let mut tally = Tally::default();
    games.iter().for_each(|r| tally.add(r));
    let engines = games
        .first()
        .and_then(GameRecord::pairing)
        .map_or(String::new(), |p| p.to_string());
    format!(
        "{engines}--- merged: {} games ---\n{}{}",
        games.len(),
        tally.block(sprt),
        tally.engine_lines(["A", "B"])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_are_disjoint_and_cover_every_pair() {
        let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        for pair in 0..30 {
            assert_eq!(
                shards.iter().filter(|s| s.has(pair)).count(),
                1,
                "pair {pair}"
            );
        }
        assert!(shards[1].has(4) && shards[1].to_string() == "2/3");
    }

    #[test]
    fn a_bad_shard_says_what_is_wrong() {
        for bad in ["3", "0/2", "3/2", "1/0", "a/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(
            "4/3".parse::<Shard>().unwrap_err(),
            "4/3: I/N needs 1 <= I <= N"
        );
    }
}
