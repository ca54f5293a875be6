//! Holes and players: the small newtypes everything else is built from.
//!
//! A hole is named by a column letter `A`..`L` (x = 0..11, left to right) and a row number
//! `1`..`12` (y = 0..11, top to bottom). The four corner holes do not exist.

use std::fmt;
use std::str::FromStr;

/// Width and height of the board.
pub const SIZE: usize = 12;
/// Number of cell indices (corners included, so indexing stays a plain `y * 12 + x`).
pub const CELLS: usize = SIZE * SIZE;

/// One of the two players. Player 0 moves first and joins the top and bottom rows; player 1
/// joins the left and right columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Owns rows 1 and 12, moves first.
    #[default]
    Zero = 0,
    /// Owns columns A and L, may swap on its first turn.
    One = 1,
}

impl Player {
    /// Both players, in index order.
    pub const BOTH: [Player; 2] = [Player::Zero, Player::One];

    /// 0 or 1, for indexing per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::Zero => Player::One,
            Player::One => Player::Zero,
        }
    }

    /// The player with this index, if it is 0 or 1 (ships: [`crate::Board::owner`] reads
    /// its byte per hole with it).
    pub const fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::Zero),
            1 => Some(Player::One),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.index())
    }
}

/// A hole of the board (never a corner). Stored as `y * 12 + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// `F6`, a hole near the centre (also a filler for fixed-size arrays of cells).
    pub const CENTRE: Cell = Cell(5 * SIZE as u8 + 5);

    /// The hole at column `x`, row `y` (both 0-based), or `None` off the board or at a corner.
    #[inline]
    pub const fn new(x: i32, y: i32) -> Option<Cell> {
        if is_hole(x, y) {
            Some(Cell((y * SIZE as i32 + x) as u8))
        } else {
            None
        }
    }

    /// The hole with this index, or `None` for an index off the board or at a corner.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Cell> {
        if i < CELLS {
            Cell::new((i % SIZE) as i32, (i / SIZE) as i32)
        } else {
            None
        }
    }

    /// The hole with this index, which the caller vouches for (a bit of a bitboard: they
    /// only ever hold holes).
    #[inline]
    pub(crate) const fn of_hole(i: usize) -> Cell {
        debug_assert!(Cell::from_index(i).is_some());
        Cell(i as u8)
    }

    /// `y * 12 + x`, in `0..144`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0 = `A`.
    #[inline]
    pub const fn x(self) -> i32 {
        (self.0 as usize % SIZE) as i32
    }

    /// Row, 0 = `1` (top).
    #[inline]
    pub const fn y(self) -> i32 {
        (self.0 as usize / SIZE) as i32
    }

    /// The hole shifted by `(dx, dy)`, if that is a hole.
    #[inline]
    pub const fn offset(self, dx: i32, dy: i32) -> Option<Cell> {
        Cell::new(self.x() + dx, self.y() + dy)
    }

    /// The hole in mirror frame `frame`: bit 0 mirrors the columns, bit 1 the rows (the
    /// board's symmetries that keep each player's borders).
    #[inline]
    pub const fn mirrored(self, frame: u8) -> Cell {
        let last = SIZE as i32 - 1;
        let x = if frame & 1 == 1 {
            last - self.x()
        } else {
            self.x()
        };
        let y = if frame & 2 == 2 {
            last - self.y()
        } else {
            self.y()
        };
        Cell((y * SIZE as i32 + x) as u8)
    }

    /// Mirror on the diagonal: column c, row r becomes column r, row c (the swap).
    #[inline]
    pub const fn transposed(self) -> Cell {
        Cell((self.x() * SIZE as i32 + self.y()) as u8)
    }

    /// Whether this hole lies on one of `p`'s own two border lines.
    #[inline]
    pub const fn on_border_of(self, p: Player) -> bool {
        let v = match p {
            Player::Zero => self.y(),
            Player::One => self.x(),
        };
        v == 0 || v == SIZE as i32 - 1
    }

    /// Whether `p` may ever place a peg here (it is not on the opponent's border).
    #[inline]
    pub const fn allowed_for(self, p: Player) -> bool {
        !self.on_border_of(p.other())
    }

    /// Every hole, in index order (140 of them).
    #[cfg(not(codingame))]
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS).filter_map(Cell::from_index)
    }
}

/// Whether `(x, y)` is on the board and not a corner.
#[inline]
pub const fn is_hole(x: i32, y: i32) -> bool {
    let n = SIZE as i32;
    if x < 0 || y < 0 || x >= n || y >= n {
        return false;
    }
    let edge_x = x == 0 || x == n - 1;
    let edge_y = y == 0 || y == n - 1;
    !(edge_x && edge_y)
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = (b'A' + self.x() as u8) as char;
        write!(f, "{}{}", letter, self.y() + 1)
    }
}

/// Why a text is not a hole name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseCellError {
    /// Not a letter followed by a number.
    Malformed(String),
    /// A column or row off the 12x12 board.
    OffBoard(String),
    /// One of the four corners, which are not holes.
    Corner(String),
}

impl fmt::Display for ParseCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseCellError::Malformed(s) => {
                write!(
                    f,
                    "'{}' is not a hole name (a letter A-L and a row 1-12)",
                    s
                )
            }
            ParseCellError::OffBoard(s) => write!(f, "'{}' is off the 12x12 board", s),
            ParseCellError::Corner(s) => write!(f, "'{}' is a corner, which is not a hole", s),
        }
    }
}

impl std::error::Error for ParseCellError {}

impl FromStr for Cell {
    type Err = ParseCellError;

    /// Parses `A1`..`L12`, letters in either case.
    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let malformed = || ParseCellError::Malformed(s.to_string());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(malformed)?;
        if !letter.is_ascii_alphabetic() {
            return Err(malformed());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let row: i32 = digits.parse().map_err(|_| malformed())?;
        let x = (letter.to_ascii_uppercase() as u8 - b'A') as i32;
        let y = row - 1;
        let n = SIZE as i32;
        if x >= n || y < 0 || y >= n {
            return Err(ParseCellError::OffBoard(s.to_string()));
        }
        Cell::new(x, y).ok_or_else(|| ParseCellError::Corner(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_hole() {
        let mut n = 0;
        for c in Cell::all() {
            let text = c.to_string();
            assert_eq!(text.parse::<Cell>(), Ok(c));
            n += 1;
        }
        assert_eq!(n, 140);
    }

    #[test]
    fn names_follow_the_spec() {
        let a2: Cell = "A2".parse().unwrap();
        assert_eq!((a2.x(), a2.y()), (0, 1));
        let l11: Cell = "l11".parse().unwrap();
        assert_eq!((l11.x(), l11.y()), (11, 10));
        assert!(matches!(
            "A1".parse::<Cell>(),
            Err(ParseCellError::Corner(_))
        ));
        assert!(matches!(
            "L12".parse::<Cell>(),
            Err(ParseCellError::Corner(_))
        ));
        assert!(matches!(
            "M3".parse::<Cell>(),
            Err(ParseCellError::OffBoard(_))
        ));
        assert!(matches!(
            "C13".parse::<Cell>(),
            Err(ParseCellError::OffBoard(_))
        ));
        assert!(matches!(
            "C0".parse::<Cell>(),
            Err(ParseCellError::OffBoard(_))
        ));
        for bad in ["", "5", "C", "CC", "C-1", "C 5", "é5", "C1234"] {
            assert!(
                matches!(bad.parse::<Cell>(), Err(ParseCellError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn swap_mirrors_on_the_diagonal() {
        let c5: Cell = "C5".parse().unwrap();
        assert_eq!(c5.transposed().to_string(), "E3");
        let k2: Cell = "K2".parse().unwrap();
        assert_eq!(k2.transposed().to_string(), "B11");
    }

    #[test]
    fn borders_bar_the_opponent() {
        let legal0 = Cell::all().filter(|c| c.allowed_for(Player::Zero)).count();
        let legal1 = Cell::all().filter(|c| c.allowed_for(Player::One)).count();
        assert_eq!((legal0, legal1), (120, 120));
        let a5: Cell = "A5".parse().unwrap();
        assert!(a5.allowed_for(Player::One) && !a5.allowed_for(Player::Zero));
        let e1: Cell = "E1".parse().unwrap();
        assert!(e1.allowed_for(Player::Zero) && !e1.allowed_for(Player::One));
    }
}
