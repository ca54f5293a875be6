//! `twixt-referee test` between two binaries (`bin:`): twixt-bot at fixed playouts behind a
//! script, so that the games are real and fast. Every record names what played each seat; the
//! results file and the report go where a newcomer finds them; a second run without
//! `--resume` is refused; shards merge with their engines.

mod common;

use common::{binary, bot, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use twixt_referee::build::cache::sha256_file;
use twixt_referee::record::{read_records, GameRecord};

/// The script that plays twixt-bot fast, as a `bin:` engine.
fn quick() -> String {
    bot("quick.sh")
}

/// `twixt-referee test bin:quick.sh bin:quick.sh ARGS` in `dir` (a repository of its own, so
/// that the default files land in it).
fn test(dir: &Path, args: &[&str]) -> Output {
    let engine = format!("bin:{}", quick());
    Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .args(["test", &engine, &engine, "--openings", "random"])
        .args(args)
        .current_dir(dir)
        .env("TWIXT_BOT", binary("twixt-bot"))
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    common::text(&out.stdout) + &common::text(&out.stderr)
}

/// A scratch folder that is a git repository: `test` finds its top folder there.
fn repository(name: &str) -> PathBuf {
    let dir = scratch(name);
    let init = Command::new("git")
        .args(["init", "--quiet"])
        .current_dir(&dir)
        .status();
    assert!(init.is_ok_and(|s| s.success()), "git init");
    dir
}

/// Asserts that every game names the quick script in both seats, by its hash and command.
fn assert_named(records: &[GameRecord]) {
    let sum = sha256_file(Path::new(&quick())).unwrap();
    for r in records {
        for (id, cmd) in [(&r.engine0, &r.cmd0), (&r.engine1, &r.cmd1)] {
            let id = id.as_ref().expect("the record names its engine");
            assert_eq!(id.label, "quick.sh");
            assert_eq!(
                (id.commit.as_deref(), id.sha256.as_deref()),
                (None, Some(&*sum))
            );
            assert_eq!(id.cmd, format!("{} --seed {{seed}}", quick()));
            assert_eq!(*cmd, id.cmd.replace("{seed}", &r.seed.to_string()));
        }
    }
}

#[test]
fn a_test_names_what_played_and_keeps_its_results_and_report() {
    let dir = repository("ab-test");
    let out = test(&dir, &["--games", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = common::text(&out.stdout);
    assert!(
        stdout.starts_with("test: A = quick.sh (sha256 "),
        "{stdout}"
    );
    assert!(stdout.contains(
        "from 2 random pegs; games in target/tests/test-quick.sh-vs-quick.sh-random.jsonl"
    ));
    assert!(
        stdout.contains("quick.sh: timeouts 0, illegal moves 0, crashes 0"),
        "{stdout}"
    );
    let results = dir.join("target/tests/test-quick.sh-vs-quick.sh-random.jsonl");
    let records = read_records(&results).unwrap();
    assert_eq!(records.len(), 2);
    assert_named(&records);
    let report = dir.join("target/tests/test-quick.sh-vs-quick.sh-random.html");
    assert!(report.is_file(), "{stdout}");

    let again = test(&dir, &["--games", "2"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again).contains("holds games already: --resume goes on with them"));
    let resumed = test(&dir, &["--games", "4", "--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    assert_eq!(read_records(&results).unwrap().len(), 4);
}

#[test]
fn shards_of_a_test_merge_with_their_engines() {
    let dir = repository("ab-test-shards");
    for i in 1..=2 {
        let (shard, file) = (format!("{i}/2"), format!("shard{i}.jsonl"));
        let out = test(
            &dir,
            &["--games", "4", "--shard", &shard, "--results", &file],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert!(
            !dir.join("target/tests").exists(),
            "a shard writes no report"
        );
    }
    let merge = Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .args([
            "merge",
            "shard1.jsonl",
            "shard2.jsonl",
            "--out",
            "merged.jsonl",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(merge.status.success(), "{}", text(&merge));
    let merged = read_records(&dir.join("merged.jsonl")).unwrap();
    assert_eq!(merged.len(), 4);
    assert_named(&merged);

    let report = test(&dir, &["--shard", "1/2", "--report", "r.html"]);
    assert_eq!(
        report.status.code(),
        Some(2),
        "a shard's report would be of a slice"
    );
}

#[test]
fn an_engine_that_is_neither_commit_nor_file_is_named() {
    let dir = repository("ab-test-bad");
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .args(["test", "no-such-commit", "bin:/no/such/bot"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out);
    assert!(
        said.contains("engine A: no-such-commit is not a commit of "),
        "{said}"
    );
}

#[test]
fn flags_for_both_bots_follow_their_seed_in_every_record() {
    let dir = repository("ab-test-bot-args");
    let out = test(&dir, &["--games", "2", "--bot-args", "--playouts 20"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let results = dir.join("target/tests/test-quick.sh-vs-quick.sh-random.jsonl");
    let records = read_records(&results).unwrap();
    assert_eq!(records.len(), 2);
    let want = format!("{} --seed {{seed}} --playouts 20", quick());
    for r in &records {
        for id in [&r.engine0, &r.engine1] {
            assert_eq!(id.as_ref().unwrap().cmd, want);
        }
    }
    let bad = test(&dir, &["--games", "2", "--bot-args", "\"unclosed"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    assert!(text(&bad).contains("--bot-args"), "{}", text(&bad));
}
