//! The move policy's training, `twixt-train fit` and `export`: [`examples`] turns searched
//! positions into training examples, [`fit`] fits the linear policy to them and scores any
//! policy, [`hidden`] fits the hidden layer beside it (`twixt::knowledge::hidden`),
//! [`command`] runs `twixt-train fit` on the games [`crate::held_out`] leaves to fit,
//! [`mod@file`] keeps a policy as a text file and [`export`] writes it into the engine as a
//! module. The policy's features are the engine's ([`twixt::knowledge::features`]).

pub mod command;
pub mod examples;
pub mod export;
pub mod file;
pub mod fit;
pub mod hidden;
