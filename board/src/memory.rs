//! The memory of every search tree in the server together: one budget (`--memory-mb`, 1 GiB
//! unless told otherwise) that every engine searcher reserves its trees from before it
//! starts, and gives back when its thread has dropped them.
//!
//! A search reserves at most its share, the budget over the search slots, so that every slot
//! can always run: the engine's own trees when they fit ([`Tree::most_bytes`] of its
//! `max_nodes`, for as many trees as it keeps), else fewer nodes, its node bound set so its
//! trees stay within what it reserved (the engine never asks the allocator for more). A live
//! analysis keeps one tree; the bot, in-process, two (its last tree, kept for its next turn,
//! and the memory of the one before), kept between its turns.
//!
//! When a reservation would pass the budget, it waits for memory said to be on its way back
//! ([`Leaving`]: a stopped analysis ends within its slice of 200 ms); for the rest, the idle
//! bots' kept trees are given up, least recently used first (such a bot starts again at its
//! next turn). If after half a second it still would pass, a 429 says why. Bots run as
//! commands (`--bot`) search in their own processes and are not counted.

use crate::ApiError;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};
use twixt::search::params::Params;
use twixt::search::tree::Tree;
use twixt::search::Searcher;

/// The budget unless told otherwise, in MiB.
pub const DEFAULT_MB: usize = 1024;

/// The fewest nodes a tree may be given: a smaller share than this many for each of a bot's
/// trees is refused when the server starts.
pub const LEAST_NODES: usize = 10_000;

/// How long a reservation waits for memory being given back.
const RELEASE_WAIT: Duration = Duration::from_millis(500);

/// How often a waiting reservation looks again at what the idle bots keep.
const RELEASE_POLL: Duration = Duration::from_millis(20);

/// Gives up idle bots' kept trees, least recently used first, until at least the bytes asked
/// for are on their way back (each bot's say so, as it is dropped).
pub type FreeIdle = Box<dyn Fn(usize) + Send + Sync>;

/// The server's memory budget for search trees.
pub struct Budget {
    limit: usize,
    share: usize,
    books: Mutex<Books>,
    released: Condvar,
    free_idle: OnceLock<FreeIdle>,
}

/// What is reserved, and how much of it is on its way back.
#[derive(Debug, Default)]
struct Books {
    used: usize,
    leaving: usize,
}

/// A reservation's state, changed only under the budget's lock.
const HELD: u8 = 0;
const LEAVING: u8 = 1;
const GONE: u8 = 2;

/// Bytes of the budget, given back when dropped.
#[derive(Debug)]
pub struct Reservation {
    budget: Arc<Budget>,
    bytes: usize,
    state: Arc<AtomicU8>,
}

/// A handle on a reservation held elsewhere (by a search's thread) that says its memory is on
/// its way back: the search was told to stop.
#[derive(Debug)]
pub struct Leaving {
    budget: Arc<Budget>,
    bytes: usize,
    state: Arc<AtomicU8>,
}

impl Leaving {
    /// Says the memory is on its way back (once; nothing after it is back).
    pub fn mark(&self) {
        let mut books = self.budget.lock();
        if self.state.load(Ordering::SeqCst) == HELD {
            self.state.store(LEAVING, Ordering::SeqCst);
            books.leaving += self.bytes;
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut books = self.budget.lock();
        if self.state.swap(GONE, Ordering::SeqCst) == LEAVING {
            books.leaving -= self.bytes;
        }
        books.used -= self.bytes;
        self.budget.released.notify_all();
    }
}

impl Reservation {
    /// How many bytes it holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// A handle to say, later, that its memory is on its way back.
    pub fn leaving(&self) -> Leaving {
        Leaving {
            budget: self.budget.clone(),
            bytes: self.bytes,
            state: self.state.clone(),
        }
    }
}

/// One searcher's part of the budget: its reservation and the node bound that keeps its trees
/// within it. Drop it after the searcher.
#[derive(Debug)]
pub struct Allowance {
    /// The searcher's `max_nodes`.
    pub max_nodes: usize,
    /// What it reserved.
    pub reservation: Reservation,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Budget({} of {} bytes)", self.used(), self.limit)
    }
}

/// Bytes a node takes with the engine's parameters (its minimax value besides the node).
fn node_bytes() -> usize {
    Tree::most_bytes(1, Params::default().minimax > 0.0)
}

/// Why `limit_mb` cannot serve `searches` slots at once, if it cannot: every slot's share
/// must hold [`LEAST_NODES`] for each tree a bot keeps.
pub fn check(limit_mb: usize, searches: usize) -> Result<(), String> {
    let least = LEAST_NODES * Searcher::MOST_TREES * node_bytes();
    let share = (limit_mb << 20) / searches.max(1);
    if searches == 0 || share < least {
        return Err(format!(
            "{limit_mb} MiB cannot hold {searches} searches at once: each needs {} KiB at least",
            least.div_ceil(1024)
        ));
    }
    Ok(())
}

impl Budget {
    /// A budget of `limit` bytes for `searches` searches at once (the search slots).
    pub fn new(limit: usize, searches: usize) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            share: limit / searches.max(1),
            books: Mutex::new(Books::default()),
            released: Condvar::new(),
            free_idle: OnceLock::new(),
        })
    }

    /// Tells it how to give up idle bots' kept trees (set once, when the server starts).
    pub fn on_full(&self, free_idle: FreeIdle) {
        let _ = self.free_idle.set(free_idle);
    }

    fn lock(&self) -> MutexGuard<'_, Books> {
        self.books.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The budget, in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The bytes reserved now.
    pub fn used(&self) -> usize {
        self.lock().used
    }

    /// The allowance of a searcher that keeps `trees` trees, for `what` (`"the analysis"`,
    /// `"the bot"`): the engine's node bound, or fewer nodes to keep to its share; or the 429.
    pub fn allow(self: &Arc<Budget>, trees: usize, what: &str) -> Result<Allowance, ApiError> {
        let per_node = trees.max(1) * node_bytes();
        let max_nodes = Params::default().max_nodes.min(self.share / per_node);
        let reservation = self.reserve(max_nodes * per_node, what)?;
        Ok(Allowance {
            max_nodes,
            reservation,
        })
    }

    /// `bytes` of the budget for `what`: at once if they are free, else once memory on its way
    /// back, then idle bots' trees given up, have come back (half a second at most); or the
    /// 429.
    pub fn reserve(self: &Arc<Budget>, bytes: usize, what: &str) -> Result<Reservation, ApiError> {
        let until = Instant::now() + RELEASE_WAIT;
        let mut books = self.lock();
        loop {
            if books.used + bytes <= self.limit {
                books.used += bytes;
                let state = Arc::new(AtomicU8::new(HELD));
                let budget = self.clone();
                return Ok(Reservation {
                    budget,
                    bytes,
                    state,
                });
            }
            let now = Instant::now();
            if now >= until {
                return Err(self.refusal(what, bytes, books.used));
            }
            let over = books.used + bytes - self.limit;
            if over > books.leaving {
                let more = over - books.leaving;
                drop(books);
                if let Some(free_idle) = self.free_idle.get() {
                    free_idle(more);
                }
                books = self.lock();
            }
            let wait = (until - now).min(RELEASE_POLL);
            books = self
                .released
                .wait_timeout(books, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The 429 for `what`, which asked for `bytes` with `used` reserved.
    fn refusal(&self, what: &str, bytes: usize, used: usize) -> ApiError {
        let mib = |b: usize| b.div_ceil(1 << 20);
        ApiError::busy(format!(
            "{what} must wait: its search trees need {} MiB and the searches running hold {} of \
             the {} MiB this server allows them (--memory-mb); stop an analysis or wait for a \
             bot's answer, then try again",
            mib(bytes),
            mib(used),
            mib(self.limit)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    #[test]
    fn a_search_takes_the_engines_trees_or_its_share_and_its_nodes_fit_what_it_reserved() {
        let roomy = Budget::new(1024 * MIB, 2);
        let a = roomy.allow(1, "the analysis").unwrap();
        assert_eq!(a.max_nodes, Params::default().max_nodes);
        assert_eq!(a.reservation.bytes(), a.max_nodes * node_bytes());
        let tight = Budget::new(256 * MIB, 64);
        let a = tight.allow(1, "the analysis").unwrap();
        let bot = tight.allow(2, "the bot").unwrap();
        assert_eq!(a.max_nodes, 4 * MIB / node_bytes());
        assert_eq!(bot.max_nodes, a.max_nodes / 2);
        for s in [&a, &bot] {
            assert!(s.reservation.bytes() <= 4 * MIB);
        }
        assert_eq!(
            bot.reservation.bytes(),
            Tree::most_bytes(bot.max_nodes, true) * 2
        );
        assert_eq!(
            tight.used(),
            a.reservation.bytes() + bot.reservation.bytes()
        );
        drop(a);
        drop(bot);
        assert_eq!(tight.used(), 0, "given back when dropped");
    }

    #[test]
    fn past_the_budget_a_reservation_waits_for_memory_given_back_then_is_refused_with_why() {
        let budget = Budget::new(10 * MIB, 2);
        let held = budget.reserve(8 * MIB, "the analysis").unwrap();
        let err = budget.reserve(4 * MIB, "the bot").unwrap_err();
        assert_eq!(err.status.as_u16(), 429);
        assert!(
            err.message.starts_with(
                "the bot must wait: its search trees need 4 MiB and the searches running hold 8 \
                 of the 10 MiB this server allows them (--memory-mb)"
            ),
            "{}",
            err.message
        );
        assert_eq!(budget.used(), 8 * MIB, "nothing taken by the refusal");
        // Memory given back while it waits is taken.
        let later = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(held);
        });
        let got = budget.reserve(4 * MIB, "the bot").unwrap();
        later.join().unwrap();
        assert_eq!(budget.used(), got.bytes());
    }

    #[test]
    fn idle_trees_are_given_up_for_a_reservation_that_would_pass_the_budget() {
        let budget = Budget::new(10 * MIB, 2);
        let idle = Mutex::new(vec![
            budget.reserve(4 * MIB, "a bot").unwrap(),
            budget.reserve(4 * MIB, "another bot").unwrap(),
        ]);
        let asked = Arc::new(Mutex::new(Vec::new()));
        let asked2 = asked.clone();
        // As the registry does: a bot given up says so, and its thread gives its trees back a
        // moment later.
        budget.on_full(Box::new(move |bytes| {
            asked2.lock().unwrap().push(bytes);
            if let Some(gone) = idle.lock().unwrap().pop() {
                gone.leaving().mark();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(30));
                    drop(gone);
                });
            }
        }));
        let got = budget.reserve(6 * MIB, "the analysis").unwrap();
        assert_eq!(
            *asked.lock().unwrap(),
            [4 * MIB],
            "one idle bot given up, no more while its memory came back"
        );
        assert_eq!(budget.used(), 4 * MIB + got.bytes());
    }

    #[test]
    fn memory_on_its_way_back_is_waited_for_and_nothing_idle_is_given_up_for_it() {
        let budget = Budget::new(10 * MIB, 2);
        budget.on_full(Box::new(|_| panic!("no idle bot is given up")));
        let stopping = budget.reserve(8 * MIB, "the analysis").unwrap();
        let leaving = stopping.leaving();
        leaving.mark();
        leaving.mark();
        let later = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            drop(stopping);
        });
        let got = budget.reserve(8 * MIB, "the analysis").unwrap();
        later.join().unwrap();
        leaving.mark();
        assert_eq!(budget.used(), got.bytes());
        assert_eq!(
            budget.lock().leaving,
            0,
            "what came back is no longer on its way"
        );
    }

    #[test]
    fn a_budget_too_small_for_its_slots_is_refused_at_the_start() {
        assert!(check(256, 64).is_ok() && check(DEFAULT_MB, 2).is_ok());
        let err = check(1, 64).unwrap_err();
        assert!(
            err.starts_with("1 MiB cannot hold 64 searches at once: each needs 469 KiB"),
            "{err}"
        );
        assert!(check(256, 0).is_err());
    }
}
