//! The miniature library root.
#![deny(missing_docs)]
#![allow(dead_code)]

/// Crate-wide macro, textually in scope below.
macro_rules! cell_of {
    ($x:expr) => {
        $crate::cell::Cell($x)
    };
}

pub mod bot;
pub mod cell;
pub mod reference;
pub mod search;
pub mod unused;

#[cfg(test)]
mod testutil;

pub use cell::Cell;
pub use reference::Referee;
