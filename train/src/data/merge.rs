//! `twixt-train merge`: the shards of one self-play run (`selfplay --shard I/N`, played on
//! many machines) as the one file the run writes on one machine. Games go in the order of
//! their indices, as `selfplay` writes them, so that a complete merge is that file byte for
//! byte (checksums compare); the shards must be of one run (one header), disjoint and whole
//! (a torn shard is resumed by `selfplay --resume` first, not merged short).

use super::{append, create, read, Game, Header};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a merge wrote: the run's games and searched positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Games written.
    pub games: usize,
    /// Positions with a full search.
    pub searched: usize,
}

/// The games of `shards` by index, after checking that they are of one run and disjoint, and
/// with `games`, that they hold every game of a run of that many.
pub fn games_of(shards: &[PathBuf], games: Option<u32>) -> Result<(Header, Vec<Game>)> {
    let mut header: Option<(Header, &Path)> = None;
    let mut by_index: BTreeMap<u32, (Game, &Path)> = BTreeMap::new();
    for path in shards {
        let file = read(path)?;
        if let Some(at) = file.torn_at {
            bail!(
                "{}: offset {at}: a torn game record; `selfplay --resume` on that shard mends \
                 it before a merge",
                path.display()
            );
        }
        match header {
            None => header = Some((file.header, path)),
            Some((h, first)) if h != file.header => bail!(
                "{}: another run's shard than {}'s (their settings differ: {:?} against {:?})",
                path.display(),
                first.display(),
                file.header,
                h
            ),
            Some(_) => {}
        }
        for g in file.games {
            let index = g.index;
            if let Some((_, other)) = by_index.insert(index, (g, path)) {
                bail!(
                    "{}: game {index} is in {} too: shards must be disjoint",
                    path.display(),
                    other.display()
                );
            }
        }
    }
    let (header, _) = header.context("no shard to merge")?;
    if let Some(n) = games {
        let missing: Vec<u32> = (0..n).filter(|i| !by_index.contains_key(i)).collect();
        if let Some(first) = missing.first() {
            bail!(
                "{} of the run's {n} games are in no shard (the first: game {first}): a shard \
                 is missing or unfinished; `selfplay --resume` it",
                missing.len()
            );
        }
        if let Some((&i, (_, path))) = by_index.range(n..).next() {
            bail!("{}: game {i} is beyond a run of {n} games", path.display());
        }
    }
    Ok((header, by_index.into_values().map(|(g, _)| g).collect()))
}

/// Writes the merge of `shards` to `out` (a new file); with `games`, only a whole run.
pub fn merge(shards: &[PathBuf], out: &Path, games: Option<u32>) -> Result<Merged> {
    let (header, all) = games_of(shards, games)?;
    let mut file = create(out, header)?;
    for g in &all {
        append(&mut file, g).with_context(|| format!("{}: writing", out.display()))?;
    }
    Ok(Merged {
        games: all.len(),
        searched: all
            .iter()
            .flat_map(|g| &g.plies)
            .filter(|p| p.search.is_some())
            .count(),
    })
}
