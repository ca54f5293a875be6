//! The features of a move that the learned policy weighs: what a peg on a hole would do,
//! read off the board in the mover's orientation (player 1's board transposed, so that each
//! player's own borders are the top and bottom rows).
//!
//! A move's features are a short list of (index, count) pairs; its logit is the sum of the
//! weights at those indices times the counts. The trainer and the bot compute them with this
//! one function.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::bridge::{NEIGHBORS, NO_BRIDGE};
use crate::cell::{Cell, Player, SIZE};
use crate::position::{Move, Position};
use crate::search::policy::save_reply;

/// Where the hole lies: its distance to the nearer own border row (0-5) and to the nearer
/// side column (0-5), in the mover's orientation: 36 indicators.
pub const POS: usize = 0;
/// Knight neighbours by kind and state, counted: for steep ones (two rows towards a border)
/// and flat ones, how many are off the board, empty, the mover's and linkable, the mover's but
/// blocked by a crossing link, and the opponent's: 10 counts.
pub const KNIGHT: usize = POS + 36;
/// How many links the peg would make: 0, 1, 2, 3 or more.
pub const LINKS: usize = KNIGHT + 10;
/// How many distinct groups of the mover it would join: 0, 1, 2 or more.
pub const GROUPS: usize = LINKS + 4;
/// The mover's pegs among the 8 adjacent holes: 0, 1, 2 or more.
pub const ADJ_OWN: usize = GROUPS + 3;
/// The opponent's pegs among the 8 adjacent holes: 0, 1, 2 or more.
pub const ADJ_OPP: usize = ADJ_OWN + 3;
/// Distance (the larger of the row and column distances) to the opponent's last peg: 1, 2,
/// 3, 4 or more, or no such peg.
pub const LAST_OPP: usize = ADJ_OPP + 3;
/// The same for the mover's own last peg.
pub const LAST_OWN: usize = LAST_OPP + 5;
/// The hole saves a two-way connection the opponent's last peg cut into.
pub const SAVE: usize = LAST_OWN + 5;
/// The opponent's pegs a knight's move away: 0, 1, 2, 3 or more.
pub const BLOCK: usize = SAVE + 1;
/// The swap.
pub const SWAP: usize = BLOCK + 4;
/// How many features there are.
pub const FEATURES: usize = SWAP + 1;

/// Most (index, count) pairs a move has.
pub const MAX_ACTIVE: usize = 20;

/// A move's features: `len` (index, count) pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Active {
    /// The pairs; only the first `len` mean anything.
    pub pairs: [(u8, u8); MAX_ACTIVE],
    /// How many pairs there are.
    pub len: usize,
}

impl Active {
    fn new() -> Active {
        Active {
            pairs: [(0, 0); MAX_ACTIVE],
            len: 0,
        }
    }

    fn add(&mut self, index: usize, count: u32) {
        if count > 0 {
            self.pairs[self.len] = (index as u8, count.min(255) as u8);
            self.len += 1;
        }
    }

    /// The (index, count) pairs.
    pub fn iter(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.pairs[..self.len]
            .iter()
            .map(|&(i, n)| (i as usize, n as f32))
    }
}

/// What the features of a position's moves share, read once per position.
pub struct Context<'a> {
    board: &'a Board,
    mover: Player,
    own: Bitboard,
    opp: Bitboard,
    last_opp: Option<Cell>,
    last_own: Option<Cell>,
    save: Option<Cell>,
}

impl<'a> Context<'a> {
    /// The context of `pos`, where the opponent's last peg was `last_opp` and the mover's
    /// `last_own` (either `None` when there was none, or it was a swap).
    pub fn new(pos: &'a Position, last_opp: Option<Cell>, last_own: Option<Cell>) -> Context<'a> {
        let (board, mover) = (pos.board(), pos.to_move());
        Context {
            board,
            mover,
            own: board.pegs(mover),
            opp: board.pegs(mover.other()),
            last_opp,
            last_own,
            save: last_opp.and_then(|x| save_reply(board, mover, x)),
        }
    }

    /// The features of `mv`, a legal move of the mover.
    pub fn features(&self, mv: Move) -> Active {
        let mut out = Active::new();
        let c = match mv {
            Move::Peg(c) => c,
            Move::Swap => {
                out.add(SWAP, 1);
                return out;
            }
        };
        let (x, y) = self.oriented(c);
        let band = |v: i32| v.min(SIZE as i32 - 1 - v) as usize;
        out.add(POS + 6 * band(y) + band(x), 1);
        self.knights(c, &mut out);
        let adjacent = |set: Bitboard| adjacent_count(set, c).min(2) as usize;
        out.add(ADJ_OWN + adjacent(self.own), 1);
        out.add(ADJ_OPP + adjacent(self.opp), 1);
        out.add(LAST_OPP + distance_class(self.last_opp, c), 1);
        out.add(LAST_OWN + distance_class(self.last_own, c), 1);
        out.add(SAVE, (self.save == Some(c)) as u32);
        out
    }

    /// `c`'s column and row in the mover's orientation.
    fn oriented(&self, c: Cell) -> (i32, i32) {
        match self.mover {
            Player::Zero => (c.x(), c.y()),
            Player::One => (c.y(), c.x()),
        }
    }

    /// The knight-neighbour counts, the links and groups the peg would join, the opponent's
    /// pegs it faces.
    fn knights(&self, c: Cell, out: &mut Active) {
        let mut counts = [0u32; 10];
        let mut roots = [usize::MAX; 8];
        let (mut links, mut groups, mut facing) = (0, 0, 0);
        for (k, n) in NEIGHBORS[c.index()].iter().enumerate() {
            // Directions 1, 2, 5 and 6 climb two rows; for player 1 the board is transposed.
            let steep = matches!(k % 4, 1 | 2) == (self.mover == Player::Zero);
            let state = if n.bridge == NO_BRIDGE {
                0
            } else if self.own.has_index(n.cell as usize) {
                if self.board.blocked_index(self.mover, n.bridge as usize) == 0 {
                    links += 1;
                    let root = self.board.group(n.cell as usize);
                    if !roots.contains(&root) {
                        roots[groups] = root;
                        groups += 1;
                    }
                    2
                } else {
                    3
                }
            } else if self.opp.has_index(n.cell as usize) {
                facing += 1;
                4
            } else {
                1
            };
            counts[5 * (!steep as usize) + state] += 1;
        }
        for (i, &n) in counts.iter().enumerate() {
            out.add(KNIGHT + i, n);
        }
        out.add(LINKS + links.min(3), 1);
        out.add(GROUPS + groups.min(2), 1);
        out.add(BLOCK + facing.min(3), 1);
    }
}

/// How many cells of `set` are adjacent to `c` (a king's move away).
fn adjacent_count(set: Bitboard, c: Cell) -> u32 {
    let mut n = 0;
    for dy in -1..=1 {
        for dx in -1..=1 {
            if let Some(a) = c.offset(dx, dy) {
                n += ((dx, dy) != (0, 0) && set.has(a)) as u32;
            }
        }
    }
    n
}

/// 0-3 for a distance of 1-3 or more than 3 from `to`, 4 when there is no `to`.
fn distance_class(to: Option<Cell>, c: Cell) -> usize {
    match to {
        Some(t) => {
            let d = (t.x() - c.x()).abs().max((t.y() - c.y()).abs());
            (d.max(1) - 1).min(3) as usize
        }
        None => 4,
    }
}
