//! The playout policy: a player whose two-way connection the last peg cut into saves it
//! ([`crate::knowledge::save`]) instead of playing at random; otherwise, with the chance
//! `near`, it answers within two columns and rows of the last peg.

use super::playout::play_out;
use crate::bitboard::{Bitboard, NEAR};
use crate::board::Board;
use crate::cell::{Cell, Player};
use crate::knowledge::save::save_reply;
use crate::position::Position;
use crate::rng::FastRng;

/// Like [`super::playout::playout`], but a player whose two-way connection the last peg cut
/// into saves it instead of playing at random, and otherwise, with the chance `near` (0 to 1),
/// plays a random hole of its own near the last peg where there is one. `last` is the peg
/// placed just before `pos`.
pub fn saving_playout(
    pos: &mut Position,
    rng: &mut FastRng,
    last: Option<Cell>,
    near: f32,
) -> (Option<Player>, u32) {
    // The chance as a threshold on 32 random bits; 0 draws nothing, so the random stream
    // (and the bench signature) of the plain saving playout is kept.
    let threshold = (near.clamp(0.0, 1.0) as f64 * u32::MAX as f64) as u32;
    play_out(pos, rng, last, |board, p, last, rng| {
        let x = last?;
        save_reply(board, p, x).or_else(|| {
            if threshold == 0 || (rng.bits() as u32) >= threshold {
                return None;
            }
            near_reply(board, p, x, rng)
        })
    })
}

/// A random vacant hole of `p`'s within two columns and rows of `x`, if any.
#[inline]
fn near_reply(board: &Board, p: Player, x: Cell, rng: &mut FastRng) -> Option<Cell> {
    let holes = NEAR[x.index()]
        .and(Bitboard::allowed_for(p))
        .and_not(board.occupied());
    match holes.count() {
        0 => None,
        n => holes.iter().nth(rng.below(n) as usize),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Outcome;

    #[test]
    fn a_saving_playout_ends_in_the_result_the_rules_give() {
        for seed in 0..200 {
            let mut rng = FastRng::new(seed);
            let mut pos = Position::new();
            let (winner, plies) = saving_playout(&mut pos, &mut rng, None, 0.0);
            let expected = winner.map_or(Outcome::Draw, Outcome::Win);
            assert_eq!(pos.outcome(), Some(expected), "seed {seed}");
            assert_eq!(pos.board().occupied().count(), plies);
        }
    }

    #[test]
    fn a_saving_playout_with_near_replies_ends_in_the_result_the_rules_give() {
        for seed in 0..200 {
            let mut rng = FastRng::new(seed);
            let mut pos = Position::new();
            let near = [0.5, 1.0][seed as usize % 2];
            let (winner, plies) = saving_playout(&mut pos, &mut rng, None, near);
            assert_eq!(
                pos.outcome(),
                Some(winner.map_or(Outcome::Draw, Outcome::Win))
            );
            assert_eq!(pos.board().occupied().count(), plies);
        }
    }

    /// Along random games, for both players and every peg on the board as the last: each
    /// near reply is a vacant hole of the player's own within two columns and rows of it,
    /// there is one whenever such a hole exists, and every such hole comes up.
    #[test]
    fn near_replies_are_the_movers_vacant_holes_by_the_last_peg() {
        let mut rng = FastRng::new(7);
        for game in 0..20 {
            let mut pos = Position::new();
            for _ in 0..(10 + 3 * game) {
                let holes = pos.legal_holes();
                let pick = holes.iter().nth(rng.below(holes.count()) as usize).unwrap();
                if pos.place_and_check(pick) {
                    break;
                }
            }
            let board = pos.board();
            for x in board.occupied().iter() {
                for p in Player::BOTH {
                    let expected: Vec<Cell> = Cell::all()
                        .filter(|c| {
                            let (dx, dy) = (c.x() - x.x(), c.y() - x.y());
                            *c != x
                                && dx.abs() <= 2
                                && dy.abs() <= 2
                                && c.allowed_for(p)
                                && !board.occupied().has(*c)
                        })
                        .collect();
                    let mut seen = Vec::new();
                    for _ in 0..400 {
                        match near_reply(board, p, x, &mut rng) {
                            Some(c) => {
                                assert!(expected.contains(&c), "{c} near {x} for {p:?}");
                                if !seen.contains(&c) {
                                    seen.push(c);
                                }
                            }
                            None => assert!(expected.is_empty(), "none near {x} for {p:?}"),
                        }
                    }
                    assert_eq!(seen.len(), expected.len(), "near {x} for {p:?}");
                }
            }
        }
    }
}
