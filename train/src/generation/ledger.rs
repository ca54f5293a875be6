//! `DIR/stages.json`: what each finished stage made, with each output's SHA-256. A stage is
//! done when its record has the key it would run with now (its commands and its inputs' sums)
//! and every output it recorded is there with its sum; otherwise it runs (again).

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use twixt_host::sum::sha256_file;

/// The file, in the generation's folder.
pub const FILE: &str = "stages.json";

/// One finished stage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// What the stage ran on: its commands and its inputs' sums.
    pub key: String,
    /// Each output, by its path under the generation's folder, with its SHA-256.
    pub outputs: BTreeMap<String, String>,
    /// How long it took.
    pub seconds: f64,
    /// Its figures, as the report shows them.
    pub figures: String,
}

/// Every finished stage of one generation's folder.
#[derive(Debug, Default)]
pub struct Ledger {
    dir: PathBuf,
    stages: BTreeMap<String, Record>,
}

impl Ledger {
    /// The ledger of `dir`: empty when it has none yet.
    pub fn open(dir: &Path) -> Result<Ledger> {
        let path = dir.join(FILE);
        let stages = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).with_context(|| path.display().to_string())?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(e).with_context(|| path.display().to_string()),
        };
        Ok(Ledger {
            dir: dir.to_path_buf(),
            stages,
        })
    }

    /// The stage's record if it is done with this key: its outputs there with their sums.
    pub fn done(&self, stage: &str, key: &str) -> Option<&Record> {
        let record = self.stages.get(stage).filter(|r| r.key == key)?;
        let intact = record
            .outputs
            .iter()
            .all(|(file, sum)| sha256_file(&self.dir.join(file)).is_ok_and(|s| &s == sum));
        intact.then_some(record)
    }

    /// Records a finished stage, summing its outputs, and writes the ledger.
    pub fn finish(
        &mut self,
        stage: &str,
        key: &str,
        outputs: &[&str],
        seconds: f64,
        figures: String,
    ) -> Result<Record> {
        let mut sums = BTreeMap::new();
        for file in outputs {
            sums.insert(file.to_string(), sha256_file(&self.dir.join(file))?);
        }
        let record = Record {
            key: key.to_string(),
            outputs: sums,
            seconds,
            figures,
        };
        self.stages.insert(stage.to_string(), record.clone());
        self.save()?;
        Ok(record)
    }

    /// The record of a stage, done or not.
    pub fn get(&self, stage: &str) -> Option<&Record> {
        self.stages.get(stage)
    }

    /// Writes the ledger whole (a new file renamed over the old: never half written).
    fn save(&self) -> Result<()> {
        let path = self.dir.join(FILE);
        let partial = self.dir.join(format!("{FILE}.partial"));
        let text = serde_json::to_string_pretty(&self.stages)?;
        std::fs::write(&partial, text + "\n").with_context(|| partial.display().to_string())?;
        std::fs::rename(&partial, &path).with_context(|| path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_is_done_only_with_its_key_and_its_outputs_intact() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("out.bin"), b"games").unwrap();
        let mut ledger = Ledger::open(dir.path()).unwrap();
        assert!(ledger.done("pack", "k").is_none());
        ledger
            .finish("pack", "k", &["out.bin"], 1.0, "f".into())
            .unwrap();
        let again = Ledger::open(dir.path()).unwrap();
        assert!(again.done("pack", "k").is_some());
        assert!(again.done("pack", "other key").is_none());
        std::fs::write(dir.path().join("out.bin"), b"gamez").unwrap();
        assert!(again.done("pack", "k").is_none());
        std::fs::remove_file(dir.path().join("out.bin")).unwrap();
        assert!(again.done("pack", "k").is_none());
    }

    #[test]
    fn a_damaged_ledger_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "{not json").unwrap();
        let err = format!("{:#}", Ledger::open(dir.path()).unwrap_err());
        assert!(err.contains(FILE), "{err}");
    }
}
