//! `twixt-train generation` end to end on a toy budget: 4 self-play games of 100 iterations,
//! a fit of one epoch each, export into a candidate tree, both bundles compiled as CodinGame
//! does, and a gate of 2 games whose bots search 30 playouts a move (`test --bot-args`), so
//! that they end on the board in a second: the toy checks the plumbing, never strength. Then the
//! same command again skips every stage, and a damaged output runs its stage again.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use twixt_train::generation::stages::STAGES;
use twixt_train::regenerate::manifest::Manifest;

const TOY: &str = r#"
name = "toy"
data = ["train/data/gen8/shard1.zst:4"]
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
args = ["--row-bits", "7"]
[fit]
init = "train/models/policy.txt"
args = ["--hidden", "--epochs", "1", "--bits", "7"]
[gate]
games = 2
sprt = ["elo0=0", "elo1=30", "alpha=0.05", "beta=0.05"]
args = ["--bot-args", "--playouts 30"]
"#;

/// The workspace's root: the generation runs there.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .into()
}

/// `twixt-referee` beside this crate's binary, built if it is not yet (`cargo test -p`).
fn referee() -> PathBuf {
    let train = Path::new(env!("CARGO_BIN_EXE_twixt-train"));
    let path = train.with_file_name("twixt-referee");
    if !path.is_file() {
        let mut build = Command::new(std::env::var("CARGO").unwrap_or("cargo".into()));
        build.args(["build", "-q", "-p", "twixt-referee", "--bins"]);
        if train.parent().unwrap().ends_with("release") {
            build.arg("--release");
        }
        assert!(
            build.status().unwrap().success(),
            "cargo build -p twixt-referee"
        );
    }
    path
}

fn generation(config: &Path, dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_twixt-train"))
        .arg("generation")
        .arg("--config")
        .arg(config)
        .arg("--dir")
        .arg(dir)
        .arg("--referee")
        .arg(referee())
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Unregisters the candidate's worktree from the workspace's repository when the test ends,
/// passed or failed.
struct Worktree(PathBuf);

impl Drop for Worktree {
    fn drop(&mut self) {
        let _ = Command::new("git")
            .args(["worktree", "remove", "--force"])
            .arg(self.0.join("candidate"))
            .current_dir(root())
            .status();
    }
}

#[test]
fn a_toy_generation_runs_end_to_end_then_resumes_from_its_sums() {
    if !root().join(".git").exists() {
        // A source archive has no history to make the candidate's tree from; CI's checkout has.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no git checkout"
        );
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let (config, dir) = (scratch.path().join("toy.toml"), scratch.path().join("gen"));
    std::fs::write(&config, TOY).unwrap();
    let _worktree = Worktree(dir.clone());

    let first = generation(&config, &dir);
    assert!(first.status.success(), "{}", text(&first));
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for stage in STAGES {
        assert!(report.contains(&format!("## {stage}\n")), "{report}");
    }
    // Both models are scored on the same held-out positions, the shipped one first.
    assert!(report.contains("the shipped network:") && report.contains("shipped    top-1"));
    assert!(report.contains("The gate says "), "{report}");
    // The new games' [[part]] for the manifest: its teacher, the file's sums.
    let part = std::fs::read_to_string(dir.join("part.toml")).unwrap();
    let part = &Manifest::parse(&part).unwrap().part[0];
    assert_eq!(
        (part.name.as_str(), part.games, part.run_games),
        ("toy/shard1", 4, 4)
    );
    // The teacher is the commit the games began at, kept by the self-play stage.
    let head =
        twixt_host::commit::resolve(&root(), "HEAD", |program| Command::new(program)).unwrap();
    assert_eq!(part.teacher, head);
    let kept = std::fs::read_to_string(dir.join("teacher")).unwrap();
    assert_eq!(kept.trim(), head);
    let sum = twixt_host::sum::sha256_file(&dir.join("selfplay.bin")).unwrap();
    assert_eq!(part.sha256, sum);
    assert_eq!(
        part.sample.as_ref().unwrap().sha256,
        sum,
        "4 games: the sample is all"
    );
    // The modules name the models where a promotion commits them (train/tests/export.rs).
    for (module, model) in [
        ("weights.rs", "export train/models/policy.txt"),
        ("net_weights.rs", "export-net train/models/value.txt"),
    ] {
        let path = dir.join("candidate/src/knowledge").join(module);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(&format!("`twixt-train {model}`")), "{module}");
    }
    let games = std::fs::read_to_string(dir.join("gate.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 2);
    for game in games.lines() {
        let record: serde_json::Value = serde_json::from_str(game).unwrap();
        let reason = record["reason"].as_str().unwrap();
        assert!(["connected", "draw"].contains(&reason), "{game}");
    }
    let ledger: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("stages.json")).unwrap()).unwrap();
    for stage in STAGES {
        let outputs = ledger[stage]["outputs"].as_object().expect(stage);
        assert!(outputs
            .values()
            .all(|sum| sum.as_str().unwrap().len() == 64));
    }

    let second = generation(&config, &dir);
    assert!(second.status.success(), "{}", text(&second));
    for stage in STAGES {
        let skipped = format!("generation: {stage}: done, its outputs' sums match");
        assert!(text(&second).contains(&skipped), "{}", text(&second));
    }

    // A damaged policy is fitted again; the same bytes come out, so export stays done.
    std::fs::write(dir.join("policy.txt"), "damaged").unwrap();
    let third = generation(&config, &dir);
    assert!(third.status.success(), "{}", text(&third));
    assert!(
        text(&third).contains("generation: fit: running"),
        "{}",
        text(&third)
    );
    assert!(
        text(&third).contains("generation: export: done"),
        "{}",
        text(&third)
    );
}
