//! Priors for new nodes: virtual visits whose value comes from the learned policy.
//!
//! A new child starts with `prior_visits` visits, valued by its share of the feature
//! policy ([`learned`]). Every child gets the same number of virtual visits, so only their
//! values differ, and the search no longer visits each of a node's hundred-odd children once
//! before any twice. The host also keeps the hand-set prior the policy replaced ([`hand`])
//! and the network's policy head ([`head`]).

use super::params::Params;
use super::tree::Tree;
use crate::cell::Cell;
use crate::knowledge::features::Context;
#[cfg(not(codingame))]
use crate::knowledge::network::{Accumulator, Network};
use crate::knowledge::Scorer;
use crate::position::{Move, Position};

/// What the learned prior reads besides the position: the policy, and the last two pegs
/// (the opponent's, then the mover's own; `None` where there was none, or a swap).
pub struct Recent<'a> {
    /// The learned policy.
    pub policy: &'a Scorer,
    /// The network and the accumulators of the position expanded, where `net_policy` asks.
    #[cfg(not(codingame))]
    pub net: Option<(&'a Network, &'a Accumulator)>,
    /// The opponent's last peg.
    pub last_opp: Option<Cell>,
    /// The mover's own last peg.
    pub last_own: Option<Cell>,
}

/// Adds `moves` (legal moves, in their order) as the children of `node` (whose position is
/// `pos`), each with its prior when `prior_visits` is above zero: the learned policy's (on the
/// host, the hand-set one without `policy_prior`), the best first ([`Tree::lead_untouched`]);
/// else an even share and no virtual visits. Returns whether they were added (the memory
/// bound).
pub fn expand(
    params: &Params,
    tree: &mut Tree,
    node: u32,
    pos: &Position,
    moves: &[Move],
    recent: &Recent,
) -> bool {
    if !tree.expand(node, moves.iter().copied()) {
        return false;
    }
    let n0 = params.prior_visits;
    #[cfg(not(codingame))]
    if n0 > 0 && !params.policy_prior {
        hand::expand(params, tree, node, pos);
        tree.lead_untouched(node, 0);
        return true;
    }
    if n0 > 0 {
        learned(params, tree, node, pos, recent);
        tree.lead_untouched(node, 0);
    } else {
        let even = 1.0 / moves.len() as f32;
        for i in tree.children(node) {
            tree.get_mut(i).prior = even;
        }
    }
    true
}

/// The learned prior: each child's policy share (shown by the analysis), and virtual visits:
/// a child whose share is `s` times the average share starts valued
/// `policy_mid + policy_slope * ln(s)` (kept within 0.02..0.98).
fn learned(params: &Params, tree: &mut Tree, node: u32, pos: &Position, recent: &Recent) {
    let ctx = Context::new(pos, recent.last_opp, recent.last_own);
    let children = tree.children(node);
    let mut logits = [0f32; 256];
    for (k, i) in children.clone().enumerate() {
        logits[k] = recent.policy.logit(&ctx, tree.get(i).mv);
    }
    let n = children.len();
    #[cfg(not(codingame))]
    head::mix(params, tree, node, pos, recent, &mut logits[..n]);
    let max = logits[..n].iter().fold(f32::MIN, |m, &l| m.max(l));
    let mut weights = [0f32; 256];
    for (w, l) in weights.iter_mut().zip(&logits[..n]) {
        *w = (l - max).exp();
    }
    let sum: f32 = weights[..n].iter().sum();
    // ln(share / average share) = l - max - ln(sum) + ln(n).
    let offset = (n as f32).ln() - sum.ln() - max;
    let n0 = params.prior_visits;
    for (k, i) in children.enumerate() {
        let v = params.policy_mid + params.policy_slope * (logits[k] + offset);
        let child = tree.get_mut(i);
        child.prior = weights[k] / sum;
        child.visits = n0;
        child.wins = n0 as f32 * v.clamp(0.02, 0.98);
    }
}

#[cfg(not(codingame))]
mod hand;
#[cfg(not(codingame))]
mod head;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::{features, Policy};
    use crate::testing::{cell, position};

    #[test]
    fn every_child_gets_the_same_virtual_visits() {
        let params = Params {
            prior_visits: 8,
            policy_prior: false,
            ..Params::default()
        };
        let pos = position("E5 H8");
        let moves: Vec<Move> = pos.legal_holes().iter().map(Move::Peg).collect();
        let mut tree = Tree::new(1000);
        assert!(expand(
            &params,
            &mut tree,
            0,
            &pos,
            &moves,
            &recent(&Scorer::new(Policy::uniform()))
        ));
        for i in tree.children(0) {
            let n = tree.get(i);
            assert_eq!(n.visits, 8);
            assert_eq!(n.value(), hand::Pegs::of(&pos).value(&params, n.mv));
        }
    }

    fn recent(policy: &Scorer) -> Recent<'_> {
        Recent {
            policy,
            net: None,
            last_opp: Some(cell("H8")),
            last_own: Some(cell("E5")),
        }
    }

    /// The learned prior of each hole after E5 H8 under `policy`.
    fn learned_values(policy: &Policy) -> Vec<(Move, f32)> {
        let params = Params {
            policy_prior: true,
            ..Params::default()
        };
        let pos = position("E5 H8");
        let mut tree = Tree::new(1000);
        assert!(expand(
            &params,
            &mut tree,
            0,
            &pos,
            &pos.legal_moves(),
            &recent(&Scorer::new(policy.clone()))
        ));
        tree.children(0)
            .map(|i| (tree.get(i).mv, tree.get(i).value()))
            .collect()
    }

    #[test]
    fn the_learned_prior_values_a_move_by_its_share_of_the_policy() {
        let p = Params::default();
        // A uniform policy: every share is the average one.
        for (_, v) in learned_values(&Policy::uniform()) {
            assert!((v - p.policy_mid).abs() < 1e-6);
        }
        // A policy that likes links: holes a knight's move from E5 (one link) gain.
        let mut likes_links = Policy::uniform();
        likes_links.weights[features::LINKS + 1] = 2.0;
        let values = learned_values(&likes_links);
        let of = |name: &str| {
            values
                .iter()
                .find(|(m, _)| *m == Move::Peg(cell(name)))
                .unwrap()
                .1
        };
        assert!(of("D7") > p.policy_mid && of("B11") < p.policy_mid);
        assert!((of("D7") - of("B11") - 2.0 * p.policy_slope).abs() < 1e-5);
    }

    /// Each child's prior share after E5 H8 under `params` and `policy`.
    fn shares(params: &Params, policy: &Policy) -> Vec<(Move, f32)> {
        let pos = position("E5 H8");
        let mut tree = Tree::new(1000);
        let scorer = Scorer::new(policy.clone());
        assert!(expand(
            params,
            &mut tree,
            0,
            &pos,
            &pos.legal_moves(),
            &recent(&scorer)
        ));
        tree.children(0)
            .map(|i| (tree.get(i).mv, tree.get(i).prior))
            .collect()
    }

    #[test]
    fn children_get_their_policy_share_as_prior() {
        let mut likes_links = Policy::uniform();
        likes_links.weights[features::LINKS + 1] = 2.0;
        let learned = shares(&Params::default(), &likes_links);
        let total: f32 = learned.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-4, "shares sum to {total}");
        let of = |name: &str| {
            learned
                .iter()
                .find(|(m, _)| *m == Move::Peg(cell(name)))
                .unwrap()
                .1
        };
        assert!((of("D7") / of("B11") - 2f32.exp()).abs() < 1e-3);
        // Without virtual visits every child gets an even share.
        let hand = Params {
            prior_visits: 0,
            ..Params::default()
        };
        let even = shares(&hand, &likes_links);
        let n = even.len() as f32;
        assert!(even.iter().all(|&(_, p)| (p - 1.0 / n).abs() < 1e-7));
    }

    #[test]
    fn the_network_s_policy_joins_or_replaces_the_features_in_the_prior() {
        let net = crate::knowledge::network::tests::random_network(4, 16, 8, true);
        let pos = position("E5 H8");
        let acc = net.accumulate(pos.board());
        let moves = pos.legal_moves();
        let mut from_net = Vec::new();
        let last = [Some(cell("H8")), Some(cell("E5"))];
        net.policy_logits(&acc, &pos, last, &moves, &mut from_net)
            .unwrap();
        let scorer = Scorer::new(Policy::shipped().unwrap());
        let ctx = Context::new(&pos, Some(cell("H8")), Some(cell("E5")));
        let priors = |net_policy: f32, feature_policy: bool| {
            let params = Params {
                net_policy,
                feature_policy,
                ..Params::default()
            };
            let mut tree = Tree::new(1000);
            let recent = Recent {
                net: Some((&net, &acc)),
                ..recent(&scorer)
            };
            assert!(expand(&params, &mut tree, 0, &pos, &moves, &recent));
            // In the order of `moves`: the best child leads the others.
            let prior = |m: &Move| {
                tree.child_nodes(0)
                    .iter()
                    .find(|n| n.mv == *m)
                    .unwrap()
                    .prior
            };
            moves.iter().map(prior).collect::<Vec<f32>>()
        };
        let softmax = |logits: Vec<f32>| {
            let max = logits.iter().fold(f32::MIN, |m, &l| m.max(l));
            let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
            logits
                .iter()
                .map(|l| (l - max).exp() / sum)
                .collect::<Vec<f32>>()
        };
        let features: Vec<f32> = moves.iter().map(|&m| scorer.logit(&ctx, m)).collect();
        let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
        // Off by default: the features alone, whatever the network says.
        assert!(close(&priors(0.0, true), &softmax(features.clone())));
        // The network alone.
        assert!(close(&priors(1.0, false), &softmax(from_net.clone())));
        // Both, the network's logits weighted.
        let both: Vec<f32> = features
            .iter()
            .zip(&from_net)
            .map(|(f, n)| f + 0.5 * n)
            .collect();
        assert!(close(&priors(0.5, true), &softmax(both)));
        assert!(
            !close(&priors(0.5, true), &priors(0.0, true)),
            "the network moved them"
        );
    }
}
