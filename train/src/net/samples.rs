//! The value network's training samples: every position of a decided game, with the inputs of
//! both players' views, the player to move and whether it won; and the board's mirror images
//! as permutations of the inputs, for augmentation.

use crate::data::{Game, Search};
use twixt::bridge::{Bridge, BRIDGES};
use twixt::cell::CELLS;
use twixt::knowledge::features::Context;
use twixt::knowledge::inputs::{self, view, INPUTS};
use twixt::knowledge::network::{hole_of, hole_of_move, local, POLICY_HOLES};
use twixt::knowledge::{value, Policy};
use twixt::position::last_pegs;
use twixt::search::params::Params;
use twixt::{Cell, Move, Player, Position};

/// Positions packed flat: one allocation for all their inputs.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Each sample's inputs, the mover's view and then the opponent's, back to back.
    inputs: Vec<u16>,
    /// Where each sample's inputs start (one more entry than samples: the end).
    start: Vec<u32>,
    /// How many of a sample's inputs are the mover's view.
    split: Vec<u16>,
    /// Whether player 1 was to move.
    mover_one: Vec<bool>,
    /// The value's target for the mover: 1 when it won, 0 when it lost, or that mixed with
    /// the search's value ([`Targets`]).
    pub won: Vec<f32>,
    /// The game each sample is from.
    pub game: Vec<u32>,
    /// What a full search made of the move chosen there, for the mover (NaN without one).
    pub search: Vec<f32>,
    /// The distance value's chance for the mover, at the search's default weights.
    pub distance: Vec<f32>,
    /// The holes (as the mover sees them, [`hole_of`]) of every full search's root moves,
    /// all samples' back to back.
    holes: Vec<u16>,
    /// Each root move's share of its search's visits, beside `holes`.
    shares: Vec<f32>,
    /// Each root move's logit by the base policy, beside `holes` (empty without one).
    base: Vec<f32>,
    /// Where each sample's holes start (one more entry than samples); a sample without a
    /// full search has none.
    policy_start: Vec<u32>,
    /// The opponent's last peg and the mover's own last, as cells the mover sees (index,
    /// or 255 for none).
    last: Vec<[u8; 2]>,
    /// The search's default parameters (the distance value's weights).
    defaults: Params,
}

/// How the value's targets are made from games and their searches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Targets {
    /// The weight of the search's value in a searched position's target, against the game's
    /// result (0: the result alone).
    pub mix: f32,
    /// The positions after each full search's most visited other root moves, at most this
    /// many a search, are samples too (0: none).
    pub children: usize,
    /// The weight of the search's value in those positions' targets, against the game's
    /// result.
    pub child_mix: f32,
}

/// One sample's view of [`Samples`].
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// The mover's inputs, then the opponent's.
    pub views: [&'a [u16]; 2],
    /// The player to move.
    pub mover: Player,
    /// 1 when the mover won, 0 when it lost.
    pub won: f32,
    /// What the full search there made of the root moves, if there was one.
    pub policy: Option<PolicyTarget<'a>>,
    /// The opponent's last peg and the mover's own last, as the mover sees the board.
    pub last: [Option<Cell>; 2],
}

/// What an input of player 0's view is: the viewer's (`true`) or the opponent's peg on a
/// cell, or link on a bridge.
#[derive(Clone, Copy)]
enum Filled {
    Peg(bool, Cell),
    Link(bool, Bridge),
}

/// Each input of player 0's view, as what it says is on the board.
fn filled() -> &'static [Filled] {
    static TABLE: std::sync::OnceLock<Vec<Filled>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![Filled::Peg(true, Cell::all().next().expect("a cell")); INPUTS];
        for (owner, own) in [(Player::Zero, true), (Player::One, false)] {
            for c in Cell::all().filter(|c| c.allowed_for(owner)) {
                table[inputs::peg_input(Player::Zero, owner, c)] = Filled::Peg(own, c);
            }
            for b in Bridge::all() {
                let (lo, up) = b.ends();
                if lo.allowed_for(owner) && up.allowed_for(owner) {
                    table[inputs::link_input(Player::Zero, owner, b)] = Filled::Link(own, b);
                }
            }
        }
        table
    })
}

/// What the policy's local term reads of a sample, as the mover sees the board: each cell's
/// pegs and last pegs, and each side's links.
pub struct Surroundings {
    flags: [u8; CELLS],
    links: [Vec<bool>; 2],
}

impl Surroundings {
    /// What the viewed cell `w` holds for the viewed hole `v`, in the local term's flags
    /// ([`twixt::knowledge::network::local`]).
    pub fn holds(&self, v: Cell, w: Cell) -> u8 {
        let mut flags = self.flags[w.index()];
        if let Some(b) = Bridge::between(v, w) {
            // Open: no link of the other side crosses the bridge.
            let open = |side: usize| !b.crossings().any(|x| self.links[side][x.index()]);
            if flags & local::HOLDS_OWN != 0 && open(1) {
                flags |= local::HOLDS_OPEN_OWN;
            }
            if flags & local::HOLDS_OPP != 0 && open(0) {
                flags |= local::HOLDS_OPEN_OPP;
            }
        }
        flags
    }
}

impl Sample<'_> {
    /// The surroundings the local term reads (the mover's view and the last pegs).
    pub fn surroundings(&self) -> Surroundings {
        let mut out = Surroundings {
            flags: [0u8; CELLS],
            links: [vec![false; BRIDGES], vec![false; BRIDGES]],
        };
        let table = filled();
        for &i in self.views[0] {
            match table[i as usize] {
                Filled::Peg(own, c) => {
                    out.flags[c.index()] |= if own {
                        local::HOLDS_OWN
                    } else {
                        local::HOLDS_OPP
                    }
                }
                Filled::Link(own, b) => out.links[usize::from(!own)][b.index()] = true,
            }
        }
        for (c, flag) in self
            .last
            .iter()
            .zip([local::HOLDS_LAST_OPP, local::HOLDS_LAST_OWN])
        {
            if let Some(c) = c {
                out.flags[c.index()] |= flag;
            }
        }
        out
    }
}

/// A full search's visits as the policy's target.
#[derive(Clone, Copy, Debug)]
pub struct PolicyTarget<'a> {
    /// The root moves' holes as the mover sees them ([`hole_of`]).
    pub holes: &'a [u16],
    /// Each one's share of the visits (they sum to 1).
    pub targets: &'a [f32],
    /// Each one's logit by the base policy the head's logits are added to (the shipped
    /// feature softmax, as the engine adds them with `net_policy`); empty without one.
    pub base: &'a [f32],
}

/// A full search's root moves as the mover's holes, their shares of the visits and their
/// base logits (none without a base policy).
type PolicyPairs = (Vec<u16>, Vec<f32>, Vec<f32>);

/// The visits of `search` at `pos` as holes of the mover and shares, or `None` when it gave
/// no visit. SWAP is the hole it gives the mover (the first peg transposed), as the engine's
/// policy reads it. With `base`, each move's logit by that policy in its context.
fn policy_target(
    pos: &Position,
    search: &Search,
    base: Option<(&Policy, &Context)>,
) -> Option<PolicyPairs> {
    let total: u32 = search.visits.iter().map(|v| v.1).sum();
    if total == 0 {
        return None;
    }
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for &(mv, n) in &search.visits {
        if let Some(k) = hole_of_move(pos, mv) {
            out.0.push(k as u16);
            out.1.push(n as f32 / total as f32);
            if let Some((policy, ctx)) = base {
                out.2.push(policy.logit(&ctx.features(mv)));
            }
        }
    }
    Some(out)
}

impl Samples {
    /// The samples of `games`: every position before the end of a game that was not drawn.
    pub fn of_games(games: &[Game]) -> Samples {
        let mut out = Samples {
            start: vec![0],
            policy_start: vec![0],
            ..Samples::default()
        };
        for game in games {
            out.add_game(game, Targets::default(), None);
        }
        out
    }

    /// The samples of `games` with the value's targets made as `targets` says: searched
    /// positions' results mixed with the search's value, and the positions after the
    /// searches' most visited other moves added.
    pub fn with_targets(games: &[Game], targets: Targets) -> Samples {
        Samples::with_base(games, targets, None)
    }

    /// [`Samples::with_targets`], each full search's moves also scored by `base` (the
    /// policy a head's logits are added to), when there is one.
    pub fn with_base(games: &[Game], targets: Targets, base: Option<&Policy>) -> Samples {
        let mut out = Samples::of_games(&[]);
        for game in games {
            out.add_game(game, targets, base);
        }
        out
    }

    fn add_game(&mut self, game: &Game, t: Targets, base: Option<&Policy>) {
        let Some(winner) = game.winner else { return };
        let moves: Vec<Move> = game.plies.iter().map(|p| p.mv).collect();
        let mut pos = Position::new();
        for (i, ply) in game.plies.iter().enumerate() {
            let mover = pos.to_move();
            let result = f32::from(u8::from(winner == mover));
            let search = ply.search.as_ref();
            let target = search.map_or(result, |s| t.mix * s.value + (1.0 - t.mix) * result);
            let last = last_pegs(&moves[..i]);
            let policy = search.and_then(|s| {
                let ctx = base.map(|_| Context::new(&pos, last[0], last[1]));
                policy_target(&pos, s, base.zip(ctx.as_ref()))
            });
            self.push(
                &pos,
                target,
                game.index,
                search.map(|s| s.value),
                (policy, last),
            );
            if let (Some(s), true) = (search, t.children > 0) {
                self.add_children(&pos, s, &moves[..=i], (winner, game.index), t);
            }
            pos.play_unchecked(ply.mv);
        }
    }

    /// The positions after the `t.children` most visited root moves of `s` at `pos` other
    /// than the one played (the last of `moves`, the game's moves to the next position),
    /// valued for their mover by the search's value of the move mixed with the game's result.
    fn add_children(
        &mut self,
        pos: &Position,
        s: &Search,
        moves: &[Move],
        (winner, game): (Player, u32),
        t: Targets,
    ) {
        let (&played, before) = moves.split_last().expect("the move played");
        // The last move before the search's: with a child's move, all `last_pegs` reads.
        let before = &before[before.len().saturating_sub(1)..];
        let mut visited: Vec<(u32, Move, f32)> = s
            .visits
            .iter()
            .zip(&s.values)
            .filter_map(|(&(mv, n), v)| v.map(|v| (n, mv, v)))
            .filter(|&(_, mv, _)| mv != played)
            .collect();
        visited.sort_by_key(|&(n, mv, _)| (std::cmp::Reverse(n), mv.peg().map(|c| c.index())));
        for &(_, mv, v) in visited.iter().take(t.children) {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            if after.outcome().is_some() {
                continue;
            }
            let result = f32::from(u8::from(winner == after.to_move()));
            let mine = 1.0 - v;
            let target = t.child_mix * mine + (1.0 - t.child_mix) * result;
            let last = last_pegs(&[before, &[mv]].concat());
            self.push(&after, target, game, Some(mine), (None, last));
        }
    }

    /// Adds the sample of `pos` with the value target `target`, the policy's target if any,
    /// and the last pegs (the opponent's, the mover's).
    fn push(
        &mut self,
        pos: &Position,
        target: f32,
        game: u32,
        search: Option<f32>,
        (policy, last): (Option<PolicyPairs>, [Option<Cell>; 2]),
    ) {
        let mover = pos.to_move();
        self.last
            .push(last.map(|c| c.map_or(u8::MAX, |c| view(mover, c).index() as u8)));
        let views = [mover, mover.other()].map(|v| inputs::active(pos.board(), v));
        self.split.push(views[0].len() as u16);
        for view in &views {
            self.inputs.extend(view.iter().map(|&i| i as u16));
        }
        self.start.push(self.inputs.len() as u32);
        self.mover_one.push(mover == Player::One);
        self.won.push(target);
        self.game.push(game);
        self.search.push(search.unwrap_or(f32::NAN));
        if let Some((holes, shares, base)) = policy {
            self.holes.extend(holes);
            self.shares.extend(shares);
            self.base.extend(base);
        }
        self.policy_start.push(self.holes.len() as u32);
        let (bias, scale) = (self.defaults.value_bias, self.defaults.value_scale);
        self.distance.push(value::value(pos, bias, scale));
    }

    /// How many samples there are.
    pub fn len(&self) -> usize {
        self.won.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.won.is_empty()
    }

    /// Sample `i`.
    pub fn get(&self, i: usize) -> Sample<'_> {
        let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
        let mid = a + self.split[i] as usize;
        let (p, q) = (
            self.policy_start[i] as usize,
            self.policy_start[i + 1] as usize,
        );
        Sample {
            views: [&self.inputs[a..mid], &self.inputs[mid..b]],
            mover: [Player::Zero, Player::One][usize::from(self.mover_one[i])],
            won: self.won[i],
            policy: (q > p).then(|| PolicyTarget {
                holes: &self.holes[p..q],
                targets: &self.shares[p..q],
                base: self.base.get(p..q).unwrap_or(&[]),
            }),
            last: self.last[i].map(|c| Cell::from_index(c as usize)),
        }
    }

    /// The samples with a full search's visits, in order.
    pub fn searched(&self) -> Samples {
        self.select(|i| self.policy_start[i + 1] > self.policy_start[i])
    }

    /// The samples whose game passes `keep`, in order.
    pub fn filter(&self, keep: impl Fn(u32) -> bool) -> Samples {
        self.select(|i| keep(self.game[i]))
    }

    /// The samples `i` that pass `keep`, in order.
    fn select(&self, keep: impl Fn(usize) -> bool) -> Samples {
        let mut out = Samples {
            start: vec![0],
            policy_start: vec![0],
            ..Samples::default()
        };
        for i in (0..self.len()).filter(|&i| keep(i)) {
            let s = self.get(i);
            if let Some(p) = s.policy {
                out.holes.extend_from_slice(p.holes);
                out.shares.extend_from_slice(p.targets);
                out.base.extend_from_slice(p.base);
            }
            out.policy_start.push(out.holes.len() as u32);
            out.last.push(self.last[i]);
            out.split.push(s.views[0].len() as u16);
            out.inputs.extend(s.views[0].iter().chain(s.views[1]));
            out.start.push(out.inputs.len() as u32);
            out.mover_one.push(self.mover_one[i]);
            out.won.push(self.won[i]);
            out.game.push(self.game[i]);
            out.search.push(self.search[i]);
            out.distance.push(self.distance[i]);
        }
        out
    }
}

/// The board's four symmetries that keep each player's borders, as permutations of the
/// inputs of player 0's view: none, left-right, top-bottom, both. Player 1's view is
/// transposed, so a left-right mirror of the board is a top-bottom one in its view.
pub struct Mirrors {
    perms: [Vec<u16>; 4],
    holes: [Vec<u16>; 4],
}

/// `c` mirrored by `k` (bit 0: left-right, bit 1: top-bottom).
fn flip(k: usize, c: Cell) -> Cell {
    c.mirrored(k as u8)
}

/// The mirror `k` of the board as `viewer` sees it: player 1's view is transposed, so a
/// left-right mirror of the board is a top-bottom one in its view.
fn in_view(k: usize, viewer: Player) -> usize {
    match viewer {
        Player::Zero => k,
        Player::One => (k & 1) << 1 | (k >> 1),
    }
}

impl Mirrors {
    /// The four permutations.
    pub fn new() -> Mirrors {
        let perms = [0, 1, 2, 3].map(|k| {
            let mut perm = vec![u16::MAX; INPUTS];
            for owner in Player::BOTH {
                for c in Cell::all().filter(|c| c.allowed_for(owner)) {
                    perm[inputs::peg_input(Player::Zero, owner, c)] =
                        inputs::peg_input(Player::Zero, owner, flip(k, c)) as u16;
                }
                for b in Bridge::all() {
                    let (lo, up) = b.ends();
                    if lo.allowed_for(owner) && up.allowed_for(owner) {
                        let m = Bridge::between(flip(k, lo), flip(k, up)).expect("a knight's move");
                        perm[inputs::link_input(Player::Zero, owner, b)] =
                            inputs::link_input(Player::Zero, owner, m) as u16;
                    }
                }
            }
            perm
        });
        let holes = [0, 1, 2, 3].map(|k| {
            let mut perm = vec![0u16; POLICY_HOLES];
            for c in Cell::all() {
                if let Some(h) = hole_of(Player::Zero, c) {
                    perm[h] = hole_of(Player::Zero, flip(k, c)).expect("a mirrored hole") as u16;
                }
            }
            perm
        });
        Mirrors { perms, holes }
    }

    /// The cell `c` as the mover sees it, when the board is mirrored by `k` (as
    /// [`Mirrors::of`] for the mover's view).
    pub fn cell(&self, k: usize, mover: Player, c: Cell) -> Cell {
        flip(in_view(k, mover), c)
    }

    /// The permutation of the mover's holes when the board is mirrored by `k` (as
    /// [`Mirrors::of`] for the mover's view).
    pub fn holes(&self, k: usize, mover: Player) -> &[u16] {
        &self.holes[in_view(k, mover)]
    }

    /// The permutation for `viewer`'s view when the board is mirrored by `k` (bit 0: left-right,
    /// bit 1: top-bottom).
    pub fn of(&self, k: usize, viewer: Player) -> &[u16] {
        &self.perms[in_view(k, viewer)]
    }
}

impl Default for Mirrors {
    fn default() -> Self {
        Mirrors::new()
    }
}
