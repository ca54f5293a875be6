//! The playout policy: answer an intrusion into a two-way connection, TwixT's analogue of
//! Hex's bridge save.
//!
//! Two pegs `A` and `B` of one player that share two vacant knight-neighbours `X` and `C` (the
//! corners of a parallelogram, `C = A + B - X`) stay joined whichever of the two the opponent
//! takes. When the opponent's peg lands on `X`, the reply on `C` keeps them joined.

use super::playout::Pools;
use crate::bitboard::{Bitboard, KNIGHTS};
use crate::board::Board;
use crate::bridge::{crossing_table, BRIDGES, CROSSINGS, DIRS, NEIGHBORS, NO_BRIDGE};
use crate::cell::{Cell, Player, SIZE};
use crate::position::Position;
use crate::rng::FastRng;

/// The hole where `p` saves a two-way connection that the opponent's peg on `x` cut into, if
/// there is one.
pub fn save_reply(board: &Board, p: Player, x: Cell) -> Option<Cell> {
    let mine = board.pegs(p);
    if mine.and(KNIGHTS[x.index()]).count() < 2 {
        return None;
    }
    let mut ends = [0u8; 8];
    let mut n = 0;
    for nb in &NEIGHBORS[x.index()] {
        // A missing neighbour points at corner A1, which never holds a peg.
        if mine.has_index(nb.cell as usize) && board.blocked_index(p, nb.bridge as usize) == 0 {
            ends[n] = nb.cell;
            n += 1;
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            if let Some(c) = fourth_corner(board, p, x, ends[i], ends[j]) {
                return Some(c);
            }
        }
    }
    None
}

/// The hole where `p` saves a two-way connection that a new link of the opponent's peg on
/// `x` cut: the link crosses the bridge from `p`'s peg `A` to a vacant corner of a
/// parallelogram, so `p` takes the other corner.
pub fn cut_reply(board: &Board, p: Player, x: Cell) -> Option<Cell> {
    let (mine, theirs) = (board.pegs(p), board.pegs(p.other()));
    if theirs.and(KNIGHTS[x.index()]).is_empty() {
        return None;
    }
    let occupied = board.occupied();
    for nb in &NEIGHBORS[x.index()] {
        if !theirs.has_index(nb.cell as usize)
            || mine.and(CROSSED_ENDS[nb.bridge as usize]).is_empty()
            || !board.has_link_index(p.other(), nb.bridge as usize)
        {
            continue;
        }
        for &cut in &CROSSINGS[nb.bridge as usize] {
            if cut == NO_BRIDGE {
                continue;
            }
            let (u, v) = bridge_ends(cut as usize);
            let (a, hole) = match (mine.has_index(u), mine.has_index(v)) {
                (true, false) if !occupied.has_index(v) => (u, v),
                (false, true) if !occupied.has_index(u) => (v, u),
                _ => continue,
            };
            for other in &NEIGHBORS[hole] {
                let b = other.cell;
                if b as usize != a
                    && mine.has_index(b as usize)
                    && board.blocked_index(p, other.bridge as usize) == 0
                {
                    let hole = Cell::from_index(hole)?;
                    if let Some(c) = fourth_corner(board, p, hole, a as u8, b) {
                        return Some(c);
                    }
                }
            }
        }
    }
    None
}

/// For every bridge, the ends of the bridges it crosses: a link there can only cut a route of
/// a player with a peg among them.
static CROSSED_ENDS: [Bitboard; BRIDGES] = crossed_ends();

const fn crossed_ends() -> [Bitboard; BRIDGES] {
    let crossings = crossing_table();
    let mut out = [Bitboard::EMPTY; BRIDGES];
    let mut b = 0;
    while b < BRIDGES {
        let mut k = 0;
        while k < 9 {
            let cut = crossings[b][k] as usize;
            if cut != NO_BRIDGE as usize {
                let (u, v) = bridge_ends(cut);
                out[b] = out[b].with_index(u).with_index(v);
            }
            k += 1;
        }
        b += 1;
    }
    out
}

/// The cell indices of the two ends of the bridge of index `b` (lower end `b / 4`, direction
/// `b % 4`).
#[inline]
const fn bridge_ends(b: usize) -> (usize, usize) {
    let (dx, dy) = DIRS[b % 4];
    let lower = b / 4;
    (lower, (lower as i32 + dy * SIZE as i32 + dx) as usize)
}

/// `C = A + B - X` when it is a vacant hole `p` may play, links to both `a` and `b`, and those
/// two are not joined already.
fn fourth_corner(board: &Board, p: Player, x: Cell, a: u8, b: u8) -> Option<Cell> {
    let (ca, cb) = (Cell::from_index(a as usize)?, Cell::from_index(b as usize)?);
    let c = Cell::new(ca.x() + cb.x() - x.x(), ca.y() + cb.y() - x.y())?;
    if board.owner(c).is_some() || !c.allowed_for(p) || board.same_group(a as usize, b as usize) {
        return None;
    }
    let open = NEIGHBORS[c.index()]
        .iter()
        .filter(|nb| {
            (nb.cell == a || nb.cell == b) && board.blocked_index(p, nb.bridge as usize) == 0
        })
        .count();
    (open == 2).then_some(c)
}

/// Like [`super::playout::playout`], but a player whose two-way connection the last peg cut
/// into (or, with `cuts`, whose links cut) saves it instead of playing at random. `last` is
/// the peg placed just before `pos`.
pub fn saving_playout(
    pos: &mut Position,
    rng: &mut FastRng,
    mut last: Option<Cell>,
    cuts: bool,
) -> (Option<Player>, u32) {
    let mut pools = Pools::of(pos);
    let mut plies = 0;
    loop {
        let p = pos.to_move();
        let reply = last.and_then(|x| {
            save_reply(pos.board(), p, x).or_else(|| {
                if cuts {
                    cut_reply(pos.board(), p, x)
                } else {
                    None
                }
            })
        });
        let c = match reply {
            Some(c) => {
                pools.remove(p, c);
                c
            }
            None => match pools.take(p, rng) {
                Some(c) => c,
                None => return (None, plies),
            },
        };
        plies += 1;
        if pos.place_and_check(c) {
            return (Some(p), plies);
        }
        last = Some(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Outcome;

    fn cell(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn an_intrusion_into_a_parallelogram_is_answered_at_its_fourth_corner() {
        // Player 0's E5 (x 4, y 4) and E7 (x 4, y 6) share the knight-neighbours C6 and G6.
        let pos = Position::after("E5 A2 E7 C6").unwrap();
        assert_eq!(
            save_reply(pos.board(), Player::Zero, cell("C6")),
            Some(cell("G6"))
        );
        // Once the two are joined through G6, there is nothing to save.
        let joined = Position::after("E5 A2 E7 A3 G6 C6").unwrap();
        assert_eq!(save_reply(joined.board(), Player::Zero, cell("C6")), None);
        // Player 1's pegs are not player 0's to save.
        assert_eq!(save_reply(pos.board(), Player::One, cell("C6")), None);
    }

    #[test]
    fn a_link_that_cuts_one_route_is_answered_on_the_other() {
        // Player 1's link G4-F6 crosses E5-G6, one route between player 0's E5 and E7; the
        // other route is C6.
        let pos = Position::after("E5 G4 E7 F6").unwrap();
        let x = cell("F6");
        assert_eq!(save_reply(pos.board(), Player::Zero, x), None);
        assert_eq!(cut_reply(pos.board(), Player::Zero, x), Some(cell("C6")));
        // A peg that links nothing cuts nothing.
        let quiet = Position::after("E5 G4 E7 K6").unwrap();
        assert_eq!(cut_reply(quiet.board(), Player::Zero, cell("K6")), None);
    }

    #[test]
    fn a_saving_playout_ends_in_the_result_the_rules_give() {
        for seed in 0..200 {
            let mut rng = FastRng::new(seed);
            let mut pos = Position::new();
            let (winner, plies) = saving_playout(&mut pos, &mut rng, None, seed % 2 == 0);
            let expected = winner.map_or(Outcome::Draw, Outcome::Win);
            assert_eq!(pos.outcome(), Some(expected), "seed {seed}");
            assert_eq!(pos.board().occupied().count(), plies);
        }
    }
}
