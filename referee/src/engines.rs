//! Engines A and B, whatever their seats: their commands, their clocks and where their stderr
//! goes, and the command-line options of `game` and `match` that set them.

use super::clocks::Clocks;
use super::record::EngineId;
use anyhow::{Context, Result};
use std::path::PathBuf;

/// The clock and stderr options shared by `game` and `match`.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineOptions {
    /// Milliseconds for a bot's first turn (engine B's too, unless --first-ms-b).
    #[arg(long, default_value_t = Clocks::CODINGAME.first_ms)]
    pub first_ms: u64,
    /// Milliseconds for every later turn (engine B's too, unless --turn-ms-b).
    #[arg(long, default_value_t = Clocks::CODINGAME.turn_ms)]
    pub turn_ms: u64,
    /// Extra milliseconds granted on every turn before an answer is late (engine B's too,
    /// unless --margin-b).
    #[arg(long, default_value_t = Clocks::CODINGAME.margin_ms)]
    pub margin: u64,
    /// Milliseconds for B's first turn, whichever seat it plays [default: --first-ms].
    #[arg(long, value_name = "MS")]
    pub first_ms_b: Option<u64>,
    /// Milliseconds for B's later turns, whichever seat it plays [default: --turn-ms].
    #[arg(long, value_name = "MS")]
    pub turn_ms_b: Option<u64>,
    /// Extra milliseconds for B on every turn, whichever seat it plays [default: --margin].
    #[arg(long, value_name = "MS")]
    pub margin_b: Option<u64>,
    /// Keep each bot's stderr in a file in this directory.
    #[arg(long)]
    pub stderr_dir: Option<PathBuf>,
}

/// Engines A and B: engine B keeps its command and clocks whichever seat it plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engines {
    /// The commands of engine A and of engine B (`{seed}` is replaced by each game's seed).
    pub cmds: [String; 2],
    /// The clocks of engine A and of engine B.
    pub clocks: [Clocks; 2],
    /// Where to keep each bot's stderr, if anywhere.
    pub stderr_dir: Option<PathBuf>,
    /// What engines A and B are, when `test` knows it (the records keep it).
    pub ids: [Option<EngineId>; 2],
}

impl Engines {
    /// Engines A and B from their commands and the options; creates the stderr directory.
    pub fn new(cmd_a: &str, cmd_b: &str, options: &EngineOptions) -> Result<Engines> {
        if let Some(dir) = &options.stderr_dir {
            std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
        }
        let a = Clocks {
            first_ms: options.first_ms,
            turn_ms: options.turn_ms,
            margin_ms: options.margin,
        };
        let b = Clocks {
            first_ms: options.first_ms_b.unwrap_or(a.first_ms),
            turn_ms: options.turn_ms_b.unwrap_or(a.turn_ms),
            margin_ms: options.margin_b.unwrap_or(a.margin_ms),
        };
        Ok(Engines {
            cmds: [cmd_a.to_string(), cmd_b.to_string()],
            clocks: [a, b],
            stderr_dir: options.stderr_dir.clone(),
            ids: [None, None],
        })
    }

    /// Two engines under CodinGame's clocks, their stderr dropped.
    pub fn codingame(cmd_a: &str, cmd_b: &str) -> Engines {
        Engines {
            cmds: [cmd_a.to_string(), cmd_b.to_string()],
            clocks: [Clocks::CODINGAME; 2],
            stderr_dir: None,
            ids: [None, None],
        }
    }

    /// One line per engine: `A: CMD [clock: ...]`.
    pub fn describe(&self) -> String {
        let lines = ["A", "B"].iter().zip(self.cmds.iter().zip(self.clocks));
        lines
            .map(|(name, (cmd, clock))| format!("{name}: {cmd} [clock: {clock}]\n"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::options;

    fn engines(args: &[&str]) -> Engines {
        Engines::new("a", "b", &options::<EngineOptions>(args)).unwrap()
    }

    #[test]
    fn engine_b_takes_the_common_clock_unless_given_its_own() {
        assert_eq!(engines(&[]).clocks, [Clocks::CODINGAME; 2]);
        let e = engines(&["--turn-ms", "200", "--margin", "5", "--first-ms-b", "3000"]);
        let a = Clocks {
            turn_ms: 200,
            margin_ms: 5,
            ..Clocks::CODINGAME
        };
        assert_eq!(
            e.clocks,
            [
                a,
                Clocks {
                    first_ms: 3000,
                    ..a
                }
            ]
        );
        assert_eq!(
            e.describe(),
            "A: a [clock: 1000 ms first turn, 200 ms later, +5 ms margin]\n\
             B: b [clock: 3000 ms first turn, 200 ms later, +5 ms margin]\n"
        );
    }
}
