//! Helpers shared by the referee's integration tests: run `twixt-referee`, read its record,
//! and check that the processes a fault bot started are gone.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use twixt_referee::record::{read_records_if_any, GameRecord};

/// A fresh scratch directory for one test, under cargo's target directory (so `cargo clean`
/// removes it and /tmp stays clean); the test's name keeps runs of different tests apart.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("referee-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A sibling binary of the workspace (`twixt-train`, `twixt-bot`), built if it is not yet.
pub fn binary(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .parent()
        .unwrap();
    let path = dir.join(name);
    if !path.is_file() {
        let package = if name == "twixt-bot" { "twixt" } else { name };
        let mut build = Command::new(std::env::var("CARGO").unwrap_or("cargo".into()));
        build.args(["build", "-q", "-p", package, "--bins"]);
        if dir.ends_with("release") {
            build.arg("--release");
        }
        assert!(
            build.status().unwrap().success(),
            "cargo build -p {package}"
        );
    }
    path
}

/// The command line of a fault bot, e.g. `bot("scripted.sh E5 F7")`.
pub fn bot(line: &str) -> String {
    format!("{}/tests/fault_bots/{line}", env!("CARGO_MANIFEST_DIR"))
}

/// A known game, the reference rules' own test game: player 1 joins columns A and L on its
/// 7th peg. Player 0's moves, then player 1's.
pub const KNOWN: [&str; 2] = ["E2 E3 E4 E10 E11 F11 G11", "A5 C6 E5 G6 I5 K6 L8"];

/// A scripted bot playing `player`'s moves of the known game, after the first `skip`.
pub fn known_bot(player: usize, skip: usize) -> String {
    let moves: Vec<&str> = KNOWN[player].split(' ').skip(skip).collect();
    bot(&format!("scripted.sh {}", moves.join(" ")))
}

/// What one run of the referee gave.
pub struct Run {
    pub output: Output,
    pub elapsed: Duration,
    /// The records read back from the run's record or results file.
    pub records: Vec<GameRecord>,
    /// The directory the run was in.
    pub dir: PathBuf,
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
/// lines file to read back (none when the run wrote none).
pub fn referee(dir: &Path, args: &[&str], results: &Path) -> Run {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .args(args)
        .env("FAULT_PIDS", dir.join("pids"))
        .output()
        .expect("the referee runs");
    let elapsed = start.elapsed();
    let records = read_records_if_any(results).unwrap();
    Run {
        output,
        elapsed,
        records,
        dir: dir.to_path_buf(),
    }
}

/// The file [`run_in`] passes as `--record` (to `game`) or `--results` (to `match`).
pub fn records_file(dir: &Path) -> PathBuf {
    dir.join("games.jsonl")
}

/// Runs `twixt-referee SUBCOMMAND A B --record/--results FILE EXTRA...` in `dir`.
pub fn run_in(dir: &Path, subcommand: &str, a: &str, b: &str, extra: &[&str]) -> Run {
    let file = records_file(dir);
    let flag = if subcommand == "game" {
        "--record"
    } else {
        "--results"
    };
    let mut args = vec![subcommand, a, b, flag, file.to_str().unwrap()];
    args.extend_from_slice(extra);
    referee(dir, &args, &file)
}

/// [`run_in`] a fresh scratch directory named `name`.
pub fn run(name: &str, subcommand: &str, a: &str, b: &str, extra: &[&str]) -> Run {
    run_in(&scratch(name), subcommand, a, b, extra)
}

/// Plays one game between two commands with the given clocks.
pub fn game(name: &str, a: &str, b: &str, first_ms: u64, turn_ms: u64) -> Run {
    let (f, t) = (first_ms.to_string(), turn_ms.to_string());
    run(name, "game", a, b, &["--first-ms", &f, "--turn-ms", &t])
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

/// The workspace's root: the engine's package, above this crate.
pub fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the referee sits in the engine's workspace")
}

/// Runs `python3 scripts/NAME ARGS` from the workspace; `None`, after [`unavailable`],
/// without python3.
pub fn python_script(name: &str, args: &[&str]) -> Option<Output> {
    let run = Command::new("python3")
        .arg(workspace_root().join("scripts").join(name))
        .args(args)
        .output();
    match run {
        Ok(output) => Some(output),
        Err(e) => {
            unavailable(&format!("NO PYTHON3 ({e}): scripts/{name} was not tried."));
            None
        }
    }
}

/// A process's output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Says loudly that a test could not run for want of `what` (a browser, an opponent): it
/// passes on a developer's machine, and panics in CI (`CI=true`), where everything must be.
pub fn unavailable(what: &str) {
    eprintln!("\n{}\n{what}\n{}\n", "!".repeat(78), "!".repeat(78));
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{what}");
}

/// The command of the random player with this seed argument (`{seed}` works): `$RANDOM_BOT`,
/// or `../shared/opponents/random_bot.py` beside the workspace, run by python3. `None`, after
/// [`unavailable`], when the script or python3 is missing.
pub fn random_bot(seed: &str) -> Option<String> {
    let script = std::env::var_os("RANDOM_BOT").map_or_else(
        || workspace_root().join("../shared/opponents/random_bot.py"),
        PathBuf::from,
    );
    let python = Command::new("python3").arg("--version").output();
    if !script.is_file() || !python.is_ok_and(|o| o.status.success()) {
        unavailable(&format!(
            "NO RANDOM PLAYER: the games against it did not run. They need python3 and {} \
             (or RANDOM_BOT set to the script).",
            script.display()
        ));
        return None;
    }
    Some(format!("python3 {} {seed}", script.display()))
}

/// Plays a two-game match in `dir` between the known game's two scripts, and returns its
/// results file. In the first game A is player 0 and B wins the known game on move 14; in
/// the second B is player 0 and its first answer, A5, is barred to player 0.
pub fn known_match(dir: &Path) -> PathBuf {
    let run = run_in(
        dir,
        "match",
        &known_bot(0, 0),
        &known_bot(1, 0),
        &["--games", "2"],
    );
    assert_eq!(run.records.len(), 2, "{}", run.stdout());
    records_file(dir)
}

/// Runs `twixt-referee report RESULTS -o DIR/report.html EXTRA...` (RESULTS may be damaged:
/// the run reads no records back); returns the run and the page's path.
pub fn report(dir: &Path, results: &Path, extra: &[&str]) -> (Run, PathBuf) {
    let out = dir.join("report.html");
    let mut args = vec![
        "report",
        results.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    (referee(dir, &args, &dir.join("no-records.jsonl")), out)
}
