//! The policy head: a logit for each hole the mover may play, from the same units as the
//! value. The mover sees the board as its inputs do (player 1's transposed), so its holes are
//! always the same [`POLICY_HOLES`] cells of that view.

use super::{local, Accumulator, Network, MAX_HIDDEN};
use crate::board::Board;
use crate::bridge::Bridge;
use crate::cell::{Cell, Player, CELLS};
use crate::knowledge::inputs::view;
use crate::position::{Move, Position};

/// The holes a mover may play, as it sees the board.
pub const POLICY_HOLES: usize = 120;

/// Each viewed cell's hole number, 255 where the mover may not play.
static HOLE_OF: [u8; CELLS] = HOLE_TABLE;

const HOLE_TABLE: [u8; CELLS] = hole_table();

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

/// Each hole number's viewed cell.
static HOLE_CELL: [Cell; POLICY_HOLES] = hole_cells();

/// The cell of index `i`, which must be one.
const fn nth_cell(i: usize) -> Cell {
    match Cell::from_index(i) {
        Some(c) => c,
        None => panic!("a hole is a cell"),
    }
}

const fn hole_cells() -> [Cell; POLICY_HOLES] {
    let mut out = [nth_cell(13); POLICY_HOLES];
    let mut i = 0;
    while i < CELLS {
        if HOLE_TABLE[i] != u8::MAX {
            out[HOLE_TABLE[i] as usize] = nth_cell(i);
        }
        i += 1;
    }
    out
}

/// The hole number of `mv` for the player to move in `pos`: a peg's hole as it sees the
/// board, and for SWAP the hole it gives the mover (the first peg transposed, which the mover
/// sees where player 0 put it); `None` for a hole it may not play.
pub fn hole_of_move(pos: &Position, mv: Move) -> Option<usize> {
    let mover = pos.to_move();
    match mv {
        Move::Peg(c) => hole_of(mover, c),
        Move::Swap => {
            let first = pos.board().pegs(Player::Zero).iter().next();
            first.and_then(|c| hole_of(mover, c.transposed()))
        }
    }
}

/// The viewed cell of hole number `k` (for the trainer's side of the local term).
#[cfg(not(codingame))]
#[inline]
pub fn hole_cell(k: usize) -> Cell {
    HOLE_CELL[k]
}

/// The hole number of `c` for `mover`, or `None` where it may not play.
#[inline]
pub fn hole_of(mover: Player, c: Cell) -> Option<usize> {
    match HOLE_OF[view(mover, c).index()] {
        u8::MAX => None,
        k => Some(k as usize),
    }
}

/// What the policy reads of one position, once for all its moves: the clipped units, the
/// mover, the hole SWAP stands for, and the board and last pegs the local term looks at.
pub struct PolicyUnits<'a> {
    u: [i32; 2 * MAX_HIDDEN],
    mover: Player,
    swap_hole: Option<usize>,
    board: &'a Board,
    last: [Option<Cell>; 2],
}

impl Network {
    /// What the policy reads of `pos` from its accumulators, the opponent's last peg and the
    /// mover's own last being `last`; `None` without a policy head.
    pub fn policy_units<'a>(
        &self,
        acc: &Accumulator,
        pos: &'a Position,
        last: [Option<Cell>; 2],
    ) -> Option<PolicyUnits<'a>> {
        self.policy.as_ref()?;
        let mover = pos.to_move();
        Some(PolicyUnits {
            u: self.clipped(acc, mover),
            mover,
            swap_hole: hole_of_move(pos, Move::Swap),
            board: pos.board(),
            last,
        })
    }

    /// The policy's logit of `mv` (0 for a peg the mover may not play, or without a head).
    #[inline]
    pub fn policy_logit(&self, pu: &PolicyUnits, mv: Move) -> f32 {
        let head = match &self.policy {
            Some(head) => head,
            None => return 0.0,
        };
        let hole = match mv {
            Move::Peg(c) => hole_of(pu.mover, c),
            Move::Swap => pu.swap_hole,
        };
        let k = match hole {
            Some(k) => k,
            None => return 0.0,
        };
        let (w, h) = (&head.rows[k], self.hidden);
        let mut sum = head.bias[k];
        sum += super::dot(&pu.u[..h], &w[..h]);
        sum += super::dot(&pu.u[MAX_HIDDEN..][..h], &w[MAX_HIDDEN..][..h]);
        // The hole as the mover sees it, and what each viewed cell around it holds.
        let v = HOLE_CELL[k];
        let hole = view(pu.mover, v);
        let holds = |w: Cell| {
            let real = view(pu.mover, w);
            let open = |p: Player| match Bridge::between(hole, real) {
                Some(b) => pu.board.blocked(p, b) == 0,
                None => false,
            };
            let mut flags = match pu.board.owner(real) {
                Some(p) if p == pu.mover && open(p) => local::HOLDS_OWN | local::HOLDS_OPEN_OWN,
                Some(p) if p == pu.mover => local::HOLDS_OWN,
                Some(p) if open(p) => local::HOLDS_OPP | local::HOLDS_OPEN_OPP,
                Some(_) => local::HOLDS_OPP,
                None => 0,
            };
            if pu.last[0] == Some(real) {
                flags |= local::HOLDS_LAST_OPP;
            }
            if pu.last[1] == Some(real) {
                flags |= local::HOLDS_LAST_OWN;
            }
            flags
        };
        local::each(v, holds, |i| sum += head.local[i]);
        sum as f32 * (1.0 / (self.qa * head.qp) as f32)
    }

    /// The policy's logits of `moves` in `pos` (appended to `out`), from the position's
    /// accumulators; `None` without a policy head. (The search asks [`Network::policy_logit`]
    /// child by child; this serves the golden values and tests.)
    #[cfg(not(codingame))]
    pub fn policy_logits(
        &self,
        acc: &Accumulator,
        pos: &Position,
        last: [Option<Cell>; 2],
        moves: &[Move],
        out: &mut Vec<f32>,
    ) -> Option<()> {
        let pu = self.policy_units(acc, pos, last)?;
        out.extend(moves.iter().map(|&mv| self.policy_logit(&pu, mv)));
        Some(())
    }
}
