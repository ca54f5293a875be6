//! `twixt-train book`: `lines` counts the first plies' positions by key (mirror images as
//! one) and names a bad record; `search` writes the same lines whatever the threads and
//! resumes; `export` writes a book the engine's lookup reads back in every mirror frame, and
//! refuses what it would not; `disagree` lists where a turn's search plays otherwise.

use std::path::{Path, PathBuf};
use twixt::board::Board;
use twixt::bot::book::{lookup_in, position_key};
use twixt::{Move, Player, Position};
use twixt_train::book::disagree::{self, DisagreeOptions, Disagreement};
use twixt_train::book::export::{self, ExportOptions};
use twixt_train::book::lines::{self, LinesOptions};
use twixt_train::book::search::{self, parse_record, SearchOptions};

fn key(moves: &str) -> String {
    position_key(&Position::after(moves).unwrap()).unwrap().0
}

fn record(moves: &str, opening: u32) -> String {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    serde_json::json!({"moves": moves, "opening": opening, "winner": 0}).to_string()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn lines_options(records: Vec<PathBuf>, out: &Path, min_count: u32, with: bool) -> LinesOptions {
    LinesOptions {
        records,
        plies: 3,
        min_count,
        with_openings: with,
        out: out.to_path_buf(),
    }
}

/// F6 G9 D4 E8, the same line mirrored (columns), the line after a 2-move opening, another.
fn records(dir: &Path) -> PathBuf {
    let games = [
        record("F6 G9 D4 E8", 0),
        record("G6 F9 I4 H8", 0),
        record("F6 G9 D4 E8 C3", 2),
        record("C3 D5 E7", 0),
    ];
    write(dir, "games.jsonl", &(games.join("\n") + "\n"))
}

#[test]
fn lines_counts_each_position_once_for_its_mirrors_and_leaves_out_openings() {
    let dir = tempfile::tempdir().unwrap();
    let records = vec![records(dir.path())];
    let out = dir.path().join("positions.txt");
    lines::run(&lines_options(records.clone(), &out, 2, false)).unwrap();
    // The positions reached by F6 G9 D4 and its mirror image, twice each: ties by key.
    let mut expected = [
        ("F6", key("F6")),
        ("F6 G9", key("F6 G9")),
        ("F6 G9 D4", key("F6 G9 D4")),
    ];
    expected.sort_by(|a, b| a.1.cmp(&b.1));
    let expected: String = expected
        .iter()
        .map(|(moves, key)| format!("2 {key} {moves}\n"))
        .collect();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);

    let all = lines::count(&records, 3, true).unwrap();
    assert_eq!((all.games, all.left_out), (4, 0));
    let counts: Vec<u32> = all.lines.iter().map(|l| l.count).collect();
    assert_eq!(counts, [3, 3, 3, 1, 1, 1], "{:?}", all.lines);
    let one = lines::count(&records, 3, false).unwrap();
    assert_eq!((one.games, one.left_out, one.lines.len()), (3, 1, 6));
    assert_eq!(one.lines[4].moves, ["C3", "D5"]);
    assert_eq!(lines::read(&out).unwrap(), one.lines[..3].to_vec());
}

#[test]
fn lines_names_a_bad_record_by_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = record("F6 G9 D4", 0);
    let out = dir.path().join("positions.txt");
    for (bad, why) in [
        ("{\"moves\": [\"F6\"", "not a JSON game record"),
        ("{\"opening\": 0}", "no \"moves\" list"),
        (&record("F6 G9 F6", 0), "ply 3: 'F6': F6 already has a peg"),
        (&record("F6 G9 SWAP", 0), "ply 3: 'SWAP'"),
        (&record("F6 G9 Z4", 0), "ply 3: 'Z4' is not a move"),
    ] {
        let path = write(dir.path(), "bad.jsonl", &format!("{good}\n\n{bad}\n"));
        let err = lines::run(&lines_options(vec![path], &out, 1, false)).unwrap_err();
        let err = format!("{err:#}");
        assert!(err.contains("bad.jsonl: line 3: "), "{err}");
        assert!(err.contains(why), "{err}");
    }
    let torn = write(
        dir.path(),
        "bad.txt",
        &format!("3 {} F6 G8\n", key("F6 G9")),
    );
    let err = format!("{:#}", lines::read(&torn).unwrap_err());
    assert!(
        err.contains("bad.txt: line 1: the moves reach key"),
        "{err}"
    );
}

fn positions(dir: &Path) -> PathBuf {
    let lines: Vec<String> = ["F6 G9", "C3 D5 E7", "K4 SWAP"]
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{} {} {m}\n", 9 - i, key(m)))
        .collect();
    write(dir, "positions.txt", &lines.concat())
}

fn search_options(positions: &Path, out: &Path, threads: usize) -> SearchOptions {
    SearchOptions {
        positions: positions.to_path_buf(),
        out: out.to_path_buf(),
        iterations: 300,
        seed: 7,
        threads,
        set: Vec::new(),
    }
}

fn searched(dir: &Path, name: &str, threads: usize) -> String {
    let out = dir.join(name);
    search::run(&search_options(&positions(dir), &out, threads)).unwrap();
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn search_repeats_whatever_the_threads_and_resumes_without_searching_again() {
    let dir = tempfile::tempdir().unwrap();
    let one = searched(dir.path(), "one.jsonl", 1);
    assert_eq!(one, searched(dir.path(), "again.jsonl", 1));
    assert_eq!(one, searched(dir.path(), "two.jsonl", 2));
    let rows: Vec<&str> = one.lines().collect();
    assert_eq!(rows.len(), 3);
    for (row, moves) in rows.iter().zip(["F6 G9", "C3 D5 E7", "K4 SWAP"]) {
        let r = parse_record(row).unwrap();
        assert_eq!((r.key, r.moves.join(" ")), (key(moves), moves.to_string()));
        assert!(
            row.starts_with("{\"key\":") && row.contains("\"top\":[["),
            "{row}"
        );
        assert!(r.share > 0.0 && r.share <= 1.0, "{row}");
    }
    // A file holding the first line and a torn second one: the torn line is cut, the first
    // kept as it is (a changed line would show it was searched again), the rest searched.
    let marked = rows[0].replace("\"count\":9", "\"count\":90");
    let resumed = write(
        dir.path(),
        "resumed.jsonl",
        &format!("{marked}\n{}", &rows[1][..20]),
    );
    search::run(&search_options(&positions(dir.path()), &resumed, 2)).unwrap();
    let text = std::fs::read_to_string(&resumed).unwrap();
    assert_eq!(text, one.replacen("\"count\":9", "\"count\":90", 1));
    // A damaged line that is not the last, or one of other settings, is named.
    for (bad, why) in [
        (
            format!("{}\nnot json\n", rows[0]),
            "line 2: not a JSON line",
        ),
        (
            format!("{}\n", rows[0].replace(":300,", ":301,")),
            "line 1: searched at 301",
        ),
    ] {
        let path = write(dir.path(), "bad.jsonl", &bad);
        let err = search::run(&search_options(&positions(dir.path()), &path, 1)).unwrap_err();
        let err = format!("{err:#}");
        assert!(err.contains(&format!("bad.jsonl: {why}")), "{err}");
    }
}

#[test]
fn a_first_peg_is_searched_and_its_swap_exported_for_every_mirror_frame() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "first.txt", &format!("4 {} F6\n", key("F6")));
    let out = dir.path().join("out.jsonl");
    search::run(&search_options(&path, &out, 1)).unwrap();
    let row = std::fs::read_to_string(&out).unwrap();
    let r = parse_record(row.trim_end()).unwrap();
    assert_eq!(r.moves, ["F6"]);
    // The swap is one of the search's moves at ply 1; a book entry may give it.
    let swap = write(
        dir.path(),
        "swap.jsonl",
        &(searched_line("F6", &key("F6"), "SWAP") + &searched_line("C5", &key("C5"), "F4")),
    );
    let module = dir.path().join("book_moves.rs");
    export::run(&export_options(vec![swap], &module, 0.0)).unwrap();
    let module = std::fs::read_to_string(&module).unwrap();
    let book = book_of(&module);
    for f in 0..4 {
        let centre = Position::after(&"F6".parse::<twixt::Cell>().unwrap().mirrored(f).to_string());
        assert_eq!(
            lookup_in(book, &centre.unwrap()),
            Some(Move::Swap),
            "frame {f}"
        );
        let c5: twixt::Cell = "C5".parse().unwrap();
        let f4: twixt::Cell = "F4".parse().unwrap();
        let pos = Position::after(&c5.mirrored(f).to_string()).unwrap();
        assert_eq!(
            lookup_in(book, &pos),
            Some(Move::Peg(f4.mirrored(f))),
            "frame {f}"
        );
    }
}

/// `pos` with every peg mirrored into `frame`.
fn mirror(pos: &Position, frame: u8) -> Position {
    let mut board = Board::new();
    for p in Player::BOTH {
        for c in pos.board().pegs(p).iter() {
            board.place(p, c.mirrored(frame));
        }
    }
    Position::from_parts(board, pos.to_move())
}

fn pegs(pos: &Position) -> [Vec<usize>; 2] {
    Player::BOTH.map(|p| pos.board().pegs(p).iter().map(|c| c.index()).collect())
}

fn book_of(module: &str) -> &str {
    let start = module.find("pub const BOOK: &str = \"").unwrap() + 24;
    &module[start..start + module[start..].find('"').unwrap()]
}

fn export_options(searched: Vec<PathBuf>, out: &Path, min_share: f64) -> ExportOptions {
    ExportOptions {
        searched,
        min_share,
        out: out.to_path_buf(),
    }
}

#[test]
fn the_exported_book_gives_each_searched_move_in_every_mirror_frame() {
    let dir = tempfile::tempdir().unwrap();
    let text = searched(dir.path(), "searched.jsonl", 2);
    let out = dir.path().join("book_moves.rs");
    export::run(&export_options(
        vec![dir.path().join("searched.jsonl")],
        &out,
        0.0,
    ))
    .unwrap();
    let module = std::fs::read_to_string(&out).unwrap();
    assert!(module.contains("searched.jsonl`: do not edit."), "{module}");
    let book = book_of(&module);
    let written = twixt::bot::book::readable(book).unwrap();
    assert_eq!(written.len(), 3, "{written:?}");
    let keys: Vec<&str> = written
        .iter()
        .map(|e| e.split('=').next().unwrap())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "the entries sorted by key");
    for entry in &written {
        assert!(
            module.contains(entry.as_str()),
            "{entry} in the comment:\n{module}"
        );
    }
    for row in text.lines() {
        let r = parse_record(row).unwrap();
        let pos = Position::after(&r.moves.join(" ")).unwrap();
        let Ok(Move::Peg(best)) = r.best.parse::<Move>() else {
            panic!("{row}")
        };
        for f in 0..4 {
            let seen = mirror(&pos, f);
            // A position its own mirror image may take either mirror's move.
            let fits: Vec<Move> = (0..4)
                .filter(|&g| pegs(&mirror(&pos, g)) == pegs(&seen))
                .map(|g| Move::Peg(best.mirrored(g)))
                .collect();
            let got = lookup_in(book, &seen).unwrap();
            assert!(fits.contains(&got), "{row}: frame {f}: {got}");
        }
    }
    // --min-share leaves out the positions whose move has less.
    let least = text
        .lines()
        .map(|r| parse_record(r).unwrap().share)
        .fold(1.0, f64::min);
    export::run(&export_options(
        vec![dir.path().join("searched.jsonl")],
        &out,
        least + 1e-9,
    ))
    .unwrap();
    let module = std::fs::read_to_string(&out).unwrap();
    let written = twixt::bot::book::readable(book_of(&module)).unwrap();
    assert_eq!(written.len(), 2, "{module}");
    assert!(
        module.contains(&format!("--min-share {}", least + 1e-9)),
        "{module}"
    );
}

fn searched_line(moves: &str, key: &str, best: &str) -> String {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    serde_json::json!({"key": key, "moves": moves, "count": 1, "iterations": 300, "seed": 1,
        "best": best, "value": 0.5, "share": 0.5, "top": []})
    .to_string()
        + "\n"
}

#[test]
fn export_refuses_a_mismatch_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book_moves.rs");
    let good = searched_line("F6 G9", &key("F6 G9"), "D4");
    let mirrored_game = searched_line("G6 F9", &key("F6 G9"), "D4");
    for (name, text, why) in [
        (
            "key.jsonl",
            searched_line("F6 G9", &key("F6 G8"), "D4"),
            "line 1: the moves reach key",
        ),
        (
            "taken.jsonl",
            good.clone() + &searched_line("C3 D5", &key("C3 D5"), "C3"),
            "line 2: the engine's lookup",
        ),
        ("twice.jsonl", good.clone() + &mirrored_game, "line 2: key"),
        (
            "torn.jsonl",
            good.clone() + "{\"key\":",
            "line 2: not a JSON line",
        ),
    ] {
        let path = write(dir.path(), name, &text);
        let err = export::run(&export_options(vec![path], &out, 0.0)).unwrap_err();
        let err = format!("{err:#}");
        assert!(err.contains(&format!("{name}: {why}")), "{err}");
        assert!(!out.exists());
    }
    // The same move from a mirrored game is one entry.
    let same = searched_line("G6 F9", &key("F6 G9"), "I4");
    let path = write(dir.path(), "same.jsonl", &(good + &same));
    export::run(&export_options(vec![path], &out, 0.0)).unwrap();
    let module = std::fs::read_to_string(&out).unwrap();
    let written = twixt::bot::book::readable(book_of(&module)).unwrap();
    assert_eq!(written.len(), 1, "{module}");
}

#[test]
fn a_newer_search_listed_first_replaces_the_older_ones_move_or_takes_its_key_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book_moves.rs");
    let older = write(
        dir.path(),
        "older.jsonl",
        &(searched_at("F6 G9", "D4", 0.5) + &searched_at("C3 D5", "E6", 0.5)),
    );
    // The mirrored game's key is the same position's: its move replaces D4.
    let newer = write(
        dir.path(),
        "newer.jsonl",
        &(searched_at("G6 F9", "H3", 0.9) + &searched_at("C3 D5", "F4", 0.1)),
    );
    export::run(&export_options(
        vec![newer.clone(), older.clone()],
        &out,
        0.3,
    ))
    .unwrap();
    let book = std::fs::read_to_string(&out).unwrap();
    let at = |moves: &str| lookup_in(book_of(&book), &Position::after(moves).unwrap());
    assert_eq!(at("G6 F9"), Some("H3".parse().unwrap()));
    assert_eq!(
        at("F6 G9"),
        Some("E3".parse().unwrap()),
        "the mirror's move"
    );
    assert_eq!(
        at("C3 D5"),
        None,
        "a newer search below the share takes the key out"
    );
    // Listed the other way, the older searches stand.
    export::run(&export_options(vec![older, newer], &out, 0.3)).unwrap();
    let book = std::fs::read_to_string(&out).unwrap();
    let at = |moves: &str| lookup_in(book_of(&book), &Position::after(moves).unwrap());
    assert_eq!(at("F6 G9"), Some("D4".parse().unwrap()));
    assert_eq!(at("C3 D5"), Some("E6".parse().unwrap()));
}

fn searched_at(moves: &str, best: &str, share: f64) -> String {
    let moves_list: Vec<&str> = moves.split_whitespace().collect();
    serde_json::json!({"key": key(moves), "moves": moves_list, "count": 3, "iterations": 300,
        "seed": 1, "best": best, "value": 0.5, "share": share, "top": []})
    .to_string()
        + "\n"
}

#[test]
fn disagree_lists_the_positions_where_a_turn_s_search_plays_otherwise_and_none_after_a_swap() {
    let dir = tempfile::tempdir().unwrap();
    let deep = [
        searched_at("F6 G9", "D4", 0.6),
        searched_at("C3 D5 E7", "H8", 0.7),
        searched_at("K4 SWAP F6", "E8", 0.9),
        searched_at("B5 E9", "F7", 0.1),
    ];
    let deep = write(dir.path(), "deep.jsonl", &deep.concat());
    // The first position reached by the mirrored game, the same move in its frame.
    let agreeing = searched_at("G6 F9", "I4", 0.4);
    let short = [agreeing.clone(), searched_at("C3 D5 E7", "H9", 0.5)];
    let swap = searched_at("K4 SWAP F6", "D8", 0.5);
    let options = |short: PathBuf| DisagreeOptions {
        deep: deep.clone(),
        short,
        min_share: 0.3,
        out: dir.path().join("openings.txt"),
        positions: Some(dir.path().join("positions.txt")),
    };
    let lacking = write(dir.path(), "lacking.jsonl", &short.concat());
    let err = format!("{:#}", disagree::run(&options(lacking)).unwrap_err());
    assert!(
        err.contains("deep.jsonl: line 3: ") && err.contains("lacking.jsonl has no search of key"),
        "{err}"
    );
    assert!(!dir.path().join("openings.txt").exists());
    assert!(!dir.path().join("positions.txt").exists());

    let short = write(dir.path(), "short.jsonl", &(short.concat() + &swap));
    let found = disagree::compare(&options(short.clone())).unwrap();
    let expected = format!(
        "C3 D5 E7  # {}: deep H8 (70%), a turn's H9\n",
        key("C3 D5 E7")
    );
    assert_eq!(
        found,
        Disagreement {
            openings: expected,
            compared: 3,
            agree: 1,
            after_swap: 1,
            positions: format!(
                "3 {} C3 D5 E7\n3 {} K4 SWAP F6\n",
                key("C3 D5 E7"),
                key("K4 SWAP F6")
            ),
        }
    );
    // The positions file, a swap's included, is one that `book search` reads.
    disagree::run(&options(short)).unwrap();
    let again = lines::read(&dir.path().join("positions.txt")).unwrap();
    let keys: Vec<String> = again.iter().map(|l| l.key.clone()).collect();
    assert_eq!(keys, [key("C3 D5 E7"), key("K4 SWAP F6")]);
    // A searched file is a positions file too: its count, key and moves.
    let positions = lines::read(&deep).unwrap();
    assert_eq!(positions.len(), 4);
    assert_eq!(
        (positions[2].count, positions[2].key.clone()),
        (3, key("K4 SWAP F6"))
    );
    assert_eq!(positions[2].moves, ["K4", "SWAP", "F6"]);
}
