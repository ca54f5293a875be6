//! Self-play and its data file: games are legal and repeatable, the file round-trips, a run
//! resumes to the same games, and damage is named with its offset.

use std::path::Path;
use twixt::{Move, Outcome, Position};
use twixt_train::data::{self, merge, Game, Header, Source};
use twixt_train::selfplay::{self, mover, SelfplayOptions};

fn header() -> Header {
    Header {
        iterations: 300,
        fast: 0,
        full_share: 1000,
        opening: 2,
        starts: 0,
        seed: 5,
        teacher: data::fingerprint(&Default::default()),
    }
}

fn options(out: &Path, games: u32, resume: bool) -> SelfplayOptions {
    SelfplayOptions {
        out: out.to_path_buf(),
        games,
        iterations: header().iterations,
        fast: None,
        full_share: 0.25,
        opening: header().opening,
        starts: None,
        seed: header().seed,
        threads: 2,
        resume,
        set: Vec::new(),
        shard: None,
    }
}

fn sorted(mut games: Vec<Game>) -> Vec<Game> {
    games.sort_by_key(|g| g.index);
    games
}

#[test]
fn games_are_legal_end_as_recorded_and_repeat_for_a_seed() {
    let params = Default::default();
    for index in 0..3 {
        let game = selfplay::play_game(header(), &params, index, &[]);
        assert!(
            game == selfplay::play_game(header(), &params, index, &[]),
            "game {index} repeats"
        );
        let mut pos = Position::new();
        for (i, ply) in game.plies.iter().enumerate() {
            assert_eq!(pos.to_move(), mover(i));
            assert_eq!(ply.search.is_none(), i < 2, "ply {i}");
            if let Some(s) = &ply.search {
                assert!(s.visits.iter().any(|&(m, _)| m == ply.mv));
                assert!(s.visits.iter().all(|(m, _)| pos.legal_moves().contains(m)));
            }
            pos.play(ply.mv).unwrap();
        }
        let winner = game.winner.map_or(Outcome::Draw, Outcome::Win);
        assert_eq!(pos.outcome(), Some(winner));
    }
    assert_ne!(
        selfplay::play_game(header(), &params, 0, &[]).plies[..2],
        selfplay::play_game(header(), &params, 1, &[]).plies[..2]
    );
}

#[test]
fn a_run_round_trips_and_resumes_to_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.bin");
    selfplay::run(&options(&whole, 6, false)).unwrap();
    let read = data::read(&whole).unwrap();
    assert_eq!((read.header, read.torn_at), (header(), None));
    let expected: Vec<Game> = (0..6)
        .map(|i| selfplay::play_game(header(), &Default::default(), i, &[]))
        .collect();
    // In the order of their indices, whichever thread ended first: the same bytes every run.
    assert!(read.games == expected, "the file holds other games");

    // Killed after three games, in the middle of writing the fourth.
    let part = dir.path().join("part.bin");
    selfplay::run(&options(&part, 3, false)).unwrap();
    let mut bytes = std::fs::read(&part).unwrap();
    let torn_at = bytes.len() as u64;
    bytes.extend_from_slice(&[200, 1, 0, 0, 7, 7]);
    std::fs::write(&part, &bytes).unwrap();
    assert_eq!(data::read(&part).unwrap().torn_at, Some(torn_at));
    selfplay::run(&options(&part, 6, true)).unwrap();
    let resumed = data::read(&part).unwrap();
    assert_eq!(resumed.torn_at, None);
    assert!(
        sorted(resumed.games) == expected,
        "the resumed run holds other games"
    );
}

#[test]
fn a_run_from_starts_begins_each_game_from_its_line_and_names_the_file_in_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let (starts, out) = (dir.path().join("starts.txt"), dir.path().join("run.bin"));
    std::fs::write(&starts, "# two boards\nF6 G8 E8 D6\nC3 J10\n").unwrap();
    let lines = ["F6 G8 E8 D6", "C3 J10"];
    let from_starts = |out: &Path, text: Option<&str>| {
        if let Some(text) = text {
            std::fs::write(&starts, text).unwrap();
        }
        SelfplayOptions {
            starts: Some(starts.clone()),
            opening: 1,
            ..options(out, 4, true)
        }
    };
    selfplay::run(&from_starts(&out, None)).unwrap();
    let file = data::read(&out).unwrap();
    assert_ne!(file.header.starts, 0);
    for game in &file.games {
        let line = lines[game.index as usize % 2];
        let start: Vec<Move> = line.split(' ').map(|m| m.parse().unwrap()).collect();
        let played: Vec<Move> = game.plies.iter().map(|p| p.mv).collect();
        assert_eq!(played[..start.len()], start[..], "game {}", game.index);
        // The start's moves and one random peg are not searched; the next move is.
        assert_eq!(game.opening as usize, start.len() + 1);
        assert!(game.plies[..=start.len()]
            .iter()
            .all(|p| p.search.is_none()));
        assert!(game.plies[start.len() + 1].search.is_some());
    }
    // Resuming with another file of starts is another run, and is refused.
    let error = format!(
        "{:#}",
        selfplay::run(&from_starts(&out, Some("F6 G8\n"))).unwrap_err()
    );
    assert!(error.contains("holds a run of other settings"), "{error}");
    let error = format!(
        "{:#}",
        selfplay::run(&from_starts(&out, Some("F6 F6\n"))).unwrap_err()
    );
    assert!(
        error.contains("starts.txt:1: ply 1: F6 is illegal"),
        "{error}"
    );
}

#[test]
fn a_files_first_games_read_as_the_file_of_a_shorter_run() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, short) = (dir.path().join("whole.bin"), dir.path().join("short.bin"));
    selfplay::run(&options(&whole, 4, false)).unwrap();
    selfplay::run(&options(&short, 2, false)).unwrap();
    let source = |n: usize| -> Source { format!("{}:{n}", whole.display()).parse().unwrap() };
    assert!(
        data::read_complete(&[source(2)]).unwrap()
            == data::read_complete(&[short.clone().into()]).unwrap(),
        "FILE:2 is the run of 2 games"
    );
    assert!(data::read_complete(&[source(4)]).unwrap() == data::read(&whole).unwrap().games);

    let error = |sources: &[Source]| format!("{:#}", data::read_complete(sources).unwrap_err());
    let more = error(&[source(5)]);
    assert!(
        more.contains("whole.bin:5: the file holds 4 games, fewer than the 5 asked for"),
        "{more}"
    );
    let twice = error(&[source(2), whole.clone().into()]);
    assert!(
        twice.contains("game 0 of this run is in") && twice.contains("whole.bin:2"),
        "{twice}"
    );
}

#[test]
fn shards_of_a_run_hold_its_games_once_and_train_together() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.bin");
    selfplay::run(&options(&whole, 5, false)).unwrap();
    let mut paths = Vec::new();
    for shard in ["1/2", "2/2"] {
        let path = dir.path().join(format!("shard{}.bin", &shard[..1]));
        let mut o = options(&path, 5, false);
        o.shard = Some(shard.parse().unwrap());
        selfplay::run(&o).unwrap();
        paths.push(path);
    }
    let first: Vec<u32> = data::read(&paths[0])
        .unwrap()
        .games
        .iter()
        .map(|g| g.index)
        .collect();
    assert_eq!(first, [0, 2, 4]);
    let sources: Vec<Source> = paths.iter().cloned().map(Source::from).collect();
    let together = sorted(data::read_complete(&sources).unwrap());
    assert!(
        together == sorted(data::read(&whole).unwrap().games),
        "the shards are the run"
    );
    let twice = [paths[0].clone(), whole.clone()];
    let error = format!(
        "{:#}",
        data::read_complete(&twice.clone().map(Source::from)).unwrap_err()
    );
    assert!(error.contains("game 0 of this run is in"), "{error}");

    // Merged, the shards are the one-machine run's file, byte for byte.
    let merged = dir.path().join("merged.bin");
    let m = merge::merge(&paths, &merged, Some(5)).unwrap();
    assert_eq!(m.games, 5);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // A merge that lacks a shard, overlaps or mixes runs is refused, and writes nothing.
    let refused = |shards: &[std::path::PathBuf], games| {
        let out = dir.path().join("refused.bin");
        let e = format!("{:#}", merge::merge(shards, &out, games).unwrap_err());
        assert!(!out.exists(), "{e}");
        e
    };
    let e = refused(&paths[..1], Some(5));
    assert!(
        e.contains("2 of the run's 5 games are in no shard (the first: game 1)"),
        "{e}"
    );
    assert!(refused(&twice, None).contains("game 0 is in"));
    let other = dir.path().join("other.bin");
    let mut o = options(&other, 1, false);
    o.seed += 1;
    selfplay::run(&o).unwrap();
    let e = refused(&[paths[1].clone(), other], None);
    assert!(e.contains("another run's shard"), "{e}");
}

#[test]
fn resuming_a_run_of_other_settings_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.bin");
    selfplay::run(&options(&path, 1, false)).unwrap();
    let mut other = options(&path, 2, true);
    other.iterations = 400;
    let error = format!("{:#}", selfplay::run(&other).unwrap_err());
    assert!(error.contains("holds a run of other settings"), "{error}");
    // Another teacher: the same settings, other search parameters.
    let mut teacher = options(&path, 2, true);
    teacher.set = vec!["policy_prior=false".to_string()];
    let error = format!("{:#}", selfplay::run(&teacher).unwrap_err());
    assert!(error.contains("a teacher fingerprint differs"), "{error}");
    let error = format!(
        "{:#}",
        selfplay::run(&options(&path, 2, false)).unwrap_err()
    );
    assert!(error.contains("cannot create"), "{error}");
}

#[test]
fn damage_is_an_error_naming_the_offset() {
    let game = selfplay::play_game(header(), &Default::default(), 0, &[]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.bin");
    let mut f = data::create(&path, header()).unwrap();
    data::append(&mut f, &game).unwrap();
    drop(f);
    let good = std::fs::read(&path).unwrap();
    let error = |bytes: &[u8]| format!("{:#}", data::parse(bytes).unwrap_err());

    let mut flipped = good.clone();
    flipped[data::HEADER_LEN + 10] ^= 1;
    assert!(error(&flipped).contains("offset 40: the game record's checksum does not match"));
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(error(&magic).contains("offset 0: not a twixt-train data file"));
    assert!(error(&good[..10]).contains("offset 0: the header is cut short"));
    let error = format!(
        "{:#}",
        data::read(&dir.path().join("missing.bin")).unwrap_err()
    );
    assert!(error.contains("missing.bin"), "{error}");
}

/// Game `index` of a run of one random peg and fast moves, with no full search.
fn fast_game(index: u32) -> Game {
    let fast = Header {
        fast: 20,
        full_share: 0,
        opening: 1,
        ..header()
    };
    selfplay::play_game(fast, &Default::default(), index, &[])
}

#[test]
fn a_record_that_decodes_wrong_names_its_offset() {
    // A whole game of one random peg and fast moves: the first move's byte follows the
    // header fields (8 bytes) and the bitmask of full searches.
    let game = fast_game(3);
    let mut payload = data::encode(&game);
    assert_eq!(data::decode(&payload, 100, data::VERSION).unwrap(), game);
    let first = 8 + game.plies.len().div_ceil(8);
    payload[4] = 9;
    let error = format!(
        "{:#}",
        data::decode(&payload, 100, data::VERSION).unwrap_err()
    );
    assert_eq!(error, "offset 104: winner 9 is not 0, 1 or 2");
    payload[4] = game.winner.map_or(2, |p| p.index() as u8);
    payload[first] = 200;
    let error = format!(
        "{:#}",
        data::decode(&payload, 100, data::VERSION).unwrap_err()
    );
    assert_eq!(error, format!("offset {}: 200 is not a move", 100 + first));
    payload[first] = 255;
    let error = format!(
        "{:#}",
        data::decode(&payload, 100, data::VERSION).unwrap_err()
    );
    assert_eq!(
        error,
        format!(
            "offset {}: ply 0: SWAP is illegal: SWAP is allowed only on player 1's first turn",
            100 + first
        )
    );
    payload[8] = 1;
    let error = format!(
        "{:#}",
        data::decode(&payload, 100, data::VERSION).unwrap_err()
    );
    assert_eq!(
        error,
        "offset 108: ply 0, a random opening peg, is marked as searched"
    );
}

#[test]
fn fast_runs_record_a_share_of_full_searches() {
    let fast = Header {
        fast: 30,
        full_share: 250,
        ..header()
    };
    let (mut full, mut searched, mut told) = (0, 0, 0);
    for index in 0..4 {
        let game = selfplay::play_game(fast, &Default::default(), index, &[]);
        assert!(game == selfplay::play_game(fast, &Default::default(), index, &[]));
        let mut pos = Position::new();
        for (i, ply) in game.plies.iter().enumerate() {
            if let Some(s) = &ply.search {
                assert!(i >= 2, "ply {i}");
                assert!(s.visits.iter().all(|(m, _)| pos.legal_moves().contains(m)));
                let total: u32 = s.visits.iter().map(|v| v.1).sum();
                assert!(total > 30 || s.visits.len() == 1, "a full search: {total}");
                // A value for each visited root move, none for the others; the played
                // one's is the search's value, on the grid of 1/255.
                assert_eq!(s.values.len(), s.visits.len());
                for (&(_, n), v) in s.visits.iter().zip(&s.values) {
                    assert_eq!(v.is_some(), n > 0);
                    assert!(v.is_none_or(|v| (0.0..=1.0).contains(&v)));
                }
                let played = s.visits.iter().position(|v| v.0 == ply.mv).unwrap();
                let mine = s.values[played].unwrap();
                assert!((mine - s.value).abs() <= 0.5 / 255.0, "ply {i}");
                let spread = s
                    .values
                    .iter()
                    .flatten()
                    .fold(0.0f32, |m, v| m.max((v - s.value).abs()));
                told += usize::from(spread > 0.01);
                let mut order: Vec<Move> = s.visits.iter().map(|v| v.0).collect();
                order.sort_by_key(|m| m.peg().map_or(usize::MAX, |c| c.index()));
                assert!(order.iter().eq(s.visits.iter().map(|v| &v.0)), "cell order");
                full += 1;
            }
            searched += usize::from(i >= 2);
            pos.play(ply.mv).unwrap();
        }
        assert_eq!(
            data::decode(&data::encode(&game), 0, data::VERSION).unwrap(),
            game
        );
    }
    // Most searches value the siblings of their move otherwise than the move.
    assert!(2 * told > full, "{told} of {full}");
    assert!(full > 0 && full < searched / 2, "{full} of {searched}");
}

#[test]
fn a_file_of_version_2_is_read_without_child_values_and_not_resumed() {
    // One game: F6 at random, then a full search's record over two root moves, then the
    // moves of a whole game (a random one, so that it ends).
    let mut game = fast_game(5);
    let pos = Position::after(&game.plies[0].mv.to_string()).unwrap();
    let legal = pos.legal_moves();
    game.plies[1].search = Some(data::Search {
        value: 0.25,
        visits: vec![(game.plies[1].mv, 300), (legal[0], 2)],
        values: vec![None, None],
    });
    let mut payload = Vec::new();
    payload.extend_from_slice(&game.index.to_le_bytes());
    payload.push(game.winner.map_or(2, |p| p.index() as u8));
    payload.push(game.opening);
    payload.extend_from_slice(&(game.plies.len() as u16).to_le_bytes());
    let mut full = vec![0u8; game.plies.len().div_ceil(8)];
    full[0] = 0b10;
    payload.extend_from_slice(&full);
    let byte = |m: twixt::Move| m.peg().map_or(255, |c| c.index() as u8);
    for ply in &game.plies {
        payload.push(byte(ply.mv));
        if let Some(s) = &ply.search {
            payload.extend_from_slice(&s.value.to_le_bytes());
            payload.push(2);
            // 300 in LEB128, then 2.
            payload.extend_from_slice(&[byte(s.visits[0].0), 0xac, 0x02, byte(s.visits[1].0), 2]);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.bin");
    drop(data::create(&path, header()).unwrap());
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8] = 2;
    bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&payload);
    bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let read = data::read(&path).unwrap();
    assert_eq!(read.version, 2);
    assert_eq!(read.games, vec![game]);
    // A file holds one version: resuming it with this writer is refused.
    let error = format!("{:#}", selfplay::run(&options(&path, 2, true)).unwrap_err());
    assert!(error.contains("format version 2"), "{error}");
}
