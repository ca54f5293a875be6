//! The turn input of SPEC's protocol, written from a reference game for the player to move,
//! and the parsing of a bot's answer line.

use crate::position::Move;
use crate::reference::RefGame;
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

/// A bot's answer: the move text (first token) and the message after it, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The first whitespace-separated token, as written.
    pub token: String,
    /// Whatever follows the token, trimmed (CodinGame shows it in the viewer).
    pub message: Option<String>,
}

impl Answer {
    /// Splits an answer line.
    pub fn parse(line: &str) -> Answer {
        let line = line.trim();
        let (token, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        Answer {
            token: token.to_string(),
            message: (!rest.is_empty()).then(|| rest.to_string()),
        }
    }

    /// The move, or why the token is not one.
    pub fn to_move(&self) -> Result<Move, String> {
        if self.token.is_empty() {
            return Err("an empty line".to_string());
        }
        self.token
            .parse::<Move>()
            .map_err(|e| format!("malformed answer {:?}: {e}", shorten(&self.token)))
    }
}

/// A text cut to a length fit for a one-line report.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}...")
    }
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
    fn answers_keep_only_the_first_token_as_the_move() {
        let a = Answer::parse("E5 win 73%\n");
        assert_eq!(a.token, "E5");
        assert_eq!(a.message.as_deref(), Some("win 73%"));
        assert_eq!(a.to_move(), Ok("E5".parse().unwrap()));
        assert!(Answer::parse("").to_move().is_err());
        assert!(Answer::parse("hello").to_move().is_err());
        assert_eq!(Answer::parse(" SWAP ").to_move(), Ok(Move::Swap));
    }
}
