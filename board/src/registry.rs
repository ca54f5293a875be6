//! The boards of all tabs, by id: a bounded number, the least recently used idle one given up
//! when a new tab needs room.

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
}

/// A board locked for one request (a poisoned lock is taken over: every change a board makes
/// leaves it whole).
pub fn lock(board: &Shared) -> MutexGuard<'_, Tab> {
    board.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    /// Room for `max` boards.
    pub fn new(max: usize) -> Registry {
        Registry {
            boards: Mutex::new(HashMap::new()),
            max,
        }
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
        let board = Arc::new(Mutex::new(Tab::new(kind.clone())));
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
        if self.map().values().any(|b| lock(b).busy()) {
            eprintln!(
                "twixt-board: waiting for a bot's answer (its clock, at most {} s)",
                wait.as_secs()
            );
        }
        while Instant::now() < until && self.map().values().any(|b| lock(b).busy()) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let boards: Vec<Shared> = self.map().drain().map(|(_, b)| b).collect();
        drop(boards);
    }
}
