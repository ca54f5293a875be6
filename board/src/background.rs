//! A tab's search on a thread of its own (the live analysis, the evaluation graph): it holds
//! one of the server's search slots while it runs and one [`Allowance`] of the memory budget,
//! publishes what it has found in a view for the page to poll, and stops when asked or when
//! its tab drops it. Memory and slot are given back before the view says it ended, so that a
//! request that follows finds both free.

use crate::memory::{Allowance, Leaving};
use crate::slots::Slot;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What a view says once its search has ended.
pub trait Ended {
    /// The search ended, for the reason `why`.
    fn ended(&mut self, why: String);
}

/// A search running (or ended) on its own thread, with the view it publishes.
pub struct Background<V> {
    stop: Arc<AtomicBool>,
    view: Arc<Mutex<V>>,
    /// Its slot while it runs: the thread gives it back when the search ends.
    slot: Arc<Mutex<Option<Slot>>>,
    /// Says its trees' memory is on its way back once it is told to stop.
    leaving: Leaving,
}

impl<V: Clone + Ended + Send + 'static> Background<V> {
    /// Starts `search(max_nodes, stop, view)` on a thread of its own, from `view`, holding
    /// `slot` and `memory` until it returns why it stopped (a panic is "the search failed").
    pub fn start(
        view: V,
        slot: Slot,
        memory: Allowance,
        search: impl FnOnce(usize, &AtomicBool, &Mutex<V>) -> String + Send + 'static,
    ) -> Background<V> {
        let slot = Arc::new(Mutex::new(Some(slot)));
        let stop = Arc::new(AtomicBool::new(false));
        let view = Arc::new(Mutex::new(view));
        let (stop2, view2, slot2) = (stop.clone(), view.clone(), slot.clone());
        let leaving = memory.reservation.leaving();
        std::thread::spawn(move || {
            let max_nodes = memory.max_nodes;
            let searched = catch_unwind(AssertUnwindSafe(|| search(max_nodes, &stop2, &view2)));
            let why = searched.unwrap_or_else(|_| "the search failed".to_string());
            drop(memory);
            slot2.lock().unwrap_or_else(|e| e.into_inner()).take();
            view2.lock().unwrap_or_else(|e| e.into_inner()).ended(why);
        });
        Background {
            stop,
            view,
            slot,
            leaving,
        }
    }

    /// Stops it and hands its slot on, if it still holds one. The search may run on until it
    /// next looks at whether to stop, on the same slot.
    pub fn hand_over(&self) -> Option<Slot> {
        self.stop();
        self.slot.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Asks the search to stop: its memory is on its way back.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.leaving.mark();
    }

    /// What it shows now.
    pub fn view(&self) -> V {
        self.view.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl<V> Drop for Background<V> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.leaving.mark();
    }
}
