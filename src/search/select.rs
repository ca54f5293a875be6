//! Selection: the child of a node to walk to, by UCT over its hundred-odd children.
//!
//! Two divisions and a square root per child (and a mix with the child's minimax value) make
//! this the search's hottest loop, and they wait on one divider. So the scores are computed
//! four children at a time in the lanes of one SSE register: SSE2 is part of the x86-64
//! baseline, CodinGame's machines included. IEEE division and square root are correctly
//! rounded in every lane, and no operation is fused or reordered, so each score is the same to
//! the bit as one computed alone: the search, and its bench signature, do not change.

use super::params::Params;
use super::tree::{move_order, Node, Tree};

/// The child of `parent` to walk to: the best UCT score `q + exploration * sqrt(ln N / n)`,
/// an unvisited child first, where with `minimax` above 0 the score's `q` is mixed with the
/// child's implicit minimax value (`q` itself while that is unknown). Of equal scores, the
/// first in the order of the legal moves wins.
pub(super) fn select(params: &Params, tree: &Tree, parent: u32) -> u32 {
    let parent_visits = tree.get(parent).visits.max(1) as f32;
    let (log_n, c) = (parent_visits.ln(), params.exploration);
    let (w, known) = (params.minimax, tree.children_minimax(parent));
    let rate = |at, q: &Quad| mixed(q, minimax_lanes(known, at), log_n, c, w);
    let best = first_best(tree.child_nodes(parent), rate, params.prior_visits);
    tree.children(parent).start + best as u32
}

/// Four children's statistics side by side.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Quad {
    visits: [u32; 4],
    wins: [f32; 4],
}

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

/// The minimax values of the four children from index `at` of `known` (NaN, unknown, past
/// its end: a tree that keeps none has an empty `known`).
#[inline(always)]
fn minimax_lanes(known: &[f32], at: usize) -> [f32; 4] {
    match known.get(at..at + 4) {
        Some(&[a, b, c, d]) => [a, b, c, d],
        _ => {
            let mut m = [f32::NAN; 4];
            for (j, &v) in known.iter().skip(at).take(4).enumerate() {
                m[j] = v;
            }
            m
        }
    }
}

/// The index in `nodes` of the highest score given `rate`, which scores four at once (told
/// the first one's index), of equal scores the first in the order of the legal moves (0 when
/// none scores above minus infinity; a NaN never does), looking up to the first four that hold
/// a child of `untouched` visits.
///
/// The search keeps the children no iteration has entered (their virtual visits alone,
/// `prior_visits`: any child entered has more) after those entered, the best of them first
/// ([`Tree::lead_untouched`]). Such a child has no minimax value, so it scores by its prior
/// alone, and no other one not entered scores higher: only the children before it, those
/// the search has entered (a handful of a hundred, but at the root), and it need scoring.
#[inline(always)]
fn first_best(nodes: &[Node], rate: impl Fn(usize, &Quad) -> [f32; 4], untouched: u32) -> usize {
    let mut best = (f32::NEG_INFINITY, 0);
    for (k, four) in nodes.chunks(4).enumerate() {
        let quad = Quad::of(four);
        for (j, (&s, n)) in rate(4 * k, &quad).iter().zip(four).enumerate() {
            let first = || move_order(n.mv) < move_order(nodes[best.1].mv);
            if s > best.0 || (s == best.0 && first()) {
                best = (s, 4 * k + j);
            }
        }
        if quad.visits.contains(&untouched) {
            break;
        }
    }
    best.1
}

/// Each of four children's `(1 - w) * q + w * m + c * sqrt(log_n / n)`, with `q = wins / n`
/// and `m` its minimax value (`q` where that is NaN), infinite when unvisited, one lane at a
/// time where the target has no SSE2. With `w` 0 that is plain UCT's `q + c * sqrt(log_n / n)`
/// to the bit: `1 * q` is `q`, and `0 * m` adds nothing (in a lane with no node, minus
/// infinity times 0 is NaN: never best).
#[cfg(all(not(target_arch = "x86_64"), not(codingame)))]
fn mixed(q: &Quad, m: [f32; 4], log_n: f32, c: f32, w: f32) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (j, o) in out.iter_mut().enumerate() {
        let n = q.visits[j] as f32;
        let mean = q.wins[j] / n;
        let m = if m[j].is_nan() { mean } else { m[j] };
        *o = if q.visits[j] == 0 {
            f32::INFINITY
        } else {
            (1.0 - w) * mean + w * m + c * (log_n / n).sqrt()
        };
    }
    out
}

/// The same in the four lanes of an SSE2 register: the same operations in the same order,
/// each correctly rounded, so the same bits. SSE2 is part of the x86-64 baseline, so these
/// instructions exist on every target this compiles for.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn mixed(q: &Quad, m: [f32; 4], log_n: f32, c: f32, w: f32) -> [f32; 4] {
    use std::arch::x86_64::*;
    let mut out = [0.0f32; 4];
    // SAFETY: SSE2 (above); the unaligned loads read exactly the 16 bytes of `q.visits`,
    // `q.wins` and `m`, the store writes those of `out`.
    unsafe {
        let visits = _mm_loadu_si128(q.visits.as_ptr() as *const __m128i);
        // `as f32` of each count: SSE2 converts only signed integers, so the high and low 16
        // bits are converted apart (exactly), and one addition rounds their sum once.
        let high = _mm_cvtepi32_ps(_mm_srli_epi32(visits, 16));
        let low = _mm_cvtepi32_ps(_mm_and_si128(visits, _mm_set1_epi32(0xffff)));
        let n = _mm_add_ps(_mm_mul_ps(high, _mm_set1_ps(65536.0)), low);
        let mean = _mm_div_ps(_mm_loadu_ps(q.wins.as_ptr()), n);
        let m = _mm_loadu_ps(m.as_ptr());
        let m = blend(_mm_cmpunord_ps(m, m), mean, m);
        let mix = _mm_add_ps(
            _mm_mul_ps(_mm_set1_ps(1.0 - w), mean),
            _mm_mul_ps(_mm_set1_ps(w), m),
        );
        let bonus = _mm_sqrt_ps(_mm_div_ps(_mm_set1_ps(log_n), n));
        let bound = _mm_add_ps(mix, _mm_mul_ps(_mm_set1_ps(c), bonus));
        let unvisited = _mm_castsi128_ps(_mm_cmpeq_epi32(visits, _mm_setzero_si128()));
        let bound = blend(unvisited, _mm_set1_ps(f32::INFINITY), bound);
        _mm_storeu_ps(out.as_mut_ptr(), bound);
    }
    out
}

/// `yes` in the lanes where `mask` is set, `no` elsewhere.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn blend(
    mask: std::arch::x86_64::__m128,
    yes: std::arch::x86_64::__m128,
    no: std::arch::x86_64::__m128,
) -> std::arch::x86_64::__m128 {
    use std::arch::x86_64::*;
    _mm_or_ps(_mm_and_ps(mask, yes), _mm_andnot_ps(mask, no))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Move;
    use crate::rng::FastRng;
    use crate::search::tree::ROOT;

    /// The defaults with virtual visits that no child of these tests' random children has:
    /// selection looks at them all.
    fn unordered() -> Params {
        Params {
            prior_visits: u32::MAX,
            ..Params::default()
        }
    }

    /// Plain UCT in the lanes: the mix with no minimax value and weight 0.
    fn uct(q: &Quad, log_n: f32, c: f32) -> [f32; 4] {
        mixed(q, [f32::NAN; 4], log_n, c, 0.0)
    }

    /// One node's UCT score, `value + c * sqrt(log_n / n)`, infinite when unvisited.
    fn uct_one(n: &Node, log_n: f32, c: f32) -> f32 {
        if n.visits == 0 {
            f32::INFINITY
        } else {
            n.value() + c * (log_n / n.visits as f32).sqrt()
        }
    }

    /// One node's mixed score as the search wrote it one child at a time.
    fn mixed_one(n: &Node, m: f32, log_n: f32, c: f32, w: f32) -> f32 {
        if n.visits == 0 {
            return f32::INFINITY;
        }
        let q = n.value();
        let m = if m.is_nan() { q } else { m };
        (1.0 - w) * q + w * m + c * (log_n / n.visits as f32).sqrt()
    }

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

    /// UCT of one node, as `Node::value` and the bonus, for counts past what `f32` holds
    /// exactly (the lanes' other scores: `four_lanes_mix_minimax_as_one_node_at_a_time`).
    #[test]
    fn four_lanes_convert_large_counts_as_one_node_at_a_time() {
        let mut rng = FastRng::new(5);
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
            let found = first_best(&nodes, |_, q| uct(q, log_n, c), u32::MAX);
            assert_eq!(found, first_best_plainly(&nodes, |n| uct_one(n, log_n, c)));
            // Scores that are NaN are never best; when all are, the first child is.
            let nan = |_, q: &Quad| q.visits.map(|v| if v < 2 { f32::NAN } else { v as f32 });
            let nan_one = |n: &Node| {
                if n.visits < 2 {
                    f32::NAN
                } else {
                    n.visits as f32
                }
            };
            assert_eq!(
                first_best(&nodes, nan, u32::MAX),
                first_best_plainly(&nodes, nan_one)
            );
        }
    }

    /// A tree whose root, of `visits` visits, has `nodes` as children, with `known` as their
    /// minimax values where given (a tree that keeps none otherwise).
    fn rooted(nodes: &[Node], visits: u32, known: Option<&[f32]>) -> Tree {
        let mut tree = Tree::new(1000);
        tree.expand(ROOT, nodes.iter().map(|_| Move::Swap));
        tree.get_mut(ROOT).visits = visits;
        if known.is_some() {
            tree.track_minimax();
        }
        for (k, (i, n)) in tree.children(ROOT).zip(nodes).enumerate() {
            *tree.get_mut(i) = *n;
            if let Some(known) = known {
                tree.set_minimax(i, known[k]);
            }
        }
        tree
    }

    /// The child of the root that the plain loop chooses by `score`: an infinite one at once,
    /// else the first strictly better.
    fn plain_choice(tree: &Tree, score: impl Fn(u32) -> f32) -> u32 {
        let mut best = (f32::NEG_INFINITY, tree.children(ROOT).start);
        for i in tree.children(ROOT) {
            let s = score(i);
            if s == f32::INFINITY {
                return i;
            }
            if s > best.0 {
                best = (s, i);
            }
        }
        best.1
    }

    #[test]
    fn select_walks_to_the_plain_loops_child_by_uct_with_and_without_minimax() {
        let mut rng = FastRng::new(9);
        for round in 0..500 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 40 });
            let tree = rooted(&nodes, 1 + rng.below(5000), None);
            let log_n = (tree.get(ROOT).visits as f32).ln();
            let c = Params::default().exploration;
            let best = plain_choice(&tree, |i| uct_one(tree.get(i), log_n, c));
            // With no minimax value below any child, the mixed score is UCT's.
            for minimax in [0.0, 0.3] {
                let params = Params {
                    minimax,
                    ..unordered()
                };
                assert_eq!(select(&params, &tree, ROOT), best, "{params:?}");
            }
        }
    }

    /// Minimax values as the tree keeps them: unknown (NaN) for some children.
    fn minimax_values(rng: &mut FastRng, len: usize) -> Vec<f32> {
        (0..len)
            .map(|_| match rng.below(3) {
                0 => f32::NAN,
                _ => rng.below(1000) as f32 / 999.0,
            })
            .collect()
    }

    /// The mix of every lane, and plain UCT's (the mix at weight 0), as one node's.
    #[test]
    fn four_lanes_mix_minimax_as_one_node_at_a_time() {
        let mut rng = FastRng::new(6);
        for round in 0..3000 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 1 << 20 });
            let known = minimax_values(&mut rng, nodes.len());
            let (log_n, c) = (((1 + rng.below(1 << 20)) as f32).ln(), 0.35);
            let w = rng.below(101) as f32 / 100.0;
            for (k, four) in nodes.chunks(4).enumerate() {
                let (q, m) = (Quad::of(four), minimax_lanes(&known, 4 * k));
                let lanes = mixed(&q, m, log_n, c, w).map(f32::to_bits);
                let plain = uct(&q, log_n, c).map(f32::to_bits);
                for (j, n) in four.iter().enumerate() {
                    let one = mixed_one(n, known[4 * k + j], log_n, c, w);
                    assert_eq!(lanes[j], one.to_bits(), "{n:?}");
                    assert_eq!(plain[j], uct_one(n, log_n, c).to_bits(), "{n:?}");
                }
            }
        }
    }

    #[test]
    fn select_walks_to_the_plain_loops_child_by_the_minimax_mix() {
        let mut rng = FastRng::new(10);
        for round in 0..500 {
            let nodes = children(&mut rng, if round % 2 == 0 { 4 } else { 40 });
            let visits = 1 + rng.below(5000);
            let known = minimax_values(&mut rng, nodes.len());
            let tree = rooted(&nodes, visits, Some(&known));
            let params = Params {
                minimax: 0.3,
                ..unordered()
            };
            let log_n = (visits as f32).ln();
            let best = plain_choice(&tree, |i| {
                mixed_one(tree.get(i), tree.minimax(i), log_n, params.exploration, 0.3)
            });
            assert_eq!(select(&params, &tree, ROOT), best);
        }
    }

    #[test]
    fn selection_that_stops_at_the_first_child_not_entered_chooses_as_a_full_scan() {
        for (moves, minimax, prior_visits) in [("F6 E7", 0.14, 10), ("C3 SWAP H8", 0.0, 4)] {
            let params = Params {
                minimax,
                prior_visits,
                ..Params::default()
            };
            let mut searcher = crate::search::Searcher::new(params.clone(), 5);
            let pos = crate::testing::position(moves);
            searcher.ponder(&pos, &crate::testing::iterations(4000));
            let tree = &searcher.last.as_ref().unwrap().1;
            let mut stopped_early = 0;
            for i in 0..tree.len() as u32 {
                if tree.get(i).children == 0 {
                    continue;
                }
                // Every child scored one at a time, in the order of the legal moves: the first
                // of the best.
                let log_n = (tree.get(i).visits.max(1) as f32).ln();
                let mut scored: Vec<(usize, f32, Move)> = tree
                    .children(i)
                    .map(|c| {
                        let (n, m) = (tree.get(c), tree.minimax(c));
                        let s = mixed_one(n, m, log_n, params.exploration, minimax);
                        (move_order(n.mv), s, n.mv)
                    })
                    .collect();
                scored.sort_by_key(|&(order, _, _)| order);
                let mut best = (f32::NEG_INFINITY, scored[0].2);
                for &(_, s, mv) in &scored {
                    if s > best.0 {
                        best = (s, mv);
                    }
                }
                assert_eq!(tree.get(select(&params, tree, i)).mv, best.1, "node {i}");
                let entered = tree
                    .child_nodes(i)
                    .iter()
                    .filter(|n| n.visits > prior_visits);
                stopped_early += (entered.count() + 4 < tree.get(i).children as usize) as u32;
            }
            assert!(
                stopped_early > 100,
                "{moves}: {stopped_early} nodes stopped early"
            );
        }
    }
}
