//! Selection: the child of a node to walk to, by UCT (or PUCT) over its hundred-odd children.
//!
//! Two divisions and a square root per child make this the search's hottest loop, and they
//! wait on one divider. So the scores are computed four children at a time in the lanes of
//! one SSE register. IEEE division and square root are correctly rounded in every lane, and
//! no operation is fused or reordered, so each score is the same to the bit as one computed
//! alone: the search, and its bench signature, do not change.

use super::params::Params;
use super::tree::{Known, Node, Tree};

/// The child of `parent` to walk to: with `puct` at 0 the best UCT score
/// `q + exploration * sqrt(ln N / n)`, an unvisited child first; else the best PUCT score
/// `q + puct * p * sqrt(N) / (1 + n)`, where `p` is the child's prior share and an unvisited
/// child counts as a draw. The first of equal scores wins; with the solver on, a proven win
/// at once and never a proven loss.
pub(super) fn select(params: &Params, tree: &Tree, parent: u32) -> u32 {
    let parent_visits = tree.get(parent).visits.max(1) as f32;
    let first = tree.children(parent).start;
    let nodes = tree.child_nodes(parent);
    let best = if params.puct > 0.0 {
        let scale = params.puct * parent_visits.sqrt();
        pick(params, nodes, |q| puct(q, scale))
    } else {
        let (log_n, c) = (parent_visits.ln(), params.exploration);
        pick(params, nodes, |q| uct(q, log_n, c))
    };
    first + best as u32
}

/// Four children's statistics side by side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Quad {
    visits: [u32; 4],
    wins: [f32; 4],
    prior: [f32; 4],
}

impl Quad {
    /// The statistics of up to four nodes. A lane with no node holds one visit worth minus
    /// infinity, which no score of a real node is below.
    #[inline(always)]
    fn of(nodes: &[Node]) -> Quad {
        let mut q = Quad {
            visits: [1; 4],
            wins: [f32::NEG_INFINITY; 4],
            prior: [0.0; 4],
        };
        for (j, n) in nodes.iter().take(4).enumerate() {
            q.visits[j] = n.visits;
            q.wins[j] = n.wins;
            q.prior[j] = n.prior;
        }
        q
    }
}

/// The index in `nodes` of the child to walk to (see [`select`]), given `score`, which
/// scores four children at once.
#[inline(always)]
fn pick(params: &Params, nodes: &[Node], score: impl Fn(&Quad) -> [f32; 4]) -> usize {
    if params.solver {
        first_proven_best(nodes, |n| score(&Quad::of(std::slice::from_ref(n)))[0])
    } else {
        first_best(nodes, score)
    }
}

/// The index of the first node of the highest score (0 when none scores above minus
/// infinity). Each lane keeps its best score and the first index that scored it; the answer
/// is the first index among the lanes holding the highest of those.
#[inline(always)]
fn first_best(nodes: &[Node], score: impl Fn(&Quad) -> [f32; 4]) -> usize {
    let mut best = [f32::NEG_INFINITY; 4];
    let mut at = [0usize; 4];
    for (k, four) in nodes.chunks(4).enumerate() {
        let s = score(&Quad::of(four));
        for j in 0..4 {
            if s[j] > best[j] {
                best[j] = s[j];
                at[j] = 4 * k + j;
            }
        }
    }
    let max = best
        .iter()
        .fold(f32::NEG_INFINITY, |m, &b| if b > m { b } else { m });
    if max == f32::NEG_INFINITY {
        return 0;
    }
    (0..4)
        .filter(|&j| best[j] == max)
        .map(|j| at[j])
        .min()
        .unwrap_or(0)
}

/// [`first_best`] with the solver on: a proven win at once, never a proven loss, one node at
/// a time.
fn first_proven_best(nodes: &[Node], score: impl Fn(&Node) -> f32) -> usize {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, n) in nodes.iter().enumerate() {
        match n.known {
            Known::Win => return i,
            Known::Loss => continue,
            _ => {}
        }
        let s = score(n);
        if s == f32::INFINITY {
            return i;
        }
        if s > best.0 {
            best = (s, i);
        }
    }
    best.1
}

/// PUCT scores: `Node::value`, then the exploration term, in the same operations.
#[inline(always)]
fn puct(q: &Quad, scale: f32) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (j, o) in out.iter_mut().enumerate() {
        let n = q.visits[j];
        let value = if n == 0 { 0.5 } else { q.wins[j] / n as f32 };
        *o = value + scale * q.prior[j] / (1 + n) as f32;
    }
    out
}

/// UCT scores, `wins / n + c * sqrt(log_n / n)`, infinite for an unvisited child: in one
/// SSE2 register where the target has it (every x86-64 does).
#[inline(always)]
pub(super) fn uct(q: &Quad, log_n: f32, c: f32) -> [f32; 4] {
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
#[cfg(target_arch = "x86_64")]
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
        let value = _mm_div_ps(_mm_loadu_ps(q.wins.as_ptr()), n);
        let bonus = _mm_sqrt_ps(_mm_div_ps(_mm_set1_ps(log_n), n));
        let score = _mm_add_ps(value, _mm_mul_ps(_mm_set1_ps(c), bonus));
        let unvisited = _mm_castsi128_ps(_mm_cmpeq_epi32(visits, _mm_setzero_si128()));
        let score = _mm_or_ps(
            _mm_and_ps(unvisited, _mm_set1_ps(f32::INFINITY)),
            _mm_andnot_ps(unvisited, score),
        );
        _mm_storeu_ps(out.as_mut_ptr(), score);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Move;
    use crate::rng::FastRng;

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
                known: Known::Open,
            })
            .collect()
    }

    #[test]
    fn four_lanes_score_as_one_node_at_a_time() {
        let mut rng = FastRng::new(5);
        let lane =
            |n: &Node, log_n: f32, c: f32| uct(&Quad::of(std::slice::from_ref(n)), log_n, c)[0];
        for round in 0..3000 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 1 << 20 });
            let (log_n, c) = (((1 + rng.below(1 << 20)) as f32).ln(), 0.35);
            for four in nodes.chunks(4) {
                let q = Quad::of(four);
                let lanes = uct(&q, log_n, c);
                assert_eq!(
                    lanes.map(f32::to_bits),
                    uct_plain(&q, log_n, c).map(f32::to_bits)
                );
                for (j, n) in four.iter().enumerate() {
                    let alone = if n.visits == 0 {
                        f32::INFINITY
                    } else {
                        n.value() + c * (log_n / n.visits as f32).sqrt()
                    };
                    assert_eq!(lanes[j].to_bits(), alone.to_bits(), "{n:?}");
                    assert_eq!(lane(n, log_n, c).to_bits(), alone.to_bits());
                }
            }
        }
        // Counts past 2^24 round as `as f32` rounds them, and past 2^31 convert unsigned.
        for visits in [(1 << 24) + 1, (1 << 31) + 3, u32::MAX] {
            let q = Quad::of(&[Node {
                visits,
                ..children(&mut rng, 2)[0]
            }]);
            assert_eq!(
                uct(&q, 3.0, 0.35)[0].to_bits(),
                uct_plain(&q, 3.0, 0.35)[0].to_bits()
            );
        }
    }

    #[test]
    fn the_first_best_child_is_the_plain_loops() {
        let mut rng = FastRng::new(3);
        for round in 0..2000 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 40 });
            let (log_n, c) = ((nodes.len() as f32).ln(), 0.35);
            let uct_one = |n: &Node| {
                if n.visits == 0 {
                    f32::INFINITY
                } else {
                    n.value() + c * (log_n / n.visits as f32).sqrt()
                }
            };
            let found = first_best(&nodes, |q| uct(q, log_n, c));
            assert_eq!(found, first_best_plainly(&nodes, uct_one));
            let puct_one = |n: &Node| n.value() + 0.8 * n.prior / (1 + n.visits) as f32;
            let found = first_best(&nodes, |q| puct(q, 0.8));
            assert_eq!(found, first_best_plainly(&nodes, puct_one));
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
}
