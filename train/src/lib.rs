//! The training pipeline behind `twixt-train`: [`selfplay`] plays the engine's search against
//! itself and writes every searched position in the format of [`data`].
//! Host-only: it never ships to CodinGame.

pub mod data;
pub mod selfplay;
