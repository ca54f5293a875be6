//! How a stage runs: skipped when the ledger has it done with the same key, else run with its
//! commands' output in `DIR/logs/STAGE.log`, then recorded with its outputs' sums.

use super::config::Config;
use super::ledger::{Ledger, Record};
use anyhow::{Context, Result};
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use twixt_host::sum::sha256_file;

/// Lines of a stage's log the report shows as its figures.
const FIGURE_LINES: usize = 12;

/// One generation's run: its config, its folder, the programs it calls, what is done.
pub struct Generation {
    pub config: Config,
    pub dir: PathBuf,
    /// This build's `twixt-train`: the shipped bot plays the games, the fits are its own.
    pub exe: PathBuf,
    pub referee: PathBuf,
    pub ledger: Ledger,
    /// The stages in the order they ran or were skipped, for the report.
    pub done: Vec<Done>,
}

/// A stage, as the report shows it.
pub struct Done {
    pub stage: String,
    pub record: Record,
    /// Skipped: its outputs were there with their sums.
    pub skipped: bool,
}

impl Generation {
    pub fn new(config: Config, dir: PathBuf, exe: PathBuf, referee: PathBuf) -> Result<Self> {
        let ledger = Ledger::open(&dir)?;
        Ok(Generation {
            config,
            dir,
            exe,
            referee,
            ledger,
            done: Vec::new(),
        })
    }

    /// A path in the generation's folder.
    pub fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// Runs the stage `name` unless it is done with this key (`what` it runs, and the sums of
    /// its `inputs`). `body` makes the `outputs` (paths in the folder) and returns the figures.
    pub fn stage(
        &mut self,
        name: &str,
        what: &str,
        inputs: &[PathBuf],
        outputs: &[&str],
        body: impl FnOnce(&mut Generation) -> Result<String>,
    ) -> Result<Record> {
        let key = key(what, inputs)?;
        if let Some(record) = self.ledger.done(name, &key) {
            eprintln!("generation: {name}: done, its outputs' sums match");
            let record = record.clone();
            self.push(name, &record, true);
            return Ok(record);
        }
        eprintln!("generation: {name}: running");
        let started = Instant::now();
        let _ = std::fs::remove_file(self.log(name));
        let figures = body(self).with_context(|| format!("stage {name}"))?;
        let seconds = started.elapsed().as_secs_f64();
        let record = self.ledger.finish(name, &key, outputs, seconds, figures)?;
        self.push(name, &record, false);
        Ok(record)
    }

    fn push(&mut self, stage: &str, record: &Record, skipped: bool) {
        self.done.push(Done {
            stage: stage.to_string(),
            record: record.clone(),
            skipped,
        });
    }

    /// The log of a stage's commands.
    pub fn log(&self, stage: &str) -> PathBuf {
        self.dir.join("logs").join(format!("{stage}.log"))
    }

    /// Runs a command of `stage`, its output appended to the stage's log; an exit status not
    /// in `accepted` is an error showing the log's end. Returns the status.
    pub fn command(&self, stage: &str, command: &mut Command, accepted: &[i32]) -> Result<i32> {
        let log = self.log(stage);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .with_context(|| log.display().to_string())?;
        let status = command
            .stdout(file.try_clone()?)
            .stderr(file)
            .status()
            .with_context(|| format!("{command:?}"))?;
        let code = status.code().unwrap_or(-1);
        if !accepted.contains(&code) {
            anyhow::bail!(
                "{command:?} failed ({status}); the end of {}:\n{}",
                log.display(),
                tail(&log)
            );
        }
        Ok(code)
    }

    /// The last lines of a stage's log, as its figures.
    pub fn figures(&self, stage: &str) -> String {
        tail(&self.log(stage))
    }
}

/// A stage's key: what it runs, and each input's path and sum.
fn key(what: &str, inputs: &[PathBuf]) -> Result<String> {
    let mut key = what.to_string();
    for input in inputs {
        // `FILE:N` (the first N games) sums the file.
        let file = strip_games(input);
        key += &format!("\n{} {}", sha256_file(&file)?, input.display());
    }
    Ok(key)
}

/// A data argument's file, without its `:N` suffix.
fn strip_games(input: &Path) -> PathBuf {
    let text = input.to_string_lossy();
    match text.rsplit_once(':') {
        Some((file, n)) if n.parse::<u64>().is_ok() => PathBuf::from(file),
        _ => input.to_path_buf(),
    }
}

/// The last lines of a file (empty if it cannot be read).
pub(crate) fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(FIGURE_LINES);
    lines[from..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_argument_is_summed_by_its_file() {
        assert_eq!(
            strip_games(Path::new("d/s.zst:17926")),
            Path::new("d/s.zst")
        );
        assert_eq!(strip_games(Path::new("d/s.zst")), Path::new("d/s.zst"));
        assert_eq!(strip_games(Path::new("a:b/s.zst")), Path::new("a:b/s.zst"));
    }
}
