//! The book's entries (`super::book`), written by `twixt-train book export`: empty until a
//! book is measured to beat the search at the real clock (`docs/OPENINGS.md`, "The book").

/// `KEY=MOVE` entries, separated by spaces.
pub const BOOK: &str = "";
