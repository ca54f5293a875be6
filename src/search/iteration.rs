//! One MCTS iteration: select down the tree (UCT), expand a leaf, play out (with saves, see
//! [`super::policy`]), and back the result up.

use super::params::Params;
use super::playout::playout;
use super::policy::saving_playout;
use super::prior::{self, Recent};
use super::select::select;
use super::tactics;
use super::tree::{Known, Tree, ROOT};
use crate::cell::Player;
use crate::knowledge::network::{Accumulator, Network};
use crate::knowledge::Scorer;
use crate::position::{last_pegs_after, LastPegs, Move, Position};
use crate::rng::FastRng;

/// What the search knows besides the root position: the learned policy, the root's last
/// two pegs, `[opponent's, mover's own]`, and the value network with the root's accumulators
/// (when `value_net` mixes it in).
pub struct Knowing<'a> {
    /// The learned policy.
    pub policy: &'a Scorer,
    /// The last pegs before the root: the opponent's, then the root mover's own.
    pub history: LastPegs,
    /// The value network and the root position's accumulators.
    pub network: Option<(&'a Network, Accumulator)>,
}

/// Buffers reused from one iteration to the next.
#[derive(Default)]
pub struct Iteration {
    /// The nodes walked, each with the player who made its move.
    path: Vec<(u32, Player)>,
    /// The legal moves of the node being expanded.
    moves: Vec<Move>,
}

/// How an iteration ended: the winner of its game (`None` for a draw) and, where the value
/// was mixed in, the chance it gave the player to move at the leaf.
#[derive(Clone, Copy)]
struct Ending {
    winner: Option<Player>,
    value: Option<(Player, f32)>,
}

impl Ending {
    /// Reward for `mover`: win 1, draw ½, loss 0, mixed with the value by `mix`.
    #[inline]
    fn reward(self, mover: Player, mix: f32) -> f32 {
        let played = match self.winner {
            Some(w) if w == mover => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        match self.value {
            Some((p, v)) => {
                let v = if p == mover { v } else { 1.0 - v };
                played + mix * (v - played)
            }
            None => played,
        }
    }

    /// The leaf's minimax value for `mover`: the value's estimate, or where the game was
    /// decided in the tree (no estimate), its result.
    fn leaf_minimax(self, mover: Player) -> f32 {
        match self.value {
            Some((p, v)) if p == mover => v,
            Some((_, v)) => 1.0 - v,
            None => self.reward(mover, 0.0),
        }
    }
}

impl Iteration {
    /// Runs one iteration from `root`, whose last pegs were `history` (see [`Knowing`]);
    /// returns the pegs placed.
    pub fn run(
        &mut self,
        params: &Params,
        rng: &mut FastRng,
        tree: &mut Tree,
        root: &Position,
        knowing: &Knowing,
    ) -> u32 {
        let mut pos = root.clone();
        self.path.clear();
        self.path.push((ROOT, root.to_move().other()));
        let mut node = ROOT;
        let mut plies = 0;
        let mut last = None;
        let mut net = knowing.network.as_ref().map(|(n, acc)| (*n, acc.clone()));
        let outcome = loop {
            let n = *tree.get(node);
            let ended = match n.known {
                Known::Win => Some(Some(pos.to_move().other())),
                Known::Draw => Some(None),
                Known::Unknown | Known::Open => None,
            };
            if let Some(winner) = ended {
                break Ending {
                    winner,
                    value: None,
                };
            }
            let ripe = n.visits >= params.expand_after + params.prior_visits;
            let here = net.as_ref().map(|(n, acc)| (*n, acc));
            if n.children == 0 && !(ripe && self.expand(params, tree, &pos, knowing, here)) {
                let valued = params.value_mix > 0.0 || params.minimax > 0.0;
                let estimate = if valued {
                    leaf_value(params, &pos, &net)
                } else {
                    None
                };
                if params.value_mix >= 1.0 && estimate.is_some() {
                    // The value alone: a playout would not count.
                    break Ending {
                        winner: None,
                        value: estimate,
                    };
                }
                let (winner, played) = if params.saves {
                    saving_playout(&mut pos, rng, last)
                } else {
                    playout(&mut pos, rng)
                };
                plies += played;
                break Ending {
                    winner,
                    value: estimate,
                };
            }
            let parent = node;
            node = select(params, tree, parent);
            if tree.get(node).visits == params.prior_visits {
                // Entered for the first time: the best of those not entered leads them now.
                let next = (node - tree.children(parent).start) as usize + 1;
                tree.lead_untouched(parent, next);
            }
            let mover = pos.to_move();
            let child = tree.get_mut(node);
            let known = play_known(&mut pos, child.mv);
            if let Some((network, acc)) = &mut net {
                match child.mv {
                    Move::Peg(c) => acc.place(network, pos.board(), mover, c),
                    Move::Swap => *acc = network.accumulate(pos.board()),
                }
            }
            last = child.mv.peg();
            if child.known == Known::Unknown {
                child.known = known;
            }
            plies += 1;
            self.path.push((node, mover));
        };
        self.back_up(params, tree, outcome);
        plies
    }

    /// Adds the children of the last node of the path, whose position is `pos`: every legal
    /// move, with priors. Returns whether it did. (`net`, the network and the accumulators
    /// there, is for the host's policy head.)
    fn expand(
        &mut self,
        params: &Params,
        tree: &mut Tree,
        pos: &Position,
        knowing: &Knowing,
        net: Option<(&Network, &Accumulator)>,
    ) -> bool {
        // The root's last pegs, then the moves of the path (the root's own is none): the
        // last two moves decide, so only they are played.
        let n = self.path.len();
        let last = self.path[n.saturating_sub(2).max(1)..]
            .iter()
            .fold(knowing.history, |last, &(i, _)| {
                last_pegs_after(last, tree.get(i).mv)
            });
        #[cfg(codingame)]
        let _ = net;
        let recent = Recent {
            policy: knowing.policy,
            #[cfg(not(codingame))]
            net,
            last_opp: last[0],
            last_own: last[1],
        };
        let node = self.path[n - 1].0;
        pos.legal_moves_into(&mut self.moves);
        prior::expand(params, tree, node, pos, &self.moves, &recent)
    }

    /// Backs the result up the path, deepest node first; with implicit minimax, the leaf's
    /// estimate and each ancestor's minimax of its children too.
    fn back_up(&self, params: &Params, tree: &mut Tree, outcome: Ending) {
        for (depth, &(i, mover)) in self.path.iter().rev().enumerate() {
            if params.minimax > 0.0 {
                let m = match depth {
                    0 => outcome.leaf_minimax(mover),
                    _ => tree.minimax_of_children(i),
                };
                if !m.is_nan() {
                    tree.set_minimax(i, m);
                }
            }
            let n = tree.get_mut(i);
            n.visits += 1;
            n.wins += outcome.reward(mover, params.value_mix);
        }
    }
}

/// The value's estimate of a leaf, for the player to move there: the network's (1 when it can
/// win at once, which is beyond what one layer sees), or without a network on the host the
/// distance value; in the bundle, none (the network that did not decode said so loudly, and
/// the playouts decide alone).
fn leaf_value(
    params: &Params,
    pos: &Position,
    net: &Option<(&Network, Accumulator)>,
) -> Option<(Player, f32)> {
    let v = match net {
        Some(_) if tactics::can_win_now(pos) => 1.0,
        Some((network, acc)) => network.value(acc, pos.to_move()),
        None => without_network(params, pos)?,
    };
    Some((pos.to_move(), v))
}

/// The value of a leaf without the network: the distance value's.
#[cfg(not(codingame))]
fn without_network(params: &Params, pos: &Position) -> Option<f32> {
    let value = crate::knowledge::value::value(pos, params.value_bias, params.value_scale);
    Some(value)
}

/// None: the bundle ships no distance value.
#[cfg(codingame)]
fn without_network(_: &Params, _: &Position) -> Option<f32> {
    None
}

/// Plays `mv` and says whether the game goes on.
#[inline]
fn play_known(pos: &mut Position, mv: Move) -> Known {
    match mv {
        Move::Peg(c) => {
            if pos.place_and_check(c) {
                Known::Win
            } else if pos.legal_holes().is_empty() {
                Known::Draw
            } else {
                Known::Open
            }
        }
        Move::Swap => {
            pos.play_unchecked(Move::Swap);
            Known::Open
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_mixes_into_the_reward_from_each_mover_side() {
        let won = Ending {
            winner: Some(Player::Zero),
            value: Some((Player::One, 0.8)),
        };
        assert_eq!(won.reward(Player::Zero, 0.0), 1.0);
        assert_eq!(won.reward(Player::One, 0.0), 0.0);
        // Player 1 to move at the leaf was given 0.8; player 0 then has 0.2.
        assert!((won.reward(Player::Zero, 1.0) - 0.2).abs() < 1e-6);
        assert!((won.reward(Player::One, 0.25) - 0.2).abs() < 1e-6);
        let drawn = Ending {
            winner: None,
            value: None,
        };
        assert_eq!(drawn.reward(Player::One, 0.5), 0.5);
    }
}
