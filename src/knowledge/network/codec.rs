//! The network as shipped text (one 15-bit value a character, [`crate::knowledge::encoding`]):
//!
//! ```text
//! header   9 integers   format 3, inputs, hidden, row bits, qa, qb, holes (0 or POLICY_HOLES),
//!                       policy bits, qp
//! rows     a stream of inputs · hidden integers within `row bits` bits, input by input
//! bias     hidden integers, one a character
//! out      2 · hidden integers: the mover's units, then the opponent's
//! out bias 2 integers, its halves (split_bias)
//! then, with a policy head:
//! policy   a stream of holes · 2 · hidden integers within `policy bits` bits, hole by hole
//!          (the mover's units, then the opponent's)
//! pbias    2 · holes integers, each bias's halves
//! local    2 · LOCAL integers, the local term's weights' halves (`super::local`)
//! ```
//! Anything out of place (another format, a count that is not this engine's, a scale below
//! 1, an integer outside its range, a text too short or too long) is refused by name.

#[cfg(not(codingame))]
use super::{local::LOCAL, POLICY_HOLES};
use super::{Network, MAX_HIDDEN};
use crate::knowledge::encoding::{DecodeError, Reader};
use crate::knowledge::inputs::INPUTS;

/// The format this engine reads.
pub const FORMAT: i32 = 3;

/// The policy head's holes a network may have besides none: the bundle, which ships no
/// policy head, refuses one.
#[cfg(not(codingame))]
const HEAD_HOLES: i32 = POLICY_HOLES as i32;
#[cfg(codingame)]
const HEAD_HOLES: i32 = 0;

/// A bias too wide for one 15-bit integer, as two that each fit: the low half in
/// `-0x2000..0x2000`, the high half the rest shifted down by 14 (28 bits in all).
#[cfg(not(codingame))]
pub fn split_bias(bias: i32) -> [i32; 2] {
    let low = ((bias + 0x2000) & 0x3fff) - 0x2000;
    [low, (bias - low) >> 14]
}

/// A bias of its two halves ([`split_bias`]).
pub fn join_bias(halves: [i32; 2]) -> i32 {
    halves[0] + (halves[1] << 14)
}

/// The largest magnitude a split bias may have.
#[cfg(not(codingame))]
pub const BIAS_LIMIT: i32 = (1 << 27) - 1;

/// `n` biases read as halves; a low half out of its range is refused.
pub(super) fn biases(r: &mut Reader, n: usize) -> Result<Vec<i32>, DecodeError> {
    let ints = r.ints(2 * n)?;
    let mut out = Vec::with_capacity(n);
    for (k, pair) in ints.chunks(2).enumerate() {
        if !(-0x2000..0x2000).contains(&pair[0]) {
            return Err(DecodeError::Range {
                at: 2 * k,
                int: pair[0],
            });
        }
        out.push(join_bias([pair[0], pair[1]]));
    }
    Ok(out)
}

/// Integers read one a character into rows of `width` of `N` entries each.
pub(super) fn rows<const N: usize>(ints: &[i32], width: usize) -> Vec<[i16; N]> {
    ints.chunks(width)
        .map(|chunk| {
            let mut row = [0i16; N];
            for (w, &v) in row.iter_mut().zip(chunk) {
                *w = v as i16;
            }
            row
        })
        .collect()
}

impl Network {
    /// The network carried by `text` (the format above).
    pub fn decode(text: &str) -> Result<Network, DecodeError> {
        let mut r = Reader::new(text);
        let head = r.ints(9)?;
        let allowed: [(i32, i32); 9] = [
            (FORMAT, FORMAT),
            (INPUTS as i32, INPUTS as i32),
            (1, MAX_HIDDEN as i32),
            (2, 15),
            (1, 16383),
            (1, 16383),
            (0, HEAD_HOLES),
            (2, 15),
            (1, 16383),
        ];
        for (at, (&int, &(lo, hi))) in head.iter().zip(&allowed).enumerate() {
            if int < lo || int > hi || (at == 6 && int != 0 && int != HEAD_HOLES) {
                return Err(DecodeError::Range { at, int });
            }
        }
        let h = head[2] as usize;
        let row_ints = r.stream(head[3] as u32, INPUTS * h)?;
        let bias = rows::<MAX_HIDDEN>(&r.ints(h)?, h)[0];
        let out_ints = r.ints(2 * h)?;
        let out_rows = rows::<MAX_HIDDEN>(&out_ints, h);
        let out_bias = biases(&mut r, 1)?[0];
        #[cfg(not(codingame))]
        let policy = super::policy::decode_head(&mut r, &head, h)?;
        r.finish()?;
        Ok(Network {
            hidden: h,
            row_bits: head[3] as u32,
            qa: head[4],
            qb: head[5],
            rows: rows(&row_ints, h),
            bias,
            out: [out_rows[0], out_rows[1]],
            out_bias,
            #[cfg(not(codingame))]
            policy,
            kernel: super::Kernel::detected(),
        })
    }

    /// The text that carries the network (for the trainer's export); every integer must fit
    /// its place (the quantizer's job).
    #[cfg(not(codingame))]
    pub fn encode(&self) -> String {
        use crate::knowledge::encoding::Writer;
        let h = self.hidden;
        let (holes, bits, qp) = match &self.policy {
            Some(p) => (POLICY_HOLES as i32, p.bits as i32, p.qp),
            None => (0, 2, 1),
        };
        let wide = |v: &[i16]| v.iter().map(|&w| i32::from(w)).collect::<Vec<i32>>();
        let mut w = Writer::default();
        w.ints(&[FORMAT, INPUTS as i32, h as i32, self.row_bits as i32])
            .ints(&[self.qa, self.qb, holes, bits, qp]);
        let rows: Vec<i32> = self.rows.iter().flat_map(|r| wide(&r[..h])).collect();
        w.stream(self.row_bits, &rows).ints(&wide(&self.bias[..h]));
        w.ints(&wide(&self.out[0][..h]))
            .ints(&wide(&self.out[1][..h]));
        w.ints(&split_bias(self.out_bias));
        if let Some(p) = &self.policy {
            let ints: Vec<i32> = p
                .rows
                .iter()
                .flat_map(|r| wide(&r[..h]).into_iter().chain(wide(&r[MAX_HIDDEN..][..h])))
                .collect();
            w.stream(p.bits, &ints);
            let halves: Vec<i32> = p
                .bias
                .iter()
                .chain(&p.local)
                .flat_map(|&b| split_bias(b))
                .collect();
            w.ints(&halves);
        }
        w.text().to_string()
    }
}

/// Where each part of a network's `f32` parameters starts, in the one order the trainer
/// keeps them: the input rows, the hidden bias, the value's output weights (the mover's units,
/// then the opponent's) and its bias, then with a policy head each hole's weights (the
/// mover's units, then the opponent's) and the holes' biases.
#[cfg(not(codingame))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Hidden units a view.
    pub hidden: usize,
    /// Whether there is a policy head.
    pub policy: bool,
}

#[cfg(not(codingame))]
impl Layout {
    /// The hidden bias.
    pub fn bias(self) -> usize {
        INPUTS * self.hidden
    }
    /// The value's output weights.
    pub fn out(self) -> usize {
        self.bias() + self.hidden
    }
    /// The value's output bias.
    pub fn out_bias(self) -> usize {
        self.out() + 2 * self.hidden
    }
    /// The policy's weights, hole by hole.
    pub fn policy(self) -> usize {
        self.out_bias() + 1
    }
    /// The policy's biases.
    pub fn policy_bias(self) -> usize {
        self.policy() + POLICY_HOLES * 2 * self.hidden
    }
    /// The policy's local weights.
    pub fn local(self) -> usize {
        self.policy_bias() + POLICY_HOLES
    }
    /// How many parameters there are.
    pub fn params(self) -> usize {
        match self.policy {
            true => self.local() + LOCAL,
            false => self.policy(),
        }
    }
}

/// The log-loss of predicting `p` for a result `won` (1 a win, 0 a loss), with `p` kept off
/// 0 and 1: what the trainer minimises and every report scores.
#[cfg(not(codingame))]
pub fn log_loss(p: f32, won: f32) -> f32 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    -(won * p.ln() + (1.0 - won) * (1.0 - p).ln())
}
