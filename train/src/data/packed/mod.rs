//! Packed data files: a data file (`super`'s format) laid out in columns and compressed
//! with zstd, for committing. Unpacking gives back the data file byte for byte.
//!
//! ```text
//! header, 72 bytes:
//!   magic          8 bytes  "TWXTPACK"
//!   version        u16      1
//!   reserved       u16      0
//!   blocks         u32      how many blocks follow
//!   games          u32      games in all
//!   unpacked       u64      bytes of the data file it holds
//!   data header    40 bytes the data file's header, as it is
//!   crc32          u32      of the 68 bytes before
//! a block: the next games in the data file's order whose records take at most 8 MiB (one
//! game at least):
//!   games          u32      how many
//!   unpacked       u32      bytes of their records in the data file
//!   unpacked hash  u64      FNV-1a of those bytes (a crc32 of records that end in the
//!                           crc32 of their payloads would not see what the payloads hold)
//!   per stream     u32, u32 its bytes, and its frame's (0 for an empty stream)
//!   frames         each stream as a zstd frame (level 19, with zstd's checksum of it)
//!   crc32          u32      of the block's bytes before it
//! the 14 streams, each a column of the block's games:
//!   index    per game: the step from the number of the game before (zigzag LEB128; the
//!            first game of the file steps from 0)
//!   winner   per game: u8 (0, 1, 2 for a draw)
//!   opening  per game: u8
//!   plies    per game: LEB128
//!   full     per game: the record's bitmap of full searches
//!   moves    per move the search does not give: u8 (cell, 255 for SWAP)
//!   kind     per full search: 0: the root's moves are the position's legal moves; 1: a
//!            win at once (the move, in `moves`, is the only root move: one visit, value 1,
//!            no other field); 2: some of the legal moves
//!   roots    per search of kind 2: a bit for each legal move (low bit first), in their order
//!   visited  per search of kind 0 or 2: a bit for each root move, set when it was visited
//!   played   per search of kind 0 or 2: u8, which of the visited root moves was played (so
//!            its byte is not in `moves`); 255 when none was (it is in `moves`)
//!   total    per search whose move was visited: the visits in all less the run's
//!            iterations of a full search (zigzag LEB128); the played move's visits are
//!            what the others leave of it
//!   visits   per visited root move but the played one: visits - 1 (LEB128), in cell order
//!   value    per search of kind 0 or 2: the search's value, f32, in planes: the first byte
//!            of every value in the block, then the second, the third, the fourth
//!   values   per visited root move, most visited first (then in cell order): u8, the
//!            value of the one before (for the first, the search's value on the grid of
//!            1/255) less its own, modulo 256
//! ```
//! Integers are little-endian. A search's root moves are nearly always the legal moves and
//! its visits sum to the run's iterations; the values of the visited moves fall as their
//! visits do; so the columns compress well (`docs/DATA.md`, "Packed files"). Every reader
//! takes a packed file for the data file it holds ([`super::parse`] tells them apart by
//! their magic). `pack` refuses a torn file and any record that this build would not write
//! as it is, and unpacks what it packed to check it. Reading unpacks each block's records,
//! checks their crc32 and then reads each as the data file's reader does (the rules replay
//! it). Any damage is an error naming the byte offset of the header or the block (and the
//! damaged frame, where zstd's checksum finds it), and for a game that reads wrong, its
//! number and its record's offset in the unpacked file.

use super::{DataFile, Game, HEADER_LEN};
use anyhow::{anyhow, bail, ensure, Context, Result};
use std::io::{Read, Write};
use std::path::Path;

mod block;
mod columns;
mod games;

/// The first bytes of a packed file.
pub const MAGIC: &[u8; 8] = b"TWXTPACK";
/// The packed format's version.
pub const VERSION: u16 = 1;
/// Bytes of the packed header.
const PACKED_LEN: usize = 72;
/// Bytes of records a block holds at most, unless one game's record is longer.
const BLOCK_BYTES: usize = 8 << 20;

/// Whether `bytes` begin as a packed file does.
pub fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The packed header's fields.
struct Top {
    blocks: u32,
    games: u32,
    unpacked: u64,
    header: [u8; HEADER_LEN],
}

impl Top {
    fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(PACKED_LEN);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&[0, 0]);
        b.extend_from_slice(&self.blocks.to_le_bytes());
        b.extend_from_slice(&self.games.to_le_bytes());
        b.extend_from_slice(&self.unpacked.to_le_bytes());
        b.extend_from_slice(&self.header);
        b.extend_from_slice(&crc32fast::hash(&b).to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Result<Top> {
        ensure!(
            b.len() >= PACKED_LEN,
            "offset 0: the packed header is cut short"
        );
        ensure!(is_packed(b), "offset 0: not a packed data file");
        let version = u16::from_le_bytes([b[8], b[9]]);
        ensure!(
            version == VERSION,
            "offset 8: packed version {version}, this reads {VERSION}"
        );
        let crc = u32::from_le_bytes(b[68..72].try_into()?);
        ensure!(
            crc == crc32fast::hash(&b[..68]) && b[10..12] == [0, 0],
            "offset 0: the packed header's checksum does not match (the file is damaged)"
        );
        Ok(Top {
            blocks: u32::from_le_bytes(b[12..16].try_into()?),
            games: u32::from_le_bytes(b[16..20].try_into()?),
            unpacked: u64::from_le_bytes(b[20..28].try_into()?),
            header: b[28..68].try_into()?,
        })
    }
}

/// Packs the bytes of a data file. Refused: a torn file, a file of version 2 with recorded
/// searches, and any record this build would not write as it is (the packed file would not
/// give the same bytes back). The result is unpacked again and compared before it is given.
pub fn pack(raw: &[u8]) -> Result<Vec<u8>> {
    ensure!(!is_packed(raw), "offset 0: the file is packed already");
    let file = super::parse_raw(raw)?;
    if let Some(at) = file.torn_at {
        bail!("offset {at}: a torn game record; `selfplay --resume` mends it before packing");
    }
    let searched = file
        .games
        .iter()
        .flat_map(|g| &g.plies)
        .any(|p| p.search.is_some());
    ensure!(
        file.version == super::VERSION || !searched,
        "a file of format {} with recorded searches: only format {}'s searches are packed",
        file.version,
        super::VERSION
    );
    let ends = record_ends(raw, &file.games)?;
    let out = assemble(raw, &file.games, &ends, file.header.iterations, BLOCK_BYTES)?;
    ensure!(
        unpack(&out)? == raw,
        "the packed file does not unpack to the same bytes (a fault of this build)"
    );
    Ok(out)
}

/// The packed file of the data file `raw`, whose games are `games`, their records ending
/// at `ends`, and whose full searches have `iterations`, in blocks of up to `most` bytes of
/// records.
fn assemble(
    raw: &[u8],
    games: &[Game],
    ends: &[usize],
    iterations: u32,
    most: usize,
) -> Result<Vec<u8>> {
    let blocks = blocks(ends, most);
    let top = Top {
        blocks: blocks.len() as u32,
        games: games.len() as u32,
        unpacked: raw.len() as u64,
        header: raw[..HEADER_LEN].try_into()?,
    };
    let mut out = top.to_bytes();
    let (mut start, mut prev) = (HEADER_LEN, 0);
    for block in blocks {
        let end = ends[block.end - 1];
        let games = &games[block];
        block::write(&mut out, games, &raw[start..end], prev, iterations)?;
        (start, prev) = (end, games[games.len() - 1].index);
    }
    Ok(out)
}

/// Where each game's record ends, once it is checked to be the bytes this build writes.
fn record_ends(raw: &[u8], games: &[Game]) -> Result<Vec<usize>> {
    let mut at = HEADER_LEN;
    let mut ends = Vec::with_capacity(games.len());
    for g in games {
        let record = super::record(&super::encode(g));
        ensure!(
            raw.get(at..at + record.len()) == Some(&record[..]),
            "offset {at}: game {}'s record is not as this build writes it, so a packed file \
             would not give the same bytes back",
            g.index
        );
        at += record.len();
        ends.push(at);
    }
    Ok(ends)
}

/// The games of each block, by where each game's record ends: as many as fit in `most`
/// bytes, and at least one.
fn blocks(ends: &[usize], most: usize) -> Vec<std::ops::Range<usize>> {
    let (mut blocks, mut first, mut start) = (Vec::new(), 0, HEADER_LEN);
    for (i, &end) in ends.iter().enumerate() {
        if i > first && end - start > most {
            blocks.push(first..i);
            (first, start) = (i, ends[i - 1]);
        }
    }
    if first < ends.len() {
        blocks.push(first..ends.len());
    }
    blocks
}

/// The data file a packed file holds, and its bytes.
fn open(bytes: &[u8]) -> Result<(DataFile, Vec<u8>)> {
    let top = Top::from_bytes(bytes)?;
    let (header, version) = super::Header::from_bytes(&top.header)
        .map_err(|e| anyhow!("the data file's header, at offset 28: {e}"))?;
    let mut raw = top.header.to_vec();
    let mut games = Vec::with_capacity(top.games.min(1 << 16) as usize);
    let mut at = PACKED_LEN;
    for b in 0..top.blocks {
        ensure!(
            at < bytes.len(),
            "offset {at}: the file ends after {b} of its {} blocks (it is cut short)",
            top.blocks
        );
        let prev = games.last().map_or(0, |g: &Game| g.index);
        let read = block::Read {
            bytes,
            at,
            number: b,
            version,
            iterations: header.iterations,
        };
        at = read.games(prev, &mut games, &mut raw)?;
    }
    ensure!(at == bytes.len(), "offset {at}: bytes after the last block");
    ensure!(
        games.len() == top.games as usize && raw.len() as u64 == top.unpacked,
        "offset 0: the header counts {} games in {} bytes, the blocks hold {} in {}",
        top.games,
        top.unpacked,
        games.len(),
        raw.len()
    );
    let file = DataFile {
        header,
        version,
        games,
        torn_at: None,
    };
    Ok((file, raw))
}

/// The data file a packed file holds, as [`super::parse`] reads one.
pub fn parse(bytes: &[u8]) -> Result<DataFile> {
    Ok(open(bytes)?.0)
}

/// The bytes of the data file a packed file holds.
pub fn unpack(bytes: &[u8]) -> Result<Vec<u8>> {
    Ok(open(bytes)?.1)
}

/// Whether the file at `path` is a packed one (false for a file too short to tell).
pub fn is_packed_file(path: &Path) -> Result<bool> {
    let mut magic = Vec::with_capacity(MAGIC.len());
    std::fs::File::open(path)
        .and_then(|f| f.take(MAGIC.len() as u64).read_to_end(&mut magic))
        .with_context(|| path.display().to_string())?;
    Ok(is_packed(&magic))
}

/// `twixt-train pack`: packs the data file `input` into `output` (a new file); says what it
/// did, and with `streams` what each stream takes.
pub fn pack_file(input: &Path, output: &Path, streams: bool) -> Result<String> {
    let raw = std::fs::read(input).with_context(|| input.display().to_string())?;
    let packed = pack(&raw).with_context(|| input.display().to_string())?;
    create(output, &packed)?;
    let games = u32::from_le_bytes(packed[16..20].try_into()?);
    let mut out = format!(
        "{}: {} bytes, {games} games -> {}: {} bytes ({:.2}x, {:.1} bytes a game)\n",
        input.display(),
        raw.len(),
        output.display(),
        packed.len(),
        raw.len() as f64 / packed.len() as f64,
        packed.len() as f64 / f64::from(games.max(1))
    );
    if streams {
        out.push_str(&account(&packed)?);
    }
    Ok(out)
}

/// `twixt-train unpack`: writes the data file that the packed file `input` holds to `output`
/// (a new file).
pub fn unpack_file(input: &Path, output: &Path) -> Result<String> {
    let bytes = std::fs::read(input).with_context(|| input.display().to_string())?;
    ensure!(
        is_packed(&bytes),
        "{}: offset 0: not a packed data file",
        input.display()
    );
    let raw = unpack(&bytes).with_context(|| input.display().to_string())?;
    create(output, &raw)?;
    Ok(format!(
        "{}: {} bytes -> {}: {} bytes\n",
        input.display(),
        bytes.len(),
        output.display(),
        raw.len()
    ))
}

fn create(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .with_context(|| format!("{}: cannot create", path.display()))
}

/// What each stream takes in a packed file's blocks, uncompressed and compressed.
fn account(packed: &[u8]) -> Result<String> {
    let top = Top::from_bytes(packed)?;
    let mut sums = [(0u64, 0u64); columns::STREAMS];
    let mut at = PACKED_LEN;
    for _ in 0..top.blocks {
        let fields = block::fields(&packed[at..]).context("a block cut short")?;
        for (sum, pair) in sums
            .iter_mut()
            .zip(fields[block::STREAM_FIELDS..].chunks(2))
        {
            sum.0 += u64::from(pair[0]);
            sum.1 += u64::from(pair[1]);
        }
        at += block::FIELDS + 4 + block::frames(&fields);
    }
    let mut out = String::from("stream      bytes  compressed\n");
    for (i, (bytes, packed)) in sums.iter().enumerate() {
        out.push_str(&format!("{:8} {bytes:9} {packed:9}\n", columns::name(i)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
