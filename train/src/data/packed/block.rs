//! One block of a packed file: its games' columns, each in a zstd frame, and the checks
//! around them (`super`'s module doc has the layout).

use super::columns::{self, Columns, Reader, STREAMS};
use super::games;
use crate::data::{decode, encode, record, Game};
use anyhow::{anyhow, bail, ensure, Context, Result};

/// zstd's level: its highest short of the "ultra" levels, whose windows outgrow a block.
pub(super) const LEVEL: i32 = 19;
/// Bytes of a block's fields before its frames: four u32, and two for each stream.
pub(super) const FIELDS: usize = 4 * (4 + 2 * STREAMS);
/// Where the streams' fields start among a block's fields.
pub(super) const STREAM_FIELDS: usize = 4;
/// The most bytes a block's stream may claim: a bound on what a damaged file makes this
/// allocate (a block's 8 MiB of records make a few megabytes of streams).
const MOST_STREAM: usize = 1 << 30;

/// Appends the block of `games`, whose records in the data file are `raw`; the game before
/// them is numbered `prev` (0 for the first block), and the run's full searches have
/// `iterations`.
pub(super) fn write(
    out: &mut Vec<u8>,
    games: &[Game],
    raw: &[u8],
    prev: u32,
    iterations: u32,
) -> Result<()> {
    let streams = columns(games, prev, iterations)?.into_streams();
    write_streams(out, games.len(), raw, &streams)
}

/// Appends the block of `games` games whose records are `raw` and whose columns are
/// `streams`.
pub(super) fn write_streams(
    out: &mut Vec<u8>,
    games: usize,
    raw: &[u8],
    streams: &[Vec<u8>],
) -> Result<()> {
    let mut frames = Vec::with_capacity(STREAMS);
    for stream in streams {
        frames.push(compress(stream)?);
    }
    let start = out.len();
    let hash = fnv(raw);
    let mut fields = vec![
        games,
        raw.len(),
        hash as u32 as usize,
        (hash >> 32) as usize,
    ];
    for (stream, frame) in streams.iter().zip(&frames) {
        fields.extend([stream.len(), frame.len()]);
    }
    for field in fields {
        out.extend_from_slice(&u32::try_from(field)?.to_le_bytes());
    }
    frames.iter().for_each(|f| out.extend_from_slice(f));
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(())
}

/// One stream as a zstd frame that carries zstd's checksum of it (no frame for no bytes).
pub(super) fn compress(stream: &[u8]) -> Result<Vec<u8>> {
    if stream.is_empty() {
        return Ok(Vec::new());
    }
    let mut zstd = zstd::bulk::Compressor::new(LEVEL)?;
    zstd.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    Ok(zstd.compress(stream)?)
}

/// FNV-1a (64 bits) of the unpacked records. Not a crc32: each record ends with the crc32
/// of its payload, and a crc32 of such records is the same whatever the payloads hold.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The fields of the block that `bytes` begin with: its games, their bytes unpacked, the
/// low and high halves of their hash ([`fnv`]), then each stream's bytes and its frame's;
/// `None` if cut short.
pub(super) fn fields(bytes: &[u8]) -> Option<Vec<u32>> {
    let head = bytes.get(..FIELDS)?;
    Some(
        head.chunks(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

/// The bytes of a block's frames, by its fields.
pub(super) fn frames(fields: &[u32]) -> usize {
    fields[STREAM_FIELDS + 1..]
        .iter()
        .step_by(2)
        .map(|&f| f as usize)
        .sum()
}

/// The columns of `games`, the game before them numbered `prev`.
pub(super) fn columns(games: &[Game], mut prev: u32, iterations: u32) -> Result<Columns> {
    let mut c = Columns::default();
    for g in games {
        games::put_index(&mut c, g.index, prev);
        games::put_game(&mut c, g, iterations).with_context(|| format!("game {}", g.index))?;
        prev = g.index;
    }
    Ok(c)
}

/// A block to read: block `number` of the packed file `bytes`, at offset `at`.
pub(super) struct Read<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
    pub number: u32,
    /// The data file's version and its full searches' iterations.
    pub version: u16,
    pub iterations: u32,
}

impl Read<'_> {
    /// Reads the block's games onto `games` and their records onto `raw` (the data file so
    /// far); the game before them is numbered `prev`. Returns the offset after the block.
    pub fn games(&self, prev: u32, games: &mut Vec<Game>, raw: &mut Vec<u8>) -> Result<usize> {
        self.checked(prev, games, raw)
            .with_context(|| format!("offset {}: block {}", self.at, self.number))
    }

    fn checked(&self, prev: u32, games: &mut Vec<Game>, raw: &mut Vec<u8>) -> Result<usize> {
        let (fields, end) = self.fields()?;
        let streams = self.streams(&fields)?;
        let mut r = Reader::new(&streams);
        let (start, first) = (raw.len(), games.len());
        let mut prev = prev;
        for i in 0..fields[0] {
            let index = games::get_index(&mut r, prev)
                .with_context(|| format!("the number of its game {i}"))?;
            let game = games::get_game(&mut r, index, self.iterations)
                .with_context(|| format!("game {index}"))?;
            raw.extend_from_slice(&record(&encode(&game)));
            games.push(game);
            prev = index;
        }
        r.finish()?;
        let bytes = &raw[start..];
        let hash = u64::from(fields[2]) | u64::from(fields[3]) << 32;
        ensure!(
            bytes.len() == fields[1] as usize && fnv(bytes) == hash,
            "its games unpack to other bytes than were packed"
        );
        self.replay(&mut games[first..], raw, start)?;
        Ok(end)
    }

    /// The block's fields and the offset after the block, once its checksum holds.
    fn fields(&self) -> Result<(Vec<u32>, usize)> {
        let cut = || anyhow!("it is cut short (the file is truncated)");
        let fields = fields(&self.bytes[self.at..]).ok_or_else(cut)?;
        let end = self.at + FIELDS + frames(&fields) + 4;
        let block = self.bytes.get(self.at..end).ok_or_else(cut)?;
        let (body, crc) = block.split_at(block.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != crc {
            bail!(
                "its checksum does not match (the file is damaged{})",
                self.locate(&fields)
            );
        }
        Ok((fields, end))
    }

    /// Where in a damaged block zstd finds damage: the first frame that does not
    /// decompress or whose checksum fails, if any.
    fn locate(&self, fields: &[u32]) -> String {
        let mut at = self.at + FIELDS;
        for (i, pair) in fields[STREAM_FIELDS..].chunks(2).enumerate() {
            let (len, frame) = ((pair[0] as usize).min(MOST_STREAM), pair[1] as usize);
            let damaged = zstd::bulk::Decompressor::new().map_or(true, |mut z| {
                z.decompress(&self.bytes[at..at + frame], len).is_err()
            });
            if frame > 0 && damaged {
                return format!(
                    ": the frame of the {} stream, at offset {at}",
                    columns::name(i)
                );
            }
            at += frame;
        }
        String::new()
    }

    /// The block's streams, decompressed and checked, planes undone.
    fn streams(&self, fields: &[u32]) -> Result<Vec<Vec<u8>>> {
        let mut at = self.at + FIELDS;
        let mut streams = Vec::with_capacity(STREAMS);
        let mut zstd = zstd::bulk::Decompressor::new()?;
        for (i, pair) in fields[STREAM_FIELDS..].chunks(2).enumerate() {
            let (len, frame) = (pair[0] as usize, pair[1] as usize);
            ensure!(
                len <= MOST_STREAM,
                "{len} bytes of a stream, more than a block holds"
            );
            let name = columns::name(i);
            if frame == 0 {
                ensure!(len == 0, "offset {at}: the {name} stream has no frame");
                streams.push(Vec::new());
                continue;
            }
            let stream = zstd
                .decompress(&self.bytes[at..at + frame], len)
                .map_err(|e| anyhow!("offset {at}: the {name} stream does not decompress: {e}"))?;
            ensure!(
                stream.len() == len,
                "offset {at}: the {name} stream holds {} bytes, not {len}",
                stream.len()
            );
            streams.push(stream);
            at += frame;
        }
        columns::unplane(&mut streams)?;
        Ok(streams)
    }

    /// Reads each game's record as the data file's reader does (the rules replay it), in
    /// place of the game the columns gave.
    fn replay(&self, games: &mut [Game], raw: &[u8], mut at: usize) -> Result<()> {
        for g in games {
            let len = u32::from_le_bytes(raw[at..at + 4].try_into()?) as usize;
            let payload = &raw[at + 4..at + 4 + len];
            *g = decode(payload, at as u64 + 4, self.version).with_context(|| {
                format!("game {}, at offset {at} of the unpacked file", g.index)
            })?;
            at += len + 8;
        }
        Ok(())
    }
}
