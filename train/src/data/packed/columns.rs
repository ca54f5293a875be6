//! The columns of a packed block: one byte stream for each kind of field, so that the
//! compressor sees like next to like (`super`'s module doc lists them).

use anyhow::{bail, ensure, Result};

/// The streams of a block, in the order they are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stream {
    Index,
    Winner,
    Opening,
    Plies,
    Full,
    Moves,
    Kind,
    Roots,
    Visited,
    Played,
    Total,
    Visits,
    Value,
    Values,
}

/// How many streams a block holds.
pub(super) const STREAMS: usize = 14;

/// Each stream's name, as an error gives it.
const NAMES: [&str; STREAMS] = [
    "index", "winner", "opening", "plies", "full", "moves", "kind", "roots", "visited", "played",
    "total", "visits", "value", "values",
];

/// The streams of a block being written.
#[derive(Default)]
pub(super) struct Columns {
    bytes: [Vec<u8>; STREAMS],
}

impl Columns {
    pub fn push(&mut self, s: Stream, b: u8) {
        self.bytes[s as usize].push(b);
    }

    pub fn extend(&mut self, s: Stream, b: &[u8]) {
        self.bytes[s as usize].extend_from_slice(b);
    }

    /// Appends `v` in LEB128 (seven bits a byte, low first).
    pub fn varint(&mut self, s: Stream, mut v: u64) {
        let out = &mut self.bytes[s as usize];
        while v >= 0x80 {
            out.push(v as u8 | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    /// The streams, the value stream in planes: the first byte of every value, then the
    /// second, and so on (the high bytes of values near each other are alike).
    pub fn into_streams(self) -> Vec<Vec<u8>> {
        let mut streams = Vec::from(self.bytes);
        let value = &mut streams[Stream::Value as usize];
        let n = value.len() / 4;
        *value = (0..4 * n).map(|i| value[i % n * 4 + i / n]).collect();
        streams
    }
}

/// The name of stream `i`.
pub(super) fn name(i: usize) -> &'static str {
    NAMES[i]
}

/// The inverse of [`Columns::into_streams`]'s planes.
pub(super) fn unplane(streams: &mut [Vec<u8>]) -> Result<()> {
    let value = &mut streams[Stream::Value as usize];
    ensure!(
        value.len().is_multiple_of(4),
        "the value stream holds {} bytes, not a multiple of 4",
        value.len()
    );
    let n = value.len() / 4;
    *value = (0..4 * n).map(|i| value[i % 4 * n + i / 4]).collect();
    Ok(())
}

/// The streams of a block being read; an error names the stream.
pub(super) struct Reader<'a> {
    streams: &'a [Vec<u8>],
    at: [usize; STREAMS],
}

impl<'a> Reader<'a> {
    /// A reader of a block's streams, planes undone ([`unplane`]).
    pub fn new(streams: &'a [Vec<u8>]) -> Reader<'a> {
        assert_eq!(streams.len(), STREAMS, "a block has {STREAMS} streams");
        Reader {
            streams,
            at: [0; STREAMS],
        }
    }

    pub fn take(&mut self, s: Stream, n: usize) -> Result<&'a [u8]> {
        let (bytes, at) = (&self.streams[s as usize][..], self.at[s as usize]);
        let Some(taken) = bytes.get(at..at.saturating_add(n)) else {
            bail!("the {} stream ends early", NAMES[s as usize]);
        };
        self.at[s as usize] += n;
        Ok(taken)
    }

    pub fn byte(&mut self, s: Stream) -> Result<u8> {
        Ok(self.take(s, 1)?[0])
    }

    /// A LEB128 number of at most 64 bits.
    pub fn varint(&mut self, s: Stream) -> Result<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(s)?;
            ensure!(
                shift < 63 || b <= 1,
                "a number in the {} stream runs over 64 bits",
                NAMES[s as usize]
            );
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        bail!(
            "a number in the {} stream runs over 64 bits",
            NAMES[s as usize]
        )
    }

    /// Fails unless every stream was read to its end.
    pub fn finish(&self) -> Result<()> {
        for ((stream, &at), name) in self.streams.iter().zip(&self.at).zip(NAMES) {
            ensure!(
                at == stream.len(),
                "{} bytes left over in the {name} stream",
                stream.len() - at
            );
        }
        Ok(())
    }
}

/// A signed number as an unsigned one, small either side of 0 staying small.
pub(super) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag`].
pub(super) fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_round_trip_and_their_damage_is_named() {
        let mut c = Columns::default();
        c.varint(Stream::Visits, u64::MAX);
        c.varint(Stream::Visits, 300);
        c.push(Stream::Kind, 7);
        for v in [0.25f32, 1.0, 0.75] {
            c.extend(Stream::Value, &v.to_le_bytes());
        }
        let mut streams = c.into_streams();
        assert_eq!(streams[Stream::Value as usize][..3], [0, 0, 0], "planes");
        unplane(&mut streams).unwrap();
        let mut r = Reader::new(&streams);
        assert_eq!(r.varint(Stream::Visits).unwrap(), u64::MAX);
        let e = r.finish().unwrap_err().to_string();
        assert_eq!(e, "1 bytes left over in the kind stream");
        assert_eq!(r.varint(Stream::Visits).unwrap(), 300);
        assert_eq!(r.byte(Stream::Kind).unwrap(), 7);
        let values = r.take(Stream::Value, 12).unwrap();
        assert_eq!(values[4..8], 1f32.to_le_bytes());
        r.finish().unwrap();
        let e = r.byte(Stream::Kind).unwrap_err().to_string();
        assert_eq!(e, "the kind stream ends early");
        for v in [0, 1, -1, i64::MAX, i64::MIN] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        let mut over = Columns::default();
        over.extend(Stream::Total, &[0xff; 9]);
        over.push(Stream::Total, 2);
        let mut streams = over.into_streams();
        let e = Reader::new(&streams).varint(Stream::Total).unwrap_err();
        assert!(e.to_string().contains("runs over 64 bits"), "{e}");
        streams[Stream::Value as usize].push(1);
        let e = unplane(&mut streams).unwrap_err().to_string();
        assert_eq!(e, "the value stream holds 1 bytes, not a multiple of 4");
    }
}
