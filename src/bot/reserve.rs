//! How long a turn may think, so that its answer is in time on a busy machine too.
//!
//! The referee counts a turn from its last input byte to our answer line; the bot counts from
//! the turn's first line to its deadline. What lies outside the bot's count is time the machine
//! gives to others: our process or the referee's waiting to run, a page being found. On an idle
//! machine it is a millisecond; on a busy one it grows, and so does the longest stretch the
//! search goes without looking at its clock (the process was not running). The bot holds back
//! a reserve of twice the worst such stretch seen lately, or of how late the last answers were
//! flushed, whichever is more; it fades by a quarter a turn when the machine calms down.

use std::time::{Duration, Instant};

/// The most of a turn's think time held back, as a fraction's denominator.
const MOST_HELD: u32 = 4;

/// The time held back from each turn's think time, learned turn by turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reserve {
    held: Duration,
}

impl Reserve {
    /// The deadline of a turn read at `start` with `think` to think.
    pub fn deadline(&self, start: Instant, think: Duration) -> Instant {
        start + think - self.held.min(think / MOST_HELD)
    }

    /// The time held back now (at most a quarter of a turn's think time is).
    pub fn held(&self) -> Duration {
        self.held
    }

    /// Learns from a turn whose search went at most `stall` without looking at its clock and
    /// whose answer was flushed `late` after its deadline.
    pub fn observe(&mut self, stall: Duration, late: Duration) {
        self.held = (self.held * 3 / 4).max(2 * stall.max(late));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn an_idle_machine_keeps_almost_all_the_time() {
        let mut r = Reserve::default();
        let start = Instant::now();
        assert_eq!(r.deadline(start, 250 * MS), start + 250 * MS);
        r.observe(MS / 2, MS / 10);
        assert_eq!(r.deadline(start, 250 * MS), start + 249 * MS);
    }

    #[test]
    fn stalls_and_late_answers_hold_back_twice_the_worst_then_fade() {
        let mut r = Reserve::default();
        r.observe(12 * MS, 3 * MS);
        assert_eq!(r.held(), 24 * MS);
        r.observe(2 * MS, 15 * MS);
        assert_eq!(r.held(), 30 * MS, "a late flush counts as a stall");
        r.observe(MS, MS);
        assert_eq!(r.held(), 30 * MS * 3 / 4, "fades by a quarter");
        for _ in 0..20 {
            r.observe(MS, Duration::ZERO);
        }
        assert_eq!(r.held(), 2 * MS, "down to what an idle turn shows");
    }

    #[test]
    fn the_reserve_never_takes_more_than_a_quarter_of_the_turn() {
        let mut r = Reserve::default();
        r.observe(400 * MS, Duration::ZERO);
        let start = Instant::now();
        assert_eq!(r.deadline(start, 200 * MS), start + 150 * MS);
        assert_eq!(r.deadline(start, 900 * MS), start + 675 * MS);
    }
}
