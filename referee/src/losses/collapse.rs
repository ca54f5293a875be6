//! Where a lost game turned: our value after each of our moves, read from the messages, the
//! move after which it stayed below half, and the phase that move falls in.
//!
//! A ply is a position: ply `k` is the board after `k` moves (ply 0 the empty board), and "the
//! move at ply `k`" is the one played there, the game's `k+1`-th.

use crate::record::GameRecord;

/// How our value went in a lost game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// It was at half or above, then stayed below from the collapse move to the end.
    Fell,
    /// It never was at half or above (or never given): the collapse is our first move.
    NeverAbove,
    /// It was at half or above after our last move: a loss we did not see; the collapse is
    /// our last move.
    NeverBelow,
}

impl Kind {
    /// What the collapse is, in words (`twixt-referee losses` and the board say the same).
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Fell => "collapse",
            Kind::NeverAbove => "never above half; our first move",
            Kind::NeverBelow => "never below half; our last move",
        }
    }
}

/// The move of ours that lost the game, as far as our own values tell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collapse {
    /// How the value went.
    pub kind: Kind,
    /// The ply of the collapse move (the position it was played in).
    pub ply: usize,
    /// Our value after it, if its message gave one.
    pub value: Option<f64>,
    /// Our last value before it, if any.
    pub before: Option<f64>,
}

/// Where in the game the collapse falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Within the opening's moves and our first two moves.
    Book,
    /// Between the book and the last 6 plies.
    Middle,
    /// Within the last 6 plies: a win of theirs we did not see coming.
    Tactics,
}

impl Phase {
    /// Every phase, in game order.
    pub const ALL: [Phase; 3] = [Phase::Book, Phase::Middle, Phase::Tactics];

    /// The phase in words.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Book => "book",
            Phase::Middle => "middle game",
            Phase::Tactics => "tactics",
        }
    }
}

/// How many of the game's last plies are tactics.
pub const TACTICS_PLIES: usize = 6;

/// Our value in a message: `63%` is 0.63, `win` and `win in two` are 1; anything else (the
/// opening table's `opening`, `swap`, `reply`, the book's `book`, no message) gives none.
pub fn value_of(message: Option<&str>) -> Option<f64> {
    let m = message?.trim();
    if m.starts_with("win") {
        return Some(1.0);
    }
    m.split_whitespace()
        .find_map(|w| w.strip_suffix('%')?.parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .map(|v| v / 100.0)
}

/// The ply of our first move: the first after the opening's moves that is `seat`'s.
pub fn first_ply(record: &GameRecord, seat: u8) -> usize {
    let o = record.opening;
    if o % 2 == usize::from(seat) {
        o
    } else {
        o + 1
    }
}

/// The ply of each of our moves with its message, in order.
pub fn our_moves(record: &GameRecord, seat: u8) -> Vec<(usize, Option<&str>)> {
    (first_ply(record, seat)..record.moves.len())
        .step_by(2)
        .map(|k| (k, record.messages.get(k).and_then(|m| m.as_deref())))
        .collect()
}

/// The collapse of a game `seat` lost.
pub fn collapse(record: &GameRecord, seat: u8) -> Collapse {
    let moves = our_moves(record, seat);
    let valued: Vec<(usize, f64)> = moves
        .iter()
        .filter_map(|&(k, m)| Some((k, value_of(m)?)))
        .collect();
    let fall = valued.iter().rposition(|v| v.1 >= 0.5).map_or(0, |i| i + 1);
    let value_at = |k: usize| valued.iter().find(|v| v.0 == k).map(|v| v.1);
    let before = |k: usize| valued.iter().rev().find(|v| v.0 < k).map(|v| v.1);
    let (kind, ply) = if fall == 0 {
        (Kind::NeverAbove, first_ply(record, seat))
    } else if fall == valued.len() {
        let last = moves.last().map_or(valued[fall - 1].0, |m| m.0);
        (Kind::NeverBelow, last)
    } else {
        (Kind::Fell, valued[fall].0)
    };
    Collapse {
        kind,
        ply,
        value: value_at(ply),
        before: before(ply),
    }
}

/// The phase of a collapse at `ply` in `record`, `seat` being ours: the book first (a short
/// game's opening is its book), then the tactics.
pub fn phase(record: &GameRecord, seat: u8, ply: usize) -> Phase {
    if ply <= first_ply(record, seat) + 2 {
        Phase::Book
    } else if ply + TACTICS_PLIES >= record.moves.len() {
        Phase::Tactics
    } else {
        Phase::Middle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::record;
    use crate::record::Reason;

    /// A game of `n` plies that player `1 - seat` won, `seat`'s messages `ours` in turn from
    /// its first move after `opening` forced moves.
    fn lost(n: usize, seat: u8, opening: usize, ours: &[Option<&str>]) -> GameRecord {
        let moves: Vec<&str> = ["E5"].repeat(n);
        let mut r = record(&moves.join(" "), Some(1 - seat), Reason::Connected);
        r.opening = opening;
        r.messages = vec![None; n];
        let first = first_ply(&r, seat);
        for (i, m) in ours.iter().enumerate() {
            r.messages[first + 2 * i] = m.map(str::to_string);
        }
        r
    }

    #[test]
    fn messages_give_values() {
        assert_eq!(value_of(Some("63%")), Some(0.63));
        assert_eq!(value_of(Some("win")), Some(1.0));
        assert_eq!(value_of(Some("win in two")), Some(1.0));
        assert_eq!(value_of(Some("E5 7%")), Some(0.07));
        for none in ["opening", "swap", "reply", "book", "", "NaN%", "x%"] {
            assert_eq!(value_of(Some(none)), None, "{none}");
        }
        assert_eq!(value_of(None), None);
    }

    #[test]
    fn the_collapse_is_the_first_move_after_which_the_value_stays_below_half() {
        let ours = [Some("opening"), Some("60%"), Some("40%"), Some("55%")];
        let more = [None, Some("book"), Some("45%"), Some("30%"), Some("20%")];
        let r = lost(20, 0, 0, &[&ours[..], &more[..]].concat());
        let c = collapse(&r, 0);
        assert_eq!((c.kind, c.ply), (Kind::Fell, 12));
        assert_eq!((c.value, c.before), (Some(0.45), Some(0.55)));
        assert_eq!(phase(&r, 0, c.ply), Phase::Middle);
    }

    #[test]
    fn a_value_never_above_half_puts_the_collapse_at_our_first_move() {
        let r = lost(30, 1, 3, &[Some("swap"), Some("40%"), Some("10%")]);
        let c = collapse(&r, 1);
        assert_eq!(
            (c.kind, c.ply, c.value, c.before),
            (Kind::NeverAbove, 3, None, None)
        );
        assert_eq!(phase(&r, 1, c.ply), Phase::Book);
        let silent = lost(30, 0, 0, &[]);
        assert_eq!(collapse(&silent, 0).kind, Kind::NeverAbove);
    }

    #[test]
    fn a_value_above_half_to_the_end_puts_the_collapse_at_our_last_move() {
        let r = lost(21, 0, 0, &[Some("50%"), Some("40%"), Some("70%"), None]);
        let c = collapse(&r, 0);
        assert_eq!(
            (c.kind, c.ply, c.value, c.before),
            (Kind::NeverBelow, 20, None, Some(0.7))
        );
        assert_eq!(phase(&r, 0, c.ply), Phase::Tactics);
    }

    #[test]
    fn phases_are_the_book_then_the_middle_then_the_last_six_plies() {
        let r = lost(30, 1, 2, &[]);
        assert_eq!(first_ply(&r, 1), 3);
        let phases: Vec<Phase> = [3, 5, 7, 23, 24, 29].map(|k| phase(&r, 1, k)).to_vec();
        use Phase::*;
        assert_eq!(phases, [Book, Book, Middle, Middle, Tactics, Tactics]);
        assert_eq!(first_ply(&r, 0), 2);
    }
}
