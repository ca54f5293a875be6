//! Twixt-PP for CodinGame: a T1 bitboard with per-bridge crossing counters, the rules on it,
//! a slow reference implementation of the same rules, the turn protocol and a time-boxed MCTS.
//!
//! Layers, bottom up: [`cell`] and [`bitboard`] → [`bridge`] tables → [`board`] →
//! [`position`] (the rules) and [`setup`] (loading a listed position) → [`search`] →
//! [`protocol`] → [`bot`]. [`reference`] is the independent, obviously correct rules used by
//! tests and by the referee; it never ships, nor does [`picture`], which draws boards as SVG.

// Host-only conveniences stay out of the CodinGame bundle (twixt-bundle sets `codingame`).
#[cfg(not(codingame))]
pub mod bench;
pub mod bitboard;
pub mod board;
pub mod bot;
pub mod bridge;
pub mod cell;
pub mod knowledge;
#[cfg(not(codingame))]
pub mod picture;
pub mod position;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod setup;
pub mod unionfind;

#[cfg(test)]
mod testing;

pub use bitboard::Bitboard;
pub use board::Board;
pub use bridge::Bridge;
pub use cell::{Cell, ParseCellError, Player};
#[cfg(not(codingame))]
pub use position::IllegalMove;
pub use position::{Move, Outcome, Position};
