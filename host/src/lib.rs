//! The pieces the host tools (`twixt-referee`, `twixt-train`) share, so that neither depends
//! on the other: [`shard`], the slices of a run spread over machines, and [`progress`], the
//! one look of their progress bars. Host-only: it never ships to CodinGame.

pub mod progress;
pub mod shard;

pub use shard::Shard;
