//! The value network: the chance that the player to move wins, from one hidden layer.
//!
//! Each player's view of the board ([`super::inputs`]) feeds an accumulator of [`HIDDEN`]
//! units: the hidden bias plus the weight row of every filled input. The accumulators follow
//! the game peg by peg ([`Accumulator::place`]) instead of being summed again at every leaf.
//! The output reads the mover's units, then the opponent's, each clipped to [0, 1]:
//!
//! ```text
//! value = sigmoid(out_bias + Σ out_mover[j]·clip(acc_mover[j]) + Σ out_other[j]·clip(acc_other[j]))
//! ```
//!
//! Weights are integers, as shipped: the hidden layer's scaled by [`QA`] (so a unit's 1.0 is
//! `QA`), the output's by [`QB`], and the sums are exact in `i32`, so the accumulator that
//! follows the game equals one summed afresh, and the trainer's arithmetic equals this.

use super::encoding::{self, DecodeError};
use super::inputs::{self, INPUTS};
use super::net_weights;
use crate::board::Board;
use crate::bridge::{Bridge, NEIGHBORS, NO_BRIDGE};
use crate::cell::{Cell, Player};

/// Hidden units per view.
pub const HIDDEN: usize = 32;

/// The hidden layer's scale: a weight `w` ships as `round(w · QA)`, and a unit is clipped to
/// `0..=QA`.
pub const QA: i32 = 255;

/// The output layer's scale: a weight `w` ships as `round(w · QB)`.
pub const QB: i32 = 64;

/// The largest magnitude a shipped weight may have (15 bits a character, signed).
pub const LIMIT: i32 = (1 << (encoding::BITS - 1)) - 1;

/// Where each part of the network's weights starts, in the one order both the trainer's
/// `f32` parameters and the shipped integers follow: the input rows, the hidden bias, the
/// output weights of the mover's units then the opponent's, the output bias.
pub mod layout {
    use super::{HIDDEN, INPUTS};
    /// The hidden bias.
    pub const BIAS: usize = INPUTS * HIDDEN;
    /// The output weights of the mover's units, then the opponent's.
    pub const OUT: usize = BIAS + HIDDEN;
    /// The output bias.
    pub const OUT_BIAS: usize = OUT + 2 * HIDDEN;
    /// How many weights a network has (the trainer's parameters).
    pub const PARAMS: usize = OUT_BIAS + 1;
}

/// How many integers a network ships: [`layout::PARAMS`], the output bias (scaled by
/// `QA · QB`) taking two 15-bit halves ([`split_bias`]).
pub const INTS: usize = layout::PARAMS + 1;

/// The largest magnitude of the output bias: two 15-bit halves carry 28 bits.
pub const BIAS_LIMIT: i32 = (1 << 27) - 1;

/// The output bias as two integers that each fit 15 bits, low first: the low half in
/// `-0x2000..0x2000`, the high half the rest shifted down by 14.
pub fn split_bias(bias: i32) -> [i32; 2] {
    let low = ((bias + 0x2000) & 0x3fff) - 0x2000;
    [low, (bias - low) >> 14]
}

/// The output bias of its two halves ([`split_bias`]).
pub fn join_bias(halves: [i32; 2]) -> i32 {
    halves[0] + (halves[1] << 14)
}

/// The log-loss of predicting `p` for a result `won` (1 a win, 0 a loss), with `p` kept off
/// 0 and 1: what the trainer minimises and every report scores.
#[cfg(not(codingame))]
pub fn log_loss(p: f32, won: f32) -> f32 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    -(won * p.ln() + (1.0 - won) * (1.0 - p).ln())
}

/// A value network's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Row `i` holds input `i`'s weight for each hidden unit.
    pub rows: Vec<[i16; HIDDEN]>,
    /// The hidden units' bias.
    pub bias: [i16; HIDDEN],
    /// The output weights of the mover's units, then of the opponent's.
    pub out: [[i16; HIDDEN]; 2],
    /// The output bias, scaled by `QA · QB`.
    pub out_bias: i32,
}

/// Both players' hidden units for one position, indexed by player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    units: [[i32; HIDDEN]; 2],
}

impl Network {
    /// The network as a list of integers, in [`INTS`]'s order (for the trainer's export).
    #[cfg(not(codingame))]
    pub fn to_ints(&self) -> Vec<i32> {
        let mut out = Vec::with_capacity(INTS);
        for row in self.rows.iter().chain([&self.bias]).chain(&self.out) {
            out.extend(row.iter().map(|&w| i32::from(w)));
        }
        out.extend(split_bias(self.out_bias));
        out
    }

    /// The network of a list of [`INTS`] integers in [`layout`]'s order, each within
    /// ±[`LIMIT`], the output bias's two halves ([`split_bias`]) last; an integer out of its
    /// range is refused, never truncated.
    pub fn from_ints(ints: &[i32]) -> Result<Network, DecodeError> {
        if ints.len() != INTS {
            return Err(DecodeError::Count {
                found: ints.len(),
                expected: INTS,
            });
        }
        let halves = [ints[INTS - 2], ints[INTS - 1]];
        let fits = |at: usize, v: i32| match at {
            _ if at == INTS - 2 => (-0x2000..0x2000).contains(&v),
            _ => v.abs() <= LIMIT,
        };
        if let Some((at, &int)) = ints.iter().enumerate().find(|&(at, &v)| !fits(at, v)) {
            return Err(DecodeError::Range { at, int });
        }
        let row = |at: usize| {
            let mut r = [0i16; HIDDEN];
            for (w, &v) in r.iter_mut().zip(&ints[at..at + HIDDEN]) {
                *w = v as i16;
            }
            r
        };
        Ok(Network {
            rows: (0..INPUTS).map(|i| row(i * HIDDEN)).collect(),
            bias: row(layout::BIAS),
            out: [row(layout::OUT), row(layout::OUT + HIDDEN)],
            out_bias: join_bias(halves),
        })
    }

    /// The network carried by `text` (see [`encoding::decode_ints`]).
    pub fn decode(text: &str) -> Result<Network, DecodeError> {
        Network::from_ints(&encoding::decode_ints(text, INTS)?)
    }

    /// The network that ships with the bot (`net_weights.rs`, written by `twixt-train
    /// export-net`), or why its text does not decode to this shape.
    pub fn shipped() -> Result<Network, DecodeError> {
        Network::decode(net_weights::NETWORK)
    }

    /// [`Network::shipped`], or after a loud line on stderr none: the search then mixes the
    /// distance value where the network was asked for, and plays weaker.
    pub fn shipped_or_none() -> Option<Network> {
        match Network::shipped() {
            Ok(net) => Some(net),
            Err(e) => {
                eprintln!(
                    "twixt-bot: WARNING: the shipped value network does not decode ({}): \
                     value_net falls back to the distance value; re-export it with \
                     twixt-train export-net",
                    e
                );
                None
            }
        }
    }

    /// The accumulators of `board`, summed afresh.
    pub fn accumulate(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            units: [[0; HIDDEN]; 2],
        };
        for viewer in Player::BOTH {
            let units = &mut acc.units[viewer.index()];
            add(units, &self.bias);
            for i in inputs::active(board, viewer) {
                add(units, &self.rows[i]);
            }
        }
        acc
    }

    /// The chance that `mover` wins, from the accumulators of the position.
    pub fn value(&self, acc: &Accumulator, mover: Player) -> f32 {
        let mut sum = self.out_bias;
        for (half, viewer) in [mover, mover.other()].into_iter().enumerate() {
            let units = &acc.units[viewer.index()];
            for (&u, &w) in units.iter().zip(&self.out[half]) {
                sum += u.clamp(0, QA) * i32::from(w);
            }
        }
        let logit = sum as f32 / (QA * QB) as f32;
        1.0 / (1.0 + (-logit).exp())
    }
}

/// Adds one weight row to the units.
#[inline]
fn add(units: &mut [i32; HIDDEN], row: &[i16; HIDDEN]) {
    for (u, &w) in units.iter_mut().zip(row) {
        *u += i32::from(w);
    }
}

impl Accumulator {
    /// Follows `p`'s peg on `c`: `board` is the board after it, with the links it made.
    pub fn place(&mut self, net: &Network, board: &Board, p: Player, c: Cell) {
        for viewer in Player::BOTH {
            let units = &mut self.units[viewer.index()];
            add(units, &net.rows[inputs::peg_input(viewer, p, c)]);
            for n in &NEIGHBORS[c.index()] {
                if n.bridge == NO_BRIDGE {
                    continue;
                }
                let b = Bridge::from_index(n.bridge as usize).expect("a neighbour's bridge");
                if board.has_link(p, b) {
                    add(units, &net.rows[inputs::link_input(viewer, p, b)]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Move, Position};
    use crate::rng::FastRng;

    /// A network of small pseudo-random weights.
    pub fn random_network(seed: u64) -> Network {
        let mut rng = FastRng::new(seed);
        let mut w = || rng.below(2 * 200 + 1) as i32 - 200;
        let ints: Vec<i32> = (0..INTS - 2).map(|_| w()).chain([-3000, 0]).collect();
        Network::from_ints(&ints).unwrap()
    }

    #[test]
    fn the_accumulators_follow_random_games_exactly() {
        let net = random_network(7);
        for game in 0..20u64 {
            let mut rng = FastRng::new(game);
            let mut pos = Position::new();
            let mut acc = net.accumulate(pos.board());
            while pos.outcome().is_none() {
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len() as u32) as usize];
                let mover = pos.to_move();
                pos.play(mv).unwrap();
                match mv {
                    Move::Peg(c) => acc.place(&net, pos.board(), mover, c),
                    Move::Swap => acc = net.accumulate(pos.board()),
                }
                assert_eq!(acc, net.accumulate(pos.board()), "game {game}");
            }
        }
    }

    #[test]
    fn the_weights_round_trip_through_integers_and_text() {
        let mut net = random_network(3);
        for bias in [0, 1, -1, 123_456, -987_654, (1 << 27) - 1, -(1 << 27)] {
            net.out_bias = bias;
            let ints = net.to_ints();
            assert!(ints.iter().all(|v| v.abs() <= LIMIT), "{bias}");
            assert_eq!(Network::from_ints(&ints).unwrap(), net);
            let text = encoding::encode_ints(&ints);
            assert_eq!(text.chars().count(), INTS);
            assert_eq!(Network::decode(&text).unwrap(), net);
        }
        let ints = random_network(3).to_ints();
        for (at, int) in [
            (0, LIMIT + 1),
            (layout::BIAS, -LIMIT - 1),
            (INTS - 2, 0x2000),
        ] {
            let mut bad = ints.clone();
            bad[at] = int;
            assert_eq!(
                Network::from_ints(&bad),
                Err(DecodeError::Range { at, int }),
                "{at}"
            );
        }
        assert_eq!(
            Network::from_ints(&[1, 2]),
            Err(DecodeError::Count {
                found: 2,
                expected: INTS
            })
        );
    }

    #[test]
    fn the_value_is_the_mover_s_and_the_other_side_s_is_its_complement() {
        let mut net = random_network(11);
        net.out[1] = net.out[0].map(|w| -w);
        net.out_bias = 0;
        let pos = crate::testing::position("F6 E8 G8 D6");
        let acc = net.accumulate(pos.board());
        let (zero, one) = (net.value(&acc, Player::Zero), net.value(&acc, Player::One));
        assert!((zero + one - 1.0).abs() < 1e-6, "{zero} {one}");
        assert!(zero > 0.0 && zero < 1.0);
    }
}
