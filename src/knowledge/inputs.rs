//! The value network's inputs: a position as one player sees it, one-hot. The viewer's pegs,
//! the opponent's pegs, the viewer's links and the opponent's links each have a slot per hole
//! or bridge; player 1 sees the board transposed, so that every viewer joins the top and bottom
//! rows and one set of weights serves both. Slots that no position can fill (a peg on a border
//! its owner may not use, a link with such an end) are packed away, leaving [`INPUTS`].

use crate::board::Board;
use crate::bridge::{Bridge, BRIDGES};
use crate::cell::{Cell, Player, CELLS};

/// Slots before packing: viewer's pegs, opponent's pegs, viewer's links, opponent's links.
const UNPACKED: usize = 2 * CELLS + 2 * BRIDGES;

/// [`INPUT_OF`]'s mark for a slot that no position fills.
const DEAD: u16 = u16::MAX;

/// The cell `c` as `viewer` sees it: player 1's board is transposed.
#[inline]
pub const fn view(viewer: Player, c: Cell) -> Cell {
    match viewer {
        Player::Zero => c,
        Player::One => c.transposed(),
    }
}

/// The bridge `b` as `viewer` sees it.
#[inline]
pub const fn view_bridge(viewer: Player, b: Bridge) -> Bridge {
    match viewer {
        Player::Zero => b,
        Player::One => match Bridge::between(b.lower().transposed(), b.upper().transposed()) {
            Some(t) => t,
            None => panic!("a transposed knight's move is a knight's move"),
        },
    }
}

/// The slot of a peg of a viewer's own (`own`) or of its opponent on the viewed cell `v`.
const fn peg_slot(own: bool, v: Cell) -> usize {
    if own {
        v.index()
    } else {
        CELLS + v.index()
    }
}

/// The slot of a link on the viewed bridge `v`.
const fn link_slot(own: bool, v: Bridge) -> usize {
    2 * CELLS + if own { 0 } else { BRIDGES } + v.index()
}

/// Whether a slot can be filled: seen by player 0's eyes (the viewer is player 0), its peg or
/// both ends of its link lie where their owner may play.
const fn live(at: usize) -> bool {
    let (own, rest) = if at < 2 * CELLS {
        (at < CELLS, at % CELLS)
    } else {
        let s = at - 2 * CELLS;
        (s < BRIDGES, s % BRIDGES)
    };
    let owner = if own { Player::Zero } else { Player::One };
    if at < 2 * CELLS {
        match Cell::from_index(rest) {
            Some(c) => c.allowed_for(owner),
            None => false,
        }
    } else {
        match Bridge::from_index(rest) {
            Some(b) => b.lower().allowed_for(owner) && b.upper().allowed_for(owner),
            None => false,
        }
    }
}

/// Each slot's input index, [`DEAD`] for a slot that no position fills.
const INPUT_OF: [u16; UNPACKED] = pack();

const fn pack() -> [u16; UNPACKED] {
    let mut out = [DEAD; UNPACKED];
    let (mut at, mut next) = (0, 0);
    while at < UNPACKED {
        if live(at) {
            out[at] = next;
            next += 1;
        }
        at += 1;
    }
    out
}

const fn count_live() -> usize {
    let (mut at, mut n) = (0, 0);
    while at < UNPACKED {
        n += live(at) as usize;
        at += 1;
    }
    n
}

/// How many inputs the network has: 120 pegs a side and 356 links a side.
pub const INPUTS: usize = count_live();

/// The tables' row for a viewer and an owner.
#[inline]
const fn viewer_owner(viewer: Player, owner: Player) -> usize {
    2 * viewer.index() + owner.index()
}

/// The input of `owner`'s peg on `c` as `viewer` sees it, by the slots.
const fn peg_slot_input(viewer: Player, owner: Player, c: Cell) -> u16 {
    let own = viewer.index() == owner.index();
    INPUT_OF[peg_slot(own, view(viewer, c))]
}

/// The input of `owner`'s link on `b` as `viewer` sees it, by the slots.
const fn link_slot_input(viewer: Player, owner: Player, b: Bridge) -> u16 {
    let own = viewer.index() == owner.index();
    INPUT_OF[link_slot(own, view_bridge(viewer, b))]
}

/// Each viewer's and owner's [`peg_input`] by cell index, looked up where the network follows
/// a peg ([`DEAD`] for an index that is no hole).
static PEG_INPUT: [[u16; CELLS]; 4] = peg_inputs();

/// Each viewer's and owner's [`link_input`] by bridge index: the transposed bridge of player
/// 1's view costs a search of its ends, too slow for every peg of every iteration.
static LINK_INPUT: [[u16; BRIDGES]; 4] = link_inputs();

const fn peg_inputs() -> [[u16; CELLS]; 4] {
    let mut out = [[DEAD; CELLS]; 4];
    let mut i = 0;
    while i < CELLS {
        if let Some(c) = Cell::from_index(i) {
            let mut k = 0;
            while k < 4 {
                let (viewer, owner) = (Player::BOTH[k / 2], Player::BOTH[k % 2]);
                out[k][i] = peg_slot_input(viewer, owner, c);
                k += 1;
            }
        }
        i += 1;
    }
    out
}

const fn link_inputs() -> [[u16; BRIDGES]; 4] {
    let mut out = [[DEAD; BRIDGES]; 4];
    let mut i = 0;
    while i < BRIDGES {
        if let Some(b) = Bridge::from_index(i) {
            let mut k = 0;
            while k < 4 {
                let (viewer, owner) = (Player::BOTH[k / 2], Player::BOTH[k % 2]);
                out[k][i] = link_slot_input(viewer, owner, b);
                k += 1;
            }
        }
        i += 1;
    }
    out
}

/// The input of `owner`'s peg on `c` as `viewer` sees it.
#[inline]
pub fn peg_input(viewer: Player, owner: Player, c: Cell) -> usize {
    PEG_INPUT[viewer_owner(viewer, owner)][c.index()] as usize
}

/// The input of `owner`'s link on `b` as `viewer` sees it.
#[inline]
pub fn link_input(viewer: Player, owner: Player, b: Bridge) -> usize {
    LINK_INPUT[viewer_owner(viewer, owner)][b.index()] as usize
}

/// Every input that `board` fills as `viewer` sees it: pegs, then links, each player's in
/// index order.
pub fn active(board: &Board, viewer: Player) -> Vec<usize> {
    let mut out = Vec::new();
    for owner in Player::BOTH {
        out.extend(
            board
                .pegs(owner)
                .iter()
                .map(|c| peg_input(viewer, owner, c)),
        );
    }
    for owner in Player::BOTH {
        out.extend(board.links(owner).map(|b| link_input(viewer, owner, b)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::position;

    #[test]
    fn the_live_slots_are_the_pegs_and_links_each_player_may_have() {
        let pegs = Cell::all().filter(|c| c.allowed_for(Player::Zero)).count();
        let links = Bridge::all()
            .filter(|b| b.lower().allowed_for(Player::Zero) && b.upper().allowed_for(Player::Zero))
            .count();
        assert_eq!((pegs, links), (120, 356));
        assert_eq!(INPUTS, 2 * (pegs + links));
    }

    #[test]
    fn each_peg_and_link_has_the_input_that_counting_afresh_gives() {
        // The inputs counted afresh, in order: the viewer's pegs on the holes player 0 may
        // take, the opponent's on those of player 1, then the links with both ends there, the
        // viewer's and then the opponent's, each in index order. Player 1 sees the board
        // mirrored on its diagonal (its columns as rows); a peg or link its owner cannot have
        // has no input.
        let holes = |p: Player| Cell::all().filter(move |c| c.allowed_for(p));
        let pegs: Vec<(bool, Cell)> = holes(Player::Zero)
            .map(|c| (true, c))
            .chain(holes(Player::One).map(|c| (false, c)))
            .collect();
        let both = |p: Player, b: &Bridge| b.ends().0.allowed_for(p) && b.ends().1.allowed_for(p);
        let links: Vec<(bool, [Cell; 2])> = [(true, Player::Zero), (false, Player::One)]
            .iter()
            .flat_map(|&(own, p)| {
                Bridge::all()
                    .filter(move |b| both(p, b))
                    .map(move |b| (own, [b.ends().0, b.ends().1]))
            })
            .collect();
        assert_eq!(pegs.len() + links.len(), INPUTS);
        for viewer in Player::BOTH {
            let seen = |c: Cell| match viewer {
                Player::Zero => c,
                Player::One => Cell::new(c.y(), c.x()).unwrap(),
            };
            for owner in Player::BOTH {
                let own = viewer == owner;
                for c in Cell::all() {
                    let want = pegs.iter().position(|&p| p == (own, seen(c)));
                    let got = peg_input(viewer, owner, c);
                    assert_eq!(
                        got,
                        want.unwrap_or(DEAD as usize),
                        "{viewer:?} {owner:?} {c}"
                    );
                }
                for b in Bridge::all() {
                    let (x, y) = (seen(b.ends().0), seen(b.ends().1));
                    let want = links
                        .iter()
                        .position(|&(o, e)| o == own && (e == [x, y] || e == [y, x]))
                        .map(|i| pegs.len() + i);
                    let got = link_input(viewer, owner, b);
                    assert_eq!(
                        got,
                        want.unwrap_or(DEAD as usize),
                        "{viewer:?} {owner:?} {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn both_players_see_their_own_pegs_and_links_alike() {
        // Player 1's position is player 0's, transposed: the inputs are the same.
        let zero = position("F3 C6 G5 D7 H7");
        let mut one = Board::new();
        for p in Player::BOTH {
            for c in zero.board().pegs(p).iter() {
                one.place(p.other(), c.transposed());
            }
        }
        let mut a = active(zero.board(), Player::Zero);
        let mut b = active(&one, Player::One);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert_eq!(a.len(), 5 + 2, "five pegs and two links");
        assert!(a.iter().all(|&i| i < INPUTS));
        let mut distinct = a.clone();
        distinct.dedup();
        assert_eq!(distinct, a);
    }
}
