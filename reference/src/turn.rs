//! The turn input of SPEC's protocol, written from a reference game for the player to move.

use crate::RefGame;
use std::fmt::Write;

/// The text a bot reads on its turn: the opponent's last move (`FIRST` on the very first turn,
/// `SWAP` after a swap), then its own pegs and links, then the opponent's.
pub fn turn_input(game: &RefGame) -> String {
    let me = game.to_move();
    let mut out = String::new();
    match game.moves().last() {
        None => out.push_str("FIRST\n"),
        Some(m) => writeln!(out, "{m}").expect("writing to a String"),
    }
    for p in [me, me.other()] {
        let pegs = game.pegs(p);
        writeln!(out, "{}", pegs.len()).expect("writing to a String");
        for c in pegs {
            writeln!(out, "{c}").expect("writing to a String");
        }
        let links = game.links(p);
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
    use twixt::Move;

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
}
