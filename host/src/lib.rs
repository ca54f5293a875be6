//! The pieces the host tools (`twixt-referee`, `twixt-train`) share, so that neither depends
//! on the other: [`shard`], the slices of a run spread over machines, [`progress`], the one
//! look of their progress bars, [`sum`], a file's SHA-256, and [`commit`], a commit exported
//! for a build. Host-only: it never ships to CodinGame.

pub mod commit;
pub mod progress;
pub mod shard;
pub mod sum;

pub use shard::Shard;
