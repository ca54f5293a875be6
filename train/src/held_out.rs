//! Which games are held out for scoring, the same for every fit: those whose index is a
//! multiple of [`HOLD_OUT_EVERY`].

use anyhow::{bail, Result};

/// Games whose index is a multiple of this are held out for scoring.
pub const HOLD_OUT_EVERY: u32 = 10;

/// Splits positions into those held out for scoring (from games 0, 10, 20, ...) and those to
/// fit, by `game`, each position's game index; an error when either part is empty.
pub fn hold_out<T>(all: Vec<T>, game: impl Fn(&T) -> u32) -> Result<(Vec<T>, Vec<T>)> {
    let (held, train): (Vec<T>, Vec<T>) = all
        .into_iter()
        .partition(|t| game(t).is_multiple_of(HOLD_OUT_EVERY));
    if train.is_empty() || held.is_empty() {
        bail!(
            "too few games to fit and score: {} positions to fit, {} held out",
            train.len(),
            held.len()
        );
    }
    println!(
        "positions: {} to fit, {} held out (games 0, 10, 20, ...)",
        train.len(),
        held.len()
    );
    Ok((held, train))
}
