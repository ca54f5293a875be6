//! Packing at the level of blocks and columns: every kind of search round-trips, and a block
//! whose checksums hold but whose games read wrong is refused, naming the game.

use super::columns::{Stream, STREAMS};
use super::*;
use crate::data::{encode, record, Header, Search};
use twixt::Player;

fn header() -> Header {
    Header {
        iterations: 60,
        fast: 20,
        full_share: 500,
        starts: 0,
        opening: 2,
        seed: 7,
        teacher: 1,
    }
}

/// Games of a quick run: half of the searched moves are full searches.
fn games(n: u32) -> Vec<Game> {
    let params = Default::default();
    (0..n)
        .map(|i| crate::selfplay::play_game(header(), &params, 3 * i + 1, &[]))
        .collect()
}

/// The data file of `games` as this build writes it.
fn raw_of(games: &[Game]) -> Vec<u8> {
    let mut raw = header().to_bytes().to_vec();
    for g in games {
        raw.extend(record(&encode(g)));
    }
    raw
}

/// A packed file of `games` in blocks of up to `most` bytes of records, unchecked: any games
/// the columns carry.
fn packed_of(games: &[Game], most: usize) -> Vec<u8> {
    let raw = raw_of(games);
    let ends = record_ends(&raw, games).unwrap();
    assemble(&raw, games, &ends, header().iterations, most).unwrap()
}

/// A packed file of `games` in one block whose streams `edit` changes.
fn edited(games: &[Game], edit: impl Fn(&mut Vec<Vec<u8>>)) -> Vec<u8> {
    let raw = raw_of(games);
    let mut streams = block::columns(games, 0, header().iterations)
        .unwrap()
        .into_streams();
    edit(&mut streams);
    let top = Top {
        blocks: 1,
        games: games.len() as u32,
        unpacked: raw.len() as u64,
        header: raw[..HEADER_LEN].try_into().unwrap(),
    };
    let mut out = top.to_bytes();
    block::write_streams(&mut out, games.len(), &raw[HEADER_LEN..], &streams).unwrap();
    out
}

fn error(bytes: &[u8]) -> String {
    format!("{:#}", parse(bytes).unwrap_err())
}

/// The full searches of `games` with more than one root move, as (game, ply).
fn searches(games: &[Game]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for (g, game) in games.iter().enumerate() {
        for (i, ply) in game.plies.iter().enumerate() {
            if ply.search.as_ref().is_some_and(|s| s.visits.len() > 1) {
                found.push((g, i));
            }
        }
    }
    found
}

/// Changes four searches into what self-play seldom writes: some of the legal moves at the
/// root, a move played that the search never visited (and visits beyond the iterations),
/// a win at once, and a value of -0.
fn vary(games: &mut [Game]) {
    let at = searches(games);
    assert!(at.len() >= 4, "{} searches", at.len());
    fn ply(games: &mut [Game], at: (usize, usize)) -> &mut crate::data::Ply {
        &mut games[at.0].plies[at.1]
    }
    let p = ply(games, at[0]);
    let s = p.search.as_mut().unwrap();
    let kept = (0..s.visits.len()).filter(|&k| k % 3 == 0 || s.visits[k].0 == p.mv);
    (s.visits, s.values) = kept.map(|k| (s.visits[k], s.values[k])).unzip();
    let p = ply(games, at[1]);
    let s = p.search.as_mut().unwrap();
    let played = s.visits.iter().position(|v| v.0 == p.mv).unwrap();
    let other = (played + 1) % s.visits.len();
    (s.visits[played].1, s.values[played]) = (0, None);
    (s.visits[other].1, s.values[other]) = (5000, Some(0.2));
    let p = ply(games, at[2]);
    p.search = Some(Search {
        value: 1.0,
        visits: vec![(p.mv, 1)],
        values: vec![Some(1.0)],
    });
    ply(games, at[3]).search.as_mut().unwrap().value = -0.0;
}

#[test]
fn every_kind_of_search_round_trips_in_blocks() {
    let mut games = games(6);
    vary(&mut games);
    let streams = block::columns(&games, 0, header().iterations)
        .unwrap()
        .into_streams();
    for kind in 0..3 {
        assert!(
            streams[Stream::Kind as usize].contains(&kind),
            "kind {kind}"
        );
    }
    assert!(streams[Stream::Played as usize].contains(&255));
    let raw = raw_of(&games);
    let packed = pack(&raw).unwrap();
    assert_eq!(unpack(&packed).unwrap(), raw);
    assert_eq!(parse(&packed).unwrap().games, games);
    // Blocks of a game or two: each block steps on from the last game of the one before.
    let small = packed_of(&games, 1000);
    assert!(u32::from_le_bytes(small[12..16].try_into().unwrap()) >= 3);
    assert_eq!(unpack(&small).unwrap(), raw);
    let last = small.len() - 10;
    let mut flipped = small.clone();
    flipped[last] ^= 4;
    let e = error(&flipped);
    assert!(e.contains(": block ") && !e.contains("block 0:"), "{e}");
}

#[test]
fn a_game_that_reads_wrong_is_named_with_its_block() {
    let mut games = games(2);
    let second = games[1].index;
    // A winner the moves contradict: the columns carry it, the data file's reader refuses it.
    games[1].winner = Some(match games[1].winner {
        Some(Player::Zero) => Player::One,
        _ => Player::Zero,
    });
    let start = raw_of(&games[..1]).len();
    let e = error(&packed_of(&games, BLOCK_BYTES));
    let expected = format!(
        "offset 72: block 0: game {second}, at offset {start} of the unpacked file: offset {}: \
         game {second}: the winner is recorded as",
        start + 8
    );
    assert!(e.starts_with(&expected), "{e}");
    let games = &self::games(2)[..];
    let first = games[0].index;
    // The second random peg on the first one's hole.
    let e = error(&edited(games, |s| {
        s[Stream::Moves as usize][1] = s[Stream::Moves as usize][0]
    }));
    let expected = format!(
        "offset 72: block 0: game {first}: ply 1: {} is illegal",
        games[0].plies[0].mv
    );
    assert!(e.starts_with(&expected), "{e}");
    let e = error(&edited(games, |s| s[Stream::Winner as usize][0] ^= 1));
    assert!(
        e.ends_with("block 0: its games unpack to other bytes than were packed"),
        "{e}"
    );
    let e = error(&edited(games, |s| s[Stream::Values as usize].push(0)));
    assert!(
        e.ends_with("block 0: 1 bytes left over in the values stream"),
        "{e}"
    );
    let e = error(&edited(games, |s| s[Stream::Kind as usize][0] = 7));
    assert!(e.contains(&format!("block 0: game {first}: ply ")), "{e}");
    assert!(e.ends_with("root kind 7 is not 0, 1 or 2"), "{e}");
    let e = error(&edited(games, |s| s[Stream::Played as usize][0] = 200));
    assert!(
        e.contains("the move played is visited root move 200 of"),
        "{e}"
    );
    let e = error(&edited(games, |s| s[Stream::Total as usize][0] = 0x7f));
    assert!(
        e.contains("the visits of the move played come to no count"),
        "{e}"
    );
    let e = error(&edited(games, |s| s[Stream::Moves as usize][0] = 150));
    assert!(
        e.ends_with(&format!("game {first}: 150 is not a move")),
        "{e}"
    );
    let e = error(&edited(games, |s| s[Stream::Index as usize].clear()));
    assert!(
        e.ends_with("the number of its game 0: the index stream ends early"),
        "{e}"
    );
}

#[test]
fn what_packing_cannot_give_back_is_refused() {
    let games = games(2);
    let mut raw = raw_of(&games);
    let e = format!("{:#}", pack(&raw[..raw.len() - 3]).unwrap_err());
    assert!(e.contains("a torn game record"), "{e}");
    // A bit past the last ply in a record's bitmap of full searches: the reader ignores it,
    // this build would not write it.
    let n = games[0].plies.len();
    if !n.is_multiple_of(8) {
        let at = HEADER_LEN + 4 + 8 + n / 8;
        raw[at] |= 0x80;
        let len = u32::from_le_bytes(raw[HEADER_LEN..HEADER_LEN + 4].try_into().unwrap()) as usize;
        let crc = crc32fast::hash(&raw[HEADER_LEN + 4..HEADER_LEN + 4 + len]);
        raw[HEADER_LEN + 4 + len..HEADER_LEN + 8 + len].copy_from_slice(&crc.to_le_bytes());
        let e = format!("{:#}", pack(&raw).unwrap_err());
        assert!(
            e.starts_with("offset 40: game 1's record is not as this build writes it"),
            "{e}"
        );
    }
    let packed = packed_of(&games, BLOCK_BYTES);
    let e = format!("{:#}", pack(&packed).unwrap_err());
    assert_eq!(e, "offset 0: the file is packed already");
}

#[test]
fn random_damage_to_the_columns_is_an_error_and_never_a_panic() {
    let games = &games(3)[..];
    let mut rng = twixt::rng::FastRng::new(5);
    for _ in 0..400 {
        let (which, what) = (rng.below(STREAMS as u32) as usize, rng.below(4));
        let (at, bit) = (rng.bits() as usize, 1 << rng.below(8));
        let packed = edited(games, |s| {
            let stream = &mut s[which];
            match (what, stream.len()) {
                (_, 0) | (0, _) => stream.push(bit),
                (1, n) => stream.truncate(at % n),
                (_, n) => stream[at % n] ^= bit,
            }
        });
        let e = error(&packed);
        assert!(e.starts_with("offset 72: block 0: "), "{e}");
    }
}
