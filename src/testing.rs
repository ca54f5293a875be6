//! Helpers shared by the unit tests: values from their names.

use crate::cell::Cell;
use crate::position::{Move, Position};
use crate::search::Limits;

/// The hole named `name` (`"E5"`).
pub fn cell(name: &str) -> Cell {
    name.parse()
        .unwrap_or_else(|e| panic!("{name:?} in a test: {e}"))
}

/// The move named `name` (`"E5"` or `"SWAP"`).
pub fn mv(name: &str) -> Move {
    name.parse()
        .unwrap_or_else(|e| panic!("{name:?} in a test: {e}"))
}

/// The position after `moves` (space-separated names) from the empty board.
pub fn position(moves: &str) -> Position {
    Position::after(moves).unwrap_or_else(|| panic!("{moves:?} is not a legal game"))
}

/// Limits of `n` iterations and no clock: the same search on every machine.
pub fn iterations(n: u64) -> Limits {
    Limits {
        soft_deadline: None,
        hard_deadline: None,
        iterations: Some(n),
    }
}
