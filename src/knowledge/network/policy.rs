//! The policy head: a logit for each hole the mover may play, from the same units as the
//! value. The mover sees the board as its inputs do (player 1's transposed), so its holes are
//! always the same [`POLICY_HOLES`] cells of that view.

use super::{Accumulator, Network, MAX_HIDDEN};
use crate::cell::{Cell, Player, CELLS};
use crate::knowledge::inputs::view;
use crate::position::{Move, Position};

/// The holes a mover may play, as it sees the board.
pub const POLICY_HOLES: usize = 120;

/// Each viewed cell's hole number, 255 where the mover may not play.
static HOLE_OF: [u8; CELLS] = hole_table();

const fn hole_table() -> [u8; CELLS] {
    let mut out = [u8::MAX; CELLS];
    let (mut i, mut k) = (0, 0);
    while i < CELLS {
        if let Some(c) = Cell::from_index(i) {
            if c.allowed_for(Player::Zero) {
                out[i] = k;
                k += 1;
            }
        }
        i += 1;
    }
    out
}

/// The hole number of `c` for `mover`, or `None` where it may not play.
#[inline]
pub fn hole_of(mover: Player, c: Cell) -> Option<usize> {
    match HOLE_OF[view(mover, c).index()] {
        u8::MAX => None,
        k => Some(k as usize),
    }
}

impl Network {
    /// The policy's logits of `moves` in `pos` (appended to `out`), from the position's
    /// accumulators; `None` without a policy head. SWAP has the logit of the hole it gives
    /// the mover: the first peg's, as the mover sees the board.
    pub fn policy_logits(
        &self,
        acc: &Accumulator,
        pos: &Position,
        moves: &[Move],
        out: &mut Vec<f32>,
    ) -> Option<()> {
        let head = self.policy.as_ref()?;
        let mover = pos.to_move();
        let u = self.clipped(acc, mover);
        let scale = 1.0 / (self.qa * head.qp) as f32;
        let first = pos.board().pegs(Player::Zero).iter().next();
        for &mv in moves {
            let hole = match mv {
                Move::Peg(c) => hole_of(mover, c),
                Move::Swap => first.and_then(|c| hole_of(mover, c.transposed())),
            };
            let logit = match hole {
                Some(k) => {
                    let (w, h) = (&head.rows[k], self.hidden);
                    let mut sum = head.bias[k];
                    sum += super::dot(&u[..h], &w[..h]);
                    sum += super::dot(&u[MAX_HIDDEN..][..h], &w[MAX_HIDDEN..][..h]);
                    sum as f32 * scale
                }
                None => 0.0,
            };
            out.push(logit);
        }
        Some(())
    }
}
