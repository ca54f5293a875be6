//! The boards of all tabs, by id: a bounded number, the least recently used idle one given up
//! when a new tab needs room; and the idle bots' kept trees given up, least recently used
//! first, when a search needs the [`memory`](crate::memory) they hold.

use crate::memory::Budget;
use crate::opponent::Kind;
use crate::tab::{Shared, Tab};
use crate::ApiError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use twixt_referee::turn::shorten;

/// The boards.
pub struct Registry {
    boards: Mutex<HashMap<String, Shared>>,
    max: usize,
    memory: Arc<Budget>,
}

/// A board locked for one request (a poisoned lock is taken over: every change a board makes
/// leaves it whole).
pub fn lock(board: &Shared) -> MutexGuard<'_, Tab> {
    board.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    /// Room for `max` boards, whose searches reserve their trees from `memory`: one that would
    /// pass it has idle bots' trees given up ([`Registry::free_idle`]).
    pub fn new(max: usize, memory: Arc<Budget>) -> Arc<Registry> {
        let boards = Arc::new(Registry {
            boards: Mutex::new(HashMap::new()),
            max,
            memory: memory.clone(),
        });
        let weak = Arc::downgrade(&boards);
        memory.on_full(Box::new(move |bytes| {
            if let Some(boards) = weak.upgrade() {
                boards.free_idle(bytes);
            }
        }));
        boards
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Shared>> {
        self.boards.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new board with the bot `kind`, and its id. When all the room is taken, the idle
    /// board least recently used is given up; when none is idle, an error.
    pub fn create(&self, kind: &Kind) -> Result<(String, Shared), ApiError> {
        let mut map = self.map();
        if map.len() >= self.max {
            let idle = map
                .iter()
                .filter_map(|(id, b)| {
                    let b = b.try_lock().ok()?;
                    (!b.busy()).then(|| (b.touched, id.clone()))
                })
                .min();
            match idle {
                Some((_, id)) => {
                    map.remove(&id);
                }
                None => {
                    return Err(ApiError::busy(format!(
                        "{} boards are open and every one is busy: close a tab or wait",
                        self.max
                    )))
                }
            }
        }
        let id = format!("{:016x}", rand::random::<u64>());
        let board = Arc::new(Mutex::new(Tab::new(kind.clone(), self.memory.clone())));
        map.insert(id.clone(), board.clone());
        Ok((id, board))
    }

    /// The board `id`, marked as used now.
    pub fn get(&self, id: &str) -> Result<Shared, ApiError> {
        let board = self.map().get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no board {:?}: it was given up for a newer tab or the server restarted; reload the page",
                shorten(id)
            ))
        })?;
        lock(&board).touched = Instant::now();
        Ok(board)
    }

    /// Every board now; the map is not held while they are looked at (a request holds its
    /// board's lock while it asks for memory, which looks at the others).
    fn all(&self) -> Vec<Shared> {
        self.map().values().cloned().collect()
    }

    /// Gives up the kept trees of idle bots (none thinking, their board not in a request),
    /// least recently used first, until `bytes` are on their way back or none is left; says
    /// how many are. Each such bot starts again at its next turn; its thread ends, and gives
    /// its trees' memory back, as soon as it sees it is given up.
    pub fn free_idle(&self, bytes: usize) -> usize {
        let mut idle: Vec<(Instant, Shared)> = self
            .all()
            .into_iter()
            .filter_map(|b| {
                let tab = b.try_lock().ok()?;
                let kept = (tab.kept_bytes() > 0).then_some(tab.touched);
                drop(tab);
                kept.map(|touched| (touched, b))
            })
            .collect();
        idle.sort_by_key(|(touched, _)| *touched);
        let mut freed = 0;
        for (_, b) in idle {
            if freed >= bytes {
                break;
            }
            if let Ok(mut tab) = b.try_lock() {
                freed += tab.forget_bot();
            }
        }
        freed
    }

    /// How many boards there are.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// At the server's end: waits (at most `wait`) for bots still thinking, then gives up every
    /// board, which stops its analysis and ends its bot (a bot process is killed).
    pub fn shutdown(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let busy = || self.all().iter().any(|b| lock(b).busy());
        if busy() {
            eprintln!(
                "twixt-board: waiting for a bot's answer (its clock, at most {} s)",
                wait.as_secs()
            );
        }
        while Instant::now() < until && busy() {
            std::thread::sleep(Duration::from_millis(20));
        }
        let boards: Vec<Shared> = self.map().drain().map(|(_, b)| b).collect();
        drop(boards);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Budget;
    use crate::opponent::Clock;
    use crate::slots::Slots;
    use twixt::cell::Player;

    /// Plays `mv` on `board` against its bot and waits for the answer.
    fn play(board: &Shared, mv: &str, slots: &Arc<Slots>) {
        lock(board).play(board, mv.parse().unwrap(), slots).unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        while lock(board).busy() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!lock(board).busy(), "the bot answered");
    }

    #[test]
    fn idle_bots_trees_are_given_up_least_recently_used_first_and_the_bot_plays_again() {
        // Room for two searches' trees: two bots keep theirs, then an analysis needs one's.
        let budget = Budget::new(8 << 20, 2);
        let (boards, slots) = (Registry::new(8, budget.clone()), Slots::new(2));
        let mut tabs = Vec::new();
        for _ in 0..3 {
            let (_, tab) = boards.create(&Kind::Engine).unwrap();
            tabs.push(tab);
        }
        for tab in &tabs[..2] {
            // Room for a loaded machine: a late answer would end the game, and its bot's trees.
            let clock = Clock::Ms(400);
            lock(tab)
                .new_game(tab, Some(Player::Zero), clock, &slots)
                .unwrap();
            play(tab, "F6", &slots);
            lock(tab).touched = Instant::now();
        }
        // Each bot's share, 4 MiB, in whole nodes of its two trees.
        let each = (4 << 20) / 48 * 48;
        let kept: Vec<usize> = tabs.iter().map(|t| lock(t).kept_bytes()).collect();
        assert_eq!(kept, [each, each, 0]);
        assert_eq!(budget.used(), 2 * each);
        let analysing = lock(&tabs[2]).analyse(Duration::from_secs(30), &slots);
        assert!(analysing.is_ok(), "{:?}", analysing.err());
        assert_eq!(
            lock(&tabs[0]).kept_bytes(),
            0,
            "the least recently used bot"
        );
        assert_eq!(lock(&tabs[1]).kept_bytes(), each);
        assert!(budget.used() <= 8 << 20);
        // The bot given up starts again at its next turn, in the memory of the analysis that
        // its move stopped: the other bot keeps its trees.
        lock(&tabs[2]).stop_analysis();
        play(&tabs[0], "F8", &slots);
        let v = serde_json::to_value(lock(&tabs[0]).view()).unwrap();
        assert_eq!(v["length"], 4, "{v}");
        assert_eq!(lock(&tabs[1]).kept_bytes(), each);
        assert_eq!(budget.used(), 2 * each);
    }
}
