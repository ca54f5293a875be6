//! The training pipeline behind `twixt-train`: [`selfplay`] plays the engine's search against
//! itself and writes every searched position in the format of [`data`]; [`info`] sums a data
//! file up.
//! Host-only: it never ships to CodinGame.

pub mod data;
pub mod examples;
pub mod export;
pub mod fit;
pub mod fitcmd;
pub mod info;
pub mod model;
pub mod selfplay;
pub mod value;
