//! `train/data/regenerate.toml`: each part of the self-play data, its teacher (the commit
//! whose build played it), its command and its sums, so that a part the repository does not
//! hold is made again to the same bytes, and a part it holds can leave it.
//!
//! ```toml
//! [[part]]
//! name = "gen1/shard1"
//! teacher = "9c7cf6c..."                  # the full hash of the commit to build
//! fingerprint = "5660697418766846474"     # the teacher's, as `info` prints it
//! run_games = 32030                        # the run's --games
//! shard = "1/2"                            # the run's --shard
//! args = ["--fast", "800", "--iterations", "3200", "--full-share", "0.2", "--opening", "2", "--seed", "101"]
//! games = 16015                            # the games the part holds
//! sha256 = "2edc..."                       # of the data file (unpacked)
//! sample = { games = 20, sha256 = "..." }  # of the file of its first games
//! committed = "train/data/gen8/shard1.zst" # while the repository holds it (packed)
//! ```

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use twixt_host::Shard;

/// The manifest's place in the repository.
pub const MANIFEST: &str = "train/data/regenerate.toml";

/// Every part of the data.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub part: Vec<Part>,
}

/// One run's shard: what made it and what it must come out as.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// `genK/shardI`: the name a command selects it by.
    pub name: String,
    /// The full hash of the commit whose `twixt-train` played it.
    pub teacher: String,
    /// The teacher's fingerprint, in each file's header (decimal, as `info` prints it).
    pub fingerprint: String,
    /// The run's `--games`.
    pub run_games: u32,
    /// The run's `--shard`.
    pub shard: String,
    /// The rest of the run's `selfplay` arguments (never `--out`, `--games`, `--shard`,
    /// `--threads` or `--resume`, which the command gives).
    pub args: Vec<String>,
    /// The games the part holds.
    pub games: u32,
    /// The SHA-256 of its data file.
    pub sha256: String,
    /// The file of its first games, which a check makes again in seconds.
    pub sample: Option<Sample>,
    /// The packed file, while the repository holds it.
    pub committed: Option<PathBuf>,
}

/// The part's first games and their file's SHA-256.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    pub games: u32,
    pub sha256: String,
}

impl Manifest {
    /// Reads and checks a manifest; an error names the file and the part.
    pub fn read(path: &Path) -> Result<Manifest> {
        let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
        Manifest::parse(&text).with_context(|| path.display().to_string())
    }

    /// Parses and checks a manifest's text.
    pub fn parse(text: &str) -> Result<Manifest> {
        let manifest: Manifest = toml::from_str(text)?;
        manifest.check()?;
        Ok(manifest)
    }

    /// Each part's fields are sound, and no name is listed twice.
    pub fn check(&self) -> Result<()> {
        let mut names = std::collections::BTreeSet::new();
        for part in &self.part {
            part.check()
                .with_context(|| format!("part {:?}", part.name))?;
            if !names.insert(part.name.as_str()) {
                bail!("part {:?} is listed twice", part.name);
            }
        }
        Ok(())
    }

    /// The parts named, in the manifest's order; an error names one it lacks.
    pub fn select(&self, names: &[String]) -> Result<Vec<&Part>> {
        for name in names {
            if !self.part.iter().any(|p| &p.name == name) {
                let known: Vec<&str> = self.part.iter().map(|p| p.name.as_str()).collect();
                bail!("no part {name:?} (the parts: {})", known.join(", "));
            }
        }
        Ok(self
            .part
            .iter()
            .filter(|p| names.is_empty() || names.contains(&p.name))
            .collect())
    }
}

impl Part {
    fn check(&self) -> Result<()> {
        if self.teacher.len() != 40 || !self.teacher.bytes().all(|b| b.is_ascii_hexdigit()) {
            bail!(
                "teacher {:?}: a commit's full hash (40 hex digits)",
                self.teacher
            );
        }
        self.fingerprint
            .parse::<u64>()
            .map_err(|e| anyhow::anyhow!("fingerprint {:?}: {e}", self.fingerprint))?;
        self.shard()?;
        digest(&self.sha256).context("sha256")?;
        for reserved in ["--out", "-o", "--games", "--shard", "--threads", "--resume"] {
            if self.args.iter().any(|a| a == reserved) {
                bail!("args holds {reserved}, which the command gives");
            }
        }
        if self.run_games_for(self.games)? > self.run_games {
            bail!(
                "{} games is more than shard {} of {} holds",
                self.games,
                self.shard,
                self.run_games
            );
        }
        if let Some(sample) = &self.sample {
            if sample.games == 0 || sample.games > self.games {
                bail!(
                    "a sample of {} games: 1 to the part's {}",
                    sample.games,
                    self.games
                );
            }
            digest(&sample.sha256).context("the sample's sha256")?;
        }
        if self.name.split('/').any(|s| s.is_empty() || s == "..") {
            bail!("a name is genK/shardI: no empty or .. step");
        }
        Ok(())
    }

    /// The run's slice.
    pub fn shard(&self) -> Result<Shard> {
        self.shard
            .parse()
            .map_err(|e| anyhow::anyhow!("shard {:?}: {e}", self.shard))
    }

    /// The teacher's fingerprint.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint.parse().expect("checked when read")
    }

    /// The run's `--games` whose shard holds the part's first `games` games: a run of fewer
    /// games plays the same first games, so its file is the whole run's first bytes.
    pub fn run_games_for(&self, games: u32) -> Result<u32> {
        let shard = self.shard()?;
        let mut held = 0;
        let mut unit = 0;
        while held < games {
            held += u32::from(shard.has(unit));
            unit += 1;
        }
        Ok(unit as u32)
    }
}

/// Checks a SHA-256 written as `sha256sum` prints it: 64 lowercase hex digits.
fn digest(hex: &str) -> Result<()> {
    let lower = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
    if hex.len() != 64 || !hex.bytes().all(lower) {
        bail!("{hex:?}: 64 lowercase hex digits");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PART: &str = r#"
[[part]]
name = "gen1/shard1"
teacher = "9c7cf6c0000000000000000000000000000000ab"
fingerprint = "5660697418766846474"
run_games = 32030
shard = "1/2"
args = ["--fast", "800", "--seed", "101"]
games = 16015
sha256 = "2edc6433f7234352767edf651e6a10026a274373b157ab291fd05802991d60bc"
sample = { games = 20, sha256 = "2edc6433f7234352767edf651e6a10026a274373b157ab291fd05802991d60bc" }
"#;

    #[test]
    fn a_part_reads_with_its_sample() {
        let m = Manifest::parse(PART).unwrap();
        assert_eq!(m.part.len(), 1);
        assert_eq!(m.part[0].fingerprint(), 5660697418766846474);
        assert_eq!(m.part[0].sample.as_ref().unwrap().games, 20);
        assert!(m.select(&["gen1/shard2".into()]).is_err());
    }

    /// Shard 1 of 2 holds games 0, 2, 4...: its first 20 are the run of 39 games'. Shard 3 of
    /// 4 holds 2, 6, 10...
    #[test]
    fn a_sample_is_the_first_games_of_a_shorter_run() {
        let m = Manifest::parse(PART).unwrap();
        assert_eq!(m.part[0].run_games_for(20).unwrap(), 39);
        assert_eq!(m.part[0].run_games_for(16015).unwrap(), 32029);
        let mut p = m.part[0].clone();
        p.shard = "3/4".into();
        assert_eq!(p.run_games_for(1).unwrap(), 3);
        assert_eq!(p.run_games_for(2).unwrap(), 7);
    }

    #[test]
    fn each_bad_field_is_named() {
        for (from, to, says) in [
            (
                "9c7cf6c0000000000000000000000000000000ab",
                "9c7cf6c",
                "teacher",
            ),
            ("\"5660697418766846474\"", "\"-1\"", "fingerprint"),
            ("\"1/2\"", "\"3/2\"", "shard"),
            ("games = 16015", "games = 16016", "more than shard"),
            ("games = 20", "games = 0", "a sample of 0 games"),
            ("\"--seed\", \"101\"", "\"--games\", \"9\"", "--games"),
            ("d60bc\"\n", "d60bC\"\n", "sha256"),
            ("name = \"gen1/shard1\"", "name = \"../x\"", "name"),
            ("games = 16015", "games = 16015\nextra = 1", "unknown field"),
        ] {
            let text = PART.replacen(from, to, 1);
            assert_ne!(text, PART, "{from}");
            let err = format!("{:#}", Manifest::parse(&text).unwrap_err());
            assert!(err.contains(says), "{from} -> {to}: {err}");
        }
        let twice = format!("{PART}{PART}");
        let err = format!("{:#}", Manifest::parse(&twice).unwrap_err());
        assert!(err.contains("listed twice"), "{err}");
    }
}
