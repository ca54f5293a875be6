//! `tune`: SPSA iterations between two versions of one bot, the trajectory kept and resumed,
//! and bad settings refused before any game.

mod common;

use common::{bot, scratch};
use std::path::Path;
use std::process::{Command, Output};

fn tune(dir: &Path, extra: &[&str]) -> Output {
    let out = dir.join("tune.csv");
    Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .args(["tune", &bot("tunable.sh"), "--out", out.to_str().unwrap()])
        .args(["--first-ms", "2000", "--turn-ms", "1000", "--seed", "3"])
        .args(extra)
        .env("TUNE_LOG", dir.join("args.log"))
        .env("FAULT_PIDS", dir.join("pids"))
        .output()
        .expect("the referee runs")
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The values each version was started with, from the bot's log: `(x, n)` per game's bot.
fn values(dir: &Path) -> Vec<(f64, i64)> {
    text(&dir.join("args.log"))
        .lines()
        .map(|l| {
            let value = |name: &str| {
                l.split(&format!("{name}="))
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_string()
            };
            (value("x").parse().unwrap(), value("n").parse().unwrap())
        })
        .collect()
}

#[test]
fn three_iterations_write_their_trajectory_and_a_resume_plays_nothing_more() {
    let dir = scratch("tune");
    let games = dir.join("games.jsonl");
    let extra = [
        "--iterations",
        "3",
        "--pairs",
        "2",
        "--results",
        games.to_str().unwrap(),
    ];
    let run = tune(&dir, &extra);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let csv = text(&dir.join("tune.csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("# twixt-referee tune {"), "{csv}");
    assert_eq!(lines[1], "iteration,wins,draws,losses,pairs,x,n");
    assert_eq!(lines.len(), 2 + 4, "the start and three iterations: {csv}");
    for (k, row) in lines[2..].iter().enumerate() {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[0], k.to_string());
        let games: u64 = fields[1..4].iter().map(|f| f.parse::<u64>().unwrap()).sum();
        assert_eq!(games, if k == 0 { 0 } else { 4 }, "{row}");
        let x: f64 = fields[5].parse().unwrap();
        assert!((0.0..=1.0).contains(&x), "{row}");
    }
    assert!(text(&dir.join("tune.svg")).matches("<polyline").count() == 2);
    let records = twixt_referee::record::read_records(&games).unwrap();
    assert_eq!(records.len(), 3 * 4, "--results keeps every game");
    assert!(records
        .iter()
        .all(|r| r.cmd0.contains("--set x=") && r.slot.is_some()));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("tuned: --set x="), "{stdout}");
    // Every game's two bots were one version each: x = 0.5 +- c_k, n = 4 +- c_k rounded.
    let v = values(&dir);
    assert_eq!(v.len(), 3 * 4 * 2, "two bots a game");
    assert!(
        v.iter()
            .all(|&(x, n)| (x - 0.5).abs() > 0.05 && (1..=9).contains(&n)),
        "{v:?}"
    );
    let resumed = tune(&dir, &["--iterations", "3", "--pairs", "2", "--resume"]);
    assert_eq!(resumed.status.code(), Some(0));
    assert_eq!(values(&dir).len(), v.len(), "nothing more was played");
    assert_eq!(text(&dir.join("tune.csv")), csv);
}

#[test]
fn bad_settings_are_refused_before_any_game() {
    let dir = scratch("tune-bad");
    let refused = [
        (
            vec!["--iterations", "2", "--params", "y"],
            "unknown parameter \"y\"",
        ),
        (vec!["--iterations", "2", "--range", "x=0.9:0.1"], "crossed"),
        (vec!["--iterations", "2", "--turn-ms-b", "50"], "one clock"),
    ];
    for (args, expected) in refused {
        let run = tune(&dir, &args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{stderr} (expected {expected})");
    }
    assert!(!dir.join("tune.csv").exists());
    let first = tune(&dir, &["--iterations", "1"]);
    assert_eq!(first.status.code(), Some(0));
    let games = values(&dir).len();
    assert!(games > 0, "the first run played games");
    for (args, expected) in [
        (vec!["--iterations", "1"], "exists: --resume"),
        (
            vec!["--iterations", "1", "--resume", "--margin", "5"],
            "holds another run",
        ),
        (
            vec!["--iterations", "2", "--resume", "--params", "x"],
            "holds another run",
        ),
    ] {
        let run = tune(&dir, &args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{stderr} (expected {expected})");
    }
    assert_eq!(values(&dir).len(), games, "no game was played");
}
