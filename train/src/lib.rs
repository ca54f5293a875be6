//! The training pipeline behind `twixt-train`: [`selfplay`] plays the engine's search against
//! itself and writes every searched position in the format of [`data`]; [`info`] sums a data
//! file up; [`examples`] turns positions into the policy's training examples, [`fit`] fits
//! the policy to them (run by [`fitcmd`]) and [`model`] keeps it as a text file, which
//! [`export`] writes into the engine as a module; [`value`] fits the distance value's two
//! weights; [`net`] trains the value network. Host-only: it never ships to CodinGame.

pub mod data;
pub mod examples;
pub mod export;
pub mod fit;
pub mod fitcmd;
pub mod info;
pub mod model;
pub mod net;
pub mod selfplay;
pub mod value;
