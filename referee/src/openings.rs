//! Openings for matches: read from a file (one line of moves per pair) or drawn at random, so
//! that deterministic bots still play varied games.

use anyhow::{anyhow, bail, Context, Result};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::Path;
use twixt::position::Move;
use twixt_reference::RefGame;

/// The game after `opening`, checked legal move by move, still open, and without a swap: the
/// bots start after the opening, and the protocol tells a swap only to player 0, on the turn
/// right after it, so player 1's bot would see one peg a side and take itself for player 0
/// (SPEC, "The turn protocol": a process started mid-game assumes there was no swap).
pub fn start(opening: &[Move]) -> Result<RefGame> {
    let game = RefGame::from_moves(opening)
        .map_err(|(i, e)| anyhow!("opening move {} is illegal: {e}", i + 1))?;
    if game.outcome().is_some() {
        bail!("the opening already ends the game");
    }
    if let Some(i) = opening.iter().position(|&m| m == Move::Swap) {
        bail!(
            "opening move {} is a swap: a bot that starts after it is never told SWAP and \
             cannot tell its side (let the bots swap: end the opening before it)",
            i + 1
        );
    }
    Ok(game)
}

/// Parses one opening line (`E5 F7 SWAP`, commas allowed) and checks it is legal and leaves the
/// game open.
pub fn parse_opening(line: &str) -> Result<Vec<Move>> {
    let moves = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::parse::<Move>)
        .collect::<Result<Vec<Move>, _>>()?;
    start(&moves)?;
    Ok(moves)
}

/// Reads an openings file: one opening per line; blank lines and `#` comments are skipped.
pub fn read_openings(path: &Path) -> Result<Vec<Vec<Move>>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening =
            parse_opening(line).with_context(|| format!("{}:{}", path.display(), i + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        bail!("{}: no opening in the file", path.display());
    }
    Ok(out)
}

/// `plies` uniformly random legal pegs (never a swap), the same for the same seed.
pub fn random_opening(plies: usize, seed: u64) -> Vec<Move> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = RefGame::new();
    while game.moves().len() < plies {
        let holes = game.legal_holes(game.to_move());
        let Some(&c) = holes.choose(&mut rng) else {
            break;
        };
        let mut next = game.clone();
        next.play(Move::Peg(c)).expect("a legal hole");
        if next.outcome().is_some() {
            break;
        }
        game = next;
    }
    game.moves().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_parse_and_are_checked() {
        assert_eq!(
            parse_opening("E5, F7 SWAP").unwrap_err().to_string(),
            "opening move 3 is illegal: SWAP is allowed only on player 1's first turn"
        );
        assert_eq!(
            parse_opening("E5 zz").unwrap_err().to_string(),
            "'zz' is not a hole name (a letter A-L and a row 1-12)"
        );
        for swapped in ["E5 SWAP", "E5 SWAP F7"] {
            assert_eq!(
                parse_opening(swapped).unwrap_err().to_string(),
                "opening move 2 is a swap: a bot that starts after it is never told SWAP and \
                 cannot tell its side (let the bots swap: end the opening before it)"
            );
        }
        assert_eq!(parse_opening("E5 F7").unwrap().len(), 2);
        assert!(
            parse_opening("A5").is_err(),
            "player 0 may not play column A"
        );
    }

    #[test]
    fn random_openings_are_legal_and_repeatable() {
        let a = random_opening(4, 9);
        assert_eq!(a.len(), 4);
        assert_eq!(a, random_opening(4, 9));
        assert!(RefGame::from_moves(&a).is_ok());
        assert_ne!(a, random_opening(4, 10));
    }
}
