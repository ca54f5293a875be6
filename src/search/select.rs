//! Selection: the child of a node to walk to, by UCT over its hundred-odd children.
//!
//! Two divisions and a square root per child make this the search's hottest loop, and they
//! wait on one divider. So on the host, plain UCT (`minimax` at 0) computes the scores four
//! children at a time in the lanes of one SSE register. IEEE division and square root are
//! correctly rounded in every lane, and no operation is fused or reordered, so each score is
//! the same to the bit as one computed alone: the search, and its bench signature, do not
//! change. The bundle, whose default mixes in minimax, goes one child at a time there too.

use super::params::Params;
use super::tree::{Node, Tree};

/// The child of `parent` to walk to: the best UCT score `q + exploration * sqrt(ln N / n)`,
/// an unvisited child first, where with `minimax` above 0 the score's `q` is mixed with the
/// child's implicit minimax value. The first of equal scores wins.
pub(super) fn select(params: &Params, tree: &Tree, parent: u32) -> u32 {
    let parent_visits = tree.get(parent).visits.max(1) as f32;
    let (log_n, c) = (parent_visits.ln(), params.exploration);
    if params.minimax > 0.0 {
        let w = params.minimax;
        let mixed = |i: u32, n: &Node| {
            if n.visits == 0 {
                return f32::INFINITY;
            }
            let (q, m) = (n.value(), tree.minimax(i));
            let m = if m.is_nan() { q } else { m };
            (1.0 - w) * q + w * m + c * (log_n / n.visits as f32).sqrt()
        };
        one_at_a_time(tree, parent, mixed)
    } else {
        plain_uct(tree, parent, log_n, c)
    }
}

/// The child of the best plain UCT score, four lanes at a time.
#[cfg(not(codingame))]
fn plain_uct(tree: &Tree, parent: u32, log_n: f32, c: f32) -> u32 {
    let best = first_best(tree.child_nodes(parent), |q| uct(q, log_n, c));
    tree.children(parent).start + best as u32
}

/// The child of the best plain UCT score, one at a time: the same child as the host's lanes.
#[cfg(codingame)]
fn plain_uct(tree: &Tree, parent: u32, log_n: f32, c: f32) -> u32 {
    one_at_a_time(tree, parent, |_, n| uct_one(n, log_n, c))
}

/// One node's UCT score, `value + c * sqrt(log_n / n)`, infinite when unvisited.
#[cfg(any(test, codingame))]
fn uct_one(n: &Node, log_n: f32, c: f32) -> f32 {
    if n.visits == 0 {
        f32::INFINITY
    } else {
        n.value() + c * (log_n / n.visits as f32).sqrt()
    }
}

/// Four children's statistics side by side.
#[cfg(not(codingame))]
#[derive(Clone, Copy, Debug, PartialEq)]
struct Quad {
    visits: [u32; 4],
    wins: [f32; 4],
}

#[cfg(not(codingame))]
impl Quad {
    /// The statistics of up to four nodes. A lane with no node holds one visit worth minus
    /// infinity, which no score of a real node is below.
    #[inline(always)]
    fn of(nodes: &[Node]) -> Quad {
        if let [a, b, c, d] = nodes {
            return Quad {
                visits: [a.visits, b.visits, c.visits, d.visits],
                wins: [a.wins, b.wins, c.wins, d.wins],
            };
        }
        let mut q = Quad {
            visits: [1; 4],
            wins: [f32::NEG_INFINITY; 4],
        };
        for (j, n) in nodes.iter().take(4).enumerate() {
            q.visits[j] = n.visits;
            q.wins[j] = n.wins;
        }
        q
    }
}

/// The index of the first of `nodes` of the highest score (0 when none scores above minus
/// infinity), given `rate`, which scores four at once. Each lane keeps its best score and
/// the first index that scored it; the answer is the first index among the lanes holding
/// the highest of those.
#[cfg(not(codingame))]
#[inline(always)]
fn first_best(nodes: &[Node], rate: impl Fn(&Quad) -> [f32; 4]) -> usize {
    let mut lanes = Lanes::new();
    for (k, four) in nodes.chunks(4).enumerate() {
        lanes.offer(rate(&Quad::of(four)), 4 * k as u32);
    }
    let (best, at) = lanes.get();
    let max = best
        .iter()
        .fold(f32::NEG_INFINITY, |m, &b| if b > m { b } else { m });
    if max == f32::NEG_INFINITY {
        return 0;
    }
    (0..4)
        .filter(|&j| best[j] == max)
        .map(|j| at[j] as usize)
        .min()
        .unwrap_or(0)
}

/// Each lane's best score so far and the first index that scored it, in SSE2 registers where
/// the target has them: a compare and two blends a quad, where a lane at a time the compiler
/// moves the comparison's mask out to scalar registers and back.
#[cfg(all(target_arch = "x86_64", not(codingame)))]
struct Lanes {
    best: std::arch::x86_64::__m128,
    at: std::arch::x86_64::__m128i,
}

#[cfg(all(target_arch = "x86_64", not(codingame)))]
impl Lanes {
    #[inline(always)]
    fn new() -> Lanes {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline (see `uct_sse2`).
        unsafe {
            Lanes {
                best: _mm_set1_ps(f32::NEG_INFINITY),
                at: _mm_setzero_si128(),
            }
        }
    }

    /// Lane `j` takes `scores[j]` and index `base + j` where the score is higher than its
    /// best (a NaN never is).
    #[inline(always)]
    fn offer(&mut self, scores: [f32; 4], base: u32) {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; the load reads the 16 bytes of
        // `scores`.
        unsafe {
            let s = _mm_loadu_ps(scores.as_ptr());
            let better = _mm_cmpgt_ps(s, self.best);
            self.best = _mm_or_ps(_mm_and_ps(better, s), _mm_andnot_ps(better, self.best));
            let index = _mm_add_epi32(_mm_set1_epi32(base as i32), _mm_setr_epi32(0, 1, 2, 3));
            let better = _mm_castps_si128(better);
            self.at = _mm_or_si128(
                _mm_and_si128(better, index),
                _mm_andnot_si128(better, self.at),
            );
        }
    }

    /// Each lane's best score and its index.
    #[inline(always)]
    fn get(&self) -> ([f32; 4], [u32; 4]) {
        use std::arch::x86_64::*;
        let (mut best, mut at) = ([0.0f32; 4], [0u32; 4]);
        // SAFETY: SSE2 is part of the x86-64 baseline; the stores write the 16 bytes of
        // `best` and of `at`.
        unsafe {
            _mm_storeu_ps(best.as_mut_ptr(), self.best);
            _mm_storeu_si128(at.as_mut_ptr() as *mut __m128i, self.at);
        }
        (best, at)
    }
}

/// [`Lanes`] one lane at a time, where there is no SSE2.
#[cfg(all(not(target_arch = "x86_64"), not(codingame)))]
struct Lanes {
    best: [f32; 4],
    at: [u32; 4],
}

#[cfg(all(not(target_arch = "x86_64"), not(codingame)))]
impl Lanes {
    fn new() -> Lanes {
        Lanes {
            best: [f32::NEG_INFINITY; 4],
            at: [0; 4],
        }
    }

    fn offer(&mut self, scores: [f32; 4], base: u32) {
        for j in 0..4 {
            if scores[j] > self.best[j] {
                self.best[j] = scores[j];
                self.at[j] = base + j as u32;
            }
        }
    }

    fn get(&self) -> ([f32; 4], [u32; 4]) {
        (self.best, self.at)
    }
}

/// The child of `parent` of the best `rate` (of its index and node), one node at a time (for
/// implicit minimax, which reads each child's index).
fn one_at_a_time(tree: &Tree, parent: u32, rate: impl Fn(u32, &Node) -> f32) -> u32 {
    let mut best = (f32::NEG_INFINITY, tree.children(parent).start);
    for i in tree.children(parent) {
        let n = tree.get(i);
        let s = rate(i, n);
        if s == f32::INFINITY {
            return i;
        }
        if s > best.0 {
            best = (s, i);
        }
    }
    best.1
}

/// UCT scores, `wins / n + c * sqrt(log_n / n)`, infinite for an unvisited child: in one
/// SSE2 register where the target has it (every x86-64 does).
#[cfg(not(codingame))]
#[inline(always)]
fn uct(q: &Quad, log_n: f32, c: f32) -> [f32; 4] {
    #[cfg(target_arch = "x86_64")]
    {
        uct_sse2(q, log_n, c)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        uct_plain(q, log_n, c)
    }
}

/// UCT scores one lane at a time: what [`uct`] computes, as `Node::value` and the bonus.
#[cfg(not(codingame))]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn uct_plain(q: &Quad, log_n: f32, c: f32) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (j, o) in out.iter_mut().enumerate() {
        let n = q.visits[j] as f32;
        *o = if q.visits[j] == 0 {
            f32::INFINITY
        } else {
            q.wins[j] / n + c * (log_n / n).sqrt()
        };
    }
    out
}

/// [`uct_plain`] in the four lanes of an SSE2 register.
#[cfg(all(target_arch = "x86_64", not(codingame)))]
#[inline(always)]
fn uct_sse2(q: &Quad, log_n: f32, c: f32) -> [f32; 4] {
    use std::arch::x86_64::*;
    let mut out = [0.0f32; 4];
    // SAFETY: SSE2 is part of the x86-64 baseline, so these instructions exist on every
    // target this compiles for; the unaligned loads and the store read and write exactly the
    // 16 bytes of `q.visits`, `q.wins` and `out`.
    unsafe {
        let visits = _mm_loadu_si128(q.visits.as_ptr() as *const __m128i);
        // u32 to f32 as `as f32` does: SSE2 converts only signed integers, so the high and
        // low 16 bits are converted apart (exactly), and one addition rounds their sum once.
        let high = _mm_cvtepi32_ps(_mm_srli_epi32::<16>(visits));
        let low = _mm_cvtepi32_ps(_mm_and_si128(visits, _mm_set1_epi32(0xffff)));
        let n = _mm_add_ps(_mm_mul_ps(high, _mm_set1_ps(65536.0)), low);
        let mean = _mm_div_ps(_mm_loadu_ps(q.wins.as_ptr()), n);
        let bonus = _mm_sqrt_ps(_mm_div_ps(_mm_set1_ps(log_n), n));
        let bound = _mm_add_ps(mean, _mm_mul_ps(_mm_set1_ps(c), bonus));
        let unvisited = _mm_castsi128_ps(_mm_cmpeq_epi32(visits, _mm_setzero_si128()));
        let bound = _mm_or_ps(
            _mm_and_ps(unvisited, _mm_set1_ps(f32::INFINITY)),
            _mm_andnot_ps(unvisited, bound),
        );
        _mm_storeu_ps(out.as_mut_ptr(), bound);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Move;
    use crate::rng::FastRng;
    use crate::search::tree::ROOT;

    /// The plain loop [`first_best`] must agree with: the first strictly better score wins.
    fn first_best_plainly(nodes: &[Node], score: impl Fn(&Node) -> f32) -> usize {
        let mut best = (f32::NEG_INFINITY, 0);
        for (k, n) in nodes.iter().enumerate() {
            let s = score(n);
            if s > best.0 {
                best = (s, k);
            }
        }
        best.1
    }

    /// Children with few distinct visit counts and wins, so that equal scores are common.
    fn children(rng: &mut FastRng, visits: u32) -> Vec<Node> {
        let len = 1 + rng.below(140) as usize;
        (0..len)
            .map(|_| Node {
                mv: Move::Swap,
                visits: rng.below(visits),
                wins: rng.below(8) as f32 * 0.5,
                prior: rng.below(4) as f32 * 0.25,
                first_child: 0,
                children: 0,
                known: super::super::tree::Known::Open,
            })
            .collect()
    }

    /// UCT of one node, as `Node::value` and the bonus.
    #[test]
    fn four_lanes_score_as_one_node_at_a_time() {
        let mut rng = FastRng::new(5);
        for round in 0..3000 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 1 << 20 });
            let (log_n, c) = (((1 + rng.below(1 << 20)) as f32).ln(), 0.35);
            for four in nodes.chunks(4) {
                let q = Quad::of(four);
                let lanes = uct(&q, log_n, c).map(f32::to_bits);
                assert_eq!(lanes, uct_plain(&q, log_n, c).map(f32::to_bits));
                for (j, n) in four.iter().enumerate() {
                    assert_eq!(lanes[j], uct_one(n, log_n, c).to_bits(), "{n:?}");
                }
            }
        }
        // Counts past 2^24 round as `as f32` rounds them, and past 2^31 convert unsigned.
        for visits in [(1 << 24) + 1, (1 << 31) + 3, u32::MAX] {
            let n = Node {
                visits,
                ..children(&mut rng, 2)[0]
            };
            let lane = uct(&Quad::of(&[n]), 3.0, 0.35)[0];
            assert_eq!(lane.to_bits(), uct_one(&n, 3.0, 0.35).to_bits());
        }
    }

    #[test]
    fn the_first_best_child_is_the_plain_loops() {
        let mut rng = FastRng::new(3);
        for round in 0..2000 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 40 });
            let (log_n, c) = ((nodes.len() as f32).ln(), 0.35);
            let found = first_best(&nodes, |q| uct(q, log_n, c));
            assert_eq!(found, first_best_plainly(&nodes, |n| uct_one(n, log_n, c)));
            // Scores that are NaN are never best; when all are, the first child is.
            let nan = |q: &Quad| q.visits.map(|v| if v < 2 { f32::NAN } else { v as f32 });
            let nan_one = |n: &Node| {
                if n.visits < 2 {
                    f32::NAN
                } else {
                    n.visits as f32
                }
            };
            assert_eq!(first_best(&nodes, nan), first_best_plainly(&nodes, nan_one));
        }
    }

    #[test]
    fn select_walks_to_the_plain_loops_child_by_uct_with_and_without_minimax() {
        let mut rng = FastRng::new(9);
        for round in 0..500 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 40 });
            let mut tree = Tree::new(1000);
            tree.expand(ROOT, nodes.iter().map(|_| Move::Swap));
            tree.get_mut(ROOT).visits = 1 + rng.below(5000);
            for (i, n) in tree.children(ROOT).zip(&nodes) {
                *tree.get_mut(i) = *n;
            }
            let n = tree.get(ROOT).visits as f32;
            let first = tree.children(ROOT).start;
            let mut best = (f32::NEG_INFINITY, first);
            for i in tree.children(ROOT) {
                let s = uct_one(tree.get(i), n.ln(), Params::default().exploration);
                if s == f32::INFINITY {
                    best = (s, i);
                    break;
                }
                if s > best.0 {
                    best = (s, i);
                }
            }
            // With no minimax value below any child, the mixed score is UCT's.
            for minimax in [0.0, 0.3] {
                let params = Params {
                    minimax,
                    ..Params::default()
                };
                assert_eq!(select(&params, &tree, ROOT), best.1, "{params:?}");
            }
        }
    }
}
