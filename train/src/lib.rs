//! The training pipeline behind `twixt-train`: [`selfplay`] plays the engine's search against
//! itself and writes every searched position in the format of [`data`]; [`info`] sums a data
//! file up; [`examples`] turns positions into the policy's training examples,
//! [`policy_fit`] fits the policy to them (run by [`fit_command`], `twixt-train fit`, on the
//! games [`held_out`] leaves to fit) and [`policy_file`] keeps it as a text file, which
//! [`export`] writes into the engine as a module; [`value`] fits the distance value's two
//! weights; [`net`] trains the value network. Both models' files are [`weights_text`].
//! [`book`] decides the first plies offline: the book the engine ships.
//! Host-only: it never ships to CodinGame.

pub mod book;
pub mod data;
pub mod examples;
pub mod export;
pub mod fit_command;
pub mod held_out;
pub mod info;
pub mod net;
pub mod policy_file;
pub mod policy_fit;
pub mod policy_net;
pub mod selfplay;
pub mod value;
pub mod weights_text;
