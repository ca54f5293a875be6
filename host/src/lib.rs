//! The pieces the host tools (`twixt-referee`, `twixt-train`) share, so that neither depends
//! on the other: [`shard`], the slices of a run spread over machines, [`progress`], the one
//! look of their progress bars, and [`sum`], a file's SHA-256. Host-only: it never ships to CodinGame.

pub mod progress;
pub mod shard;
pub mod sum;

pub use shard::Shard;
