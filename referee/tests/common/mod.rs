//! Helpers shared by the referee's integration tests: run `twixt-referee`, read its record,
//! and check that the processes a fault bot started are gone.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use twixt_referee::record::{read_records, GameRecord};

/// A fresh scratch directory for one test, under cargo's target directory (so `cargo clean`
/// removes it and /tmp stays clean); the test's name keeps runs of different tests apart.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("referee-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The command line of a fault bot, e.g. `bot("scripted.sh E5 F7")`.
pub fn bot(line: &str) -> String {
    format!("{}/tests/fault_bots/{line}", env!("CARGO_MANIFEST_DIR"))
}

/// What one run of the referee gave.
pub struct Run {
    pub output: Output,
    pub elapsed: Duration,
    pub records: Vec<GameRecord>,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn record(&self) -> &GameRecord {
        assert_eq!(
            self.records.len(),
            1,
            "one game, one record: {}",
            self.stdout()
        );
        &self.records[0]
    }
}

/// Runs `twixt-referee ARGS`, with `FAULT_PIDS` pointing into `dir`; `results` is the JSON
/// lines file to read back.
pub fn referee(dir: &Path, args: &[&str], results: &Path) -> Run {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .args(args)
        .env("FAULT_PIDS", dir.join("pids"))
        .output()
        .expect("the referee runs");
    let elapsed = start.elapsed();
    let records = read_records(results).unwrap();
    Run {
        output,
        elapsed,
        records,
    }
}

/// Plays one game between two commands with the given clocks; returns the run.
pub fn game(name: &str, a: &str, b: &str, first_ms: u64, turn_ms: u64) -> (Run, PathBuf) {
    let dir = scratch(name);
    let rec = dir.join("game.jsonl");
    let (f, t) = (first_ms.to_string(), turn_ms.to_string());
    let args = [
        "game",
        a,
        b,
        "--first-ms",
        &f,
        "--turn-ms",
        &t,
        "--record",
        rec.to_str().unwrap(),
    ];
    (referee(&dir, &args, &rec), dir)
}

/// Whether a process is alive (a zombie counts as dead).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

/// Asserts every pid a fault bot noted in `dir/pids` is gone (allowing a moment for init to
/// reap an orphan).
pub fn assert_all_dead(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("pids")).unwrap_or_default();
    let pids: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert!(!pids.is_empty(), "the fault bot noted no pid");
    let until = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|&p| alive(p)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    for p in pids {
        assert!(!alive(p), "process {p} outlived the game");
    }
}

/// The command of `../shared/opponents/random_bot.py` with this seed argument (`{seed}` works),
/// if the script and python3 are here.
pub fn random_bot(seed: &str) -> Option<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/opponents/random_bot.py");
    let python = Command::new("python3").arg("--version").output();
    if !script.exists() || !python.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: no python3 or no {}", script.display());
        return None;
    }
    Some(format!("python3 {} {seed}", script.display()))
}
