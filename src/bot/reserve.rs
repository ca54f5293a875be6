//! How much of a turn to leave unused, so that its answer is in time on a busy machine too.
//!
//! The referee counts a turn from its last input byte to our answer line; the bot counts from
//! the turn's first line to its soft deadline. What lies outside the bot's count is time the machine
//! gives to others: our process or the referee's waiting to run, a page being found. On an idle
//! machine it is a millisecond; on a busy one it grows, and so does the longest stretch the
//! search goes without looking at its clock (the process was not running): a stall. The search
//! leaves twice the longest stall unused (`Searcher::expect_stall`); this remembers the stalls
//! of the last turns, and how late their answers were ready, so that a turn expects them
//! from its start. The memory fades by a quarter a turn when the machine calms down.
//!
//! The stalls are left before the hard deadline: the later of the think time and 85% of the clock
//! (the rest is the referee's count outside ours and the answer's flush). CodinGame's clocks
//! make the two the same (256 and 255 ms, 850 and 850); a think time cut far below the clock
//! (T1j's yardstick thinks 20 ms of a 300 ms clock) thinks all of it, as no stall can make its
//! answer late.

use std::time::Duration;

/// The share of the clock, in per cent, within which a stalled answer is kept.
const HARD_DEADLINE_PERCENT: u32 = 85;

/// The hard deadline, after a turn's start: how late its answer may be ready when the machine
/// stalls the search, the later of `think` (the soft deadline) and 85% of `clock`.
pub fn hard_deadline(think: Duration, clock: Duration) -> Duration {
    think.max(clock * HARD_DEADLINE_PERCENT / 100)
}

/// The most a turn expects to be stalled, as a share of its think time: twice it is left.
const MOST_EXPECTED: u32 = 8;

/// The stalls of the last turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reserve {
    worst: Duration,
}

impl Reserve {
    /// The stall a turn whose hard deadline is `hard` after its start expects before it has
    /// seen one (at most an eighth of `hard`, so that a quarter is left unused at most).
    pub fn expected(&self, hard: Duration) -> Duration {
        self.worst.min(hard / MOST_EXPECTED)
    }

    /// Learns from a turn whose search went at most `stall` without looking at its clock and
    /// whose answer was ready `late` after its soft deadline.
    pub fn observe(&mut self, stall: Duration, late: Duration) {
        self.worst = (self.worst * 3 / 4).max(stall.max(late));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn an_idle_machine_expects_almost_nothing() {
        let mut r = Reserve::default();
        assert_eq!(r.expected(250 * MS), Duration::default());
        r.observe(MS / 2, MS / 10);
        assert_eq!(r.expected(250 * MS), MS / 2);
    }

    #[test]
    fn the_worst_stall_or_late_answer_is_expected_then_fades() {
        let mut r = Reserve::default();
        r.observe(12 * MS, 3 * MS);
        assert_eq!(r.expected(250 * MS), 12 * MS);
        r.observe(2 * MS, 15 * MS);
        assert_eq!(
            r.expected(250 * MS),
            15 * MS,
            "a late answer counts as a stall"
        );
        r.observe(MS, MS);
        assert_eq!(r.expected(250 * MS), 15 * MS * 3 / 4, "fades by a quarter");
        for _ in 0..20 {
            r.observe(MS, Duration::default());
        }
        assert_eq!(r.expected(250 * MS), MS, "down to what an idle turn shows");
    }

    #[test]
    fn codingame_s_clocks_keep_the_think_time_and_a_cut_one_the_clock() {
        assert_eq!(hard_deadline(256 * MS, 300 * MS), 256 * MS);
        assert_eq!(hard_deadline(850 * MS, 1000 * MS), 850 * MS);
        assert_eq!(hard_deadline(20 * MS, 300 * MS), 255 * MS);
        assert_eq!(hard_deadline(80 * MS, 100 * MS), 85 * MS);
    }

    #[test]
    fn no_more_than_an_eighth_of_the_turn_is_expected() {
        let mut r = Reserve::default();
        r.observe(400 * MS, Duration::default());
        assert_eq!(r.expected(200 * MS), 25 * MS);
        assert_eq!(r.expected(900 * MS), 900 * MS / 8);
    }
}
