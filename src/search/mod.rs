//! Time-boxed Monte Carlo Tree Search (UCT with playouts), after one-move tactics.
//!
//! [`params`] declares every tunable; [`tree`] holds the nodes; `iteration` walks the tree,
//! expands, plays out and backs up; [`playout`] plays random games,
//! [`policy`] the playouts' saves; [`prior`] the new nodes' priors; [`tactics`] finds
//! immediate wins and blocks; this module runs the search under its limits; `analysis`
//! reads the root's moves off a kept tree (host only, for `twixt-bot analyze`).

#[cfg(not(codingame))]
mod analysis;
mod iteration;
pub mod params;
pub mod playout;
pub mod policy;
pub mod prior;
mod select;
pub mod tactics;
pub mod tree;

use crate::cell::{Cell, Player};
use crate::knowledge::network::Network;
use crate::knowledge::{Policy, Scorer};
use crate::position::{LastPegs, Move, Position};
use crate::rng::FastRng;
#[cfg(not(codingame))]
pub use analysis::RootLine;
use iteration::{Iteration, Knowing};
use params::Params;
use std::time::{Duration, Instant};
use tree::{Known, Memory, Tree, ROOT};

/// When to stop searching: at a deadline, after a number of iterations, or whichever first.
///
/// A turn on the clock has two deadlines: the soft one is when the search means to stop (the
/// think time), the hard one the latest its answer may be ready on a busy machine. Before the
/// hard deadline the search leaves twice the longest stall it has seen.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop at this instant: the think time.
    pub soft_deadline: Option<Instant>,
    /// Stop sooner when less than twice the longest stall is left before this instant: the
    /// latest an answer may be ready (the soft deadline when `None`).
    pub hard_deadline: Option<Instant>,
    /// Stop after this many iterations.
    pub iterations: Option<u64>,
}

/// How the move was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// An immediate win, played without searching.
    WinInOne,
    /// A forced win in two ([`tactics::win_in_two`]), played without searching.
    WinInTwo,
    /// By the tree search.
    Search,
}

/// The search's answer and what it cost.
#[derive(Clone, Debug)]
pub struct Report {
    /// The chosen move.
    pub best: Move,
    /// Its estimated value for the player to move, in [0, 1].
    pub value: f32,
    /// Visits of the chosen move.
    pub best_visits: u32,
    /// How the move was found.
    pub found: Found,
    /// MCTS iterations (one playout each, unless the tree already knew the result).
    pub iterations: u64,
    /// Tree nodes at the end.
    pub nodes: usize,
    /// Visits the root had from the previous turn's tree (tree reuse).
    pub reused: u32,
    /// Pegs placed in the tree and in playouts, over all iterations.
    pub plies: u64,
    /// The root's moves with what the search made of each, in the tree's order: the
    /// search's move distribution and its values of the moves it did not play, which a
    /// trainer learns from. Empty for a move the tactics found.
    pub root: Vec<RootMove>,
}

/// One root move as a search left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The visits the search gave it (the prior's virtual visits not counted).
    pub visits: u32,
    /// Its mean value for the player who makes it, in [0, 1], the prior's virtual visits
    /// included (as the search ranks it).
    pub value: f32,
}

impl Report {
    /// A move the one- and two-move tactics found, with nothing searched.
    fn tactical(c: Cell, found: Found) -> Report {
        Report {
            best: Move::Peg(c),
            value: 1.0,
            best_visits: 0,
            found,
            iterations: 0,
            nodes: 0,
            reused: 0,
            plies: 0,
            root: Vec::new(),
        }
    }
}

/// Runs searches with one set of parameters and one random stream.
///
/// Its memory is at most [`Searcher::MOST_TREES`] trees of at most `max_nodes` nodes each
/// ([`Tree::most_bytes`]): the tree searched or kept, and the memory of the one before; a
/// searcher that only analyses ([`Searcher::analyse`], then [`Searcher::analyse_on`]) holds
/// one.
pub struct Searcher {
    params: Params,
    rng: FastRng,
    scratch: Iteration,
    /// The last search's root position and tree, kept for reuse (with `reuse_tree`, or after
    /// [`Searcher::ponder`]).
    last: Option<(Position, Tree)>,
    /// Keep the tree of the search under way (set by [`Searcher::ponder`]).
    keep_next: bool,
    /// The learned policy (used with `policy_prior`).
    policy: Scorer,
    /// The value network (used with `value_net`), if its weights decode.
    network: Option<Network>,
    /// The next root's last two pegs: the opponent's, then the mover's own.
    history: LastPegs,
    /// The memory of the tree before the last, for the next tree (see [`Tree::reusing`]).
    spare: Memory,
    /// The longest the last search went between two looks at its clock.
    stall: Duration,
    /// The stall the next search expects before it has seen one (see [`Searcher::expect_stall`]).
    expected_stall: Duration,
}

impl Searcher {
    /// The most trees a searcher holds at once (see [`Searcher`]): a host that budgets its
    /// memory counts this many of [`Tree::most_bytes`].
    #[cfg(not(codingame))]
    pub const MOST_TREES: usize = 2;

    /// A searcher; the same seed and limits in iterations give the same answers.
    pub fn new(params: Params, seed: u64) -> Searcher {
        Searcher {
            params,
            rng: FastRng::new(seed),
            scratch: Iteration::default(),
            last: None,
            keep_next: false,
            policy: Scorer::new(Policy::shipped_or_uniform()),
            network: Network::shipped_or_none(),
            history: [None; 2],
            spare: Memory::default(),
            stall: Duration::default(),
            expected_stall: Duration::default(),
        }
    }

    /// Tells the next search to expect stalls of `stall`: a search with a deadline stops
    /// when less than twice the longest stall, this one or the one it has seen, is left.
    pub fn expect_stall(&mut self, stall: Duration) {
        self.expected_stall = stall;
    }

    /// The longest the last search went between two looks at its clock: long when the machine
    /// gave the time to others (zero for a search without a deadline).
    pub fn stall(&self) -> Duration {
        self.stall
    }

    /// A tree with only a root, in the memory of the tree before the last.
    fn fresh_tree(&mut self) -> Tree {
        Tree::reusing(std::mem::take(&mut self.spare), self.params.max_nodes)
    }

    /// The memory of a tree no longer needed, for a later one.
    fn recycle(&mut self, tree: Tree) {
        self.spare = tree.into_memory();
    }

    /// A searcher whose value network is `network` instead of the shipped one (for trying a
    /// freshly trained model before it is exported).
    #[cfg(not(codingame))]
    pub fn with_network(params: Params, seed: u64, network: Network) -> Searcher {
        Searcher {
            network: Some(network),
            ..Searcher::new(params, seed)
        }
    }

    /// A searcher whose learned prior uses `policy` instead of the shipped one (for trying
    /// a freshly fitted model before it is exported).
    #[cfg(not(codingame))]
    pub fn with_policy(params: Params, seed: u64, policy: Policy) -> Searcher {
        Searcher {
            policy: Scorer::new(policy),
            ..Searcher::new(params, seed)
        }
    }

    /// Tells the next search the last two pegs before its root ([`LastPegs`]): the learned
    /// prior reads them.
    pub fn set_history(&mut self, last: LastPegs) {
        self.history = last;
    }

    /// The best move for the player to move, or `None` when the game is over.
    pub fn choose(&mut self, pos: &Position, limits: &Limits) -> Option<Report> {
        let moves = pos.legal_moves();
        self.choose_among(pos, moves, limits)
    }

    /// The best peg for the player to move: as [`Searcher::choose`], with SWAP left out
    /// where it is allowed (the opening table said no).
    pub fn choose_peg(&mut self, pos: &Position, limits: &Limits) -> Option<Report> {
        let mut moves = pos.legal_moves();
        moves.retain(|&m| m != Move::Swap);
        self.choose_among(pos, moves, limits)
    }

    fn choose_among(
        &mut self,
        pos: &Position,
        moves: Vec<Move>,
        limits: &Limits,
    ) -> Option<Report> {
        let last = self.last.take();
        self.stall = Duration::default();
        if moves.is_empty() {
            return None;
        }
        if let Some(r) = self.tactical(pos) {
            return Some(r);
        }
        let safe = safe_root(pos, &moves);
        let kept = last.and_then(|(prev, old)| {
            let node = safe.is_none().then(|| reached(&prev, &old, pos)).flatten();
            let tree = node.map(|n| old.subtree(n, std::mem::take(&mut self.spare)));
            self.recycle(old);
            tree
        });
        let tree = kept.unwrap_or_else(|| self.fresh_tree());
        Some(self.search(pos, tree, safe.unwrap_or(moves), limits))
    }

    /// The move the tactics play without a search: an immediate win, else (with
    /// `win_in_two`) a forced win in two.
    pub fn tactical(&self, pos: &Position) -> Option<Report> {
        if let Some(&c) = tactics::winning_holes(pos).first() {
            return Some(Report::tactical(c, Found::WinInOne));
        }
        if self.params.win_in_two {
            return tactics::win_in_two(pos).map(|c| Report::tactical(c, Found::WinInTwo));
        }
        None
    }

    /// Searches `pos`, where the opponent is to move (after our opening peg or SWAP), only to
    /// keep the tree for our next turn: the first turn's long clock is not lost on a move the
    /// opening table decided.
    pub fn ponder(&mut self, pos: &Position, limits: &Limits) {
        let moves = pos.legal_moves();
        if let Some((_, old)) = self.last.take() {
            self.recycle(old);
        }
        if !moves.is_empty() {
            self.keep_next = true;
            let tree = self.fresh_tree();
            self.search(pos, tree, moves, limits);
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        mut tree: Tree,
        root_moves: Vec<Move>,
        limits: &Limits,
    ) -> Report {
        let valued = self.params.value_mix > 0.0 || self.params.minimax > 0.0;
        #[cfg(codingame)]
        let wanted = valued;
        #[cfg(not(codingame))]
        let wanted = (valued && self.params.value_net) || self.params.net_policy > 0.0;
        let network = match &self.network {
            Some(net) if wanted => Some((net, net.accumulate(pos.board()))),
            _ => None,
        };
        let knowing = Knowing {
            policy: &self.policy,
            history: std::mem::take(&mut self.history),
            network,
        };
        let recent = prior::Recent {
            policy: knowing.policy,
            #[cfg(not(codingame))]
            net: knowing.network.as_ref().map(|(n, acc)| (*n, acc)),
            last_opp: knowing.history[0],
            last_own: knowing.history[1],
        };
        let params = &self.params;
        if tree.get(ROOT).children == 0
            && !prior::expand(params, &mut tree, ROOT, pos, &root_moves, &recent)
        {
            tree = Tree::new(root_moves.len() + 1);
            prior::expand(params, &mut tree, ROOT, pos, &root_moves, &recent);
        }
        tree.get_mut(ROOT).known = Known::Open;
        if params.minimax > 0.0 {
            tree.track_minimax();
        }
        let reused = tree.get(ROOT).visits;
        let mut run = |tree: &mut Tree| {
            self.scratch
                .run(&self.params, &mut self.rng, tree, pos, &knowing)
        };
        let expected = std::mem::take(&mut self.expected_stall);
        let (iterations, plies, stall) = iterate(&self.params, limits, expected, || run(&mut tree));
        let report = report_of(&tree, self.params.prior_visits, reused, iterations, plies);
        self.stall = stall;
        if self.params.reuse_tree || std::mem::take(&mut self.keep_next) {
            self.last = Some((pos.clone(), tree));
        } else {
            self.recycle(tree);
        }
        report
    }
}

/// The root's moves narrowed to those that stop the opponent's threats, when there are
/// threats and some but not all of `moves` stop them.
fn safe_root(pos: &Position, moves: &[Move]) -> Option<Vec<Move>> {
    if tactics::threats(pos).is_empty() {
        return None;
    }
    let safe = tactics::safe_moves(pos, moves);
    (!safe.is_empty() && safe.len() < moves.len()).then_some(safe)
}

/// Runs `iteration` until the limits say stop; returns how many ran, the pegs placed, and the
/// longest time between two looks at the clock. Before the hard deadline (the soft one unless
/// the limits name another instant), twice the longest such stall (at least `expected`) is left:
/// a process kept from running that long at the end would answer late.
fn iterate(
    params: &Params,
    limits: &Limits,
    expected: Duration,
    mut iteration: impl FnMut() -> u32,
) -> (u64, u64, Duration) {
    let (mut iterations, mut plies) = (0u64, 0u64);
    let (mut looked, mut stall) = (Instant::now(), Duration::default());
    loop {
        if limits.iterations.map_or(false, |n| iterations >= n) {
            break;
        }
        if iterations % params.clock_every == 0 && iterations > 0 {
            if let Some(soft) = limits.soft_deadline {
                let now = Instant::now();
                stall = stall.max(now - looked);
                looked = now;
                let hard = limits.hard_deadline.unwrap_or(soft);
                if now >= soft || now + 2 * stall.max(expected) >= hard {
                    break;
                }
            }
        }
        plies += iteration() as u64;
        iterations += 1;
    }
    (iterations, plies, stall)
}

/// The report of a tree searched by `iterations` iterations that placed `plies` pegs.
fn report_of(tree: &Tree, prior_visits: u32, reused: u32, iterations: u64, plies: u64) -> Report {
    let best = tree
        .best_root_child()
        .copied()
        .unwrap_or_else(|| *tree.get(tree.children(ROOT).start));
    let root = tree
        .child_nodes(ROOT)
        .iter()
        .map(|n| RootMove {
            mv: n.mv,
            visits: n.visits.saturating_sub(prior_visits),
            value: n.value(),
        })
        .collect();
    Report {
        best: best.mv,
        value: best.value(),
        best_visits: best.visits,
        found: Found::Search,
        iterations,
        nodes: tree.len(),
        reused,
        plies,
        root,
    }
}

/// The node of `tree` (searched from `prev`) whose position is `pos`: one or two pegs later
/// (the opponent's reply, after our move when `prev` was ours to play), found by where `pos`
/// has pegs `prev` had not.
fn reached(prev: &Position, tree: &Tree, pos: &Position) -> Option<u32> {
    let me = pos.to_move();
    let both = [me, me.other()];
    let movers = &both[if prev.to_move() == me { 0 } else { 1 }..];
    for p in Player::BOTH {
        let (now, before) = (pos.board().pegs(p), prev.board().pegs(p));
        let expected = movers.iter().filter(|&&q| q == p).count() as u32;
        if now.and_not(before).count() != expected || !before.and_not(now).is_empty() {
            return None;
        }
    }
    let mut node = ROOT;
    for &p in movers {
        let added = pos.board().pegs(p).and_not(prev.board().pegs(p));
        let peg = Move::Peg(added.iter().next()?);
        node = tree.children(node).find(|&c| tree.get(c).mv == peg)?;
    }
    Some(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Player;
    use crate::testing::{cell, iterations, mv, position as play};

    /// The iterations `iterate` runs before a soft deadline `ms` away (its hard deadline `hard`
    /// ms away, when given), expecting `expected` ms of stall, when the `stall_at`-th iteration
    /// is kept from running for `stalled` ms.
    fn iterations_before(
        ms: u64,
        hard: Option<u64>,
        expected: u64,
        stall_at: u64,
        stalled: u64,
    ) -> u64 {
        let params = Params::default();
        let now = Instant::now();
        let limits = Limits {
            soft_deadline: Some(now + Duration::from_millis(ms)),
            hard_deadline: hard.map(|h| now + Duration::from_millis(h)),
            iterations: Some(10_000_000),
        };
        let mut n = 0;
        let iteration = || {
            n += 1;
            if n == stall_at {
                std::thread::sleep(Duration::from_millis(stalled));
            }
            1
        };
        iterate(&params, &limits, Duration::from_millis(expected), iteration).0
    }

    #[test]
    fn a_search_stopped_for_long_answers_at_its_next_look_at_the_clock() {
        let every = Params::default().clock_every;
        // 40 ms stalled with 100 ms to go: twice the stall is more than what is left.
        assert_eq!(iterations_before(100, None, 0, every, 40), every);
        // Expecting 60 ms of stall, the first look at the clock stops a 100 ms search.
        assert_eq!(iterations_before(100, None, 60, 0, 0), every);
        // Unstalled and expecting nothing, it searches on past the first looks.
        assert!(iterations_before(20, None, 0, 0, 0) > 4 * every);
    }

    #[test]
    fn a_hard_deadline_far_past_the_soft_one_lets_a_stalled_search_think_its_time() {
        let every = Params::default().clock_every;
        // The same stall and expectation as above, with the answer due 1 s away.
        assert!(iterations_before(100, Some(1000), 0, every, 40) > 4 * every);
        assert!(iterations_before(100, Some(1000), 60, 0, 0) > 4 * every);
        // The soft deadline still stops it: stalled past its 10 ms, it stops at the next look.
        assert_eq!(iterations_before(10, Some(60_000), 0, every, 40), every);
    }

    #[test]
    fn implicit_minimax_keeps_each_node_one_less_its_children_s_best() {
        for value_net in [false, true] {
            let params = Params {
                minimax: 0.5,
                value_net,
                ..Params::default()
            };
            let mut searcher = Searcher::new(params, 3);
            searcher.ponder(&play("F6 E8 G8"), &iterations(3000));
            let tree = &searcher.last.as_ref().unwrap().1;
            let mut checked = 0;
            for i in 1..tree.len() as u32 {
                // The expectation from the children's stored values directly, not through
                // `Tree::minimax_of_children`, the backup's own reading of them.
                let known: Vec<f32> = tree
                    .children(i)
                    .map(|c| tree.minimax(c))
                    .filter(|v| !v.is_nan())
                    .collect();
                if let Some(best) = known.iter().copied().reduce(f32::max) {
                    let m = tree.minimax(i);
                    assert!((m - (1.0 - best)).abs() < 1e-6, "node {i}: {m} {best}");
                    checked += 1;
                }
            }
            assert!(checked > 20, "{checked} nodes with known children");
        }
    }

    #[test]
    fn the_tree_searched_after_a_swap_serves_the_next_turn() {
        let swapped = play("F6 SWAP");
        let mut searcher = Searcher::new(Params::default(), 1);
        searcher.ponder(&swapped, &iterations(3000));
        let reply = searcher
            .last
            .as_ref()
            .unwrap()
            .1
            .best_root_child()
            .unwrap()
            .mv;
        let mut next = swapped.clone();
        next.play(reply).unwrap();
        let r = searcher.choose(&next, &iterations(10)).unwrap();
        assert!(r.reused > 0, "nothing reused after {}", reply);
        // Without reuse_tree and a ponder, nothing is kept from one turn to the next; with
        // reuse_tree (the default), the subtree of the reply is.
        let after = play("F6 SWAP E5");
        let mut no_reuse = Params::default();
        no_reuse.set("reuse_tree", "false").unwrap();
        let mut plain = Searcher::new(no_reuse, 1);
        plain.choose(&swapped, &iterations(100));
        assert_eq!(plain.choose(&after, &iterations(10)).unwrap().reused, 0);
        let mut reusing = Searcher::new(Params::default(), 1);
        reusing.choose(&swapped, &iterations(3000));
        assert!(reusing.choose(&after, &iterations(10)).unwrap().reused > 0);
    }

    #[test]
    fn takes_a_win_in_one() {
        let pos = play("E1 B5 F3 B7 E5 C9 F7 J5 E9 J7 F11 K9");
        let r = Searcher::new(Params::default(), 1)
            .choose(&pos, &iterations(100))
            .unwrap();
        assert_eq!(r.found, Found::WinInOne);
        assert!(["D12", "H12"].contains(&r.best.to_string().as_str()));
    }

    #[test]
    fn blocks_a_single_threat() {
        // Player 0 has E1-F3 and F7-E9-F11-D12; E5 would join them (G5 is player 1's).
        let pos = play("E1 B5 F3 G5 F7 C9 E9 J5 F11 J7 D12");
        assert_eq!(pos.to_move(), Player::One);
        assert_eq!(tactics::threats(&pos), vec![cell("E5")]);
        let moves = pos.legal_moves();
        let safe = tactics::safe_moves(&pos, &moves);
        assert!(safe.contains(&mv("E5")) && safe.contains(&mv("E4")));
        for seed in 0..5 {
            let r = Searcher::new(Params::default(), seed)
                .choose(&pos, &iterations(300))
                .unwrap();
            assert!(safe.contains(&r.best), "{} leaves a win", r.best);
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_search() {
        let pos = play("F6 E7");
        let a = Searcher::new(Params::default(), 9)
            .choose(&pos, &iterations(3000))
            .unwrap();
        let b = Searcher::new(Params::default(), 9)
            .choose(&pos, &iterations(3000))
            .unwrap();
        assert_eq!((a.best, a.plies, a.nodes), (b.best, b.plies, b.nodes));
        assert_eq!(a.iterations, 3000);
    }
}
