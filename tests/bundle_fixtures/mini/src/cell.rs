//! Cells (module doc: stripped).

/// The name printed by the bot.
pub const NAME: &str = "cell";

/// A cell (doc comment: stripped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl Cell {
    /// Twice the index.
    #[inline]
    pub fn double(self) -> u8 {
        self.0 * 2
    }

    #[cfg(test)]
    pub fn only_in_tests(self) -> u8 {
        self.0
    }

    #[cfg(all(test, feature = "slow"))]
    pub fn only_in_slow_tests(self) -> u8 {
        self.0
    }

    #[cfg(not(test))]
    pub fn outside_tests(self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles() {
        assert_eq!(Cell(2).double(), 4);
    }
}
