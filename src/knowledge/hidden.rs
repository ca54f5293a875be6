//! The policy's hidden layer: [`HIDDEN`] units that read the same (index, count) pairs as the
//! linear logit, each through its own row of weights, and add
//! `out · crelu(bias + Σ rows · counts)` to the logit (crelu clamps to [0, 1]). The linear
//! features know a link or a blocked border alone; the units weigh them together.
//!
//! The weights are integers of `bits` bits (at most 8) over a scale of `2^(bits − 2)`, so
//! within ±2, and the units sum in 16-bit integers: eight lanes to a vector register, and
//! sums that are the same in any order. Shipped as the header integers `[HIDDEN, bits]`, then
//! one stream of the rows, the biases and the output weights (`super::encoding::Reader`).

use super::encoding::{DecodeError, Reader};
use super::features::{Active, FEATURES};

/// Hidden units.
pub const HIDDEN: usize = 32;

/// A value for each hidden unit.
pub type Units = [i16; HIDDEN];

/// The hidden layer's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Hidden {
    /// The weights' width in bits (2 to 8); `1 << (bits - 2)` stands for 1.
    pub bits: u32,
    /// A row a feature.
    pub rows: Vec<Units>,
    /// The units' starting sums.
    pub bias: Units,
    /// What each unit's clamped sum adds to the logit.
    pub out: Units,
}

impl Hidden {
    /// The integer that stands for 1.
    pub fn one(&self) -> i16 {
        1 << (self.bits - 2)
    }

    /// What the units with sums `sums` add to the logit.
    #[inline]
    pub fn output(&self, sums: &Units) -> f32 {
        let one = self.one();
        let mut t = 0i32;
        for (&s, &o) in sums.iter().zip(&self.out) {
            t += s.max(0).min(one) as i32 * o as i32;
        }
        t as f32 / (one as f32 * one as f32)
    }

    /// The units' sums over the features `a`, from `sums`. Kept out of line: inlined into
    /// the features' reading, the lanes were added one by one.
    #[inline(never)]
    pub fn add(&self, mut sums: Units, a: &Active) -> Units {
        for &(i, n) in &a.pairs[..a.len] {
            for (s, &w) in sums.iter_mut().zip(&self.rows[i as usize]) {
                *s = s.wrapping_add(w.wrapping_mul(n as i16));
            }
        }
        sums
    }

    /// The units' sums over the features `a`.
    pub fn sums(&self, a: &Active) -> Units {
        self.add(self.bias, a)
    }

    /// The logit of features `a` under the linear `weights` and this layer, where the
    /// features before `a` summed to `base` (the linear sum and the units').
    #[inline]
    pub fn logit(&self, weights: &[f32], a: &Active, base: (f32, Units)) -> f32 {
        let linear = a.iter().fold(base.0, |sum, (i, n)| sum + weights[i] * n);
        linear + self.output(&self.add(base.1, a))
    }

    /// Decodes the text [`Hidden::encode`] writes.
    pub fn decode(text: &str) -> Result<Hidden, DecodeError> {
        let mut r = Reader::new(text);
        let head = r.ints(2)?;
        if head[0] != HIDDEN as i32 {
            return Err(DecodeError::Range {
                at: 0,
                int: head[0],
            });
        }
        if !(2..=8).contains(&head[1]) {
            return Err(DecodeError::Range {
                at: 1,
                int: head[1],
            });
        }
        let bits = head[1] as u32;
        let ints = r.stream(bits, (FEATURES + 2) * HIDDEN)?;
        r.finish()?;
        Ok(Hidden::from_ints(bits, &ints))
    }

    /// The layer of `bits`-bit weights listed as the rows, the biases and the outputs:
    /// `(FEATURES + 2) · HIDDEN` integers, as every caller holds (`decode` reads that many).
    pub fn from_ints(bits: u32, ints: &[i32]) -> Hidden {
        let mut units = ints.chunks(HIDDEN).map(|c| {
            let mut u = [0; HIDDEN];
            for (w, &i) in u.iter_mut().zip(c) {
                *w = i as i16;
            }
            u
        });
        Hidden {
            bits,
            rows: units.by_ref().take(FEATURES).collect(),
            bias: units.next().unwrap_or([0; HIDDEN]),
            out: units.next().unwrap_or([0; HIDDEN]),
        }
    }

    /// The weights listed as [`Hidden::from_ints`] takes them.
    #[cfg(not(codingame))]
    pub fn ints(&self) -> Vec<i32> {
        let all = self.rows.iter().chain([&self.bias, &self.out]);
        all.flatten().map(|&w| w as i32).collect()
    }

    /// The text that carries these weights (for the trainer's export).
    #[cfg(not(codingame))]
    pub fn encode(&self) -> String {
        let mut writer = super::encoding::Writer::default();
        writer
            .ints(&[HIDDEN as i32, self.bits as i32])
            .stream(self.bits, &self.ints());
        writer.text().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(bits: u32) -> Hidden {
        let top = (1 << (bits - 1)) - 1;
        let ints: Vec<i32> = (0..(FEATURES + 2) * HIDDEN)
            .map(|k| (k as i32 * 7919) % (2 * top + 1) - top)
            .collect();
        Hidden::from_ints(bits, &ints)
    }

    #[test]
    fn the_text_carries_the_integers_at_every_width() {
        for bits in 2..=8 {
            let h = layer(bits);
            let text = h.encode();
            assert_eq!(Hidden::decode(&text), Ok(h.clone()), "{bits} bits");
            let mut stream = super::super::encoding::Writer::default();
            stream.stream(bits, &h.ints());
            let chars = 2 + stream.text().chars().count();
            assert_eq!(text.chars().count(), chars, "{bits} bits");
        }
    }

    #[test]
    fn a_text_of_another_layer_is_refused() {
        let text = layer(7).encode();
        let head = |units: i32, bits: i32| {
            let mut w = super::super::encoding::Writer::default();
            w.ints(&[units, bits]);
            w.text().to_string() + &text.chars().skip(2).collect::<String>()
        };
        let range = |at, int| Err(DecodeError::Range { at, int });
        assert_eq!(Hidden::decode(&head(8, 7)), range(0, 8));
        assert_eq!(Hidden::decode(&head(HIDDEN as i32, 9)), range(1, 9));
        let short: String = text.chars().take(text.chars().count() - 1).collect();
        assert!(matches!(Hidden::decode(&short), Err(DecodeError::Short(_))));
        assert!(matches!(
            Hidden::decode(&(text + "㐀")),
            Err(DecodeError::Long(_))
        ));
    }

    #[test]
    fn each_unit_adds_its_sum_clamped_to_zero_and_one_times_its_weight() {
        let mut h = layer(7);
        let one = h.one();
        assert_eq!(one, 32);
        h.out = [0; HIDDEN];
        h.out[0] = 16; // a half
        h.out[1] = -64; // minus two
        let mut sums = [0; HIDDEN];
        for (s, expected) in [
            ((-5, 0), 0.0),
            ((8, 0), 0.125),
            ((32, 0), 0.5),
            ((1000, 0), 0.5),
            ((1000, 16), 0.5 - 1.0),
            ((0, 40), -2.0),
        ] {
            sums[0] = s.0;
            sums[1] = s.1;
            sums[2] = 1000; // no weight out
            assert_eq!(h.output(&sums), expected, "{s:?}");
        }
    }

    #[test]
    fn the_sums_add_each_row_times_its_count_from_the_biases() {
        let h = layer(7);
        let mut a = Active {
            pairs: [(0, 0); super::super::features::MAX_ACTIVE],
            len: 2,
        };
        a.pairs[0] = (3, 2);
        a.pairs[1] = (40, 1);
        let sums = h.sums(&a);
        for (j, &s) in sums.iter().enumerate() {
            assert_eq!(s, h.bias[j] + 2 * h.rows[3][j] + h.rows[40][j]);
        }
    }
}
