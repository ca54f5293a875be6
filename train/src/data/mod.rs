//! The self-play data format: one file per run, a header and then one record per game.
//!
//! ```text
//! header, 40 bytes:
//!   magic          8 bytes  "TWXTDATA"
//!   version        u16      3 (2 is read too: its searches keep no values of root moves)
//!   iterations     u32      MCTS iterations of a full (recorded) search
//!   opening        u8       random pegs before the searches take over (after a start's moves)
//!   reserved       u8       0
//!   seed           u64      the run's seed (game i is seeded by seed and i)
//!   teacher        u64      fingerprint of the teacher's search (`fingerprint`)
//!   fast           u32      MCTS iterations of a fast (unrecorded) move; 0: every move full
//!   full share     u16      per mille of the searched moves that are full searches
//!   starts         u16      fingerprint of the run's starts file (`crate::starts`); 0: none
//! a game:
//!   length         u32      bytes of the payload
//!   payload:
//!     index        u32      the game's number in the run
//!     winner       u8       0 or 1, 2 for a draw
//!     opening      u8       how many of the moves were not searched (a start's, random pegs)
//!     plies        u16      how many moves follow
//!     full         ceil(plies / 8) bytes: bit i (low bit first) set when ply i was a full
//!                  search, whose record follows its move
//!     per move:
//!       move       u8       cell index (y * 12 + x), 255 for SWAP
//!       then, for a full search, its record (`search`: the search's value, the root's
//!       moves, and the visits and value of each visited one)
//!   crc32          u32      of the payload (IEEE, as zlib)
//! ```
//! Integers are little-endian. A game of 40 moves with no full search takes 61 bytes. A run
//! killed while writing leaves a torn last record; the reader reports it, and `selfplay
//! --resume` cuts it off. Any other damage is an error that names the file and the byte
//! offset; that includes a record whose checksum holds but whose game the rules refuse, since
//! the reader replays every game: a move or recorded root move that is not legal there (a peg
//! on a filled hole or the opponent's border, SWAP out of turn, a move after the end), a value
//! outside [0, 1], a game that stops before its end, or a winner the moves contradict.
//!
//! A packed file ([`packed`], for committing) holds a data file in columns compressed by
//! zstd; [`read`] and [`parse`] take either, and `twixt-train unpack` gives the bytes back.

use anyhow::{anyhow, bail, ensure, Context, Result};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;
use twixt::position::Outcome;
use twixt::{Cell, Move, Player, Position};

mod cursor;
pub mod merge;
pub mod packed;
mod search;
mod source;

use cursor::Cursor;
pub use search::Search;
pub use source::{Source, SourceError};

const MAGIC: &[u8; 8] = b"TWXTDATA";
/// The version this writes.
pub const VERSION: u16 = 3;
/// The oldest version this reads.
const OLDEST: u16 = 2;

/// Bytes of the header.
pub const HEADER_LEN: usize = 40;
const SWAP: u8 = 255;

/// The settings of a run, kept in its file's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// MCTS iterations of a full search, the kind whose visits are recorded.
    pub iterations: u32,
    /// MCTS iterations of a fast move (not recorded); 0 when every move is a full search.
    pub fast: u32,
    /// Per mille of the searched moves that are full searches (1000 when `fast` is 0).
    pub full_share: u16,
    /// Random pegs before the searches take over (after a start's moves).
    pub opening: u8,
    /// The fingerprint of the run's starts file ([`crate::starts::fingerprint`]); 0 for a
    /// run from the empty board. A file written before starts existed holds 0 there.
    pub starts: u16,
    /// The run's seed.
    pub seed: u64,
    /// A fingerprint of the teacher's search ([`fingerprint`]).
    pub teacher: u64,
}

/// A fingerprint of a teacher: how its search behaves, not how its parameters are spelt.
/// Fixed-iteration searches of three fixed positions with `params` and seed 1 (as `twixt-bot
/// bench`'s signature), their node counts, pegs, moves and values hashed by FNV-1a; never 0.
/// A parameter added at a value that leaves the search alone keeps it; a change of the
/// search's behaviour, its defaults or its shipped weights in use changes it.
pub fn fingerprint(params: &twixt::search::params::Params) -> u64 {
    use twixt::search::{Limits, Searcher};
    let limits = Limits {
        soft_deadline: None,
        hard_deadline: None,
        iterations: Some(1000),
    };
    let mut text = String::new();
    for moves in ["", "F6", "F6 G8 E8 D6 H5"] {
        let pos = twixt::Position::after(moves).expect("a legal opening");
        if let Some(r) = Searcher::new(params.clone(), 1).choose(&pos, &limits) {
            let value = r.value.to_bits();
            text.push_str(&format!("{} {} {} {value:08x};", r.nodes, r.plies, r.best));
        }
    }
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    hash.max(1)
}

/// One move of a game, and the full search behind it (none for the opening's random pegs and
/// for fast moves).
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The search that chose it.
    pub search: Option<Search>,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Its number in the run.
    pub index: u32,
    /// The winner, `None` for a draw.
    pub winner: Option<Player>,
    /// How many of the first plies were random.
    pub opening: u8,
    /// The moves in order.
    pub plies: Vec<Ply>,
}

/// A data file as read: its header, its games and, if a run was killed while writing, the
/// offset where its torn last record starts.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// The run's settings.
    pub header: Header,
    /// The format's version ([`VERSION`], or an older one this still reads).
    pub version: u16,
    /// Every complete game.
    pub games: Vec<Game>,
    /// The byte offset of a torn last record, if there is one.
    pub torn_at: Option<u64>,
}

impl Header {
    fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[..8].copy_from_slice(MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10..14].copy_from_slice(&self.iterations.to_le_bytes());
        b[14] = self.opening;
        b[16..24].copy_from_slice(&self.seed.to_le_bytes());
        b[24..32].copy_from_slice(&self.teacher.to_le_bytes());
        b[32..36].copy_from_slice(&self.fast.to_le_bytes());
        b[36..38].copy_from_slice(&self.full_share.to_le_bytes());
        b[38..40].copy_from_slice(&self.starts.to_le_bytes());
        b
    }

    /// The header and the file's version.
    fn from_bytes(b: &[u8]) -> Result<(Header, u16)> {
        ensure!(b.len() >= HEADER_LEN, "offset 0: the header is cut short");
        ensure!(&b[..8] == MAGIC, "offset 0: not a twixt-train data file");
        let version = u16::from_le_bytes([b[8], b[9]]);
        ensure!(
            (OLDEST..=VERSION).contains(&version),
            "offset 8: version {version}, this reads {OLDEST} to {VERSION}"
        );
        let header = Header {
            iterations: u32::from_le_bytes(b[10..14].try_into()?),
            opening: b[14],
            seed: u64::from_le_bytes(b[16..24].try_into()?),
            teacher: u64::from_le_bytes(b[24..32].try_into()?),
            fast: u32::from_le_bytes(b[32..36].try_into()?),
            full_share: u16::from_le_bytes(b[36..38].try_into()?),
            starts: u16::from_le_bytes(b[38..40].try_into()?),
        };
        Ok((header, version))
    }
}

pub(crate) fn move_byte(mv: Move) -> u8 {
    match mv {
        Move::Peg(c) => c.index() as u8,
        Move::Swap => SWAP,
    }
}

pub(crate) fn byte_move(b: u8) -> Option<Move> {
    if b == SWAP {
        return Some(Move::Swap);
    }
    Cell::from_index(b as usize).map(Move::Peg)
}

/// Appends `v` in LEB128.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The payload of one game, in the format of [`VERSION`] (a full search's record as
/// [`Search::of_root`] makes it).
pub fn encode(game: &Game) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&game.index.to_le_bytes());
    out.push(game.winner.map_or(2, |p| p.index() as u8));
    out.push(game.opening);
    out.extend_from_slice(&(game.plies.len() as u16).to_le_bytes());
    let mut full = vec![0u8; game.plies.len().div_ceil(8)];
    for (i, ply) in game.plies.iter().enumerate() {
        if ply.search.is_some() {
            full[i / 8] |= 1 << (i % 8);
        }
    }
    out.extend_from_slice(&full);
    for ply in &game.plies {
        out.push(move_byte(ply.mv));
        if let Some(s) = &ply.search {
            s.put(&mut out);
        }
    }
    out
}

/// Decodes one payload of a file of `version` that starts at file offset `base`.
pub fn decode(bytes: &[u8], base: u64, version: u16) -> Result<Game> {
    let mut c = Cursor { bytes, at: 0, base };
    let index = c.u32()?;
    let winner = match c.byte()? {
        2 => None,
        w => Some(
            Player::from_index(w as usize)
                .with_context(|| format!("offset {}: winner {w} is not 0, 1 or 2", base + 4))?,
        ),
    };
    let opening = c.byte()?;
    let n = c.u16()? as usize;
    let full_at = base + c.at as u64;
    let full = c.take(n.div_ceil(8))?.to_vec();
    let mut plies = Vec::with_capacity(n);
    // The game is replayed as it is read: a record that passes its checksum may still hold a
    // move the rules refuse, and every reader downstream indexes by legal moves only.
    let mut pos = Position::new();
    for i in 0..n {
        ensure!(
            i >= opening as usize || full[i / 8] >> (i % 8) & 1 == 0,
            "offset {full_at}: ply {i}, a random opening peg, is marked as searched"
        );
        let mv_at = base + c.at as u64;
        let mv = c.mv()?;
        let search = if full[i / 8] >> (i % 8) & 1 == 0 {
            None
        } else {
            Some(Search::get(&mut c, &pos, i, version)?)
        };
        pos.play(mv)
            .map_err(|e| anyhow!("offset {mv_at}: ply {i}: {mv} is illegal: {e}"))?;
        plies.push(Ply { mv, search });
    }
    ensure!(
        c.at == bytes.len(),
        "offset {}: bytes after the game",
        base + c.at as u64
    );
    let ended = match pos.outcome() {
        Some(Outcome::Win(p)) => Some(p),
        Some(Outcome::Draw) => None,
        None => bail!("offset {base}: game {index} stops at ply {n} before the game is over"),
    };
    ensure!(
        ended == winner,
        "offset {}: game {index}: the winner is recorded as {}, the moves give {}",
        base + 4,
        name_winner(winner),
        name_winner(ended)
    );
    Ok(Game {
        index,
        winner,
        opening,
        plies,
    })
}

/// A winner as a reader of an error message would say it.
fn name_winner(w: Option<Player>) -> String {
    w.map_or("a draw".to_string(), |p| format!("player {}", p.index()))
}

/// Creates `path` with `header` (failing if it exists).
pub fn create(path: &Path, header: Header) -> Result<File> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("{}: cannot create", path.display()))?;
    f.write_all(&header.to_bytes())
        .with_context(|| path.display().to_string())?;
    Ok(f)
}

/// Appends one game to an open data file, in one write.
pub fn append(f: &mut File, game: &Game) -> std::io::Result<()> {
    f.write_all(&record(&encode(game)))?;
    f.flush()
}

/// A game's record: its payload's length, the payload, its checksum.
pub(crate) fn record(payload: &[u8]) -> Vec<u8> {
    let mut record = Vec::with_capacity(payload.len() + 8);
    record.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    record.extend_from_slice(payload);
    record.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    record
}

/// Reads a whole data file, or a packed one ([`packed`]). A record that runs past the end is
/// a torn tail (reported, not read); a record whose checksum or contents are wrong is an error
/// naming its offset.
pub fn read(path: &Path) -> Result<DataFile> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| path.display().to_string())?;
    parse(&bytes).with_context(|| path.display().to_string())
}

/// Reads the games of every source for training, in order: all of a file's, or its first `N`
/// for `FILE:N`. A torn file is an error, not a smaller data set, and so is a file with
/// fewer games than its source asks for.
pub fn read_complete(sources: &[Source]) -> Result<Vec<Game>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for source in sources {
        let mut file = read(&source.path)?;
        if let Some(at) = file.torn_at {
            anyhow::bail!(
                "{}: offset {at}: a torn game record (a self-play run was stopped while \
                 writing); `selfplay --resume` with the same settings mends it",
                source.path.display()
            );
        }
        if let Some(n) = source.first {
            ensure!(
                n <= file.games.len(),
                "{source}: the file holds {} games, fewer than the {n} asked for",
                file.games.len()
            );
            file.games.truncate(n);
        }
        for g in &file.games {
            // Games of one run (one header) in two sources: shards that overlap, or a file
            // twice.
            if let Some(other) = seen.insert((file.header, g.index), source) {
                anyhow::bail!(
                    "{source}: game {} of this run is in {other} too: a game would count twice",
                    g.index
                );
            }
        }
        out.extend(file.games);
    }
    Ok(out)
}

/// Parses the bytes of a data file or of a packed one (see [`read`]).
pub fn parse(bytes: &[u8]) -> Result<DataFile> {
    if packed::is_packed(bytes) {
        return packed::parse(bytes);
    }
    parse_raw(bytes)
}

/// Parses the bytes of a data file that is not packed.
fn parse_raw(bytes: &[u8]) -> Result<DataFile> {
    let (header, version) = Header::from_bytes(bytes)?;
    let mut games = Vec::new();
    let mut at = HEADER_LEN;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let len = match rest.get(..4) {
            Some(b) => u32::from_le_bytes(b.try_into()?) as usize,
            None => return Ok(torn(header, version, games, at)),
        };
        if rest.len() < 8 + len {
            return Ok(torn(header, version, games, at));
        }
        let payload = &rest[4..4 + len];
        let crc = u32::from_le_bytes(rest[4 + len..8 + len].try_into()?);
        ensure!(
            crc == crc32fast::hash(payload),
            "offset {at}: the game record's checksum does not match (the file is damaged)"
        );
        games.push(decode(payload, at as u64 + 4, version)?);
        at += 8 + len;
    }
    Ok(DataFile {
        header,
        version,
        games,
        torn_at: None,
    })
}

fn torn(header: Header, version: u16, games: Vec<Game>, at: usize) -> DataFile {
    DataFile {
        header,
        version,
        games,
        torn_at: Some(at as u64),
    }
}
