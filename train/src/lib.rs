//! The training pipeline behind `twixt-train`: [`selfplay`] plays the engine's search against
//! itself and writes every searched position in the format of [`data`]; [`info`] sums a data
//! file up; [`policy`] fits the move policy to the search's visits and writes it into the
//! engine as a module; [`distance`] fits the distance value's two weights; [`net`] trains the
//! value network. The fits score themselves on the games [`held_out`] leaves out, and both
//! models' files are [`weights_text`].
//! [`book`] decides the first plies offline: the book the engine ships. [`generation`] runs
//! them all, from the shipped bot to a gated candidate, by one command.
//! Host-only: it never ships to CodinGame.

pub mod book;
pub mod data;
pub mod distance;
pub mod generation;
pub mod held_out;
pub mod info;
pub mod net;
pub mod overlap;
pub mod policy;
pub mod regenerate;
pub mod selfplay;
pub mod starts;
pub mod weights_text;
