//! The network: the chance that the player to move wins, and a policy over its holes, from
//! one hidden layer.
//!
//! Each player's view of the board ([`super::inputs`]) feeds an accumulator of `hidden` units
//! (at most [`MAX_HIDDEN`]): the hidden bias plus the weight row of every filled input. The
//! accumulators follow the game peg by peg ([`Accumulator::place`]) instead of being summed
//! again at every leaf. Both heads read the mover's units, then the opponent's, each clipped
//! to [0, 1] (`u`, `2·hidden` numbers):
//!
//! ```text
//! value     = sigmoid(out_bias + Σ out[j]·u[j])
//! logit(c)  = policy_bias[k] + Σ policy[k][j]·u[j]     k: the mover's hole c as it sees it
//! ```
//!
//! Weights are integers, as shipped ([`codec`]): the input rows and hidden bias scaled by
//! `qa` (a unit's 1.0 is `qa`), the value's output weights by `qb`, the policy's by `qp`, each
//! bias by the product of its layer's scales. The sums are exact in `i32` (the trainer refuses
//! to export a network whose worst case could leave it), so the accumulator that follows the
//! game equals one summed afresh, and the trainer's arithmetic equals this.

pub mod codec;
#[cfg(not(codingame))]
pub mod local;
#[cfg(not(codingame))]
mod policy;
pub mod simd;

pub use codec::join_bias;
#[cfg(not(codingame))]
pub use codec::{log_loss, Layout};
#[cfg(not(codingame))]
pub use codec::{split_bias, BIAS_LIMIT};
#[cfg(not(codingame))]
pub use policy::{hole_cell, hole_of, hole_of_move, PolicyHead, PolicyUnits, POLICY_HOLES};
pub use simd::Kernel;

use super::encoding::DecodeError;
use super::inputs;
use super::net_weights;
use crate::board::Board;
use crate::bridge::{Bridge, NEIGHBORS, NO_BRIDGE};
use crate::cell::{Cell, Player};

/// The most hidden units a view may have.
pub const MAX_HIDDEN: usize = 64;

/// A network's weights, as integers.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Hidden units a view (at most [`MAX_HIDDEN`]; the rows' later entries are 0).
    pub hidden: usize,
    /// The bits each input row's weight ships in.
    pub row_bits: u32,
    /// The scale of the input rows and the hidden bias: a unit's 1.0.
    pub qa: i32,
    /// The scale of the value's output weights.
    pub qb: i32,
    /// Row `i` holds input `i`'s weight for each hidden unit.
    pub rows: Vec<[i16; MAX_HIDDEN]>,
    /// The hidden units' bias.
    pub bias: [i16; MAX_HIDDEN],
    /// The value's output weights: the mover's units, then the opponent's.
    pub out: [[i16; MAX_HIDDEN]; 2],
    /// The value's output bias, scaled by `qa · qb`.
    pub out_bias: i32,
    /// The policy head, if the network has one (host-only: the bundle decodes none).
    #[cfg(not(codingame))]
    pub policy: Option<PolicyHead>,
    /// The loops that run the arithmetic (the same integers with any).
    pub kernel: Kernel,
}

/// Both players' hidden units for one position, indexed by player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    units: [[i32; MAX_HIDDEN]; 2],
}

impl Network {
    /// The network that ships with the bot (`net_weights.rs`, written by `twixt-train
    /// export-net`), or why its text does not decode.
    pub fn shipped() -> Result<Network, DecodeError> {
        Network::decode(net_weights::NETWORK)
    }

    /// [`Network::shipped`], or after a loud line on stderr none: the search then values its
    /// leaves without it (by the distance value on the host, by the playouts alone in the
    /// bundle), and plays weaker.
    pub fn shipped_or_none() -> Option<Network> {
        match Network::shipped() {
            Ok(net) => Some(net),
            Err(e) => {
                eprintln!(
                    "twixt-bot: WARNING: the shipped value network does not decode ({}): \
                     playing weaker without it; re-export it with twixt-train export-net",
                    e
                );
                None
            }
        }
    }

    /// How many weights the network has.
    #[cfg(not(codingame))]
    pub fn weights(&self) -> usize {
        let h = self.hidden;
        let policy = self
            .policy
            .as_ref()
            .map_or(0, |p| p.rows.len() * (2 * h + 1) + p.local.len());
        self.rows.len() * h + 3 * h + 1 + policy
    }

    /// The accumulators of `board`, summed afresh.
    pub fn accumulate(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            units: [[0; MAX_HIDDEN]; 2],
        };
        for viewer in Player::BOTH {
            let added: Vec<&[i16; MAX_HIDDEN]> = std::iter::once(&self.bias)
                .chain(
                    inputs::active(board, viewer)
                        .into_iter()
                        .map(|i| &self.rows[i]),
                )
                .collect();
            let units = &mut acc.units[viewer.index()];
            self.kernel.add_rows(units, &added, self.hidden);
        }
        acc
    }

    /// The units both heads read: the mover's clipped to `0..=qa`, then the opponent's.
    #[inline]
    fn clipped(&self, acc: &Accumulator, mover: Player) -> [[i16; MAX_HIDDEN]; 2] {
        let mut u = [[0; MAX_HIDDEN]; 2];
        for (half, viewer) in [mover, mover.other()].into_iter().enumerate() {
            let units = &acc.units[viewer.index()];
            self.kernel.clip(units, self.qa, self.hidden, &mut u[half]);
        }
        u
    }

    /// The chance that `mover` wins, from the accumulators of the position.
    pub fn value(&self, acc: &Accumulator, mover: Player) -> f32 {
        let u = self.clipped(acc, mover);
        let (k, h) = (self.kernel, self.hidden);
        let sum = self.out_bias + k.dot(&u[0], &self.out[0], h) + k.dot(&u[1], &self.out[1], h);
        let logit = sum as f32 / (self.qa * self.qb) as f32;
        1.0 / (1.0 + (-logit).exp())
    }
}

impl Accumulator {
    /// Follows `p`'s peg on `c`: `board` is the board after it, with the links it made.
    pub fn place(&mut self, net: &Network, board: &Board, p: Player, c: Cell) {
        // The peg's links, found once for both views.
        let mut links = [None; 8];
        let mut n = 0;
        for nb in &NEIGHBORS[c.index()] {
            if nb.bridge != NO_BRIDGE {
                let b = Bridge::from_index(nb.bridge as usize).expect("a neighbour's bridge");
                if board.has_link(p, b) {
                    links[n] = Some(b);
                    n += 1;
                }
            }
        }
        for viewer in Player::BOTH {
            let peg = &net.rows[inputs::peg_input(viewer, p, c)];
            let mut added = [peg; 9];
            for (row, &b) in added[1..].iter_mut().zip(links[..n].iter().flatten()) {
                *row = &net.rows[inputs::link_input(viewer, p, b)];
            }
            let units = &mut self.units[viewer.index()];
            net.kernel.add_rows(units, &added[..n + 1], net.hidden);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
