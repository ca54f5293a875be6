//! Union-find over a fixed number of nodes, for connectivity that only ever grows.

/// Disjoint sets of `N` nodes (`N` at most 256), with union by size and path halving.
#[derive(Clone)]
pub struct UnionFind<const N: usize> {
    parent: [u8; N],
    size: [u8; N],
}

impl<const N: usize> Default for UnionFind<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> UnionFind<N> {
    /// Every node alone in its set.
    pub fn new() -> Self {
        let mut parent = [0u8; N];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        UnionFind {
            parent,
            size: [1; N],
        }
    }

    /// The representative of `a`'s set.
    #[inline]
    pub fn find(&mut self, mut a: usize) -> usize {
        while self.parent[a] as usize != a {
            let grand = self.parent[self.parent[a] as usize];
            self.parent[a] = grand;
            a = grand as usize;
        }
        a
    }

    /// The representative of `a`'s set, without compressing paths (for `&self` queries).
    #[inline]
    pub fn root(&self, mut a: usize) -> usize {
        while self.parent[a] as usize != a {
            a = self.parent[a] as usize;
        }
        a
    }

    /// Joins the sets of `a` and `b`.
    #[inline]
    pub fn union(&mut self, a: usize, b: usize) {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        if self.size[ra] < self.size[rb] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb] = ra as u8;
        self.size[ra] = self.size[ra].saturating_add(self.size[rb]);
    }

    /// Whether `a` and `b` are in one set.
    #[inline]
    pub fn same(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
