//! One match over many machines: `match --shard I/N` plays the I-th of N disjoint slices of
//! its pairs ([`Shard`], shared with self-play), and `merge` counts the slices' results files
//! as the one match they make. Each pair keeps the seeds and the opening it has in the
//! unsharded match, so merged slices are that match, game for game. A pair counts when both
//! its games are in: a machine that stopped between them leaves the pair to be replayed
//! (`match --resume` on that shard), never half counted.

use super::record::{read_records, GameRecord, Pairing};
use super::sprt::Sprt;
use super::tally::Tally;
use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
pub use twixt_host::Shard;

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

/// The games of whole pairs, and the pairs that have only one game (the pairs to replay).
pub fn whole_pairs(games: Vec<GameRecord>) -> (Vec<GameRecord>, Vec<usize>) {
    let mut count: BTreeMap<usize, usize> = BTreeMap::new();
    for s in games.iter().filter_map(|r| r.slot) {
        *count.entry(s.pair).or_default() += 1;
    }
    let whole = |r: &GameRecord| r.slot.is_some_and(|s| count[&s.pair] == 2);
    let torn = count.iter().filter(|(_, &n)| n != 2).map(|(&p, _)| p);
    let torn = torn.collect();
    (games.into_iter().filter(whole).collect(), torn)
}

/// Writes `games` as one results file (JSON lines, a new file), which `report`, `merge` and
/// `losses` read as they read a match's.
pub fn write(games: &[GameRecord], path: &Path) -> Result<()> {
    let text: String = games.iter().map(|r| r.to_json() + "\n").collect();
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("{}: cannot create", path.display()))?;
    std::io::Write::write_all(&mut f, text.as_bytes()).with_context(|| path.display().to_string())
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
