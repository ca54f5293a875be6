//! How many searches run at once, server-wide. The live analyses and the bots' turns share one
//! bound: each takes a core while it runs, so many tabs analysing, many tabs playing the bot,
//! or both, never take more cores than the server was given.
//!
//! A search that finds every slot taken is refused at once (429, with the reason), before it
//! changes anything: the person tries again when a search has ended. Waiting instead would eat
//! the bot's clock, and an analysis may hold its slot for minutes.

use crate::ApiError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// At most this many searches run at once.
#[derive(Debug)]
pub struct Slots {
    running: AtomicUsize,
    max: usize,
}

/// One taken slot, given back when dropped.
#[derive(Debug)]
pub struct Slot(Arc<Slots>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Slots {
    /// Room for `max` searches at once.
    pub fn new(max: usize) -> Arc<Slots> {
        Arc::new(Slots {
            running: AtomicUsize::new(0),
            max,
        })
    }

    /// A free slot, or `None` when all are taken.
    pub fn take(self: &Arc<Slots>) -> Option<Slot> {
        let taken = self
            .running
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            });
        taken.ok().map(|_| Slot(self.clone()))
    }

    /// A free slot for `what` (`"the analysis"`, `"the bot's turn"`), or the 429 that says why
    /// there is none and what frees one.
    pub fn take_for(self: &Arc<Slots>, what: &str) -> Result<Slot, ApiError> {
        self.take().ok_or_else(|| {
            let most = match self.max {
                1 => "1 search".to_string(),
                n => format!("{n} searches"),
            };
            ApiError::busy(format!(
                "{what} must wait: this server runs at most {most} at once (analyses and bots' \
                 turns together) and all are running; stop an analysis or wait for a bot's \
                 answer, then try again"
            ))
        })
    }

    /// How many run now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_counted_and_given_back_and_a_refusal_says_why() {
        let slots = Slots::new(2);
        let a = slots.take_for("the analysis").unwrap();
        let _b = slots.take().unwrap();
        assert_eq!(slots.running(), 2);
        let err = slots.take_for("the bot's turn").unwrap_err();
        assert_eq!(err.status.as_u16(), 429);
        assert!(
            err.message
                .starts_with("the bot's turn must wait: this server runs at most 2 searches"),
            "{}",
            err.message
        );
        drop(a);
        assert_eq!(slots.running(), 1);
        assert!(slots.take().is_some());
    }
}
