//! The value network's training, in Monty's split: [`samples`] turns self-play games into
//! inputs and results, [`model`] is the network in `f32` with its gradient, [`integers`]
//! its rounding to the shipped integers (refused where the engine would not sum them
//! exactly), [`fit`] runs `twixt-train net`, [`mod@file`] keeps a model as
//! text, [`export`] writes its integers into the engine, [`quantized`] is the shipped
//! arithmetic written independently of the engine's, and [`probe`] scores a network on
//! games it never saw. The network's shape and inputs are the
//! engine's ([`twixt::knowledge::network`]).

pub mod codec;
pub mod export;
pub mod file;
pub mod fit;
pub mod integers;
pub mod model;
pub mod probe;
pub mod quantized;
pub mod samples;
pub mod score;
