//! Weights as text for the one-file CodinGame submission: the bits of the `f32`s, 15 bits a
//! character, each character one UTF-16 code unit (CodinGame counts those) and a plain
//! letter that no editor normalises: CJK Extension A, CJK Unified Ideographs and Hangul
//! syllables, in that order. Sixteen bits (two 8-bit weights) a character cannot be had
//! without surrogates: the Basic Multilingual Plane holds 63,488 non-surrogate code points,
//! fewer than 2^16 (`docs/BUNDLE.md`).

/// Bits carried by one character.
pub const BITS: u32 = 15;

/// The ranges of code points used, each as (first code point, how many), in value order.
const RANGES: [(u32, u32); 3] = [(0x3400, 6592), (0x4E00, 20992), (0xAC00, 11172)];

/// The character that carries `v` (below 2^15).
#[cfg(not(codingame))]
pub fn char_of(v: u32) -> char {
    let mut v = v;
    for (start, len) in RANGES {
        if v < len {
            return char::from_u32(start + v).expect("the ranges hold only scalar values");
        }
        v -= len;
    }
    unreachable!("15-bit values fit the ranges")
}

/// The value a character carries, or `None` for a character outside the ranges.
pub fn value_of(c: char) -> Option<u32> {
    let mut base = 0;
    for (start, len) in RANGES {
        let code = c as u32;
        if code >= start && code < start + len {
            return Some(base + code - start);
        }
        base += len;
    }
    None
}

/// Why a text does not carry the weights it should.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The character at this index (counted in characters) is not one [`encode`] writes.
    Foreign(usize),
    /// The text carries `found` weights where `expected` were asked for.
    Count { found: usize, expected: usize },
    /// Weight `at` (counted in weights) is a NaN or an infinity.
    NotFinite(usize),
    /// Integer `at` (counted in integers) is `int`, outside the range its place allows.
    Range { at: usize, int: i32 },
    /// The text ends at character `.0`, before what it must carry.
    Short(usize),
    /// The text goes on after character `.0`, past what it carries.
    Long(usize),
    /// Character `.0` ends a stream with padding bits set.
    Padding(usize),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            DecodeError::Foreign(at) => write!(f, "character {} is not a weight character", at),
            DecodeError::Count { found, expected } => {
                write!(f, "the text carries {} weights, not {}", found, expected)
            }
            DecodeError::NotFinite(at) => write!(f, "weight {} is not a finite number", at),
            DecodeError::Range { at, int } => {
                write!(f, "integer {} is {}, outside its range", at, int)
            }
            DecodeError::Short(at) => write!(f, "the text ends early, at character {}", at),
            DecodeError::Long(at) => write!(f, "the text goes on after character {}", at),
            DecodeError::Padding(at) => {
                write!(f, "character {} ends a stream with padding bits set", at)
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// The `n` `f32`s packed into `text` by [`encode`], each finite: a NaN weight would make
/// every score it touches NaN, and the search would rank moves by noise.
pub fn decode(text: &str, n: usize) -> Result<Vec<f32>, DecodeError> {
    let mut out = Vec::with_capacity(n);
    let (mut acc, mut have) = (0u64, 0u32);
    for (at, c) in text.chars().enumerate() {
        acc |= (value_of(c).ok_or(DecodeError::Foreign(at))? as u64) << have;
        have += BITS;
        while have >= 32 {
            let w = f32::from_bits(acc as u32);
            if !w.is_finite() {
                return Err(DecodeError::NotFinite(out.len()));
            }
            out.push(w);
            acc >>= 32;
            have -= 32;
        }
    }
    counted(out, n)
}

/// `out` if it holds the `expected` number of weights.
fn counted<T>(out: Vec<T>, expected: usize) -> Result<Vec<T>, DecodeError> {
    if out.len() == expected {
        Ok(out)
    } else {
        Err(DecodeError::Count {
            found: out.len(),
            expected,
        })
    }
}

/// The text that carries `weights` (for the trainer's export).
#[cfg(not(codingame))]
pub fn encode(weights: &[f32]) -> String {
    let mut out = String::new();
    let (mut acc, mut have) = (0u64, 0u32);
    for w in weights {
        acc |= (w.to_bits() as u64) << have;
        have += 32;
        while have >= BITS {
            out.push(char_of((acc & ((1 << BITS) - 1)) as u32));
            acc >>= BITS;
            have -= BITS;
        }
    }
    if have > 0 {
        out.push(char_of(acc as u32));
    }
    out
}

/// The offset that makes a signed weight of `ints` a 15-bit character value.
const INT_OFFSET: i32 = 1 << (BITS - 1);

/// The text that carries `ints`, each within ±(2^14 − 1), one a character: a quantized
/// network's weights (for the trainer's export).
#[cfg(not(codingame))]
pub fn encode_ints(ints: &[i32]) -> String {
    ints.iter()
        .map(|&v| {
            assert!(v.abs() < INT_OFFSET, "{v} does not fit 15 bits");
            char_of((v + INT_OFFSET) as u32)
        })
        .collect()
}

/// A network's text read section by section: integers one a character, then streams of
/// narrower integers, each section starting on a fresh character.
pub struct Reader<'a> {
    chars: std::str::Chars<'a>,
    /// Characters read so far.
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            chars: text.chars(),
            at: 0,
        }
    }

    /// The next character's 15 bits.
    fn next(&mut self) -> Result<u32, DecodeError> {
        let c = self.chars.next().ok_or(DecodeError::Short(self.at))?;
        self.at += 1;
        value_of(c).ok_or(DecodeError::Foreign(self.at - 1))
    }

    /// The next `n` integers, one a character, each within ±(2^14 − 1).
    pub fn ints(&mut self, n: usize) -> Result<Vec<i32>, DecodeError> {
        (0..n)
            .map(|_| Ok(self.next()? as i32 - INT_OFFSET))
            .collect()
    }

    /// The next `n` integers of `bits` bits each (2 to 15), packed low bits first into
    /// `ceil(n · bits / 15)` characters, each within ±(2^(bits−1) − 1): a stored 0 (the one
    /// value outside that range) or a padding bit that is set is refused.
    pub fn stream(&mut self, bits: u32, n: usize) -> Result<Vec<i32>, DecodeError> {
        let offset = 1i32 << (bits - 1);
        let mask = (1u64 << bits) - 1;
        let mut out = Vec::with_capacity(n);
        let (mut acc, mut have) = (0u64, 0u32);
        while out.len() < n {
            if have < bits {
                acc |= u64::from(self.next()?) << have;
                have += BITS;
            }
            let v = (acc & mask) as i32;
            if v == 0 {
                return Err(DecodeError::Range {
                    at: out.len(),
                    int: -offset,
                });
            }
            out.push(v - offset);
            acc >>= bits;
            have -= bits;
        }
        if acc != 0 {
            return Err(DecodeError::Padding(self.at - 1));
        }
        Ok(out)
    }

    /// Fails unless the text is read to its end.
    pub fn finish(mut self) -> Result<(), DecodeError> {
        match self.chars.next() {
            None => Ok(()),
            Some(_) => Err(DecodeError::Long(self.at)),
        }
    }
}

/// The host's side of [`Reader`]: a network's text written section by section.
#[cfg(not(codingame))]
#[derive(Default)]
pub struct Writer {
    text: String,
}

#[cfg(not(codingame))]
impl Writer {
    /// Integers one a character, each within ±(2^14 − 1).
    pub fn ints(&mut self, ints: &[i32]) -> &mut Writer {
        self.text.push_str(&encode_ints(ints));
        self
    }

    /// Integers of `bits` bits each, each within ±(2^(bits−1) − 1) (see [`Reader::stream`]).
    pub fn stream(&mut self, bits: u32, ints: &[i32]) -> &mut Writer {
        assert!((2..=BITS).contains(&bits), "{bits} bits");
        let top = (1i32 << (bits - 1)) - 1;
        let (mut acc, mut have) = (0u64, 0u32);
        for &v in ints {
            assert!(v.abs() <= top, "{v} does not fit {bits} bits");
            acc |= ((v + top + 1) as u64) << have;
            have += bits;
            while have >= BITS {
                self.text.push(char_of((acc & ((1 << BITS) - 1)) as u32));
                acc >>= BITS;
                have -= BITS;
            }
        }
        if have > 0 {
            self.text.push(char_of(acc as u32));
        }
        self
    }

    /// The text written.
    pub fn text(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_its_own_character_one_utf16_unit_long() {
        let mut last = None;
        for v in 0..1u32 << BITS {
            let c = char_of(v);
            assert_eq!(value_of(c), Some(v));
            assert_eq!(c.len_utf16(), 1);
            assert!(last.map_or(true, |l| l < c));
            last = Some(c);
        }
        assert_eq!(value_of('a'), None);
    }

    #[test]
    fn weights_round_trip_bit_for_bit() {
        let weights = [
            0.0,
            -0.0,
            1.5,
            -3.25e-7,
            f32::MAX,
            f32::MIN_POSITIVE,
            12345.678,
        ];
        for n in 0..=weights.len() {
            let text = encode(&weights[..n]);
            assert_eq!(text.chars().count(), (32 * n + 14) / 15);
            let back = decode(&text, n).unwrap();
            let bits = |v: &[f32]| v.iter().map(|w| w.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&back), bits(&weights[..n]));
        }
        assert_eq!(decode("ab", 1), Err(DecodeError::Foreign(0)));
        let two = encode(&[1.0, 2.0]);
        let count = |found, expected| Err(DecodeError::Count { found, expected });
        assert_eq!(decode(&two, 3), count(2, 3));
        assert_eq!(decode(&two, 1), count(2, 1));
        let torn: String = two.chars().take(2).chain("x".chars()).collect();
        assert_eq!(decode(&torn, 2), Err(DecodeError::Foreign(2)));
        let ints = [0, 1, -1, 16383, -16383, 77];
        assert_eq!(Reader::new(&encode_ints(&ints)).ints(6).unwrap(), ints);
        assert_eq!(encode_ints(&ints).chars().count(), 6);
        assert_eq!(Reader::new("ab").ints(2), Err(DecodeError::Foreign(0)));
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let text = encode(&[1.0, 2.0, bad, 3.0]);
            assert_eq!(decode(&text, 4), Err(DecodeError::NotFinite(2)));
        }
        assert_eq!(
            DecodeError::Foreign(2).to_string(),
            "character 2 is not a weight character"
        );
    }

    #[test]
    fn streams_round_trip_at_the_edges_of_their_range() {
        for bits in 2..=BITS {
            let top = (1i32 << (bits - 1)) - 1;
            let ints: Vec<i32> = [top, -top, 0, 1, -1, top - 1, -top + 1, top]
                .iter()
                .copied()
                .cycle()
                .take(37)
                .collect();
            for n in [0, 1, 2, 7, 15, 16, 37] {
                let mut w = Writer::default();
                w.ints(&[5, -5]).stream(bits, &ints[..n]).ints(&[-16383]);
                let text = w.text().to_string();
                let chars = 2 + (n * bits as usize).div_ceil(BITS as usize) + 1;
                assert_eq!(text.chars().count(), chars, "{bits} bits, {n}");
                let mut r = Reader::new(&text);
                assert_eq!(r.ints(2).unwrap(), [5, -5]);
                assert_eq!(r.stream(bits, n).unwrap(), &ints[..n], "{bits} bits, {n}");
                assert_eq!(r.ints(1).unwrap(), [-16383]);
                r.finish().unwrap();
            }
        }
        // Eight bits: 1.875 integers a character.
        let mut w = Writer::default();
        w.stream(8, &[127; 1500]);
        assert_eq!(w.text().chars().count(), 800);
    }

    #[test]
    fn a_damaged_stream_is_named() {
        let mut w = Writer::default();
        w.stream(8, &[1, -127, 127]);
        let text = w.text().to_string();
        assert_eq!(Reader::new(&text).stream(8, 4), Err(DecodeError::Short(2)));
        let mut r = Reader::new(&text);
        r.stream(8, 3).unwrap();
        assert_eq!(r.finish(), Ok(()));
        let mut long = text.clone();
        long.push(char_of(0));
        let mut r = Reader::new(&long);
        r.stream(8, 3).unwrap();
        assert_eq!(r.finish(), Err(DecodeError::Long(2)));
        // A stored 0 is -128, outside the symmetric range.
        let zero: String = [char_of(0), char_of(0)].iter().collect();
        assert_eq!(
            Reader::new(&zero).stream(8, 1),
            Err(DecodeError::Range { at: 0, int: -128 })
        );
        // Three 8-bit integers leave 6 bits of padding in the second character.
        let mut chars: Vec<char> = text.chars().collect();
        chars[1] = char_of(value_of(chars[1]).unwrap() | 1 << 14);
        let padded: String = chars.into_iter().collect();
        assert_eq!(
            Reader::new(&padded).stream(8, 3),
            Err(DecodeError::Padding(1))
        );
    }
}
