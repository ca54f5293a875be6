//! The network's policy head in the learned prior (host-only: the shipped network has no
//! policy head, and as a correction of the features it gained nothing, docs/TRAINING.md
//! "Measured and kept off").

use super::Recent;
use crate::position::Position;
use crate::search::params::Params;
use crate::search::tree::Tree;

/// With `net_policy` above 0 and a network with a policy head, adds the head's logits times
/// `net_policy` to the children's `logits` (the features' own, which count only with
/// `feature_policy`).
pub(super) fn mix(
    params: &Params,
    tree: &Tree,
    node: u32,
    pos: &Position,
    recent: &Recent,
    logits: &mut [f32],
) {
    let (net, acc) = match recent.net {
        Some(found) if params.net_policy > 0.0 => found,
        _ => return,
    };
    let last = [recent.last_opp, recent.last_own];
    let units = match net.policy_units(acc, pos, last) {
        Some(units) => units,
        None => return,
    };
    for (l, i) in logits.iter_mut().zip(tree.children(node)) {
        let features = if params.feature_policy { *l } else { 0.0 };
        *l = features + params.net_policy * net.policy_logit(&units, tree.get(i).mv);
    }
}
