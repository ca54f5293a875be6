//! The engine's opening tables against the self-play games they were read from
//! (`docs/openings/tune4.jsonl`; see `docs/OPENINGS.md`): each hole's reply is its line of at
//! least eight games that scored least for player 0, the hole's score is that line's, the
//! swap rule follows the scores, and the first pegs are the holes at most half that score
//! nearest it.

use std::collections::BTreeMap;
use std::path::Path;
use twixt::bot::book::{lookup_in, BOOK};
use twixt::bot::opening::{score, should_swap, table_first_pegs, table_reply, FIRST_PEG_BAND};
use twixt::{Cell, Move, Player, Position};
use twixt_referee::record::read_records;

/// The measurement's files, oldest first: a hole that a later file measures takes its games.
const FILES: [&str; 1] = ["tune4.jsonl"];

/// The fewest games of a line that may give the reply.
const MIN_LINE: u32 = 8;

/// Player 0's points and games on each line of a hole: player 1's reply, mirrored with the
/// first peg into the quarter board (columns B-F, rows 1-6).
type Lines = BTreeMap<Cell, (f64, u32)>;

/// `c` mirrored by the flips that take `first` into the quarter board.
fn into_quarter(first: Cell, c: Cell) -> Cell {
    let x = if first.x() > 11 - first.x() {
        11 - c.x()
    } else {
        c.x()
    };
    let y = if first.y() > 11 - first.y() {
        11 - c.y()
    } else {
        c.y()
    };
    Cell::new(x, y).unwrap()
}

/// Each quarter hole's lines in one file.
fn measured_in(file: &str) -> BTreeMap<Cell, Lines> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openings");
    let mut holes: BTreeMap<Cell, Lines> = BTreeMap::new();
    for r in read_records(&docs.join(file)).unwrap() {
        let seed = r.seed;
        assert!(
            matches!(r.opening, 1 | 2),
            "{file} seed {seed}: opening pegs"
        );
        assert!(r.cmd0.contains("--no-swap") && r.cmd1.contains("--no-swap"));
        assert_ne!(r.moves[1], "SWAP", "{file} seed {seed}");
        let first: Cell = r.moves[0].parse().unwrap();
        let answer: Cell = r.moves[1].parse().unwrap();
        let points = match r.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let hole = into_quarter(first, first);
        let line = holes.entry(hole).or_default();
        let entry = line.entry(into_quarter(first, answer)).or_insert((0.0, 0));
        entry.0 += points;
        entry.1 += 1;
    }
    holes
}

/// Each quarter hole's lines, from the last file that measures the hole.
fn measured() -> BTreeMap<Cell, Lines> {
    FILES.iter().flat_map(|f| measured_in(f)).collect()
}

/// The reply of a hole's lines and player 0's score after it, in percent: the line of
/// [`MIN_LINE`] games or more whose score, drawn towards half by two wins and two losses, is
/// least (ties: more games, then the lower hole).
fn book_line(lines: &Lines) -> Option<(Cell, f64)> {
    let shrunk = |(p, n): (f64, u32)| (p + 2.0) / (f64::from(n) + 4.0);
    let trusted = lines.iter().filter(|(_, &(_, n))| n >= MIN_LINE);
    let best = trusted.min_by(|a, b| {
        let by_score = shrunk(*a.1).partial_cmp(&shrunk(*b.1)).unwrap();
        by_score.then(b.1 .1.cmp(&a.1 .1)).then(a.0.cmp(b.0))
    })?;
    Some((*best.0, 100.0 * shrunk(*best.1)))
}

#[test]
fn the_tables_hold_the_best_measured_replies_and_their_scores() {
    let holes = measured();
    assert_eq!(holes.len(), 30, "{:?}", holes.keys());
    for (&c, lines) in &holes {
        let (answer, percent) = book_line(lines).unwrap_or_else(|| panic!("{c}: {lines:?}"));
        assert_eq!(table_reply(c), Some(answer), "{c}: {lines:?}");
        assert_eq!(score(c), Some(percent.round() as u8), "{c}: {lines:?}");
        assert_eq!(should_swap(c), percent.round() > 50.0, "{c}: {percent:.1}%");
    }
}

#[test]
fn the_first_pegs_are_the_holes_at_most_half_scored_nearest_it() {
    let holes = measured();
    let quarter = |c: &Cell| c.x() <= 5 && c.y() <= 5;
    let ours: Vec<Cell> = table_first_pegs().into_iter().filter(quarter).collect();
    let below_half = |lines: &Lines| 50.0 - book_line(lines).unwrap().1.round();
    let nearest = holes
        .values()
        .map(below_half)
        .filter(|&d| d >= 0.0)
        .fold(f64::MAX, f64::min);
    for (c, lines) in &holes {
        let d = below_half(lines);
        let near = (0.0..=nearest + f64::from(FIRST_PEG_BAND)).contains(&d);
        assert_eq!(ours.contains(c), near, "{c}: {d} below half");
    }
    assert!(!ours.is_empty(), "no first peg");
}

/// The deep searches of the position after each first peg of the quarter board (player 1 to
/// move, swap allowed): the hole and the search's move, one a hole.
fn first_ply_searches() -> Vec<(Cell, Move)> {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openings/book-searches-ply1.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let moves = r["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 1, "line {}", n + 1);
        assert_eq!(r["iterations"], 1_280_000, "line {}", n + 1);
        let first: Cell = moves[0].as_str().unwrap().parse().unwrap();
        let best: Move = r["best"].as_str().unwrap().parse().unwrap();
        out.push((first, best));
    }
    out
}

#[test]
fn the_book_answers_every_first_peg_as_its_deep_search_does() {
    let searched = first_ply_searches();
    let quarter = |c: &Cell| c.x() <= 5 && c.y() <= 5;
    let mut holes: Vec<Cell> = searched.iter().map(|s| s.0).collect();
    holes.sort_unstable_by_key(|c| c.index());
    let expected: Vec<Cell> = Cell::all()
        .filter(|c| quarter(c) && c.allowed_for(Player::Zero))
        .collect();
    assert_eq!(holes, expected, "one search for each quarter hole");
    // The book answers each of player 0's first pegs, in all four frames, with its search's
    // move: the swap, or the reply mirrored as the peg is.
    for (hole, answer) in &searched {
        for frame in 0..4 {
            let first = hole.mirrored(frame);
            let pos = Position::after(&first.to_string()).unwrap();
            let expected = answer.mirrored(frame);
            assert_eq!(lookup_in(BOOK, &pos), Some(expected), "{first}");
        }
    }
}
