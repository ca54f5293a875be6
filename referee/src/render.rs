//! The final position drawn in a terminal: holes, pegs, links, and the result in words.
//!
//! Holes are 4 columns and 2 lines apart, so a knight link has room to be drawn between its two
//! pegs. Player 0's pegs are `X` and its links `x`; player 1's are `O` and `o`. With colour on,
//! player 0 is red and player 1 blue, as on the SVG.

use super::record::GameRecord;
use std::fmt::Write;
use twixt::cell::{Cell, Player, SIZE};
use twixt_reference::RefGame;

const DX: usize = 4;
const DY: usize = 2;
const LEFT: usize = 4;

/// One character of the drawing and whose it is.
#[derive(Clone, Copy)]
struct Mark {
    ch: char,
    owner: Option<Player>,
}

struct Canvas {
    rows: Vec<Vec<Mark>>,
}

impl Canvas {
    fn new() -> Canvas {
        let blank = Mark {
            ch: ' ',
            owner: None,
        };
        Canvas {
            rows: vec![vec![blank; LEFT + (SIZE - 1) * DX + 2]; (SIZE - 1) * DY + 1],
        }
    }

    fn put(&mut self, col: usize, row: usize, ch: char, owner: Option<Player>) {
        self.rows[row][col] = Mark { ch, owner };
    }
}

fn at(c: Cell) -> (usize, usize) {
    (LEFT + c.x() as usize * DX, c.y() as usize * DY)
}

fn peg_char(p: Player) -> char {
    match p {
        Player::Zero => 'X',
        Player::One => 'O',
    }
}

fn draw_link(canvas: &mut Canvas, p: Player, a: Cell, b: Cell) {
    let ((x0, y0), (x1, y1)) = (at(a), at(b));
    let steps = 16;
    for i in 1..steps {
        let t = i as f64 / steps as f64;
        let x = (x0 as f64 + (x1 as f64 - x0 as f64) * t).round() as usize;
        let y = (y0 as f64 + (y1 as f64 - y0 as f64) * t).round() as usize;
        if (x, y) != (x0, y0) && (x, y) != (x1, y1) {
            canvas.put(x, y, peg_char(p).to_ascii_lowercase(), Some(p));
        }
    }
}

fn paint(canvas: &Canvas, colour: bool) -> String {
    let mut out = String::new();
    for (i, row) in canvas.rows.iter().enumerate() {
        let mut line = String::new();
        if i % DY == 0 {
            write!(line, "{:>3} ", i / DY + 1).expect("writing to a String");
        } else {
            line.push_str("    ");
        }
        for m in &row[LEFT..] {
            match (colour, m.owner) {
                (true, Some(Player::Zero)) => write!(line, "\x1b[31m{}\x1b[0m", m.ch),
                (true, Some(Player::One)) => write!(line, "\x1b[34m{}\x1b[0m", m.ch),
                _ => write!(line, "{}", m.ch),
            }
            .expect("writing to a String");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The board: column letters above, row numbers on the left, `.` for a vacant hole.
pub fn board_text(game: &RefGame, colour: bool) -> String {
    let mut canvas = Canvas::new();
    for c in Cell::all() {
        let (x, y) = at(c);
        canvas.put(x, y, '.', None);
    }
    for p in Player::BOTH {
        for (a, b) in game.links(p) {
            draw_link(&mut canvas, p, a, b);
        }
    }
    for c in Cell::all() {
        if let Some(p) = game.owner(c) {
            let (x, y) = at(c);
            canvas.put(x, y, peg_char(p), Some(p));
        }
    }
    let mut out = String::from("    ");
    for x in 0..SIZE {
        write!(out, "{:<4}", (b'A' + x as u8) as char).expect("writing to a String");
    }
    out = out.trim_end().to_string() + "\n";
    out + &paint(&canvas, colour)
}

/// The move list, numbered, with each answer's milliseconds.
pub fn moves_text(record: &GameRecord) -> String {
    if record.moves.is_empty() {
        return "(none)\n".to_string();
    }
    let mut out = String::new();
    for (i, (m, ms)) in record.moves.iter().zip(&record.ms).enumerate() {
        let time = ms.map_or("opening".to_string(), |v| format!("{v} ms"));
        write!(out, "{:>3}. {:<5}({time})", i + 1, m).expect("writing to a String");
        out.push(if i % 4 == 3 { '\n' } else { ' ' });
    }
    out.trim_end().to_string() + "\n"
}

/// The board, the move list and the result, as `game` prints them.
pub fn game_report(game: &RefGame, record: &GameRecord, colour: bool) -> String {
    let result = match record.winner {
        Some(w) => format!(
            "winner: player {w} ({}): {}",
            record.reason.name(),
            record.detail
        ),
        None => format!("draw: {}", record.detail),
    };
    let clock = |p: usize| match record.clocks {
        Some(c) => format!(" [clock: {}]", c[p]),
        None => String::new(),
    };
    format!(
        "player 0 (X, rows 1-12): {}{}\nplayer 1 (O, columns A-L): {}{}\n\n{}\nmoves:\n{}\n{}\n",
        record.cmd0,
        clock(0),
        record.cmd1,
        clock(1),
        board_text(game, colour),
        moves_text(record),
        result
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::moves;

    #[test]
    fn pegs_and_links_appear_where_they_are() {
        let g = RefGame::from_moves(&moves("E5 E7 F7")).unwrap();
        let text = board_text(&g, false);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("    A   B"));
        // Row 5 is line 1 + 4 * 2; column E is at 4 + 4 * 4.
        assert_eq!(lines[1 + 8].chars().nth(20), Some('X'));
        assert_eq!(lines[1 + 12].chars().nth(20), Some('O'));
        assert_eq!(lines[1 + 12].chars().nth(24), Some('X'));
        assert!(lines[1 + 10].contains('x'), "the E5-F7 link is drawn");
        assert!(!text.contains('o'), "player 1 has no link");
    }
}
