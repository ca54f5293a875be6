//! The playout policy: a player whose two-way connection the last peg cut into saves it
//! ([`crate::knowledge::save`]) instead of playing at random.

use super::playout::play_out;
use crate::cell::{Cell, Player};
use crate::knowledge::save::save_reply;
use crate::position::Position;
use crate::rng::FastRng;

/// Like [`super::playout::playout`], but a player whose two-way connection the last peg cut
/// into saves it instead of playing at random. `last` is the peg placed just before `pos`.
pub fn saving_playout(
    pos: &mut Position,
    rng: &mut FastRng,
    last: Option<Cell>,
) -> (Option<Player>, u32) {
    play_out(pos, rng, last, |board, p, last| {
        last.and_then(|x| save_reply(board, p, x))
    })
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
            let (winner, plies) = saving_playout(&mut pos, &mut rng, None);
            let expected = winner.map_or(Outcome::Draw, Outcome::Win);
            assert_eq!(pos.outcome(), Some(expected), "seed {seed}");
            assert_eq!(pos.board().occupied().count(), plies);
        }
    }
}
