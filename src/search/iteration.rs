//! One MCTS iteration: select down the tree (UCT, blended with RAVE when `rave_k > 0`), expand
//! a leaf, play out, and back the result up; with RAVE, the siblings whose move the same player
//! made later in the simulation also get the result in their all-moves-as-first statistics.

use super::params::Params;
use super::playout::playout;
use super::policy::saving_playout;
use super::tree::{Known, Tree, ROOT};
use crate::bitboard::Bitboard;
use crate::cell::Player;
use crate::position::{Move, Position};
use crate::rng::FastRng;

/// Buffers reused from one iteration to the next.
#[derive(Default)]
pub struct Iteration {
    /// The nodes walked, each with the player who made its move.
    path: Vec<(u32, Player)>,
}

/// Reward of a result for `mover`: win 1, draw ½, loss 0.
#[inline]
fn reward(winner: Option<Player>, mover: Player) -> f32 {
    match winner {
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

impl Iteration {
    /// Runs one iteration from `root`; returns the pegs placed.
    pub fn run(
        &mut self,
        params: &Params,
        rng: &mut FastRng,
        tree: &mut Tree,
        root: &Position,
    ) -> u32 {
        let mut pos = root.clone();
        self.path.clear();
        self.path.push((ROOT, root.to_move().other()));
        let mut node = ROOT;
        let mut plies = 0;
        let mut later = [Bitboard::EMPTY; 2];
        let mut last = None;
        let winner = loop {
            let n = *tree.get(node);
            match n.known {
                Known::Win => break Some(pos.to_move().other()),
                Known::Loss => break Some(pos.to_move()),
                Known::Draw => break None,
                Known::Unknown | Known::Open => {}
            }
            if n.children == 0
                && !(n.visits >= params.expand_after && expand(params, tree, node, &pos))
            {
                let before = [
                    pos.board().pegs(Player::Zero),
                    pos.board().pegs(Player::One),
                ];
                let (winner, played) = if params.saves {
                    saving_playout(&mut pos, rng, last, params.cut_saves)
                } else {
                    playout(&mut pos, rng)
                };
                plies += played;
                if params.rave_k > 0.0 {
                    for p in Player::BOTH {
                        later[p.index()] = pos.board().pegs(p).and_not(before[p.index()]);
                    }
                }
                break winner;
            }
            node = select(params, tree, node);
            let mover = pos.to_move();
            let child = tree.get_mut(node);
            let known = step(&mut pos, child.mv);
            last = match child.mv {
                Move::Peg(c) => Some(c),
                Move::Swap => None,
            };
            if child.known == Known::Unknown {
                child.known = known;
            }
            plies += 1;
            self.path.push((node, mover));
        };
        self.back_up(params, tree, winner, later);
        plies
    }

    /// Backs the result up the path, deepest node first; `later` holds the pegs each player
    /// placed below the node being updated (the playout's, then the tree's as we climb).
    fn back_up(
        &self,
        params: &Params,
        tree: &mut Tree,
        winner: Option<Player>,
        mut later: [Bitboard; 2],
    ) {
        let rave = params.rave_k > 0.0;
        let mut below = Known::Open;
        for &(i, mover) in self.path.iter().rev() {
            if params.solver && i != ROOT {
                below = prove(tree, i, below);
            }
            let n = tree.get_mut(i);
            n.visits += 1;
            n.wins += reward(winner, mover);
            let mv = n.mv;
            if rave {
                // The children's moves are made by the other player than `mover`.
                let child_mover = mover.other();
                let seen = later[child_mover.index()];
                let r = reward(winner, child_mover);
                for c in tree.children(i) {
                    let child = tree.get_mut(c);
                    if let Move::Peg(cell) = child.mv {
                        if seen.has(cell) {
                            child.amaf_visits += 1;
                            child.amaf_wins += r;
                        }
                    }
                }
            }
            if let Move::Peg(cell) = mv {
                later[mover.index()].insert(cell);
            }
        }
    }
}

/// The MCTS-solver's step at node `i`, given what became of its child on the path: a winning
/// child makes `i` a loss for its mover, and a losing child makes `i` a win if every sibling
/// loses too. Returns `i`'s status.
fn prove(tree: &mut Tree, i: u32, below: Known) -> Known {
    let proven = match below {
        Known::Win => Some(Known::Loss),
        Known::Loss if tree.children(i).all(|c| tree.get(c).known == Known::Loss) => {
            Some(Known::Win)
        }
        _ => None,
    };
    let n = tree.get_mut(i);
    if let Some(k) = proven {
        n.known = k;
    }
    n.known
}

/// The child of `parent` with the best score: the mean value blended with the RAVE value
/// (weight `sqrt(k / (3n + k))`), plus the UCT exploration term.
fn select(params: &Params, tree: &Tree, parent: u32) -> u32 {
    let log_n = (tree.get(parent).visits.max(1) as f32).ln();
    let c = params.exploration;
    let k = params.rave_k;
    let mut best = (f32::NEG_INFINITY, tree.children(parent).start);
    for i in tree.children(parent) {
        let n = tree.get(i);
        if params.solver {
            match n.known {
                Known::Win => return i,
                Known::Loss => continue,
                _ => {}
            }
        }
        let score = if n.visits == 0 {
            if k <= 0.0 {
                return i;
            }
            n.amaf_value() + c * log_n.sqrt() + params.first_play_urgency
        } else {
            let visits = n.visits as f32;
            let q = if k > 0.0 {
                let beta = (k / (3.0 * visits + k)).sqrt();
                (1.0 - beta) * n.value() + beta * n.amaf_value()
            } else {
                n.value()
            };
            q + c * (log_n / visits).sqrt()
        };
        if score > best.0 {
            best = (score, i);
        }
    }
    best.1
}

/// Adds the children of `node`, whose position is `pos`: every legal move, or with
/// `params.decisive` only a winning peg when there is one. Returns whether it did.
fn expand(params: &Params, tree: &mut Tree, node: u32, pos: &Position) -> bool {
    let holes = pos.legal_holes();
    if params.decisive {
        let (board, p) = (pos.board(), pos.to_move());
        if let Some(win) = holes.iter().find(|&c| board.wins_at(p, c)) {
            return tree.expand(node, std::iter::once(Move::Peg(win)));
        }
    }
    let swap = pos.swap_allowed().then_some(Move::Swap);
    let moves: Vec<Move> = holes.iter().map(Move::Peg).chain(swap).collect();
    tree.expand(node, moves.into_iter())
}

/// Plays `mv` and says whether the game goes on.
#[inline]
fn step(pos: &mut Position, mv: Move) -> Known {
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
