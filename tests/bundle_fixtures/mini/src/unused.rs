//! Reachable from no shipped code: not shipped, so free to use what a bundle cannot carry.

pub const TEXT: &str = include_str!("does-not-exist.txt");
