//! The clocks of one bot, and how a pair of them follows the engines when seats swap.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// How long a bot is still listened to after its clock ran out, to say how late its answer was
/// (the referee's games and `twixt-board`'s bot alike): the answer loses all the same.
pub const LATE_GRACE: Duration = Duration::from_millis(100);

/// One bot's clocks, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// The bot's first turn.
    pub first_ms: u64,
    /// Every later turn.
    pub turn_ms: u64,
    /// Extra time granted on every turn before an answer counts as late.
    #[serde(default)]
    pub margin_ms: u64,
}

impl Default for Clocks {
    /// [`Clocks::CODINGAME`].
    fn default() -> Self {
        Clocks::CODINGAME
    }
}

impl Clocks {
    /// CodinGame's clocks: 1000 ms for a player's first turn, 300 ms after, no margin.
    pub const CODINGAME: Clocks = Clocks {
        first_ms: twixt::bot::args::FIRST_CLOCK_MS,
        turn_ms: twixt::bot::args::CLOCK_MS,
        margin_ms: 0,
    };

    /// The milliseconds allowed for a turn, margin included.
    pub fn allowed_ms(&self, first_turn: bool) -> u64 {
        let base = if first_turn {
            self.first_ms
        } else {
            self.turn_ms
        };
        base + self.margin_ms
    }
}

impl fmt::Display for Clocks {
    /// `1000 ms first turn, 300 ms later`, then `, +50 ms margin` if there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ms first turn, {} ms later",
            self.first_ms, self.turn_ms
        )?;
        if self.margin_ms > 0 {
            write!(f, ", +{} ms margin", self.margin_ms)?;
        }
        Ok(())
    }
}

/// The clocks (or commands, or names) of players 0 and 1 from those of engines A and B, given
/// A's player index: engine B keeps its own whichever seat it plays.
pub fn by_player<T>(engines: [T; 2], a_player: usize) -> [T; 2] {
    let [a, b] = engines;
    if a_player == 0 {
        [a, b]
    } else {
        [b, a]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::SLOW_CLOCKS;

    #[test]
    fn clocks_show_their_figures_and_follow_the_engines() {
        let a = Clocks::default();
        let b = Clocks {
            margin_ms: 20,
            ..SLOW_CLOCKS
        };
        assert_eq!(a.to_string(), "1000 ms first turn, 300 ms later");
        assert_eq!(
            b.to_string(),
            "5000 ms first turn, 3000 ms later, +20 ms margin"
        );
        assert_eq!((b.allowed_ms(true), b.allowed_ms(false)), (5020, 3020));
        assert_eq!(by_player([a, b], 0), [a, b]);
        assert_eq!(by_player([a, b], 1), [b, a]);
    }
}
