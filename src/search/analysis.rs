//! The search's view of its root, for `twixt-bot analyze` and the board's live analysis: a
//! search that keeps its tree (and goes on in it, slice by slice), and the root's moves read
//! off it with their statistics and principal variations.

use super::tree::{Tree, ROOT};
use super::{safe_root, Limits, Report, Searcher};
use crate::cell::Player;
use crate::position::{Move, Position};

/// One root move as the search left it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootLine {
    /// The move.
    pub mv: Move,
    /// The search's visits (the prior's virtual visits not counted).
    pub visits: u32,
    /// Its share of all the root's search visits, in [0, 1].
    pub share: f32,
    /// The child's mean value for the player who makes the move (the side to move), virtual
    /// visits included, as the search ranks it.
    pub value: f32,
    /// The learned prior the expansion gave the move (its policy share among its siblings).
    pub prior: f32,
    /// The principal variation: the move, then the most visited child, repeatedly, while the
    /// search visited it.
    pub line: Vec<Move>,
}

impl Searcher {
    /// Searches `pos` among `moves` from a fresh tree and keeps that tree for
    /// [`Searcher::analysis`]. The root is what [`Searcher::choose`] would search (narrowed
    /// to the moves that stop a threat), but the tactics are not asked first: the search's
    /// view is shown even where the bot would play a win without one ([`Searcher::tactical`]
    /// says). `None` when there is no move.
    pub fn analyse(&mut self, pos: &Position, moves: Vec<Move>, limits: &Limits) -> Option<Report> {
        if moves.is_empty() {
            return None;
        }
        let root = safe_root(pos, &moves).unwrap_or(moves);
        if let Some((_, old)) = self.last.take() {
            self.recycle(old);
        }
        self.keep_next = true;
        let tree = self.fresh_tree();
        Some(self.search(pos, tree, root, limits))
    }

    /// Searches on in the tree that [`Searcher::analyse`] (or this) kept, when it is of `pos`
    /// (the same pegs, the same player to move), and keeps it again: an analysis in slices,
    /// read with [`Searcher::analysis`] between them to show it live. The report counts this
    /// slice's iterations only. `None`, and the kept tree dropped, when it is of another
    /// position or there is none.
    pub fn analyse_on(&mut self, pos: &Position, limits: &Limits) -> Option<Report> {
        let (prev, tree) = self.last.take()?;
        let same = prev.to_move() == pos.to_move()
            && Player::BOTH
                .iter()
                .all(|&p| prev.board().pegs(p) == pos.board().pegs(p));
        if !same || tree.get(ROOT).children == 0 {
            return None;
        }
        let root = tree.children(ROOT).map(|i| tree.get(i).mv).collect();
        self.keep_next = true;
        Some(self.search(pos, tree, root, limits))
    }

    /// The last kept tree's root moves, most visited first (of two as visited, the one of higher
    /// value), at most `top` of them, each with a
    /// principal variation of at most `pv_plies` moves. Empty when no tree was kept.
    pub fn analysis(&self, top: usize, pv_plies: usize) -> Vec<RootLine> {
        let tree = match &self.last {
            Some((_, tree)) => tree,
            None => return Vec::new(),
        };
        let n0 = self.params.prior_visits;
        let searched = |i: u32| tree.get(i).visits.saturating_sub(n0);
        let total: u32 = tree.children(ROOT).map(searched).sum();
        let mut children: Vec<u32> = tree.children(ROOT).collect();
        // Ties in visits go to the higher value, as the search breaks them when it chooses.
        children.sort_by(|&a, &b| {
            let key = |i: u32| (searched(i), tree.get(i).value());
            key(b)
                .partial_cmp(&key(a))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        children
            .into_iter()
            .take(top)
            .map(|i| {
                let node = tree.get(i);
                RootLine {
                    mv: node.mv,
                    visits: searched(i),
                    share: searched(i) as f32 / total.max(1) as f32,
                    value: node.value(),
                    prior: node.prior,
                    line: principal_variation(tree, i, pv_plies, n0),
                }
            })
            .collect()
    }
}

/// The moves from `node` on (its own first): at each node the child the search visited most,
/// while it visited it beyond the `n0` virtual visits, at most `plies` moves.
fn principal_variation(tree: &Tree, node: u32, plies: usize, n0: u32) -> Vec<Move> {
    let mut line = vec![tree.get(node).mv];
    let mut at = node;
    while line.len() < plies {
        let best = tree.children(at).max_by_key(|&c| tree.get(c).visits);
        match best {
            Some(c) if tree.get(c).visits > n0 => {
                line.push(tree.get(c).mv);
                at = c;
            }
            _ => break,
        }
    }
    line.truncate(plies.max(1));
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::Params;
    use crate::testing::{iterations, position};

    #[test]
    fn the_root_lines_are_sorted_and_add_up() {
        let pos = position("F6 E7 G8");
        let mut s = Searcher::new(Params::default(), 1);
        assert!(s.analysis(5, 6).is_empty(), "nothing searched yet");
        let r = s
            .analyse(&pos, pos.legal_moves(), &iterations(2000))
            .unwrap();
        let all = s.analysis(usize::MAX, 6);
        assert_eq!(all.len(), pos.legal_moves().len());
        let visits: u32 = all.iter().map(|l| l.visits).sum();
        assert_eq!(
            visits as u64, r.iterations,
            "every iteration goes through a root move"
        );
        let shares: f32 = all.iter().map(|l| l.share).sum();
        assert!((shares - 1.0).abs() < 1e-3, "{shares}");
        assert!(all.windows(2).all(|w| w[0].visits >= w[1].visits));
        let best = &all[0];
        assert_eq!(best.mv, r.best);
        assert!(best.line.len() > 1 && best.line.len() <= 6 && best.line[0] == best.mv);
        assert!(all
            .iter()
            .all(|l| (0.0..=1.0).contains(&l.value) && l.prior > 0.0));
        assert_eq!(s.analysis(3, 2).len(), 3);
        assert!(s.analysis(3, 2).iter().all(|l| l.line.len() <= 2));
    }

    #[test]
    fn an_analysis_goes_on_in_its_tree_slice_by_slice() {
        let pos = position("F6 E7 G8");
        let mut s = Searcher::new(Params::default(), 1);
        assert!(s.analyse_on(&pos, &iterations(10)).is_none(), "no tree yet");
        s.analyse(&pos, pos.legal_moves(), &iterations(800));
        let r = s.analyse_on(&pos, &iterations(700)).unwrap();
        assert_eq!(r.iterations, 700);
        let visits: u32 = s.analysis(usize::MAX, 1).iter().map(|l| l.visits).sum();
        assert_eq!(visits, 1500, "both slices' visits are in the tree");
        let other = position("F6 E7 G8 D9");
        assert!(s.analyse_on(&other, &iterations(10)).is_none());
        assert!(
            s.analysis(5, 1).is_empty(),
            "the tree of another position is dropped"
        );
    }

    #[test]
    fn the_analysis_searches_a_position_the_tactics_would_answer() {
        let pos = position(crate::bench::MIDGAME);
        let mut s = Searcher::new(Params::default(), 1);
        assert_eq!(
            s.tactical(&pos).unwrap().found,
            super::super::Found::WinInTwo
        );
        let r = s
            .analyse(&pos, pos.legal_moves(), &iterations(500))
            .unwrap();
        assert_eq!(r.iterations, 500);
        let n0 = Params::default().prior_visits;
        assert_eq!(s.analysis(1, 1)[0].visits, r.best_visits - n0);
    }
}
