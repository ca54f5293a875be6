//! The rules on the fast board: whose turn it is, legal moves, the swap, the win and the draw.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::cell::{Cell, ParseCellError, Player};
use std::fmt;
use std::str::FromStr;

/// A move: a peg, or the swap (player 1's first turn only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a peg in this hole.
    Peg(Cell),
    /// Take over player 0's first peg, mirrored on the diagonal.
    Swap,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Peg(c) => write!(f, "{}", c),
            Move::Swap => f.write_str("SWAP"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Move, ParseCellError> {
        if s.eq_ignore_ascii_case("SWAP") {
            Ok(Move::Swap)
        } else {
            s.parse().map(Move::Peg)
        }
    }
}

impl Move {
    /// The hole of a peg; `None` for the swap.
    #[inline]
    pub fn peg(self) -> Option<Cell> {
        match self {
            Move::Peg(c) => Some(c),
            Move::Swap => None,
        }
    }

    /// The move in mirror frame `frame` ([`Cell::mirrored`]); a swap is one in every frame.
    #[cfg(not(codingame))]
    pub fn mirrored(self, frame: u8) -> Move {
        match self {
            Move::Peg(c) => Move::Peg(c.mirrored(frame)),
            Move::Swap => Move::Swap,
        }
    }
}

/// The last two pegs before a position, as the learned prior reads them: the opponent's last
/// peg (the last move's), then the mover's own (the move before it); `None` where the game is
/// too short, the move is not known or was the swap.
pub type LastPegs = [Option<Cell>; 2];

/// The last pegs once `mv` is played where they were `last`: the one rule the bot, the search,
/// `analyze`, the board and the trainer follow.
#[inline]
pub fn last_pegs_after(last: LastPegs, mv: Move) -> LastPegs {
    [mv.peg(), last[0]]
}

/// The last pegs of a game whose moves were `moves`.
#[cfg(not(codingame))]
pub fn last_pegs(moves: &[Move]) -> LastPegs {
    moves
        .iter()
        .fold([None; 2], |last, &mv| last_pegs_after(last, mv))
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player joined its borders.
    Win(Player),
    /// The player to move had no legal hole.
    Draw,
}

/// Why a move may not be played (for the host: the bot plays only moves it generated).
#[cfg(not(codingame))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// The hole has a peg.
    Occupied(Cell),
    /// The hole is on the opponent's border.
    Barred(Cell),
    /// `SWAP` when it is not player 1's first turn.
    SwapNotAllowed,
}

#[cfg(not(codingame))]
impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::Occupied(c) => write!(f, "{} already has a peg", c),
            IllegalMove::Barred(c) => write!(f, "{} is on the opponent's border", c),
            IllegalMove::SwapNotAllowed => {
                f.write_str("SWAP is allowed only on player 1's first turn")
            }
        }
    }
}

#[cfg(not(codingame))]
impl std::error::Error for IllegalMove {}

/// A board and the player to move.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    to_move: Player,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The empty board, player 0 to move.
    pub fn new() -> Position {
        Position {
            board: Board::new(),
            to_move: Player::Zero,
        }
    }

    /// The position after playing `moves` (space-separated names, `SWAP` included) from the
    /// empty board; `None` if a move does not parse or is illegal.
    #[cfg(not(codingame))]
    pub fn after(moves: &str) -> Option<Position> {
        let mut pos = Position::new();
        for m in moves.split_whitespace() {
            pos.play(m.parse::<Move>().ok()?).ok()?;
        }
        Some(pos)
    }

    /// A position from a board and the player to move (the caller vouches for consistency).
    pub fn from_parts(board: Board, to_move: Player) -> Position {
        Position { board, to_move }
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Whether the player to move may answer `SWAP`: player 1 to move, player 0 has exactly
    /// one peg, player 1 none.
    #[inline]
    pub fn swap_allowed(&self) -> bool {
        self.to_move == Player::One
            && self.board.pegs(Player::Zero).count() == 1
            && self.board.pegs(Player::One).is_empty()
    }

    /// The holes the player to move may play.
    #[inline]
    pub fn legal_holes(&self) -> Bitboard {
        self.board.legal_holes(self.to_move)
    }

    /// Every legal move of the player to move: its legal holes in index order, then `SWAP`
    /// where allowed; none once the game is over. With [`Position::legal_moves_into`], the
    /// one builder of move lists (the root's moves and every expanded node's children).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// [`Position::legal_moves`] written into `moves` (cleared first), whose room is reused:
    /// the search lists a node's moves at every expansion.
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        moves.extend(self.legal_holes().iter().map(Move::Peg));
        if self.swap_allowed() {
            moves.push(Move::Swap);
        }
    }

    /// The result, if the game is over: a win for a connected player, or a draw when the
    /// player to move has no legal hole.
    pub fn outcome(&self) -> Option<Outcome> {
        for p in [self.to_move.other(), self.to_move] {
            if self.board.connected(p) {
                return Some(Outcome::Win(p));
            }
        }
        if self.legal_holes().is_empty() {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Checks a move without playing it.
    #[cfg(not(codingame))]
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Swap if self.swap_allowed() => Ok(()),
            Move::Swap => Err(IllegalMove::SwapNotAllowed),
            Move::Peg(c) if self.board.owner(c).is_some() => Err(IllegalMove::Occupied(c)),
            Move::Peg(c) if !c.allowed_for(self.to_move) => Err(IllegalMove::Barred(c)),
            Move::Peg(_) => Ok(()),
        }
    }

    /// Plays a move after checking it.
    #[cfg(not(codingame))]
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (search and playouts).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Peg(c) => self.board.place(self.to_move, c),
            Move::Swap => {
                let first = self.board.pegs(Player::Zero).iter().next();
                let mut board = Board::new();
                if let Some(c) = first {
                    board.put_peg(Player::One, c.transposed());
                }
                self.board = board;
            }
        }
        self.to_move = self.to_move.other();
    }

    /// Places a peg for the player to move and passes the turn, returning whether that
    /// player has now connected (the playout's inner step).
    #[inline]
    pub fn place_and_check(&mut self, c: Cell) -> bool {
        let p = self.to_move;
        self.board.place(p, c);
        self.to_move = p.other();
        self.board.connected(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{cell, mv};

    #[test]
    fn last_pegs_are_the_opponent_s_then_the_mover_s_and_a_swap_is_none() {
        let moves = |text: &str| text.split_whitespace().map(mv).collect::<Vec<_>>();
        assert_eq!(last_pegs(&[]), [None, None]);
        assert_eq!(last_pegs(&moves("C5")), [Some(cell("C5")), None]);
        assert_eq!(last_pegs(&moves("C5 SWAP")), [None, Some(cell("C5"))]);
        assert_eq!(last_pegs(&moves("C5 SWAP D4")), [Some(cell("D4")), None]);
        assert_eq!(
            last_pegs(&moves("B2 G7 D4 E9")),
            [Some(cell("E9")), Some(cell("D4"))]
        );
    }

    #[test]
    fn swap_mirrors_the_first_peg_and_player_zero_moves_next() {
        let mut pos = Position::new();
        assert!(!pos.swap_allowed());
        pos.play(mv("C5")).unwrap();
        assert!(pos.swap_allowed());
        pos.play(mv("SWAP")).unwrap();
        assert_eq!(pos.to_move(), Player::Zero);
        assert!(pos.board().pegs(Player::Zero).is_empty());
        assert_eq!(pos.board().owner(cell("E3")), Some(Player::One));
        assert_eq!(pos.play(Move::Swap), Err(IllegalMove::SwapNotAllowed));
    }

    #[test]
    fn illegal_moves_are_named() {
        let mut pos = Position::new();
        assert_eq!(pos.play(mv("A5")), Err(IllegalMove::Barred(cell("A5"))));
        pos.play(mv("E5")).unwrap();
        assert_eq!(pos.play(mv("E5")), Err(IllegalMove::Occupied(cell("E5"))));
        assert_eq!(pos.play(mv("E1")), Err(IllegalMove::Barred(cell("E1"))));
        pos.play(mv("A5")).unwrap();
        assert_eq!(pos.play(Move::Swap), Err(IllegalMove::SwapNotAllowed));
    }

    #[test]
    fn legal_moves_include_swap_once() {
        let mut pos = Position::new();
        assert_eq!(pos.legal_moves().len(), 120);
        pos.play(mv("F6")).unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 119 + 1);
        assert!(moves.contains(&Move::Swap));
    }

    #[test]
    fn a_win_ends_the_game() {
        let mut pos = Position::new();
        let zero = ["E1", "F3", "E5", "F7", "E9", "F11", "D12"];
        let one = ["B2", "B3", "B4", "B5", "B6", "B7", "B8"];
        for (a, b) in zero.iter().zip(one.iter()) {
            assert_eq!(pos.outcome(), None);
            pos.play(mv(a)).unwrap();
            if pos.outcome().is_some() {
                break;
            }
            pos.play(mv(b)).unwrap();
        }
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Zero)));
        assert_eq!(pos.play(mv("G6")), Err(IllegalMove::GameOver));
        assert!(pos.legal_moves().is_empty());
    }
}
