//! The fast board: pegs as bitboards, links stored once per bridge (T1), per-player crossing
//! counters, and union-find connectivity whose groups are tagged with the borders they touch.

use crate::bitboard::{Bitboard, KNIGHTS};
use crate::bridge::{Bridge, Neighbor, BRIDGES, CROSSINGS, NEIGHBORS, NO_BRIDGE, SLOTS};
use crate::cell::{Cell, Player, CELLS, SIZE};
use crate::unionfind::UnionFind;

/// The union-find tags of the borders of `p` that `c` lies on: 1 for the first border
/// (player 0: row 1, player 1: column A), 2 for the far one, so a group tagged 3 has won.
#[inline]
pub(crate) fn border_tags(p: Player, c: Cell) -> u8 {
    BORDER_TAGS[p.index()][c.index()]
}

/// [`border_tags`] of every player and cell index below 256 (a `u8` index needs no bounds
/// check): a load instead of a division by the board's width.
static BORDER_TAGS: [[u8; 256]; 2] = border_table();

const fn border_table() -> [[u8; 256]; 2] {
    let mut out = [[0u8; 256]; 2];
    let mut i = 0;
    while i < CELLS {
        let (x, y) = (i % SIZE, i / SIZE);
        out[0][i] = (y == 0) as u8 | ((y == SIZE - 1) as u8) << 1;
        out[1][i] = (x == 0) as u8 | ((x == SIZE - 1) as u8) << 1;
        i += 1;
    }
    out
}

/// The cells of each player's borders as [`border_tags`] tags them: `[p][0]` the first
/// border, `[p][1]` the far one.
static BORDER_ROWS: [[Bitboard; 2]; 2] = border_rows();

const fn border_rows() -> [[Bitboard; 2]; 2] {
    let (table, mut out) = (border_table(), [[Bitboard::EMPTY; 2]; 2]);
    let mut i = 0;
    while i < CELLS {
        let mut p = 0;
        while p < 2 {
            let tags = table[p][i];
            if tags & 1 != 0 {
                out[p][0] = out[p][0].with_index(i);
            }
            if tags & 2 != 0 {
                out[p][1] = out[p][1].with_index(i);
            }
            p += 1;
        }
        i += 1;
    }
    out
}

/// Pegs, links and connectivity. It knows no turn order; [`crate::position::Position`] does.
#[derive(Clone)]
pub struct Board {
    pegs: [Bitboard; 2],
    /// `marks[c]`: 1 + the index of the player whose peg is on the cell of index `c`, 0 for
    /// none, so that the link test reads a byte rather than a bit of a word.
    marks: [u8; 256],
    /// `links[p][d]` holds the lower ends of `p`'s links in direction `d`.
    links: [[Bitboard; 4]; 2],
    /// `blocked[p][b]`: how many links of `p`'s opponent cross bridge `b` (the slots from
    /// [`NO_BRIDGE`] on absorb writes, see [`SLOTS`]).
    blocked: [[u8; SLOTS]; 2],
    /// 256 nodes, more than the 144 cells, so that finds by `u8` index need no bounds check.
    groups: UnionFind<256>,
    /// Whether each player has joined its borders.
    won: [bool; 2],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for p in Player::BOTH {
            let pegs: Vec<String> = self.pegs(p).iter().map(|c| c.to_string()).collect();
            let links: Vec<String> = self.links(p).map(|b| b.to_string()).collect();
            writeln!(f, "player {}: pegs {:?} links {:?}", p, pegs, links)?;
        }
        Ok(())
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// The empty board.
    pub fn new() -> Board {
        Board {
            pegs: [Bitboard::EMPTY; 2],
            marks: [0; 256],
            links: [[Bitboard::EMPTY; 4]; 2],
            blocked: [[0; SLOTS]; 2],
            groups: UnionFind::new(),
            won: [false; 2],
        }
    }

    /// `p`'s pegs.
    #[inline]
    pub fn pegs(&self, p: Player) -> Bitboard {
        self.pegs[p.index()]
    }

    /// Every peg of either player.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pegs[0].or(self.pegs[1])
    }

    /// Who owns the peg at `c`, if any.
    #[inline]
    pub fn owner(&self, c: Cell) -> Option<Player> {
        Player::from_index((self.marks[c.index()] as usize).wrapping_sub(1))
    }

    /// The vacant holes `p` may play.
    #[inline]
    pub fn legal_holes(&self, p: Player) -> Bitboard {
        Bitboard::allowed_for(p).and_not(self.occupied())
    }

    /// Whether `p` has a link on bridge `b`.
    #[inline]
    pub fn has_link(&self, p: Player, b: Bridge) -> bool {
        self.links[p.index()][b.dir()].has(b.lower())
    }

    /// `p`'s links.
    pub fn links(&self, p: Player) -> impl Iterator<Item = Bridge> + '_ {
        (0..4).flat_map(move |d| {
            self.links[p.index()][d]
                .iter()
                .filter_map(move |lower| Bridge::new(lower, d))
        })
    }

    /// How many of the opponent's links cross `p`'s bridge `b`.
    #[inline]
    pub fn blocked(&self, p: Player, b: Bridge) -> u8 {
        self.blocked[p.index()][b.index()]
    }

    /// How many of the opponent's links cross `p`'s bridge of index `b` (a
    /// [`crate::bridge::Neighbor`]'s bridge; meaningless for [`crate::bridge::NO_BRIDGE`]).
    #[inline]
    pub(crate) fn blocked_index(&self, p: Player, b: usize) -> u8 {
        self.blocked[p.index()][b]
    }

    /// The group of the cell of index `a`: its union-find root (no path compression).
    #[inline]
    pub fn group(&self, a: usize) -> usize {
        self.groups.root(a)
    }

    /// The border tags of the group whose root is `root` (see [`Board::group`]): 1 the first
    /// border, 2 the far one.
    #[inline]
    pub(crate) fn group_tags(&self, root: usize) -> u8 {
        self.groups.tags(root)
    }

    /// Whether the cells of indices `a` and `b` are in one group (no path compression).
    #[inline]
    pub fn same_group(&self, a: usize, b: usize) -> bool {
        self.groups.root(a) == self.groups.root(b)
    }

    /// Whether `p`'s links join its two borders.
    #[inline]
    pub fn connected(&self, p: Player) -> bool {
        self.won[p.index()]
    }

    /// Whether `a` and `b` are joined by a chain of links (or are the same peg).
    #[cfg(not(codingame))]
    pub fn joined(&self, a: Cell, b: Cell) -> bool {
        self.same_group(a.index(), b.index())
    }

    /// Whether `p`'s peg on the vacant, allowed hole `c` would join `p`'s borders, worked
    /// out from the groups it would link to, without placing it.
    pub fn wins_at(&self, p: Player, c: Cell) -> bool {
        self.reach(p, c) == 3
    }

    /// The holes where a peg of `p` might join its borders at once: each on or a knight's move
    /// from a peg of a group on each border (on a border row or linked to such a group). Every
    /// hole of [`Board::wins_at`] is among them, and few others are: a leaf's look for a win
    /// in one asks [`Board::wins_at`] of those alone, not of its hundred-odd holes.
    pub fn win_candidates(&self, p: Player) -> Bitboard {
        let mut near = BORDER_ROWS[p.index()];
        for c in self.pegs[p.index()].iter() {
            let tags = self.groups.tags(c.index());
            if tags & 1 != 0 {
                near[0] = near[0].or(KNIGHTS[c.index()]);
            }
            if tags & 2 != 0 {
                near[1] = near[1].or(KNIGHTS[c.index()]);
            }
        }
        near[0].and(near[1])
    }

    /// The borders of `p` that `p`'s peg on the vacant, allowed hole `c` would join, with
    /// the groups it links to, as tags: 1 the first border, 2 the far one, 3 both.
    pub fn reach(&self, p: Player, c: Cell) -> u8 {
        self.would_link(p, c).fold(border_tags(p, c), |t, n| {
            t | self.groups.tags(n.cell as usize)
        })
    }

    /// The neighbours of hole `c` that a peg of `p` there would link to, as a mask: bit `k`
    /// stands for `c`'s neighbour `k`, a peg of player `pi` whose bridge to `c` no opposing
    /// link crosses (`c` itself is not looked at). Worked out without branches, which the
    /// random boards of playouts would mispredict.
    #[inline(always)]
    pub(crate) fn link_mask(&self, pi: usize, ci: usize) -> u32 {
        let mut mask = 0u32;
        for (k, n) in NEIGHBORS[ci].iter().enumerate() {
            // A missing neighbour points at corner A1, which never holds a peg.
            let own = self.marks[n.cell as usize] == pi as u8 + 1;
            mask |= ((own & (self.blocked[pi][n.bridge as usize] == 0)) as u32) << k;
        }
        mask
    }

    /// The neighbours of the vacant hole `c` that a peg of `p` there would link to.
    #[inline(always)]
    fn would_link(&self, p: Player, c: Cell) -> impl Iterator<Item = Neighbor> {
        let near = &NEIGHBORS[c.index()];
        let mut mask = self.link_mask(p.index(), c.index());
        std::iter::from_fn(move || {
            let k = mask.trailing_zeros() as usize;
            mask &= mask.wrapping_sub(1);
            near.get(k).copied()
        })
    }

    /// Places `p`'s peg on the vacant hole `c` and makes every link PP allows. The caller
    /// checks that the hole is vacant and allowed to `p`.
    ///
    /// In random playouts from the empty board, 41% of the pegs have no peg of their own
    /// colour a knight's move away; one test of the knight table answers for them. Of the
    /// rest, how many links a peg makes is random (none for 14%, one for half), so a loop
    /// over them would mispredict its first test. The first link is therefore made without
    /// a branch, a missing one as a no-op link from `c` to itself through [`NO_BRIDGE`];
    /// only a second link and more go round a loop.
    #[inline(always)]
    pub fn place(&mut self, p: Player, c: Cell) {
        debug_assert!(self.owner(c).is_none() && c.allowed_for(p));
        let (pi, ci) = (p.index(), c.index());
        // Read before the peg goes in: a wide load just after a narrow store to the same
        // words waits for the store.
        let lone = KNIGHTS[ci].and(self.pegs[pi]).is_empty();
        self.put_peg(p, c);
        if lone {
            return;
        }
        let mut mask = self.link_mask(pi, ci);
        let mut near = [Neighbor {
            cell: ci as u8,
            bridge: NO_BRIDGE,
        }; 9];
        near[..8].copy_from_slice(&NEIGHBORS[ci]);
        let first = near[(mask.trailing_zeros() as usize).min(8)];
        self.add_link(pi, first.bridge as usize);
        self.won[pi] |= self.groups.attach(ci, first.cell as usize) == 3;
        mask &= mask.wrapping_sub(1);
        while mask != 0 {
            let n = near[mask.trailing_zeros() as usize];
            mask &= mask.wrapping_sub(1);
            self.link_indices(pi, n.bridge as usize, ci, n.cell as usize);
        }
    }

    /// Puts a peg down on a vacant hole without making links (loading a listed position).
    #[inline(always)]
    pub fn put_peg(&mut self, p: Player, c: Cell) {
        self.pegs[p.index()].insert(c);
        self.marks[c.index()] = p.index() as u8 + 1;
        self.groups.tag(c.index(), border_tags(p, c));
    }

    /// Sets `p`'s link on bridge `b` whatever the counters say (loading a listed position:
    /// the caller validates). Both ends must be `p`'s pegs.
    pub fn put_link(&mut self, p: Player, b: Bridge) {
        let (lo, up) = b.ends();
        debug_assert!(self.pegs(p).has(lo) && self.pegs(p).has(up));
        if !self.has_link(p, b) {
            self.link_indices(p.index(), b.index(), lo.index(), up.index());
        }
    }

    /// Makes player `pi`'s link on bridge `b` (lower end `b / 4`, direction `b % 4`) between
    /// cells `a` and `other`: the playout's hot path, so plain indices.
    #[inline(always)]
    fn link_indices(&mut self, pi: usize, b: usize, a: usize, other: usize) {
        self.add_link(pi, b);
        self.won[pi] |= self.groups.union(a, other) == 3;
    }

    /// Records player `pi`'s link on bridge `b` and counts it on the bridges it crosses,
    /// without touching connectivity; through [`NO_BRIDGE`] it changes nothing but the
    /// absorbing counters.
    #[inline(always)]
    fn add_link(&mut self, pi: usize, b: usize) {
        self.links[pi][b % 4].insert_index_if(b / 4, b != NO_BRIDGE as usize);
        let opp = &mut self.blocked[1 - pi];
        for &x in &CROSSINGS[b] {
            // Real counters stay below 10; the absorbing slots may wrap.
            opp[x as usize] = opp[x as usize].wrapping_add(1);
        }
    }

    /// Recomputes the crossing counters from the links alone (for checking the incremental
    /// ones).
    #[cfg(not(codingame))]
    pub fn counters_from_scratch(&self) -> [[u8; SLOTS]; 2] {
        let mut blocked = [[0u8; SLOTS]; 2];
        for p in Player::BOTH {
            for b in self.links(p) {
                for x in b.crossings() {
                    blocked[p.other().index()][x.index()] += 1;
                }
            }
        }
        // The slots from NO_BRIDGE on only absorb writes; they carry no meaning.
        for (q, row) in blocked.iter_mut().enumerate() {
            row[BRIDGES..].copy_from_slice(&self.blocked[q][BRIDGES..]);
        }
        blocked
    }

    /// The incremental crossing counters, for comparison with [`Board::counters_from_scratch`].
    #[cfg(not(codingame))]
    pub fn counters(&self) -> &[[u8; SLOTS]; 2] {
        &self.blocked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cell;

    #[test]
    fn the_border_tags_name_the_borders_each_hole_lies_on() {
        for c in Cell::all() {
            for p in Player::BOTH {
                let (v, last) = (
                    if p == Player::Zero { c.y() } else { c.x() },
                    SIZE as i32 - 1,
                );
                let expected = match v {
                    0 => 1,
                    v if v == last => 2,
                    _ => 0,
                };
                assert_eq!(border_tags(p, c), expected, "{p} {c}");
                assert_eq!(expected != 0, c.on_border_of(p));
            }
        }
    }

    #[test]
    fn a_knight_pair_links_and_a_crossing_opponent_link_blocks() {
        let mut b = Board::new();
        b.place(Player::Zero, cell("E5"));
        b.place(Player::Zero, cell("F7"));
        assert_eq!(b.links(Player::Zero).count(), 1);
        let e5f7 = Bridge::between(cell("E5"), cell("F7")).unwrap();
        assert!(b.has_link(Player::Zero, e5f7));
        // D6-F5 crosses E5-F7, so player 1's pegs there stay apart.
        let d6f5 = Bridge::between(cell("D6"), cell("F5")).unwrap();
        assert!(e5f7.crossings().any(|x| x == d6f5));
        b.place(Player::One, cell("D6"));
        b.place(Player::One, cell("F5"));
        assert_eq!(b.links(Player::One).count(), 0);
        assert!(!b.has_link(Player::One, d6f5));
        assert_eq!(b.blocked(Player::One, d6f5), 1);
        // A link that crosses nothing is made.
        b.place(Player::One, cell("H6"));
        assert_eq!(b.links(Player::One).count(), 1);
        assert!(b.joined(cell("F5"), cell("H6")));
    }

    #[test]
    fn pegs_without_links_change_no_link_counter_or_group() {
        let mut b = Board::new();
        // F7 and G10 link once each (the branch-free first link); E5, H8 and B2 link to
        // nothing, which goes through the no-op link.
        for (p, s) in [(0, "E5"), (1, "H8"), (0, "F7"), (1, "G10"), (0, "B2")] {
            b.place(Player::from_index(p).unwrap(), cell(s));
        }
        assert_eq!(b.links(Player::Zero).count(), 1);
        assert_eq!(b.links(Player::One).count(), 1);
        assert_eq!(b.counters_from_scratch(), *b.counters());
        assert!(b.joined(cell("E5"), cell("F7")) && b.joined(cell("H8"), cell("G10")));
        assert!(!b.joined(cell("B2"), cell("E5")) && !b.joined(cell("E5"), cell("H8")));
    }

    #[test]
    fn own_links_may_cross() {
        let mut b = Board::new();
        for s in ["E5", "F7", "E7", "F5"] {
            b.place(Player::Zero, cell(s));
        }
        let e5f7 = Bridge::between(cell("E5"), cell("F7")).unwrap();
        let e7f5 = Bridge::between(cell("E7"), cell("F5")).unwrap();
        assert!(e5f7.crossings().any(|x| x == e7f5));
        assert!(b.has_link(Player::Zero, e5f7) && b.has_link(Player::Zero, e7f5));
        // Crossing links of one colour do not join at the crossing.
        assert!(!b.joined(cell("E5"), cell("E7")));
    }

    #[test]
    fn a_chain_from_top_to_bottom_connects() {
        let mut b = Board::new();
        let chain = ["E1", "F3", "E5", "F7", "E9", "F11"];
        for s in chain {
            b.place(Player::Zero, cell(s));
            assert!(!b.connected(Player::Zero), "connected too early at {s}");
        }
        b.place(Player::Zero, cell("D12"));
        assert!(b.connected(Player::Zero));
        assert!(!b.connected(Player::One));
    }
}
