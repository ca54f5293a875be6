//! A new part's `[[part]]` for the manifest, from its data file: the generation writes one
//! for its games, so that they can leave the repository and be made again to the same bytes.

use super::manifest::Manifest;
use crate::data::HEADER_LEN;
use anyhow::{ensure, Context, Result};
use std::path::Path;

/// The games a part's sample holds (fewer when the part has fewer).
pub const SAMPLE_GAMES: u32 = 20;

/// What names the run: its teacher's commit and its command.
pub struct Run<'a> {
    pub name: &'a str,
    pub teacher: &'a str,
    pub run_games: u32,
    pub shard: &'a str,
    pub args: &'a [String],
    pub committed: Option<&'a Path>,
}

/// The `[[part]]` of a data file (not packed) of the run, as the manifest's TOML.
pub fn part_toml(run: &Run, file: &Path) -> Result<String> {
    let bytes = std::fs::read(file).with_context(|| file.display().to_string())?;
    let data = crate::data::parse(&bytes).with_context(|| file.display().to_string())?;
    ensure!(
        data.torn_at.is_none(),
        "{}: a torn last game (self-play has not ended)",
        file.display()
    );
    let games = data.games.len() as u32;
    let sample = games.min(SAMPLE_GAMES);
    let prefix = &bytes[..prefix_len(&bytes, sample as usize)?];
    let quote = |s: &str| format!("{s:?}");
    let mut text = format!(
        "[[part]]\nname = {}\nteacher = {}\nfingerprint = \"{}\"\nrun_games = {}\nshard = {}\n\
         args = [{}]\ngames = {games}\nsha256 = \"{}\"\nsample = {{ games = {sample}, sha256 = \"{}\" }}\n",
        quote(run.name),
        quote(run.teacher),
        data.header.teacher,
        run.run_games,
        quote(run.shard),
        run.args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(", "),
        twixt_host::sum::sha256(&bytes),
        twixt_host::sum::sha256(prefix),
    );
    if let Some(path) = run.committed {
        text += &format!("committed = {}\n", quote(&path.display().to_string()));
    }
    // What the manifest would refuse is refused here.
    Manifest::parse(&text).context("the part's entry")?;
    Ok(text)
}

/// The length of the file's header and its first `games` records.
fn prefix_len(bytes: &[u8], games: usize) -> Result<usize> {
    let mut at = HEADER_LEN;
    for _ in 0..games {
        let len = bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .context("a record cut short")?;
        at += 4 + len + 4;
    }
    ensure!(at <= bytes.len(), "a record cut short");
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{append, create, read};

    /// Writes the first `games` games of a committed shard as a data file.
    fn data_file(dir: &Path, name: &str, games: usize) -> std::path::PathBuf {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let shard = read(&root.join("data/gen8/shard1.zst")).unwrap();
        let path = dir.join(name);
        let mut f = create(&path, shard.header).unwrap();
        for game in &shard.games[..games] {
            append(&mut f, game).unwrap();
        }
        path
    }

    #[test]
    fn a_parts_entry_sums_its_file_and_its_first_games() {
        let dir = tempfile::tempdir().unwrap();
        let whole = data_file(dir.path(), "whole.bin", 25);
        let first = data_file(dir.path(), "first.bin", SAMPLE_GAMES as usize);
        let args = ["--fast".to_string(), "800".into()];
        let committed = Path::new("train/data/gen9/shard1.zst");
        let run = Run {
            name: "gen9/shard1",
            teacher: "0c2c872d397911206c6ab91096bcfe1bf659f6d1",
            run_games: 25,
            shard: "1/1",
            args: &args,
            committed: Some(committed),
        };
        let text = part_toml(&run, &whole).unwrap();
        let manifest = Manifest::parse(&text).unwrap();
        let part = &manifest.part[0];
        assert_eq!((part.games, part.run_games), (25, 25));
        assert_eq!(part.fingerprint(), read(&whole).unwrap().header.teacher);
        let sum = |p: &Path| twixt_host::sum::sha256_file(p).unwrap();
        assert_eq!(part.sha256, sum(&whole));
        let sample = part.sample.as_ref().unwrap();
        assert_eq!(
            (sample.games, sample.sha256.clone()),
            (SAMPLE_GAMES, sum(&first))
        );
        assert_eq!(part.committed.as_deref(), Some(committed));
        assert_eq!(part.args, args);
    }

    #[test]
    fn a_torn_file_has_no_entry() {
        let dir = tempfile::tempdir().unwrap();
        let path = data_file(dir.path(), "torn.bin", 3);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        let run = Run {
            name: "gen9/shard1",
            teacher: "0c2c872d397911206c6ab91096bcfe1bf659f6d1",
            run_games: 3,
            shard: "1/1",
            args: &[],
            committed: None,
        };
        let err = part_toml(&run, &path).unwrap_err().to_string();
        assert!(err.contains("torn"), "{err}");
    }
}
