//! The final position as an SVG picture: the board, each player's borders in its colour,
//! holes, links, pegs, the last move ringed, and a caption with the result.

use super::record::GameRecord;
use std::fmt::Write;
use twixt::cell::{Cell, Player, SIZE};
use twixt::position::Move;
use twixt_reference::RefGame;

const STEP: f64 = 40.0;
const MARGIN: f64 = 50.0;
const CAPTION: f64 = 40.0;
const COLOURS: [&str; 2] = ["#d1495b", "#2e86ab"];
const LIGHT: [&str; 2] = ["#f4c7cd", "#c3e2ef"];

fn centre(c: Cell) -> (f64, f64) {
    (MARGIN + c.x() as f64 * STEP, MARGIN + c.y() as f64 * STEP)
}

fn side() -> f64 {
    2.0 * MARGIN + (SIZE - 1) as f64 * STEP
}

/// Each player's border lines as bands in a light shade of its colour, and the lines that
/// separate them from the inner holes in its full colour.
fn borders(out: &mut String) {
    let at = |i: f64| MARGIN + i * STEP;
    let (lo, len, thick) = (at(0.6), STEP * 9.8, STEP * 0.8);
    for row in [0.0, 11.0] {
        let y = at(row) - thick / 2.0;
        let _ = writeln!(
            out,
            r#"<rect x="{lo}" y="{y}" width="{len}" height="{thick}" rx="8" fill="{}"/>"#,
            LIGHT[0]
        );
        let _ = writeln!(
            out,
            r#"<rect x="{y}" y="{lo}" width="{thick}" height="{len}" rx="8" fill="{}"/>"#,
            LIGHT[1]
        );
    }
    let (a, b) = (at(0.5), at(10.5));
    for (p, (x1, y1, x2, y2)) in [
        (0, (a, a, b, a)),
        (0, (a, b, b, b)),
        (1, (a, a, a, b)),
        (1, (b, a, b, b)),
    ] {
        let _ = writeln!(
            out,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="3"/>"#,
            COLOURS[p]
        );
    }
}

fn labels(out: &mut String) {
    for i in 0..SIZE {
        let p = MARGIN + i as f64 * STEP;
        let letter = (b'A' + i as u8) as char;
        let _ = writeln!(
            out,
            r#"<text x="{p}" y="{}" class="lab">{letter}</text>"#,
            MARGIN - 28.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" class="lab">{}</text>"#,
            MARGIN - 32.0,
            p + 4.0,
            i + 1
        );
    }
}

/// The links of one chain joining the winner's borders, if there is a winner.
fn winning_chain(game: &RefGame) -> Vec<(Cell, Cell)> {
    game.winner()
        .and_then(|p| game.winning_chain(p))
        .unwrap_or_default()
}

/// A golden glow under the chain that won.
fn glow(out: &mut String, game: &RefGame) {
    for (a, b) in winning_chain(game) {
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        let _ = writeln!(
            out,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#f5b700" stroke-width="13" stroke-linecap="round" opacity="0.6"/>"##
        );
    }
}

fn links(out: &mut String, game: &RefGame) {
    for p in Player::BOTH {
        for (a, b) in game.links(p) {
            let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
            let _ = writeln!(
                out,
                r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="5" stroke-linecap="round" opacity="0.85"/>"#,
                COLOURS[p.index()]
            );
        }
    }
}

fn holes_and_pegs(out: &mut String, game: &RefGame) {
    for c in Cell::all() {
        let (x, y) = centre(c);
        match game.owner(c) {
            Some(p) => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{x}" cy="{y}" r="9" fill="{}" stroke="#222" stroke-width="1.5"><title>{c}</title></circle>"##,
                    COLOURS[p.index()]
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{x}" cy="{y}" r="3" fill="#8a8174"><title>{c}</title></circle>"##
                );
            }
        }
    }
}

/// The cell of the last move (after a swap, the swapped peg).
fn last_cell(game: &RefGame) -> Option<Cell> {
    match game.moves().last()? {
        Move::Peg(c) => Some(*c),
        Move::Swap => game.pegs(Player::One).first().copied(),
    }
}

/// The whole picture; the chain that won glows.
pub fn game_svg(game: &RefGame, record: &GameRecord) -> String {
    let (w, h) = (side(), side() + CAPTION);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    out.push_str("<style>.lab{font-size:13px;fill:#555;text-anchor:middle}.cap{font-size:15px;fill:#222;text-anchor:middle}</style>\n");
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#f3ead8"/>"##);
    borders(&mut out);
    labels(&mut out);
    glow(&mut out, game);
    links(&mut out, game);
    holes_and_pegs(&mut out, game);
    if let Some(c) = last_cell(game) {
        let (x, y) = centre(c);
        let _ = writeln!(
            out,
            r##"<circle cx="{x}" cy="{y}" r="14" fill="none" stroke="#f5b700" stroke-width="3"/>"##
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" class="cap">{}</text>"#,
        w / 2.0,
        h - 16.0,
        caption(record)
    );
    out.push_str("</svg>\n");
    out
}

fn caption(record: &GameRecord) -> String {
    let text = match record.winner {
        Some(w) => format!(
            "Player {w} wins ({}) after {} moves",
            record.reason.name(),
            record.moves.len()
        ),
        None => format!("Draw after {} moves", record.moves.len()),
    };
    text.replace('&', "&amp;").replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::moves;

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
}
