//! The answer line.

use crate::Cell;

pub fn answer(cell: Cell) -> String {
    format!("{} {} {}", crate::cell::NAME, cell.double(), cell.outside_tests())
}

#[cfg(test)]
mod tests {
    #[test]
    fn protocol_test_only() {}
}
