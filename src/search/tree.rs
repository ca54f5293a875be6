//! The search tree: nodes in one arena, children stored contiguously.

use crate::position::Move;

/// A node: the move that leads to it and the statistics of the player who made that move.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The move from the parent.
    pub mv: Move,
    /// Playouts through this node.
    pub visits: u32,
    /// Their total reward for the player who made `mv` (win 1, draw 0.5, loss 0).
    pub wins: f32,
    /// The move's share of the learned policy among its siblings (PUCT's prior; 0 until the
    /// parent's expansion sets it).
    pub prior: f32,
    /// Index of the first child (meaningful when `children > 0`).
    pub first_child: u32,
    /// Number of children; 0 for a leaf.
    pub children: u8,
    /// Known result after `mv`: [`Known::Open`] while the game goes on.
    pub known: Known,
}

/// What is known of a node's position: whether the game ended there, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// Not yet looked at.
    Unknown,
    /// The game goes on.
    Open,
    /// The player who made the move wins: it connected.
    Win,
    /// The game is drawn.
    Draw,
}

impl Node {
    fn new(mv: Move) -> Node {
        Node {
            mv,
            visits: 0,
            wins: 0.0,
            prior: 0.0,
            first_child: 0,
            children: 0,
            known: Known::Unknown,
        }
    }

    /// Mean reward, for the player who made the move.
    #[inline]
    pub fn value(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f32
        }
    }
}

/// The arena of nodes; node 0 is the root.
pub struct Tree {
    nodes: Vec<Node>,
    max_nodes: usize,
    /// With implicit minimax backups (the `minimax` parameter): each node's minimax of the
    /// value's leaf estimates, for the player who made its move (NaN until one is known);
    /// empty otherwise, so that the default search pays nothing for it.
    minimax: Vec<f32>,
}

/// The highest of `values` that is not NaN, or NaN when none is. Four lanes keep their own
/// best (a NaN is never above it), so the compiler can keep them in one register: a backup
/// reads every child of each node on its path.
#[inline]
fn best_known(values: &[f32]) -> f32 {
    let mut lanes = [f32::NEG_INFINITY; 4];
    let mut fours = values.chunks_exact(4);
    for four in &mut fours {
        for (best, &v) in lanes.iter_mut().zip(four) {
            if v > *best {
                *best = v;
            }
        }
    }
    for &v in fours.remainder() {
        if v > lanes[0] {
            lanes[0] = v;
        }
    }
    let best = lanes
        .iter()
        .fold(f32::NEG_INFINITY, |m, &b| if b > m { b } else { m });
    if best == f32::NEG_INFINITY {
        f32::NAN
    } else {
        best
    }
}

/// Where a move stands in the order of the legal moves: holes by index, then SWAP.
#[inline]
pub(super) fn move_order(mv: Move) -> usize {
    match mv {
        Move::Peg(c) => c.index(),
        Move::Swap => usize::MAX,
    }
}

/// Index of the root node.
pub const ROOT: u32 = 0;

/// Makes room in `v` for `more` items, growing it as `Vec` would (doubling) but never past
/// `most` items unless more are asked for: the allocator is asked for no more than that.
#[cfg(not(codingame))]
fn reserve_within<T>(v: &mut Vec<T>, more: usize, most: usize) {
    let want = v.len() + more;
    if want > v.capacity() {
        let grown = (2 * v.capacity()).min(most).max(want);
        v.reserve_exact(grown - v.len());
    }
}

/// The memory of a tree no longer needed, for the next one (see [`Tree::reusing`]).
#[derive(Default)]
pub struct Memory {
    nodes: Vec<Node>,
    minimax: Vec<f32>,
}

impl Tree {
    /// A tree with only a root, holding at most `max_nodes` nodes.
    pub fn new(max_nodes: usize) -> Tree {
        let nodes = Vec::with_capacity(max_nodes.min(1 << 16));
        let memory = Memory {
            nodes,
            minimax: Vec::new(),
        };
        Tree::reusing(memory, max_nodes)
    }

    /// A tree with only a root, holding at most `max_nodes` nodes, in `memory` (an earlier
    /// tree's [`Tree::into_memory`]; its nodes are dropped). A search in memory it has used
    /// before asks the system for no new page: on a busy machine a page can take long enough
    /// to make an answer late.
    pub fn reusing(memory: Memory, max_nodes: usize) -> Tree {
        let Memory {
            mut nodes,
            mut minimax,
        } = memory;
        nodes.clear();
        nodes.push(Node::new(Move::Swap));
        minimax.clear();
        Tree {
            nodes,
            max_nodes: max_nodes.max(1),
            minimax,
        }
    }

    /// The most bytes a tree of at most `max_nodes` nodes asks the allocator for: its nodes,
    /// and with `minimax` (the parameter above 0) their minimax values. Its arrays grow by
    /// doubling as a `Vec` does, but never past `max_nodes`, so a host that budgets memory can
    /// bound a search by its `max_nodes`.
    #[cfg(not(codingame))]
    pub fn most_bytes(max_nodes: usize, minimax: bool) -> usize {
        let value = if minimax {
            std::mem::size_of::<f32>()
        } else {
            0
        };
        max_nodes.max(1) * (std::mem::size_of::<Node>() + value)
    }

    /// Makes room for `n` more nodes, and their minimax values when kept, growing the arrays
    /// by doubling as `Vec` does but never past `max_nodes` ([`Tree::most_bytes`]).
    #[cfg(not(codingame))]
    fn room(&mut self, n: usize) {
        let most = self.max_nodes;
        reserve_within(&mut self.nodes, n, most);
        if !self.minimax.is_empty() {
            reserve_within(&mut self.minimax, n, most);
        }
    }

    /// The bundle lets `Vec` grow as it does: CodinGame's memory has room for twice the trees.
    #[cfg(codingame)]
    fn room(&mut self, _: usize) {}

    /// The tree's memory, for [`Tree::reusing`].
    pub fn into_memory(self) -> Memory {
        Memory {
            nodes: self.nodes,
            minimax: self.minimax,
        }
    }

    /// Starts keeping minimax values (none known yet), if not already.
    pub fn track_minimax(&mut self) {
        if self.minimax.len() != self.nodes.len() {
            self.minimax.clear();
            self.minimax.resize(self.nodes.len(), f32::NAN);
        }
    }

    /// Node `i`'s minimax value for the player who made its move: NaN while unknown, or when
    /// the tree does not keep them.
    #[inline]
    pub fn minimax(&self, i: u32) -> f32 {
        self.minimax.get(i as usize).copied().unwrap_or(f32::NAN)
    }

    /// Sets node `i`'s minimax value (kept only after [`Tree::track_minimax`]).
    #[inline]
    pub fn set_minimax(&mut self, i: u32, v: f32) {
        if let Some(m) = self.minimax.get_mut(i as usize) {
            *m = v;
        }
    }

    /// The minimax values of node `i`'s children, in order (empty when the tree keeps none).
    #[inline]
    pub fn children_minimax(&self, i: u32) -> &[f32] {
        let r = self.children(i);
        self.minimax
            .get(r.start as usize..r.end as usize)
            .unwrap_or(&[])
    }

    /// Node `i`'s minimax from its children's: one less the best known for the player who
    /// moves there, or NaN if none is known.
    pub fn minimax_of_children(&self, i: u32) -> f32 {
        1.0 - best_known(self.children_minimax(i))
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only the root is there.
    #[cfg(not(codingame))]
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// A node.
    #[inline]
    pub fn get(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    /// A node, mutably.
    #[inline]
    pub fn get_mut(&mut self, i: u32) -> &mut Node {
        &mut self.nodes[i as usize]
    }

    /// The children's indices.
    #[inline]
    pub fn children(&self, i: u32) -> std::ops::Range<u32> {
        let n = self.get(i);
        n.first_child..n.first_child + n.children as u32
    }

    /// The children's nodes, in order.
    #[inline]
    pub fn child_nodes(&self, i: u32) -> &[Node] {
        let r = self.children(i);
        &self.nodes[r.start as usize..r.end as usize]
    }

    /// Adds children for `moves` under `i`, if the memory bound allows. Returns whether
    /// they were added.
    pub fn expand(&mut self, i: u32, moves: impl ExactSizeIterator<Item = Move>) -> bool {
        let count = moves.len();
        if count == 0 || count > u8::MAX as usize || self.nodes.len() + count > self.max_nodes {
            return false;
        }
        let first = self.nodes.len() as u32;
        self.room(count);
        self.nodes.extend(moves.map(Node::new));
        if !self.minimax.is_empty() {
            self.minimax.resize(self.nodes.len(), f32::NAN);
        }
        let node = self.get_mut(i);
        node.first_child = first;
        node.children = count as u8;
        true
    }

    /// Among the children of `i` from the `from`-th on, which no iteration has entered (each
    /// with its virtual visits and no more), brings the best to the `from`-th place: the most
    /// wins, and of equal wins the first in the order of the legal moves (holes by index, then
    /// SWAP), the order in which they were added. The search keeps this after an expansion
    /// (`from` 0) and each time it enters the child in that place (`from` the next one), so
    /// that selection may stop at it: every child after it scores no higher by its prior alone
    /// ([`super::select`]). Only places at `from` and after move, none of them entered.
    pub fn lead_untouched(&mut self, i: u32, from: usize) {
        let r = self.children(i);
        let children = &mut self.nodes[r.start as usize..r.end as usize];
        if from >= children.len() {
            return;
        }
        let (rest, mut best) = (&children[from..], 0);
        for (k, n) in rest.iter().enumerate().skip(1) {
            let b = &rest[best];
            if n.wins > b.wins || (n.wins == b.wins && move_order(n.mv) < move_order(b.mv)) {
                best = k;
            }
        }
        children.swap(from, from + best);
    }

    /// A tree made of the subtree under `i`, `i` becoming the root (tree reuse between
    /// turns), in `memory` (see [`Tree::reusing`]). Children stay contiguous; the node bound
    /// is kept.
    pub fn subtree(&self, i: u32, memory: Memory) -> Tree {
        let mut out = Tree::reusing(memory, self.max_nodes);
        out.nodes[0] = *self.get(i);
        let keep = !self.minimax.is_empty();
        if keep {
            out.minimax.push(self.minimax(i));
        }
        let mut queue = std::collections::VecDeque::from([(i, ROOT)]);
        while let Some((old, new)) = queue.pop_front() {
            let first = out.nodes.len() as u32;
            out.room(self.children(old).len());
            for (k, c) in self.children(old).enumerate() {
                out.nodes.push(*self.get(c));
                if keep {
                    out.minimax.push(self.minimax(c));
                }
                if self.get(c).children > 0 {
                    queue.push_back((c, first + k as u32));
                }
            }
            out.get_mut(new).first_child = first;
        }
        out
    }

    /// The root's child with the most visits (ties to the better value); a winning move
    /// comes first.
    pub fn best_root_child(&self) -> Option<&Node> {
        let rank = |n: &Node| n.known == Known::Win;
        self.children(ROOT).map(|c| self.get(c)).max_by(|a, b| {
            (rank(a), a.visits, a.value())
                .partial_cmp(&(rank(b), b.visits, b.value()))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_known_value_is_the_plain_folds() {
        let mut rng = crate::rng::FastRng::new(4);
        for _ in 0..3000 {
            let len = rng.below(140) as usize;
            let values: Vec<f32> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => f32::NAN,
                    _ => rng.below(64) as f32 / 63.0,
                })
                .collect();
            let plain = values
                .iter()
                .fold(f32::NAN, |m, &v| if v > m || m.is_nan() { v } else { m });
            assert_eq!(best_known(&values).to_bits(), plain.to_bits(), "{values:?}");
        }
    }

    #[test]
    fn the_best_child_not_entered_is_brought_forward() {
        let mut rng = crate::rng::FastRng::new(8);
        for _ in 0..300 {
            let holes: Vec<Move> = crate::bitboard::Bitboard::HOLES
                .iter()
                .map(Move::Peg)
                .collect();
            let len = 1 + rng.below(holes.len() as u32) as usize;
            let mut t = Tree::new(1000);
            assert!(t.expand(ROOT, holes[..len].iter().copied()));
            for i in t.children(ROOT) {
                (t.get_mut(i).visits, t.get_mut(i).wins) = (7, rng.below(6) as f32 * 0.75);
            }
            let from = rng.below(len as u32 + 1) as usize;
            let before: Vec<(Move, f32)> =
                t.child_nodes(ROOT).iter().map(|n| (n.mv, n.wins)).collect();
            t.lead_untouched(ROOT, from);
            let after: Vec<(Move, f32)> =
                t.child_nodes(ROOT).iter().map(|n| (n.mv, n.wins)).collect();
            assert_eq!(
                after[..from],
                before[..from],
                "the places before `from` stay"
            );
            let mut rest = before[from..].to_vec();
            if let Some(&lead) = after.get(from) {
                // The most wins, and of equal wins the first hole.
                rest.sort_by(|a, b| {
                    b.1.partial_cmp(&a.1)
                        .unwrap()
                        .then(move_order(a.0).cmp(&move_order(b.0)))
                });
                assert_eq!(lead, rest[0]);
            }
            let mut moved = after.clone();
            moved.sort_by_key(|&(mv, _)| move_order(mv));
            assert_eq!(moved, before, "the same children");
        }
    }

    #[test]
    fn a_node_takes_twenty_bytes() {
        // The memory bound of `Params::max_nodes` is counted with this size.
        assert_eq!(std::mem::size_of::<Node>(), 20);
    }

    #[test]
    fn a_tree_in_used_memory_holds_only_its_own_nodes() {
        let moves = |n: usize| (0..n).map(|_| Move::Swap).collect::<Vec<_>>().into_iter();
        let mut t = Tree::new(100);
        t.expand(ROOT, moves(3));
        t.expand(2, moves(2));
        t.get_mut(5).visits = 9;
        t.track_minimax();
        t.set_minimax(4, 0.25);
        let mut used = Tree::new(100);
        used.expand(ROOT, moves(40));
        used.track_minimax();
        for i in 0..used.len() as u32 {
            used.get_mut(i).visits = 1000 + i;
            used.set_minimax(i, 0.9);
        }
        let (fresh, again) = (
            t.subtree(2, Memory::default()),
            t.subtree(2, used.into_memory()),
        );
        let fields = |t: &Tree| {
            let n = |i: u32| {
                let node = t.get(i);
                let minimax = t.minimax(i).to_bits();
                (node.visits, node.first_child, node.children, minimax)
            };
            (0..t.len() as u32).map(n).collect::<Vec<_>>()
        };
        assert_eq!(fields(&again), fields(&fresh));
        assert_eq!(again.len(), 3);
        let empty = Tree::reusing(again.into_memory(), 100);
        assert_eq!((empty.len(), empty.get(ROOT).visits), (1, 0));
        assert_eq!(empty.get(ROOT).children, 0);
        assert!(empty.minimax(ROOT).is_nan(), "no minimax kept until asked");
    }

    #[test]
    fn a_subtree_keeps_its_nodes_and_statistics() {
        let mut t = Tree::new(100);
        let moves = |n: usize| (0..n).map(|_| Move::Swap).collect::<Vec<_>>().into_iter();
        t.expand(ROOT, moves(3));
        t.expand(2, moves(2));
        t.expand(5, moves(4));
        t.get_mut(2).visits = 7;
        t.get_mut(6).visits = 3;
        let s = t.subtree(2, Memory::default());
        assert_eq!(s.len(), 1 + 2 + 4);
        assert_eq!(s.get(ROOT).visits, 7);
        assert_eq!(s.children(ROOT).len(), 2);
        let second = s.children(ROOT).start + 1;
        assert_eq!(
            s.children(second).len(),
            4,
            "old node 5 kept its 4 children"
        );
        assert_eq!(
            s.get(s.children(second).start).visits,
            3,
            "old node 6 kept its visits"
        );
    }

    #[test]
    fn minimax_values_follow_expansion_and_subtrees() {
        let mut t = Tree::new(100);
        let moves = |n: usize| (0..n).map(|_| Move::Swap).collect::<Vec<_>>().into_iter();
        t.expand(ROOT, moves(3));
        assert!(t.minimax(1).is_nan(), "not kept before track_minimax");
        t.track_minimax();
        t.expand(2, moves(2));
        assert_eq!(t.len(), 6);
        assert!(t.minimax_of_children(2).is_nan(), "no child known");
        t.set_minimax(4, 0.3);
        t.set_minimax(5, 0.6);
        assert!((t.minimax_of_children(2) - 0.4).abs() < 1e-6);
        t.set_minimax(2, 0.4);
        let s = t.subtree(2, Memory::default());
        assert_eq!(s.minimax(ROOT), 0.4);
        assert_eq!((s.minimax(1), s.minimax(2)), (0.3, 0.6));
    }

    #[test]
    fn a_full_tree_asks_for_no_more_memory_than_its_bound() {
        // Doubling from 65536 nodes would reach 262144, past this bound.
        let max = 3 << 16;
        let moves = |n: usize| (0..n).map(|_| Move::Swap).collect::<Vec<_>>().into_iter();
        let mut t = Tree::new(max);
        t.track_minimax();
        let mut i = ROOT;
        while t.expand(i, moves(200)) {
            i += 1;
        }
        assert!(t.len() > max - 200, "{} nodes", t.len());
        let most = |t: &Tree| t.nodes.capacity() * 20 + t.minimax.capacity() * 4;
        assert!(most(&t) <= Tree::most_bytes(max, true), "{}", most(&t));
        let kept = t.subtree(ROOT, Memory::default());
        assert_eq!(kept.len(), t.len());
        assert!(most(&kept) <= Tree::most_bytes(max, true));
        assert_eq!(Tree::most_bytes(max, false), max * 20);
    }

    #[test]
    fn expansion_respects_the_node_bound() {
        let mut t = Tree::new(5);
        let moves = |n: usize| (0..n).map(|_| Move::Swap).collect::<Vec<_>>().into_iter();
        assert!(t.expand(ROOT, moves(3)));
        assert_eq!(t.children(ROOT), 1..4);
        assert!(!t.expand(1, moves(2)), "5 + 1 nodes would exceed the bound");
        assert!(t.expand(1, moves(1)));
        assert_eq!(t.len(), 5);
    }
}
