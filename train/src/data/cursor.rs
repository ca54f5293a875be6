//! A cursor over one game record's bytes whose errors name the file offset.

use super::byte_move;
use anyhow::{bail, Context, Result};
use twixt::Move;

/// A cursor over one payload; errors give the file offset.
pub(super) struct Cursor<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
    pub base: u64,
}

impl Cursor<'_> {
    /// The file offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.at as u64
    }

    pub fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self.at + n;
        if end > self.bytes.len() {
            bail!(
                "offset {}: the game record ends early",
                self.base + self.at as u64
            );
        }
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    pub fn byte(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into()?))
    }

    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into()?))
    }

    /// A visit count: seven bits a byte, low first, the high bit set on every byte but the
    /// last; at most five bytes, the fifth with four bits of the count.
    pub fn varint(&mut self) -> Result<u32> {
        let mut v = 0u32;
        for shift in (0..35).step_by(7) {
            let at = self.offset();
            let b = self.byte()?;
            if shift == 28 && b & 0x70 != 0 {
                bail!("offset {at}: a visit count runs over 32 bits (its fifth byte is {b:#04x})");
            }
            v |= ((b & 0x7f) as u32) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        bail!(
            "offset {}: a visit count runs over 5 bytes",
            self.base + self.at as u64
        )
    }

    pub fn mv(&mut self) -> Result<Move> {
        let at = self.base + self.at as u64;
        let b = self.byte()?;
        byte_move(b).with_context(|| format!("offset {at}: {b} is not a move"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varint(bytes: &[u8]) -> Result<u32> {
        let mut c = Cursor {
            bytes,
            at: 0,
            base: 100,
        };
        c.varint()
    }

    #[test]
    fn a_varint_s_fifth_byte_holds_four_bits_and_no_more() {
        assert_eq!(varint(&[0x05]).unwrap(), 5);
        assert_eq!(varint(&[0x80, 0x01]).unwrap(), 128);
        assert_eq!(varint(&[0xff, 0xff, 0xff, 0xff, 0x0f]).unwrap(), u32::MAX);
        for fifth in [0x10, 0x1f, 0x7f] {
            let e = varint(&[0xff, 0xff, 0xff, 0xff, fifth]).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "offset 104: a visit count runs over 32 bits (its fifth byte is {fifth:#04x})"
                )
            );
        }
        let e = varint(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]).unwrap_err();
        assert_eq!(e.to_string(), "offset 105: a visit count runs over 5 bytes");
        let e = varint(&[0x80]).unwrap_err();
        assert_eq!(e.to_string(), "offset 101: the game record ends early");
    }
}
