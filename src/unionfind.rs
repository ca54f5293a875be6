//! Union-find over a fixed number of nodes, for connectivity that only ever grows.

/// Disjoint sets of `N` nodes (`N` at most 256), with union by weight and path halving. Every
/// set carries tag bits: the union of its members' tags.
///
/// A set's weight counts the sets [`UnionFind::union`] joined into it, not the single nodes
/// [`UnionFind::attach`] hung on it: the playout attaches a new peg at most links, and keeping
/// the count there cost a store each time. Which root a union keeps changes no partition, so
/// connectivity, tags and the search's signature are the same as with union by size.
#[derive(Clone)]
pub struct UnionFind<const N: usize> {
    parent: [u8; N],
    weight: [u8; N],
    tags: [u8; N],
}

impl<const N: usize> Default for UnionFind<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> UnionFind<N> {
    /// Every node alone in its set, untagged.
    pub fn new() -> Self {
        let mut parent = [0u8; N];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        UnionFind {
            parent,
            weight: [1; N],
            tags: [0; N],
        }
    }

    /// The representative of `a`'s set. Path halving points each node passed at its
    /// grandparent. A find from a root or a root's child, the common case, is answered after
    /// two dependent loads and no store.
    #[inline]
    pub fn find(&mut self, mut a: usize) -> usize {
        loop {
            let up = self.parent[a] as usize;
            let grand = self.parent[up];
            if grand as usize == up {
                return up;
            }
            self.parent[a] = grand;
            a = grand as usize;
        }
    }

    /// The representative of `a`'s set, without compressing paths (for `&self` queries).
    #[inline]
    pub fn root(&self, mut a: usize) -> usize {
        while self.parent[a] as usize != a {
            a = self.parent[a] as usize;
        }
        a
    }

    /// The tags of `a`'s set.
    #[inline]
    pub fn tags(&self, a: usize) -> u8 {
        self.tags[self.root(a)]
    }

    /// Sets the tags of `a`, which must still be alone in its set.
    #[inline]
    pub fn tag(&mut self, a: usize, bits: u8) {
        debug_assert!(self.parent[a] as usize == a && self.weight[a] == 1);
        self.tags[a] = bits;
    }

    /// Joins the sets of `a` and `b`; returns the tags of the joined set.
    #[inline]
    pub fn union(&mut self, a: usize, b: usize) -> u8 {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra != rb {
            if self.weight[ra] < self.weight[rb] {
                std::mem::swap(&mut ra, &mut rb);
            }
            self.parent[rb] = ra as u8;
            self.weight[ra] = self.weight[ra].saturating_add(self.weight[rb]);
            self.tags[ra] |= self.tags[rb];
        }
        self.tags[ra]
    }

    /// Joins `a`, alone in its set (a new peg before its first link), to `b`'s set, and
    /// returns the joined set's tags. Attaching `a` to itself changes nothing. Cheaper than
    /// [`UnionFind::union`]: one find, and no choice of root.
    #[inline]
    pub fn attach(&mut self, a: usize, b: usize) -> u8 {
        debug_assert!(self.parent[a] as usize == a && self.weight[a] == 1);
        let r = self.find(b);
        self.parent[a] = r as u8;
        let tags = self.tags[r] | self.tags[a];
        self.tags[r] = tags;
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl<const N: usize> UnionFind<N> {
        fn same(&self, a: usize, b: usize) -> bool {
            self.root(a) == self.root(b)
        }
    }

    #[test]
    fn unions_are_transitive() {
        let mut uf = UnionFind::<10>::new();
        uf.union(1, 2);
        uf.union(3, 4);
        assert!(!uf.same(1, 4));
        uf.union(2, 3);
        assert!(uf.same(1, 4));
        assert!(!uf.same(0, 1));
    }

    #[test]
    fn attaching_a_lone_node_joins_it_and_its_tags() {
        let mut uf = UnionFind::<10>::new();
        uf.tag(1, 1);
        uf.union(1, 2);
        uf.tag(5, 2);
        assert_eq!(uf.attach(5, 5), 2);
        assert!(!uf.same(5, 1));
        assert_eq!(uf.attach(5, 2), 3);
        assert!(uf.same(5, 1) && uf.same(5, 2));
        assert_eq!(uf.tags(1), 3);
        assert!(!uf.same(5, 3));
    }

    #[test]
    fn a_set_carries_its_members_tags() {
        let mut uf = UnionFind::<10>::new();
        uf.tag(1, 1);
        uf.tag(4, 2);
        assert_eq!(uf.union(1, 2), 1);
        assert_eq!(uf.tags(3), 0);
        assert_eq!(uf.union(3, 4), 2);
        assert_eq!(uf.union(2, 3), 3);
        assert_eq!(uf.tags(4), 3);
    }
}
