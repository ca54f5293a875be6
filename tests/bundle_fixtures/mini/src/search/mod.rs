//! The search (a `mod.rs` directory module).

mod params;
mod tree;

#[cfg(test)]
mod fixtures;

pub use tree::best;
