//! The position editor: pegs of either colour placed one by one for the analysis, each as a
//! move would place it (links made by the rules, in the order the pegs came), whoever's turn
//! it was. An arrangement is not a game: it has no record, but a turn input.

use crate::drawn::Drawn;
use twixt::cell::{Cell, Player};
use twixt::position::{Move, Position};
use twixt::Board;
use twixt_reference::{write_turn, Side};

/// The pegs placed so far, in order, and the player to move.
#[derive(Clone, Debug)]
pub struct Arrangement {
    placed: Vec<(Cell, Player)>,
    to_move: Player,
    board: Board,
}

impl Arrangement {
    /// The position of `placed` (in order) with `to_move` to move; an error names the first
    /// peg that cannot stand (from 1) and why, or says why the whole cannot be analysed.
    pub fn new(placed: Vec<(Cell, Player)>, to_move: Player) -> Result<Arrangement, String> {
        let mut board = Board::new();
        for (i, &(c, p)) in placed.iter().enumerate() {
            let at = format!("peg {} ({c}, player {p})", i + 1);
            if board.owner(c).is_some() {
                return Err(format!("{at}: the hole already has a peg"));
            }
            if !c.allowed_for(p) {
                return Err(format!(
                    "{at}: the hole is on player {}'s border",
                    p.other()
                ));
            }
            board.place(p, c);
            if board.connected(p) {
                return Err(format!(
                    "{at}: player {p} would have joined its borders; set up a game still going on"
                ));
            }
        }
        if board.legal_holes(to_move).is_empty() {
            return Err(format!("player {to_move} to move has no legal hole"));
        }
        Ok(Arrangement {
            placed,
            to_move,
            board,
        })
    }

    /// The engine's position (for the search).
    pub fn position(&self) -> Position {
        Position::from_parts(self.board.clone(), self.to_move)
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The pegs placed, in order.
    pub fn placed(&self) -> &[(Cell, Player)] {
        &self.placed
    }

    /// The last peg placed of the opponent, then of the mover: what the learned prior reads
    /// of an arrangement. Not [`twixt::position::last_pegs`]: pegs placed by hand need not
    /// alternate, so the last two placed may be one player's; each side's own last peg is
    /// what that rule finds in a game, where they do alternate.
    pub fn history(&self) -> [Option<Cell>; 2] {
        let last = |p: Player| self.placed.iter().rev().find(|x| x.1 == p).map(|x| x.0);
        [last(self.to_move.other()), last(self.to_move)]
    }

    /// What the board shows.
    pub fn drawn(&self) -> Drawn {
        let mut d = Drawn::of_board(&self.board);
        d.last = self.placed.last().map(|x| x.0);
        d
    }

    /// The turn input the player to move would read: its pegs and links, then the
    /// opponent's; the opponent's last peg placed as the last move (`FIRST` when it has none).
    pub fn turn_input(&self) -> String {
        let side = |p: Player| -> Side {
            let pegs = self.board.pegs(p).iter().collect();
            (pegs, self.board.links(p).map(|b| b.ends()).collect())
        };
        let me = self.to_move;
        write_turn(
            self.history()[0].map(Move::Peg),
            [side(me), side(me.other())],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twixt::protocol::TurnReader;

    fn c(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn pegs_are_placed_in_order_and_bad_ones_are_named() {
        let zero = Player::Zero;
        let one = Player::One;
        let err = Arrangement::new(vec![(c("E5"), zero), (c("E5"), one)], zero).unwrap_err();
        assert_eq!(err, "peg 2 (E5, player 1): the hole already has a peg");
        let err = Arrangement::new(vec![(c("E1"), one)], zero).unwrap_err();
        assert!(err.contains("player 0's border"), "{err}");
        // Player 1's F6-H7 first: player 0's later G6-F8... is blocked where it crosses.
        let s = Arrangement::new(
            vec![
                (c("F6"), one),
                (c("H7"), one),
                (c("G5"), zero),
                (c("F7"), zero),
            ],
            zero,
        )
        .unwrap();
        let links = s.drawn().links;
        assert_eq!(links.len(), 1, "G5-F7 crosses F6-H7: {links:?}");
        assert_eq!(s.history(), [Some(c("H7")), Some(c("F7"))]);
        let column: Vec<(Cell, Player)> = ["A3", "B5", "C7", "D9"]
            .iter()
            .map(|x| (c(x), one))
            .collect();
        assert!(Arrangement::new(column, zero).is_ok());
    }

    #[test]
    fn the_turn_input_reads_back_as_the_same_position() {
        let s = Arrangement::new(
            vec![
                (c("E5"), Player::Zero),
                (c("F7"), Player::Zero),
                (c("G6"), Player::One),
            ],
            Player::One,
        )
        .unwrap();
        let text = s.turn_input();
        assert!(text.starts_with("F7\n1\nG6\n0\n2\n"), "{text}");
        let mut reader = TurnReader::new(text.as_bytes());
        let first = reader.first_line().unwrap();
        let turn = reader.rest_of_turn(first);
        assert!(turn.errors.is_empty(), "{:?}", turn.errors);
        let pos = turn.input.setup(Player::One).validate().unwrap();
        assert_eq!(
            pos.board().pegs(Player::Zero),
            s.position().board().pegs(Player::Zero)
        );
        assert_eq!(pos.board().links(Player::Zero).count(), 1);
    }
}
