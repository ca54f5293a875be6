//! The race: the network's value corrected by how far each player is from joining its
//! borders ([`super::value::distance`]).
//!
//! One hidden layer over one-hot pegs and links cannot count the pegs a chain still needs,
//! and a player two pegs from its borders, or one no chain can join, is judged as if the race
//! were open. The correction is a logistic layer over the network's log-odds and three
//! one-hot tables, fitted by `twixt-train race` on games the network never saw:
//!
//! ```text
//! chance = sigmoid(scale · logit + bias + own[d_mover] + opp[d_opponent] + gap[d_opponent - d_mover])
//! ```
//!
//! each distance cut at [`LAST`] (a player no chain can join counts there too), the gap at
//! ±[`GAP`].

use super::value::distance;
use crate::board::Board;
use crate::cell::Player;

/// The last distance with an entry of its own: longer ones, and [`super::value::FAR`], share it.
pub const LAST: usize = 13;
/// The widest gap with an entry of its own.
pub const GAP: i32 = 6;

/// The correction's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// The network's log-odds are multiplied by this.
    pub scale: f32,
    /// Added to every position's log-odds.
    pub bias: f32,
    /// By the mover's distance, `0..=LAST`.
    pub own: [f32; LAST + 1],
    /// By the opponent's distance, `0..=LAST`.
    pub opp: [f32; LAST + 1],
    /// By the opponent's distance less the mover's, `-GAP..=GAP`.
    pub gap: [f32; 2 * GAP as usize + 1],
}

/// The table entries of a position whose players are `mover` and `opponent` pegs away.
pub fn entries(mover: u8, opponent: u8) -> (usize, usize, usize) {
    let cut = |d: u8| usize::from(d).min(LAST);
    let (m, o) = (cut(mover), cut(opponent));
    let gap = (o as i32 - m as i32).clamp(-GAP, GAP) + GAP;
    (m, o, gap as usize)
}

impl Race {
    /// The log-odds that the mover wins, from the network's log-odds and the two distances.
    pub fn logit(&self, logit: f32, mover: u8, opponent: u8) -> f32 {
        let (m, o, g) = entries(mover, opponent);
        self.scale * logit + self.bias + self.own[m] + self.opp[o] + self.gap[g]
    }

    /// The chance that `mover` wins on `board`, given the network's log-odds there.
    pub fn chance(&self, logit: f32, board: &Board, mover: Player) -> f32 {
        let x = self.logit(
            logit,
            distance(board, mover),
            distance(board, mover.other()),
        );
        1.0 / (1.0 + (-x).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::value::FAR;

    #[test]
    fn distances_past_the_last_entry_share_it_and_gaps_are_cut() {
        assert_eq!(entries(0, 0), (0, 0, 6));
        assert_eq!(entries(2, 7), (2, 7, 11));
        assert_eq!(entries(FAR, 3), (LAST, 3, 0));
        assert_eq!(entries(3, FAR), (3, LAST, 12));
        assert_eq!(entries(14, LAST as u8), (LAST, LAST, 6));
    }

    #[test]
    fn the_log_odds_add_the_three_entries() {
        let mut race = Race {
            scale: 0.5,
            bias: 0.25,
            own: [0.0; LAST + 1],
            opp: [0.0; LAST + 1],
            gap: [0.0; 13],
        };
        race.own[2] = 1.0;
        race.opp[5] = -0.5;
        race.gap[GAP as usize + 3] = 2.0;
        assert_eq!(race.logit(2.0, 2, 5), 0.5 * 2.0 + 0.25 + 1.0 - 0.5 + 2.0);
        assert_eq!(race.logit(2.0, 3, 5), 0.5 * 2.0 + 0.25 - 0.5);
    }
}
