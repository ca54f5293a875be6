//! The config of a generation (`twixt-train generation --config FILE`): a small TOML file saying
//! how many games to play, what to fit on and how, and how the candidate is gated. Every path in
//! it is relative to the repository root the command runs in.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The whole config.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The generation's name (`gen6`): its games are the part `NAME/shard1` and would be
    /// committed as `train/data/NAME/shard1.zst`.
    pub name: String,
    /// Committed data fitted beside the new generation's games (the older generations), in
    /// the order the fits read them; `[net] data` or `[fit] data` is one fit's own.
    #[serde(default)]
    pub data: Vec<String>,
    pub selfplay: Selfplay,
    pub net: Net,
    pub fit: Fit,
    pub gate: Gate,
}

/// The new generation's games, by the shipped bot (this build's `twixt-train selfplay`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selfplay {
    pub games: u32,
    pub iterations: u32,
    pub fast: Option<u32>,
    pub full_share: Option<f64>,
    pub opening: Option<u8>,
    /// A starts file (`selfplay --starts`, made by `twixt-train starts`): the games begin
    /// from boards of real games.
    pub starts: Option<PathBuf>,
    pub seed: u64,
    /// The teacher's parameters (`NAME=VALUE`, as `selfplay --set` takes them).
    #[serde(default)]
    pub set: Vec<String>,
    /// Threads of a local run (ignored by a cluster's shards, which take their default).
    pub threads: Option<usize>,
    /// `scripts/cluster`'s options before `--dir` (`["--ssh", "machines.txt", "--shards",
    /// "32"]` or `["--slurm", "--wait", "--shards", "32"]`); absent: the games are played here.
    pub cluster: Option<Vec<String>>,
}

/// The value network's fit (`twixt-train net`), warm-started from `init`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Net {
    /// The model trained on: the shipped network.
    pub init: PathBuf,
    /// The committed data this fit reads before the new games, instead of the top-level
    /// `data`.
    pub data: Option<Vec<String>>,
    pub epochs: u32,
    /// `net`'s other options (`--rate`, `--children`, `--value-mix`, `--row-bits`, ...).
    #[serde(default)]
    pub args: Vec<String>,
    /// `export-net --row-bits`.
    pub row_bits: u32,
}

/// The policy's fit (`twixt-train fit`): from the shipped policy with `init` (and `--hidden`
/// among the options), else from scratch.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fit {
    /// The model to go on from (`fit --hidden --init`): the shipped policy.
    pub init: Option<PathBuf>,
    /// The committed data this fit reads before the new games, instead of the top-level
    /// `data`.
    pub data: Option<Vec<String>>,
    /// `fit`'s options (`--hidden`, `--epochs`, `--rate`, `--bits`, `--threads`, ...).
    #[serde(default)]
    pub args: Vec<String>,
}

/// The gate: `twixt-referee test` of the candidate's compiled bundle against the shipped bot.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    /// The shipped side: absent or `"shipped"`, HEAD's bundle compiled as the candidate's is;
    /// else as `twixt-referee test` takes it (a commit, or `bin:PATH`).
    pub against: Option<String>,
    pub games: u32,
    /// `--sprt`'s values (`["elo0=0", "elo1=30", "alpha=0.05", "beta=0.05"]`).
    pub sprt: Vec<String>,
    /// `test`'s other options (`--openings`, `--concurrency`, clock options, ...).
    #[serde(default)]
    pub args: Vec<String>,
}

impl Config {
    /// Reads and checks a config file.
    pub fn read(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
        Config::parse(&text).with_context(|| path.display().to_string())
    }

    /// Parses a config's text.
    pub fn parse(text: &str) -> Result<Config> {
        let config: Config = toml::from_str(text)?;
        anyhow::ensure!(
            config.selfplay.games > 0,
            "selfplay.games must be at least 1"
        );
        anyhow::ensure!(config.gate.games > 0, "gate.games must be at least 1");
        let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        anyhow::ensure!(
            !config.name.is_empty() && config.name.chars().all(plain),
            "name {:?}: letters, digits, - and _ (it names train/data/NAME/)",
            config.name
        );
        anyhow::ensure!(
            !config.gate.sprt.is_empty(),
            "gate.sprt is needed: the gate decides"
        );
        if let Some(cluster) = &config.selfplay.cluster {
            let has = |o: &str| cluster.iter().any(|c| c == o);
            anyhow::ensure!(
                !has("--slurm") || has("--wait"),
                "selfplay.cluster: --slurm needs --wait, so that the merged games are there after"
            );
        }
        Ok(config)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small config, for the generation's unit tests.
    pub(crate) const TOY: &str = r#"
        name = "toy"
        data = ["train/data/gen8/shard1.zst:2"]
        [selfplay]
        games = 4
        iterations = 100
        fast = 50
        seed = 7
        threads = 2
        [net]
        init = "train/models/value.txt"
        epochs = 1
        row_bits = 7
        [fit]
        args = ["--hidden", "--epochs", "1"]
        [gate]
        games = 2
        sprt = ["elo0=0", "elo1=30", "alpha=0.05", "beta=0.05"]
    "#;

    #[test]
    fn a_toy_config_parses() {
        let config = Config::parse(TOY).unwrap();
        assert_eq!(config.selfplay.games, 4);
        assert!(config.selfplay.cluster.is_none());
        assert_eq!(config.fit.args, ["--hidden", "--epochs", "1"]);
    }

    #[test]
    fn slurm_without_wait_is_refused() {
        let slurm = TOY.replace(
            "seed = 7",
            "seed = 7\ncluster = [\"--slurm\", \"--shards\", \"2\"]",
        );
        let err = Config::parse(&slurm).unwrap_err().to_string();
        assert!(err.contains("--wait"), "{err}");
        let waits = slurm.replace("\"--slurm\",", "\"--slurm\", \"--wait\",");
        assert!(Config::parse(&waits).is_ok());
    }

    #[test]
    fn an_unknown_key_or_an_empty_gate_is_refused() {
        let typo = TOY.replace("games = 4", "game = 4");
        let path = TOY.replace("name = \"toy\"", "name = \"../gen6\"");
        assert!(Config::parse(&path)
            .unwrap_err()
            .to_string()
            .contains("name"));
        assert!(Config::parse(&typo).is_err());
        let no_sprt = TOY.replace(
            r#"sprt = ["elo0=0", "elo1=30", "alpha=0.05", "beta=0.05"]"#,
            "sprt = []",
        );
        assert!(Config::parse(&no_sprt)
            .unwrap_err()
            .to_string()
            .contains("sprt"));
    }

    /// Each config in `train/generations/` parses, is named for its file (`gen9-long.toml`
    /// plays gen9's games again), and starts from committed models.
    #[test]
    fn every_committed_config_parses_and_starts_from_committed_models() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("train/generations"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        assert!(files.len() >= 5, "{files:?}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let config = Config::parse(&text).unwrap_or_else(|e| panic!("{file:?}: {e:#}"));
            let stem = file.file_stem().unwrap().to_str().unwrap();
            assert!(
                stem.split('-').next() == Some(config.name.as_str()),
                "{file:?} names {}",
                config.name
            );
            let mut models = vec![config.net.init.clone()];
            models.extend(config.fit.init.clone());
            for model in models {
                assert!(
                    root.join(&model).is_file(),
                    "{file:?}: {model:?} is not committed"
                );
            }
        }
    }
}
