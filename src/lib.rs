//! Twixt-PP for CodinGame: a T1 bitboard with per-bridge crossing counters, the rules on it,
//! the turn protocol, learned knowledge and a time-boxed MCTS.
//!
//! Layers, bottom up: [`cell`] and [`bitboard`] → [`bridge`] tables → [`unionfind`] and
//! [`board`] → [`position`] (the rules) and [`setup`] (loading a listed position) →
//! [`knowledge`] (the learned policy, its board patterns, the value network) → [`search`] (with
//! [`rng`], the playouts' random stream) → [`protocol`] → [`bot`]. Host-only, never in the
//! CodinGame bundle: [`bench`](mod@bench) (speed and the search signature) and [`picture`] (boards as
//! SVG). The slow reference rules the tests hold this crate to are the `twixt-reference`
//! crate.

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
