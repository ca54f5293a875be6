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

/// A stream's integers are Rice-coded (the weights cluster near 0: about 4.6 bits a 7-bit
/// weight of the shipped network, `docs/BUNDLE.md`): each one's zigzag value `z` (0, -1, 1,
/// -2, ... as 0, 1, 2, 3, ...) is `z >> k` one-bits, a zero-bit, then the `k` low bits of
/// `z`, low bits first; the stream's first [`RICE_K_BITS`] bits hold `k`.
const RICE_K_BITS: u32 = 4;

/// The integer whose zigzag value is `z`.
fn unzigzag(z: u32) -> i32 {
    let h = (z >> 1) as i32;
    if z & 1 == 1 {
        -h - 1
    } else {
        h
    }
}

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

    /// The next `n` integers of a stream that [`Writer::stream`] wrote, each within
    /// ±(2^(bits−1) − 1) (`bits` 2 to 15), starting on a fresh character; a value outside
    /// that range, or a padding bit that is not set, is refused.
    pub fn stream(&mut self, bits: u32, n: usize) -> Result<Vec<i32>, DecodeError> {
        let mut b = (0u64, 0u32);
        let k = self.take(&mut b, RICE_K_BITS)?;
        let top = (1u32 << (bits - 1)) - 1;
        if k >= bits {
            return Err(DecodeError::Range {
                at: 0,
                int: k as i32,
            });
        }
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let mut q = 0;
            while self.take(&mut b, 1)? == 1 {
                q += 1;
                if q << k > 2 * top {
                    break;
                }
            }
            let z = q << k | self.take(&mut b, k)?;
            let v = unzigzag(z);
            if z > 2 * top {
                return Err(DecodeError::Range {
                    at: out.len(),
                    int: v,
                });
            }
            out.push(v);
        }
        if b.0 != (1 << b.1) - 1 {
            return Err(DecodeError::Padding(self.at - 1));
        }
        Ok(out)
    }

    /// The next `n` bits (at most 15) of a stream whose unread bits are `b` (bits, count).
    fn take(&mut self, b: &mut (u64, u32), n: u32) -> Result<u32, DecodeError> {
        while b.1 < n {
            b.0 |= u64::from(self.next()?) << b.1;
            b.1 += BITS;
        }
        let v = (b.0 & ((1 << n) - 1)) as u32;
        b.0 >>= n;
        b.1 -= n;
        Ok(v)
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

    /// Integers each within ±(2^(bits−1) − 1), Rice-coded with the `k` that writes the
    /// fewest bits (see [`Reader::stream`]).
    pub fn stream(&mut self, bits: u32, ints: &[i32]) -> &mut Writer {
        assert!((2..=BITS).contains(&bits), "{bits} bits");
        let top = (1i32 << (bits - 1)) - 1;
        let zs: Vec<u32> = ints
            .iter()
            .map(|&v| {
                assert!(v.abs() <= top, "{v} does not fit {bits} bits");
                (if v < 0 { -2 * v - 1 } else { 2 * v }) as u32
            })
            .collect();
        let cost = |k: u32| zs.iter().map(|&z| u64::from((z >> k) + 1 + k)).sum::<u64>();
        let k = (0..bits).min_by_key(|&k| cost(k)).unwrap_or(0);
        let mut b = BitWriter::default();
        b.push(k, RICE_K_BITS);
        for &z in &zs {
            for _ in 0..z >> k {
                b.push(1, 1);
            }
            b.push(0, 1);
            b.push(z & ((1 << k) - 1), k);
        }
        b.flush(&mut self.text);
        self
    }

    /// The text written.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Bits gathered low bits first into 15-bit characters.
#[cfg(not(codingame))]
#[derive(Default)]
struct BitWriter {
    text: String,
    acc: u64,
    have: u32,
}

#[cfg(not(codingame))]
impl BitWriter {
    /// Appends the `n` low bits of `v`.
    fn push(&mut self, v: u32, n: u32) {
        self.acc |= u64::from(v) << self.have;
        self.have += n;
        while self.have >= BITS {
            self.text
                .push(char_of((self.acc & ((1 << BITS) - 1)) as u32));
            self.acc >>= BITS;
            self.have -= BITS;
        }
    }

    /// Ends the stream on a character of its own, padded with one-bits (an unfinished
    /// quotient, so that no value can be read from them), into `out`.
    fn flush(mut self, out: &mut String) {
        if self.have > 0 {
            let pad = BITS - self.have;
            self.push((1 << pad) - 1, pad);
        }
        out.push_str(&self.text);
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

    /// Rice bits of `ints` under `k` as a slow reference: the zigzag value's quotient in
    /// unary, a stop bit, `k` low bits.
    fn rice_bits(ints: &[i32], k: u32) -> usize {
        let zig = |v: i32| (if v < 0 { -2 * v - 1 } else { 2 * v }) as usize;
        ints.iter().map(|&v| (zig(v) >> k) + 1 + k as usize).sum()
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
                let best = (0..bits).map(|k| rice_bits(&ints[..n], k)).min().unwrap();
                let chars = 2 + (4 + best).div_ceil(BITS as usize) + 1;
                assert_eq!(text.chars().count(), chars, "{bits} bits, {n}");
                let mut r = Reader::new(&text);
                assert_eq!(r.ints(2).unwrap(), [5, -5]);
                assert_eq!(r.stream(bits, n).unwrap(), &ints[..n], "{bits} bits, {n}");
                assert_eq!(r.ints(1).unwrap(), [-16383]);
                r.finish().unwrap();
            }
        }
    }

    #[test]
    fn weights_near_zero_take_fewer_bits_than_their_width() {
        // A two-sided geometric spread, as trained weights have: 0 most often, then ±1...
        let ints: Vec<i32> = (0..3000)
            .map(|i: i32| {
                let m = (i * 7919) % 64;
                let mag = (m.trailing_ones() + (m >> 5) as u32) as i32;
                if i % 2 == 0 {
                    mag
                } else {
                    -mag
                }
            })
            .collect();
        let mut w = Writer::default();
        w.stream(7, &ints);
        let chars = w.text().chars().count();
        assert!(chars * 15 < 3000 * 4, "{chars} characters");
        assert_eq!(Reader::new(w.text()).stream(7, 3000).unwrap(), ints);
        // The widest values at every k: one a character each at 15 bits and k = 14.
        let wide = [16383, -16383, 16383];
        let mut w = Writer::default();
        w.stream(15, &wide);
        assert_eq!(
            w.text().chars().count(),
            (4 + rice_bits(&wide, 14)).div_ceil(15)
        );
    }

    #[test]
    fn a_damaged_stream_is_named() {
        let mut w = Writer::default();
        // k = 1: 4 + 3 + 2 + 4 bits, so two padding bits (ones) in the first character.
        w.stream(8, &[1, -1, 2]);
        let text = w.text().to_string();
        let n = text.chars().count();
        assert_eq!(Reader::new(&text).stream(8, 4), Err(DecodeError::Short(n)));
        let mut r = Reader::new(&text);
        r.stream(8, 3).unwrap();
        assert_eq!(r.finish(), Ok(()));
        assert_eq!(n, 1);
        let mut long = text.clone();
        long.push(char_of(0));
        let mut r = Reader::new(&long);
        r.stream(8, 3).unwrap();
        assert_eq!(r.finish(), Err(DecodeError::Long(n)));
        // k = 2 (bits 0-3), then 71 one-bits: the quotient passes 254 >> 2, 8 bits' widest.
        let ones: String = [2 | 0x7ff0, 0x7fff, 0x7fff, 0x7fff, 0x7fff]
            .iter()
            .map(|&v| char_of(v))
            .collect();
        let e = Reader::new(&ones).stream(8, 1);
        assert!(matches!(e, Err(DecodeError::Range { at: 0, .. })), "{e:?}");
        // A k as wide as the integers is refused.
        let wide_k: String = [char_of(8)].iter().collect();
        assert_eq!(
            Reader::new(&wide_k).stream(8, 1),
            Err(DecodeError::Range { at: 0, int: 8 })
        );
        let mut chars: Vec<char> = text.chars().collect();
        chars[n - 1] = char_of(value_of(chars[n - 1]).unwrap() & !(1 << 14));
        let padded: String = chars.into_iter().collect();
        assert_eq!(
            Reader::new(&padded).stream(8, 3),
            Err(DecodeError::Padding(n - 1))
        );
    }
}
