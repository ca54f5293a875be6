//! The engine's opening table against the self-play games it was read from
//! (`docs/openings/edge-clock.jsonl`, see `docs/OPENINGS.md`): every measured hole's score
//! is the games' score, the swap rule follows them, and the first pegs are the measured
//! holes nearest half.

use std::collections::BTreeMap;
use std::path::Path;
use twixt::bot::opening::{first_pegs, score, should_swap};
use twixt::Cell;
use twixt_referee::record::read_records;

/// Player 0's points and games after each first peg of the measurement.
fn measured() -> BTreeMap<Cell, (f64, u32)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openings/edge-clock.jsonl");
    let mut holes = BTreeMap::new();
    for r in read_records(&path).unwrap() {
        assert_eq!(r.opening, 1, "seed {}: one opening peg", r.seed);
        assert!(r.cmd1.contains("--no-swap"), "seed {}: {}", r.seed, r.cmd1);
        assert_ne!(r.moves[1], "SWAP", "seed {}", r.seed);
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

#[test]
fn the_table_holds_the_measured_scores_and_swaps_above_half() {
    let holes = measured();
    assert_eq!(holes.len(), 15, "{:?}", holes.keys());
    for (&c, &(points, games)) in &holes {
        assert!(games >= 90, "{c}: {games} games");
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
    let gap = |c: &Cell| {
        let (points, games) = holes[c];
        (100.0 * points / games as f64 - 50.0).abs()
    };
    let nearest = holes.keys().map(gap).fold(f64::INFINITY, f64::min);
    let quarter = |c: &Cell| c.x() <= 5 && c.y() <= 5;
    let ours: Vec<Cell> = first_pegs().into_iter().filter(quarter).collect();
    assert!(!ours.is_empty());
    for c in &ours {
        assert!(holes.contains_key(c), "{c} was not measured");
        assert!(gap(c) < nearest + 1.0, "{c}: {:.1} from half", gap(c));
    }
}
