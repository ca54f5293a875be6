//! The final position as an SVG picture: the board, each player's borders in its colour,
//! holes, links, pegs, the last move ringed, and a caption with the result.

use super::record::GameRecord;
use twixt::cell::{Cell, Player};
use twixt::picture::Picture;
use twixt::position::Move;
use twixt_reference::RefGame;

/// The links of one chain joining the winner's borders, if there is a winner.
fn winning_chain(game: &RefGame) -> Vec<(Cell, Cell)> {
    game.winner()
        .and_then(|p| game.winning_chain(p))
        .unwrap_or_default()
}

/// The cell of the last move (after a swap, the swapped peg).
fn last_cell(game: &RefGame) -> Option<Cell> {
    match game.moves().last()? {
        Move::Peg(c) => Some(*c),
        Move::Swap => game.pegs(Player::One).first().copied(),
    }
}

/// The whole picture, as the reference rules judged the game; the chain that won glows.
pub fn game_svg(game: &RefGame, record: &GameRecord) -> String {
    let mut p = Picture::new(true);
    p.board();
    for (a, b) in winning_chain(game) {
        p.glow(a, b);
    }
    for q in Player::BOTH {
        p.links(q, game.links(q));
    }
    p.holes(Cell::all().filter(|&c| game.owner(c).is_none()));
    for q in Player::BOTH {
        p.pegs(q, Cell::all().filter(|&c| game.owner(c) == Some(q)));
    }
    if let Some(c) = last_cell(game) {
        p.ring(c);
    }
    p.caption(&caption(record));
    p.finish()
}

fn caption(record: &GameRecord) -> String {
    match record.winner {
        Some(w) => format!(
            "Player {w} wins ({}) after {} moves",
            record.reason.name(),
            record.moves.len()
        ),
        None => format!("Draw after {} moves", record.moves.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{moves, record};
    use crate::record::Reason;

    #[test]
    fn the_winning_chain_runs_border_to_border() {
        let g =
            RefGame::from_moves(&moves("E2 A5 E3 C6 E4 E5 E10 G6 E11 I5 F11 K6 G11 L8")).unwrap();
        let chain = winning_chain(&g);
        // A5 C6 E5 G6 I5 K6 L8: six links, from column A to column L.
        assert_eq!(chain.len(), 6);
        assert_eq!(chain[0].0.to_string(), "A5");
        assert_eq!(chain[5].1.to_string(), "L8");
        assert!(winning_chain(&RefGame::new()).is_empty());
    }

    #[test]
    fn the_picture_shows_the_pegs_links_chain_and_result() {
        let text = "E2 A5 E3 C6 E4 E5 E10 G6 E11 I5 F11 K6 G11 L8";
        let g = RefGame::from_moves(&moves(text)).unwrap();
        let svg = game_svg(&g, &record(text, Some(1), Reason::Connected));
        assert_eq!(svg.matches(r#"class="peg p0""#).count(), 7);
        assert_eq!(svg.matches(r#"class="peg p1""#).count(), 7);
        assert_eq!(svg.matches(r#"class="hole""#).count(), 140 - 14);
        assert_eq!(svg.matches(r#"class="glow""#).count(), 6);
        assert_eq!(svg.matches(r#"class="link p1""#).count(), 6);
        assert!(svg.contains(r#"data-cell="L8""#));
        assert!(
            svg.contains("Player 1 wins (connected) after 14 moves"),
            "{svg}"
        );
    }
}
