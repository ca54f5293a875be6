//! The policy head: a logit for each hole the mover may play, from the same units as the
//! value. The mover sees the board as its inputs do (player 1's transposed), so its holes are
//! always the same [`POLICY_HOLES`] cells of that view.

use super::codec::{biases, rows};
use super::{local, Accumulator, Network, MAX_HIDDEN};
use crate::board::Board;
use crate::bridge::Bridge;
use crate::cell::{Cell, Player, CELLS};
use crate::knowledge::encoding::{DecodeError, Reader};
use crate::knowledge::inputs::view;
use crate::position::{Move, Position};

/// The holes a mover may play, as it sees the board.
pub const POLICY_HOLES: usize = 120;

/// The policy head: for each of the mover's [`POLICY_HOLES`] holes (as the mover sees the board),
/// weights over the mover's units then the opponent's, and a bias.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyHead {
    /// The bits each weight ships in.
    pub bits: u32,
    /// The scale of the weights.
    pub qp: i32,
    /// Hole `k`'s weights: the mover's units in `0..hidden`, the opponent's from
    /// [`MAX_HIDDEN`].
    pub rows: Vec<[i16; 2 * MAX_HIDDEN]>,
    /// Hole `k`'s bias, scaled by `qa · qp`.
    pub bias: Vec<i32>,
    /// The local term's weights ([`local`]), scaled by `qa · qp`.
    pub local: Vec<i32>,
}

/// The policy head of a network's text, after its value's weights, as the header `head` says
/// (none when it names 0 holes); `h` hidden units a view.
pub(super) fn decode_head(
    r: &mut Reader,
    head: &[i32],
    h: usize,
) -> Result<Option<PolicyHead>, DecodeError> {
    if head[6] == 0 {
        return Ok(None);
    }
    let ints = r.stream(head[7] as u32, POLICY_HOLES * 2 * h)?;
    let mut spread = Vec::with_capacity(ints.len());
    for hole in ints.chunks(2 * h) {
        let (mine, theirs) = hole.split_at(h);
        spread.extend_from_slice(mine);
        spread.resize(spread.len() + MAX_HIDDEN - h, 0);
        spread.extend_from_slice(theirs);
        spread.resize(spread.len() + MAX_HIDDEN - h, 0);
    }
    Ok(Some(PolicyHead {
        bits: head[7] as u32,
        qp: head[8],
        rows: rows(&spread, 2 * MAX_HIDDEN),
        bias: biases(r, POLICY_HOLES)?,
        local: biases(r, local::LOCAL)?,
    }))
}

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
#[cfg(not(codingame))]
static HOLE_CELL: [Cell; POLICY_HOLES] = hole_cells();

/// The cell of index `i`, which must be one.
#[cfg(not(codingame))]
const fn nth_cell(i: usize) -> Cell {
    match Cell::from_index(i) {
        Some(c) => c,
        None => panic!("a hole is a cell"),
    }
}

#[cfg(not(codingame))]
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
/// mover, the hole SWAP stands for, and each hole's local term.
pub struct PolicyUnits {
    u: [[i16; MAX_HIDDEN]; 2],
    mover: Player,
    swap_hole: Option<usize>,
    local: [i32; POLICY_HOLES],
}

impl Network {
    /// What the policy reads of `pos` from its accumulators, the opponent's last peg and the
    /// mover's own last being `last`; `None` without a policy head.
    pub fn policy_units(
        &self,
        acc: &Accumulator,
        pos: &Position,
        last: [Option<Cell>; 2],
    ) -> Option<PolicyUnits> {
        let head = self.policy.as_ref()?;
        let mover = pos.to_move();
        Some(PolicyUnits {
            u: self.clipped(acc, mover),
            mover,
            swap_hole: hole_of_move(pos, Move::Swap),
            local: local_terms(head, pos.board(), mover, last),
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
        let (w, h, kernel) = (&head.rows[k], self.hidden, self.kernel);
        let mut sum = head.bias[k] + pu.local[k];
        sum +=
            kernel.dot(&pu.u[0], &w[..MAX_HIDDEN], h) + kernel.dot(&pu.u[1], &w[MAX_HIDDEN..], h);
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

/// Every hole's local term ([`local`]) for `mover`, the opponent's last peg and the mover's
/// own last being `last`: each peg (and last peg) adds its weights to the holes whose box holds
/// it, which visits the few filled cells once instead of every hole's 24.
fn local_terms(
    head: &PolicyHead,
    board: &Board,
    mover: Player,
    last: [Option<Cell>; 2],
) -> [i32; POLICY_HOLES] {
    let mut sums = [0; POLICY_HOLES];
    let lasts = |real: Cell| {
        let opp = if last[0] == Some(real) {
            local::HOLDS_LAST_OPP
        } else {
            0
        };
        opp | if last[1] == Some(real) {
            local::HOLDS_LAST_OWN
        } else {
            0
        }
    };
    let mut add = |real: Cell, owner: Option<Player>, flags: u8| {
        local::around(view(mover, real), |k, v, knight| {
            let hole = match HOLE_OF[v.index()] {
                u8::MAX => return,
                hole => hole as usize,
            };
            let mut flags = flags;
            if let (Some(p), true) = (owner, knight) {
                let open = Bridge::between(view(mover, v), real)
                    .map_or(false, |b| board.blocked(p, b) == 0);
                if open {
                    flags |= if p == mover {
                        local::HOLDS_OPEN_OWN
                    } else {
                        local::HOLDS_OPEN_OPP
                    };
                }
            }
            local::flag_weights(k, flags, |i| sums[hole] += head.local[i]);
        });
    };
    for owner in Player::BOTH {
        let holds = if owner == mover {
            local::HOLDS_OWN
        } else {
            local::HOLDS_OPP
        };
        for real in board.pegs(owner).iter() {
            add(real, Some(owner), holds | lasts(real));
        }
    }
    // A last peg no longer on its hole (SWAP moved it) still marks the hole.
    for real in last.iter().flatten() {
        if board.owner(*real).is_none() {
            add(*real, None, lasts(*real));
        }
    }
    sums
}
