//! The features of a move that the learned policy weighs: what a peg on a hole would do,
//! read off the board in the mover's orientation (player 1's board transposed, so that each
//! player's own borders are the top and bottom rows).
//!
//! A move's features are a short list of (index, count) pairs; its logit is the sum of the
//! weights at those indices times the counts. The trainer and the bot compute them with this
//! one function.

use super::hidden::{Hidden, Units};
use super::save::save_reply;
use super::shapes::{slot, two_way_holes, DIRECTION, TWO_WAY_PEGS};
use crate::bitboard::{Bitboard, KINGS, KNIGHTS};
use crate::board::{border_tags, Board};
use crate::bridge::{Neighbor, NEIGHBORS, NO_BRIDGE};
use crate::cell::{Cell, Player, SIZE};
use crate::position::{Move, Position};

/// Where the hole lies: its distance to the nearer own border row (0-5) and to the nearer
/// side column (0-5), in the mover's orientation: 36 indicators.
pub const POS: usize = 0;
/// Each knight neighbour by its direction (folded towards the board's centre) and
/// state: off the board, the mover's and linkable, the mover's but blocked, the opponent's
/// (a vacant hole adds nothing): 32 indicators.
pub const KNIGHT: usize = POS + 36;
/// How many links the peg would make: 0, 1, 2, 3 or more.
pub const LINKS: usize = KNIGHT + 32;
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
/// How many distinct groups of the opponent a peg of the opponent's here would join, when
/// the hole is the opponent's to use: 0, 1, 2 or more (2 or more: the peg takes a link point
/// the opponent needs).
pub const OPP_GROUPS: usize = BLOCK + 4;
/// How many of the mover's borders the peg would join, counting those its linked groups
/// touch: 0, 1 or 2.
pub const REACH: usize = OPP_GROUPS + 3;
/// How many of the mover's pegs the peg would hold by a two-way connection (two vacant holes
/// the mover may use, each a knight's move from both with open bridges): 0, 1, 2 or more.
pub const TWO_WAY: usize = REACH + 3;
/// The peg would reach its nearer own border row by two ways (the same, with two border
/// holes).
pub const EDGE: usize = TWO_WAY + 3;
/// The swap.
pub const SWAP: usize = EDGE + 1;
/// Each adjacent hole by its direction (folded) when a peg stands there: the mover's, the
/// opponent's.
pub const ADJ_DIR: usize = SWAP + 1;
/// How far (in columns and in rows) a last peg's place is told.
pub const LAST_RADIUS: i32 = 4;
/// The places within [`LAST_RADIUS`] of a hole, the hole left out.
const LAST_PLACES: usize = ((2 * LAST_RADIUS + 1) * (2 * LAST_RADIUS + 1) - 1) as usize;
/// Where the opponent's last peg stands from the hole, when within [`LAST_RADIUS`] columns and
/// rows, by the step to it folded towards the board's centre: 80 indicators, beside the
/// distance classes above.
pub const LAST_OPP_AT: usize = ADJ_DIR + 16;
/// The same for the mover's own last peg.
pub const LAST_OWN_AT: usize = LAST_OPP_AT + LAST_PLACES;
/// How many features there are.
pub const FEATURES: usize = LAST_OWN_AT + LAST_PLACES;

/// Most (index, count) pairs a move has: the hole's place, up to 8 knight neighbours, 5 counts
/// of links, groups and faced pegs, 2 of adjacent pegs and up to 8 adjacent pegs, and 7 far
/// features.
pub const MAX_ACTIVE: usize = 31;

/// A move's features: `len` (index, count) pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Active {
    /// The pairs; only the first `len` mean anything.
    pub pairs: [(u16, u8); MAX_ACTIVE],
    /// How many pairs there are.
    pub len: usize,
}

/// Where a move's features go as they are read: a list of them ([`Active`]), or straight
/// into a logit ([`Logit`]).
trait Sink {
    /// Feature `index` counted `count` times (nothing when 0; counts stop at 255).
    fn add(&mut self, index: usize, count: u32);
}

impl Active {
    fn new() -> Active {
        Active {
            pairs: [(0, 0); MAX_ACTIVE],
            len: 0,
        }
    }

    /// The (index, count) pairs.
    pub fn iter(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.pairs[..self.len]
            .iter()
            .map(|&(i, n)| (i as usize, n as f32))
    }
}

impl Sink for Active {
    #[inline]
    fn add(&mut self, index: usize, count: u32) {
        if count > 0 {
            self.pairs[self.len] = (index as u16, count.min(255) as u8);
            self.len += 1;
        }
    }
}

/// A logit summed as the features are read: the additions `Policy::logit` makes over the
/// [`Active`] list, in the same order, without the list (and with zeros between them).
struct Logit<'w> {
    weights: &'w [f32],
    sum: f32,
}

impl Sink for Logit<'_> {
    /// A zero count adds a zero, which leaves the sum as it was to the bit (the sum starts
    /// at +0.0 or a stored sum, never -0.0, the one value adding +0.0 changes), so there is no
    /// test for it here: a branch on the count would mispredict.
    #[inline]
    fn add(&mut self, index: usize, count: u32) {
        self.sum += self.weights[index] * count.min(255) as f32;
    }
}

/// What the features of a position's moves share, read once per position.
pub struct Context<'a> {
    board: &'a Board,
    mover: Player,
    own: Bitboard,
    opp: Bitboard,
    /// The holes the mover may play.
    free: Bitboard,
    /// The holes a knight's or a king's move from some peg: the others are quiet.
    near: Bitboard,
    last_opp: Option<Cell>,
    last_own: Option<Cell>,
    save: Option<Cell>,
}

impl<'a> Context<'a> {
    /// The context of `pos`, where the opponent's last peg was `last_opp` and the mover's
    /// `last_own` (either `None` when there was none, or it was a swap).
    pub fn new(pos: &'a Position, last_opp: Option<Cell>, last_own: Option<Cell>) -> Context<'a> {
        Context::on(pos.board(), pos.to_move(), last_opp, last_own)
    }

    fn on(
        board: &'a Board,
        mover: Player,
        last_opp: Option<Cell>,
        last_own: Option<Cell>,
    ) -> Context<'a> {
        let mut near = Bitboard::EMPTY;
        for c in board.occupied().iter() {
            near = near.or(KNIGHTS[c.index()]).or(KINGS[c.index()]);
        }
        Context {
            board,
            mover,
            own: board.pegs(mover),
            opp: board.pegs(mover.other()),
            free: board.legal_holes(mover),
            near,
            last_opp,
            last_own,
            save: last_opp.and_then(|x| save_reply(board, mover, x)),
        }
    }

    /// The player whose moves these are.
    pub fn mover(&self) -> Player {
        self.mover
    }

    /// The features of `mv`, a legal move of the mover.
    pub fn features(&self, mv: Move) -> Active {
        let mut out = Active::new();
        self.read(mv, &mut out);
        out
    }

    /// The logit of `mv` under `weights`: to the bit the sum over [`Context::features`].
    pub fn logit(&self, weights: &[f32], mv: Move) -> f32 {
        let mut out = Logit { weights, sum: 0.0 };
        self.read(mv, &mut out);
        out.sum
    }

    /// `base` plus the terms of the far features of a peg on `c` under `weights`: those
    /// that read pegs farther than a knight's move (the last pegs, the pegs it would hold by
    /// two ways, the border), which [`Context::features`] lists after the others.
    pub fn far_logit(&self, weights: &[f32], c: Cell, base: f32) -> f32 {
        let mut out = Logit { weights, sum: base };
        self.far(c, &mut out);
        out.sum
    }

    /// The logit of `mv` under the linear `weights` and the `hidden` layer: to the bit
    /// `Policy::logit` over [`Context::features`], which it sums.
    pub fn net_logit(&self, weights: &[f32], hidden: &Hidden, mv: Move) -> f32 {
        hidden.logit(weights, &self.features(mv), (0.0, hidden.bias))
    }

    /// [`Context::far_logit`] with the hidden layer: `base` holds the linear sum and the
    /// units' sums of the features read before the far ones.
    pub fn far_net_logit(
        &self,
        weights: &[f32],
        hidden: &Hidden,
        c: Cell,
        base: (f32, Units),
    ) -> f32 {
        let mut a = Active::new();
        self.far(c, &mut a);
        hidden.logit(weights, &a, base)
    }

    fn read(&self, mv: Move, out: &mut impl Sink) {
        match mv {
            Move::Peg(c) => {
                self.placed(c, out);
                self.far(c, out);
            }
            Move::Swap => out.add(SWAP, 1),
        }
    }

    /// Whether no peg stands a knight's or a king's move from `c`: then all of `c`'s
    /// features but the far ones ([`Context::far_logit`]) depend on the mover and `c`
    /// alone, as [`quiet`] gives them.
    pub fn is_quiet(&self, c: Cell) -> bool {
        !self.near.has(c)
    }

    /// The features of a peg on `c` read from the pegs around it.
    fn placed(&self, c: Cell, out: &mut impl Sink) {
        let (x, y) = self.oriented(c);
        let band = |v: i32| v.min(SIZE as i32 - 1 - v) as usize;
        out.add(POS + 6 * band(y) + band(x), 1);
        self.knights(c, out);
        let adjacent = |set: Bitboard| set.and(KINGS[c.index()]).count().min(2) as usize;
        out.add(ADJ_OWN + adjacent(self.own), 1);
        out.add(ADJ_OPP + adjacent(self.opp), 1);
        self.adjacent(c, out);
    }

    /// The pegs adjacent to `c` one by one, by direction.
    fn adjacent(&self, c: Cell, out: &mut impl Sink) {
        let (m, q) = (self.mover.index(), self.quadrant(c));
        for (set, kind) in [(self.own, 0), (self.opp, 1)] {
            for nb in set.and(KINGS[c.index()]).iter() {
                let (a, b) = fold(m, q, nb.x() - c.x(), nb.y() - c.y());
                out.add(ADJ_DIR + 2 * place(a, b, 1) + kind, 1);
            }
        }
    }

    /// Which quarter of the board `c` is in: 1 right of the centre, 2 above it (the board's
    /// own orientation).
    fn quadrant(&self, c: Cell) -> usize {
        let half = SIZE as i32 / 2;
        (c.x() >= half) as usize | ((c.y() >= half) as usize) << 1
    }

    /// The features of a peg on `c` read from farther away.
    fn far(&self, c: Cell, out: &mut impl Sink) {
        out.add(LAST_OPP + distance_class(self.last_opp, c), 1);
        out.add(LAST_OWN + distance_class(self.last_own, c), 1);
        out.add(SAVE, (self.save == Some(c)) as u32);
        out.add(TWO_WAY + self.two_ways(c).min(2) as usize, 1);
        out.add(EDGE, self.edge_two_way(c) as u32);
        self.last_at(LAST_OPP_AT, self.last_opp, c, out);
        self.last_at(LAST_OWN_AT, self.last_own, c, out);
    }

    /// Where `last` stands from `c` (the features from `base` on), when within
    /// [`LAST_RADIUS`] columns and rows: the [`place`] of the [`fold`]ed step.
    fn last_at(&self, base: usize, last: Option<Cell>, c: Cell, out: &mut impl Sink) {
        if let Some(t) = last {
            let (dx, dy) = (t.x() - c.x(), t.y() - c.y());
            if dx.abs() <= LAST_RADIUS && dy.abs() <= LAST_RADIUS {
                let (a, b) = fold(self.mover.index(), self.quadrant(c), dx, dy);
                out.add(base + place(a, b, LAST_RADIUS), 1);
            }
        }
    }

    /// How many of the mover's pegs a peg on `c` would hold by two ways.
    fn two_ways(&self, c: Cell) -> u32 {
        let ci = c.index();
        let held = |b: Cell| {
            let (bi, d) = (b.index(), two_way_holes(ci, b.index()));
            let through = |from_c: u8, from_b: u8| {
                let hole = NEIGHBORS[ci][from_c as usize];
                let back = NEIGHBORS[bi][from_b as usize];
                self.may_link(hole) & self.open(back.bridge)
            };
            (through(d[0], d[1]) & through(d[2], d[3])) as u32
        };
        self.own.and(TWO_WAY_PEGS[ci]).iter().map(held).sum()
    }

    /// Whether a peg on `c` would have two vacant holes of its nearer own border row a
    /// knight's move away, with open bridges to both.
    fn edge_two_way(&self, c: Cell) -> bool {
        // Towards the border: rows down, then columns aside, in the mover's orientation.
        let (down, aside) = match self.oriented(c).1 {
            1 => (-1, 2),
            2 => (-2, 1),
            9 => (2, 1),
            10 => (1, 2),
            _ => return false,
        };
        [-aside, aside].iter().all(|&side| {
            let (dx, dy) = match self.mover {
                Player::Zero => (side, down),
                Player::One => (down, side),
            };
            let k = DIRECTION[slot(dx, dy)] as usize;
            self.may_link(NEIGHBORS[c.index()][k])
        })
    }

    /// Whether the neighbour `n` of a hole is a hole the mover may use, with the bridge to it
    /// not crossed by an opponent's link.
    #[inline]
    fn may_link(&self, n: Neighbor) -> bool {
        // A missing neighbour points at corner A1, never free, and through NO_BRIDGE at an
        // absorbing counter. Both tests are made: a branch between them would mispredict.
        self.free.has_index(n.cell as usize) & self.open(n.bridge)
    }

    /// Whether no opponent's link crosses the mover's bridge of index `b`.
    #[inline]
    fn open(&self, b: u16) -> bool {
        self.board.blocked_index(self.mover, b as usize) == 0
    }

    /// `c`'s column and row in the mover's orientation.
    fn oriented(&self, c: Cell) -> (i32, i32) {
        match self.mover {
            Player::Zero => (c.x(), c.y()),
            Player::One => (c.y(), c.x()),
        }
    }

    /// The knight neighbours one by one by direction and state, the links and groups the peg
    /// would join, the opponent's pegs it faces.
    fn knights(&self, c: Cell, out: &mut impl Sink) {
        let (mut groups, mut opp_groups) = (Groups::default(), Groups::default());
        let (mut links, mut facing) = (0, 0);
        let opp_may = c.allowed_for(self.mover.other());
        let q = self.quadrant(c);
        for (k, n) in NEIGHBORS[c.index()].iter().enumerate() {
            let state = if n.bridge == NO_BRIDGE {
                0
            } else if self.own.has_index(n.cell as usize) {
                if self.board.blocked_index(self.mover, n.bridge as usize) == 0 {
                    links += 1;
                    groups.add(self.board.group(n.cell as usize));
                    2
                } else {
                    3
                }
            } else if self.opp.has_index(n.cell as usize) {
                facing += 1;
                let other = self.mover.other();
                if opp_may && self.board.blocked_index(other, n.bridge as usize) == 0 {
                    opp_groups.add(self.board.group(n.cell as usize));
                }
                4
            } else {
                1
            };
            if state != 1 {
                let dir = KNIGHT_DIR_OF[self.mover.index()][q][k] as usize;
                out.add(KNIGHT + 4 * dir + state - (state > 1) as usize, 1);
            }
        }
        out.add(LINKS + links.min(3), 1);
        out.add(GROUPS + groups.len.min(2), 1);
        out.add(BLOCK + facing.min(3), 1);
        out.add(OPP_GROUPS + opp_groups.len.min(2), 1);
        // What `Board::reach` gives, from the groups the peg would link to, found above.
        let reach = groups.roots[..groups.len]
            .iter()
            .fold(border_tags(self.mover, c), |t, &r| {
                t | self.board.group_tags(r)
            });
        out.add(REACH + reach.count_ones() as usize, 1);
    }
}

/// A step `(dx, dy)` of the board's own as `mover` sees it from a hole in `quadrant`
/// ([`Context::quadrant`]): in the mover's orientation, each coordinate positive towards the
/// board's centre. Folded so, the four corners' patterns are one.
const fn fold(mover: usize, quadrant: usize, dx: i32, dy: i32) -> (i32, i32) {
    let fx = if quadrant & 1 == 0 { dx } else { -dx };
    let fy = if quadrant & 2 == 0 { dy } else { -dy };
    if mover == 0 {
        (fx, fy)
    } else {
        (fy, fx)
    }
}

/// The direction (0-7) of each knight step of [`NEIGHBORS`], [`fold`]ed, by mover and
/// quadrant: bit 0 a column step towards the centre, bit 1 a row step towards it, bit 2 a
/// step of two columns.
static KNIGHT_DIR_OF: [[[u8; 8]; 4]; 2] = {
    let mut out = [[[0; 8]; 4]; 2];
    let mut i = 0;
    while i < 64 {
        let (m, q, k) = (i / 32, i / 8 % 4, i % 8);
        let (dx, dy) = crate::bridge::step(k);
        let (a, b) = fold(m, q, dx, dy);
        out[m][q][k] = ((a > 0) as u8) | ((b > 0) as u8) << 1 | ((a == 2 || a == -2) as u8) << 2;
        i += 1;
    }
    out
};

/// The place of a step `(a, b)` within `r` columns and rows among the `(2r + 1)²` of them in
/// column-major order, the centre (no step) skipped.
fn place(a: i32, b: i32, r: i32) -> usize {
    let k = ((a + r) * (2 * r + 1) + b + r) as usize;
    let centre = (2 * r * (r + 1)) as usize;
    k - (k > centre) as usize
}

/// The distinct groups (union-find roots) among a hole's knight neighbours.
struct Groups {
    roots: [usize; 8],
    len: usize,
}

impl Default for Groups {
    fn default() -> Self {
        Groups {
            roots: [usize::MAX; 8],
            len: 0,
        }
    }
}

impl Groups {
    fn add(&mut self, root: usize) {
        if !self.roots.contains(&root) {
            self.roots[self.len] = root;
            self.len += 1;
        }
    }
}

/// The features of a peg by `mover` on `c` when no peg stands a knight's or a king's move
/// from it, less the far ones ([`Context::far_logit`]): the same on every board.
pub fn quiet(mover: Player, c: Cell) -> Active {
    let board = Board::new();
    let mut out = Active::new();
    Context::on(&board, mover, None, None).placed(c, &mut out);
    out
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
