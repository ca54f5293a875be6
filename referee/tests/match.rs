//! Matches: pairs with seats swapped, SPRT verdicts and their exit codes, resuming, openings,
//! and cg-brutaltester's referee contract.

mod common;

use common::{bot, known_bot, records_file, referee, run_in, scratch};
use std::io::Write;
use twixt_referee::record::{read_records, Reason};

const SPRT: [&str; 5] = ["--sprt", "elo0=0", "elo1=300", "alpha=0.05", "beta=0.05"];

/// A match of `a` against `b` with extra arguments, its results kept in the run's directory.
fn run_match(name: &str, a: &str, b: &str, extra: &[&str]) -> common::Run {
    common::run(name, "match", a, b, extra)
}

fn winner() -> String {
    bot("scripted.sh E5 F7")
}

#[test]
fn sprt_accepts_h1_for_the_stronger_engine_and_stops() {
    let mut extra = vec!["--games", "40", "--report-every", "2"];
    extra.extend_from_slice(&SPRT);
    let run = run_match("h1", &winner(), &bot("exits.sh"), &extra);
    let out = run.stdout();
    assert_eq!(run.output.status.code(), Some(0), "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(out.contains("Elo: ") && out.contains("nElo: ") && out.contains("LOS: "));
    assert!(out.contains("LLR: ") && out.contains("Ptnml(0-2): [0, 0, 0, 0, "));
    assert!(
        out.contains("B: timeouts 0, illegal moves 0, crashes "),
        "{out}"
    );
    assert!(
        (2..40).contains(&run.records.len()),
        "stopped early, after a pair"
    );
    assert!(run.records.iter().all(|r| r.slot.is_some()));
}

#[test]
fn sprt_accepts_h0_for_the_weaker_engine() {
    let mut extra = vec!["--games", "40", "--concurrency", "2"];
    extra.extend_from_slice(&SPRT);
    let run = run_match("h0", &bot("exits.sh"), &winner(), &extra);
    assert_eq!(run.output.status.code(), Some(1), "{}", run.stdout());
    assert!(run.stdout().contains("H0 accepted"));
}

#[test]
fn sprt_without_a_verdict_is_inconclusive_and_a_match_resumes() {
    let mut extra = vec!["--games", "4"];
    extra.extend_from_slice(&SPRT);
    let run = run_match("resume", &winner(), &bot("exits.sh"), &extra);
    assert_eq!(run.output.status.code(), Some(3), "{}", run.stdout());
    assert_eq!(run.records.len(), 4);
    // Seats alternate within each pair.
    let seats: Vec<u8> = run
        .records
        .iter()
        .map(|r| r.slot.unwrap().a_player)
        .collect();
    assert_eq!(seats.iter().filter(|&&s| s == 0).count(), 2);
    // A match killed while writing leaves a torn last line: it is cut before resuming.
    let results = records_file(&run.dir);
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&results)
        .unwrap();
    write!(file, "{{\"moves\":[\"E5\"").unwrap();
    let extra = ["--games", "6", "--resume"];
    let run = run_in(&run.dir, "match", &winner(), &bot("exits.sh"), &extra);
    assert_eq!(run.records.len(), 6, "two more games, none replayed");
    let text = std::fs::read_to_string(&results).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(
        run.stdout().contains("Games: 6, Wins: 6"),
        "{}",
        run.stdout()
    );
}

#[test]
fn openings_from_a_file_start_each_pair() {
    let dir = scratch("openings-file");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nE2 A5\n\nD4, F3\n").unwrap();
    let extra = ["--games", "4", "--openings", file.to_str().unwrap()];
    let run = run_match(
        "openings",
        &bot("scripted.sh E3 E4"),
        &bot("scripted.sh C6 E5"),
        &extra,
    );
    let openings: Vec<&str> = run.records.iter().map(|r| r.moves[0].as_str()).collect();
    assert_eq!(openings.iter().filter(|m| **m == "E2").count(), 2);
    assert_eq!(openings.iter().filter(|m| **m == "D4").count(), 2);
    assert!(run.records.iter().all(|r| r.opening == 2));
}

#[test]
fn a_short_match_against_the_random_player_prints_elo_and_sprt() {
    let Some(random) = common::random_bot("{seed}") else {
        return;
    };
    let mut extra = vec!["--games", "4", "--first-ms", "3000", "--turn-ms", "2000"];
    extra.extend_from_slice(&SPRT);
    let run = run_match("match-random", &random, &random, &extra);
    let out = run.stdout();
    assert!(out.contains("Elo: ") && out.contains("LLR: "), "{out}");
    assert_eq!(run.records.len(), 4);
    for r in &run.records {
        let ended = matches!(r.reason, Reason::Connected | Reason::Draw);
        assert!(
            ended,
            "a game ended on the board, not by {:?}: {}",
            r.reason, r.detail
        );
    }
}

#[test]
fn the_brutaltester_contract_prints_scores_and_writes_the_log() {
    let dir = scratch("brutal");
    let log = dir.join("game.json");
    let (p0, p1) = (known_bot(0, 0), known_bot(1, 0));
    let args = [
        "-p1",
        &p0,
        "-p2",
        &p1,
        "-d",
        "seed=5",
        "-l",
        log.to_str().unwrap(),
    ];
    let run = referee(&dir, &args, &log);
    assert_eq!(run.stdout(), "0\n1\nseed=5\n");
    assert_eq!(read_records(&log).unwrap()[0].winner, Some(1));
    let args = ["-p1", &bot("exits.sh"), "-p2", &p1];
    let run = referee(&dir, &args, &dir.join("none"));
    assert!(run.stdout().starts_with("-1\n1\nseed="), "{}", run.stdout());
}

/// The result block and each game's moves, winner and reason: what a merge must give back.
fn games_of(path: &std::path::Path) -> Vec<(usize, usize, Vec<String>, Option<u8>)> {
    let mut games: Vec<_> = read_records(path)
        .unwrap()
        .into_iter()
        .map(|r| {
            let slot = r.slot.unwrap();
            (slot.pair, slot.game, r.moves, r.winner)
        })
        .collect();
    games.sort();
    games
}

#[test]
fn shards_merged_are_the_whole_match() {
    // The bots answer their lists whatever the board: from random openings of 24 pegs, who
    // first hits an occupied hole depends on the pair, so the games differ but never by chance.
    let (a, b) = (bot("scripted.sh E5 F7 G9 D3"), bot("scripted.sh F7 E6 H8"));
    let common = ["--games", "10", "--random-openings", "24", "--seed", "5"];
    let whole = run_match("shard-whole", &a, &b, &common);
    assert_eq!(whole.output.status.code(), Some(0), "{}", whole.stdout());
    let dir = scratch("shards");
    let mut files = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let file = dir.join(format!("shard{}.jsonl", &shard[..1]));
        let mut args = vec!["match", &a, &b, "--results", file.to_str().unwrap()];
        args.extend_from_slice(&common);
        args.extend_from_slice(&["--shard", shard]);
        let run = referee(&dir, &args, &file);
        assert_eq!(run.output.status.code(), Some(0), "{}", run.stdout());
        assert!(run.stdout().contains(&format!("shard {shard}")));
        files.push(file);
    }
    let mut pairs: Vec<usize> = read_records(&files[1])
        .unwrap()
        .iter()
        .map(|r| r.slot.unwrap().pair)
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [1, 1, 4, 4],
        "shard 2/3 plays both games of pairs 1 and 4"
    );
    let mut merged = Vec::new();
    for f in &files {
        merged.extend(games_of(f));
    }
    merged.sort();
    assert_eq!(merged, games_of(&records_file(&whole.dir)));
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let run = referee(&dir, &args, &files[0]);
    assert_eq!(run.output.status.code(), Some(0));
    let block = |out: &str| -> String {
        let last = out.rsplit("---").next().unwrap_or_default();
        last.lines()
            .filter(|l| {
                l.starts_with("Elo:")
                    || l.starts_with("Games:")
                    || l.starts_with("Ptnml")
                    || l.starts_with("A by seat")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(block(&run.stdout()), block(&whole.stdout()));
    assert!(
        run.stdout().contains("--- merged: 10 games ---"),
        "{}",
        run.stdout()
    );
    // A shard twice, or a game of another match, is refused before anything is counted.
    let twice = referee(
        &dir,
        &[
            "merge",
            files[0].to_str().unwrap(),
            files[0].to_str().unwrap(),
        ],
        &files[0],
    );
    assert_eq!(twice.output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&twice.output.stderr).into_owned();
    assert!(err.contains("shards must be disjoint"), "{err}");
    let other =
        records_file(&run_match("shard-other", &a, &bot("exits.sh"), &["--games", "2"]).dir);
    let mixed = referee(
        &dir,
        &["merge", files[0].to_str().unwrap(), other.to_str().unwrap()],
        &other,
    );
    let err = String::from_utf8_lossy(&mixed.output.stderr).into_owned();
    assert!(err.contains("is a game of another match"), "{err}");
    // A machine that stopped between a pair's two games: the pair is left out, named, and
    // not half counted; --out keeps the whole pairs as one results file.
    let torn = dir.join("torn.jsonl");
    let mut text = std::fs::read_to_string(&files[1]).unwrap();
    text.truncate(text.trim_end().rfind('\n').unwrap() + 1);
    std::fs::write(&torn, text).unwrap();
    let out = dir.join("merged.jsonl");
    let (f0, f2) = (files[0].to_str().unwrap(), files[2].to_str().unwrap());
    let args = [
        "merge",
        f0,
        torn.to_str().unwrap(),
        f2,
        "--out",
        out.to_str().unwrap(),
    ];
    let run = referee(&dir, &args, &out);
    assert_eq!(run.output.status.code(), Some(0));
    let err = String::from_utf8_lossy(&run.output.stderr).into_owned();
    assert!(
        err.contains("pair(s) 4 have one game of two, left out"),
        "{err}"
    );
    assert!(
        run.stdout().contains("--- merged: 8 games ---"),
        "{}",
        run.stdout()
    );
    let kept: Vec<_> = games_of(&records_file(&whole.dir))
        .into_iter()
        .filter(|g| g.0 != 4)
        .collect();
    assert_eq!(games_of(&out), kept);
}

#[test]
fn a_missing_file_is_an_error_naming_it_and_nothing_is_counted() {
    let dir = scratch("missing-file");
    let results = common::known_match(&dir);
    let typo = dir.join("typo.jsonl");
    let (results, typo) = (results.to_str().unwrap(), typo.to_str().unwrap());
    for args in [
        vec!["merge", results, typo],
        vec!["merge", typo, results],
        vec!["show", typo],
        vec!["report", typo, "-o", "page.html"],
    ] {
        let run = referee(&dir, &args, &dir.join("none"));
        let err = String::from_utf8_lossy(&run.output.stderr).into_owned();
        assert_eq!(run.output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(typo), "{args:?} names the file: {err}");
        assert!(!run.stdout().contains("Elo"), "{args:?}: {}", run.stdout());
    }
}
