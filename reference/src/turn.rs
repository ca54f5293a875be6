//! The turn input of SPEC's protocol: the one writer of its text, for a reference game
//! ([`turn_input`]) and for any position given as pegs and links ([`write_turn`]).

use crate::RefGame;
use std::fmt::Write;
use twixt::{Cell, Move};

/// What a turn input lists of one player: its pegs, then its links.
pub type Side = (Vec<Cell>, Vec<(Cell, Cell)>);

/// The text a bot reads on its turn: the opponent's last move (`FIRST` on the very first turn,
/// `SWAP` after a swap), then its own pegs and links, then the opponent's.
pub fn turn_input(game: &RefGame) -> String {
    let me = game.to_move();
    let side = |p| (game.pegs(p), game.links(p));
    write_turn(game.moves().last().copied(), [side(me), side(me.other())])
}

/// The text of a turn: `last`, the opponent's last move (`None`: `FIRST`), then `sides`, the
/// pegs and links of the player to move and then of the opponent.
pub fn write_turn(last: Option<Move>, sides: [Side; 2]) -> String {
    let mut out = String::new();
    match last {
        None => out.push_str("FIRST\n"),
        Some(m) => writeln!(out, "{m}").expect("writing to a String"),
    }
    for (pegs, links) in sides {
        writeln!(out, "{}", pegs.len()).expect("writing to a String");
        for c in pegs {
            writeln!(out, "{c}").expect("writing to a String");
        }
        writeln!(out, "{}", links.len()).expect("writing to a String");
        for (a, b) in links {
            writeln!(out, "{a} {b}").expect("writing to a String");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(s: &str) -> RefGame {
        let moves: Vec<Move> = s.split_whitespace().map(|m| m.parse().unwrap()).collect();
        RefGame::from_moves(&moves).unwrap()
    }

    #[test]
    fn the_first_turn_says_first() {
        assert_eq!(turn_input(&RefGame::new()), "FIRST\n0\n0\n0\n0\n");
    }

    #[test]
    fn pegs_and_links_are_listed_for_the_player_to_move() {
        // Player 0: E5, F7 (linked); player 1: E7 and then to move.
        let g = game("E5 E7 F7");
        assert_eq!(turn_input(&g), "F7\n1\nE7\n0\n2\nE5\nF7\n1\nE5 F7\n");
    }

    #[test]
    fn after_a_swap_player_zero_is_told_swap() {
        let g = game("C5 SWAP");
        assert_eq!(turn_input(&g), "SWAP\n0\n0\n1\nE3\n0\n");
    }

    #[test]
    fn any_pegs_and_links_are_written_the_same_way() {
        let c = |s: &str| s.parse::<Cell>().unwrap();
        let mine = (vec![c("E7")], Vec::new());
        let theirs = (vec![c("E5"), c("F7")], vec![(c("E5"), c("F7"))]);
        let text = write_turn(Some(Move::Peg(c("F7"))), [mine, theirs]);
        assert_eq!(text, turn_input(&game("E5 E7 F7")));
        assert_eq!(
            write_turn(None, [Side::default(), Side::default()]),
            "FIRST\n0\n0\n0\n0\n"
        );
    }
}
