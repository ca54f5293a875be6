//! The engine's opening table against the self-play games it was read from
//! (`docs/openings/net-inner.jsonl`, then `tune4-first.jsonl`, whose holes replace the older
//! file's; see `docs/OPENINGS.md`): every hole's score is its games' score, the swap rule
//! follows them, and the first pegs are the holes measured nearest half.

use std::collections::BTreeMap;
use std::path::Path;
use twixt::bot::opening::{first_pegs, score, should_swap, FIRST_PEG_BAND};
use twixt::Cell;
use twixt_referee::record::read_records;

/// The measurement's files, oldest first: a hole that a later file measures takes its games.
const FILES: [&str; 2] = ["net-inner.jsonl", "tune4-first.jsonl"];

/// Player 0's points and games after each first peg of one file.
fn measured_in(file: &str) -> BTreeMap<Cell, (f64, u32)> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openings");
    let mut holes = BTreeMap::new();
    for r in read_records(&docs.join(file)).unwrap() {
        assert_eq!(r.opening, 1, "{file} seed {}: one opening peg", r.seed);
        assert!(
            r.cmd1.contains("--no-swap"),
            "{file} seed {}: {}",
            r.seed,
            r.cmd1
        );
        assert_ne!(r.moves[1], "SWAP", "{file} seed {}", r.seed);
        let first: Cell = r.moves[0].parse().unwrap();
        let points = match r.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let entry = holes.entry(first).or_insert((0.0, 0));
        entry.0 += points;
        entry.1 += 1;
    }
    holes
}

/// Player 0's points and games after each first peg, from the last file that measures it.
fn measured() -> BTreeMap<Cell, (f64, u32)> {
    FILES.iter().flat_map(|f| measured_in(f)).collect()
}

#[test]
fn the_table_holds_the_measured_scores_and_swaps_above_half() {
    let holes = measured();
    assert_eq!(holes.len(), 30, "{:?}", holes.keys());
    for (&c, &(points, games)) in &holes {
        assert!(games >= 68, "{c}: {games} games");
        let percent = 100.0 * points / games as f64;
        assert_eq!(
            score(c),
            Some(percent.round() as u8),
            "{c}: {points}/{games}"
        );
        assert_eq!(should_swap(c), percent > 50.0, "{c}: {percent:.1}%");
    }
}

#[test]
fn the_first_pegs_are_the_measured_holes_nearest_half() {
    let holes = measured();
    let quarter = |c: &Cell| c.x() <= 5 && c.y() <= 5;
    let ours: Vec<Cell> = first_pegs().into_iter().filter(quarter).collect();
    assert!(!ours.is_empty(), "no first peg");
    for (c, &(points, games)) in &holes {
        let percent = (100.0 * points / games as f64).round();
        let near = (percent - 50.0).abs() <= f64::from(FIRST_PEG_BAND);
        assert_eq!(ours.contains(c), near, "{c}: {points}/{games}");
    }
}
