//! Board pictures as SVG, drawn with one code by the referee (a game's final position), by
//! `twixt-bot analyze` (a position with the search's view of it) and, through
//! [`board_layer`] and [`centre`], by the HTML replay viewer.
//!
//! A [`Picture`] is built layer by layer: what is added later is drawn on top, so callers
//! add the board first and the marks last. Pegs, links and holes carry classes (`peg p0`,
//! `link p1`, `hole`) and pegs a `data-cell`, so that a page can restyle or find them.

use crate::cell::{Cell, Player, SIZE};
use std::fmt::Write;

/// Distance between neighbouring holes.
pub const STEP: f64 = 40.0;
/// Distance from the picture's edge to the first hole's centre (room for the labels).
pub const MARGIN: f64 = 50.0;
/// Height of the caption line under the board.
const CAPTION: f64 = 40.0;
/// Each player's colour: player 0 red, player 1 blue.
pub const COLOURS: [&str; 2] = ["#d1495b", "#2e86ab"];
/// A light shade of each player's colour, for its border bands.
pub const LIGHT: [&str; 2] = ["#f4c7cd", "#c3e2ef"];
/// The glow of the winning chain, the ring of the last move and the heat discs.
const GOLD: &str = "#f5b700";
const BACKGROUND: &str = "#f3ead8";
const STYLE: &str = "<style>.lab{font-size:13px;fill:#555;text-anchor:middle}\
.cap{font-size:15px;fill:#222;text-anchor:middle}\
.num{font-size:12px;font-weight:bold;text-anchor:middle}</style>";

/// The centre of a hole in the picture: `MARGIN + x * STEP`, `MARGIN + y * STEP`, row 1
/// (y = 0) at the top.
pub fn centre(c: Cell) -> (f64, f64) {
    (MARGIN + c.x() as f64 * STEP, MARGIN + c.y() as f64 * STEP)
}

/// The board's width and height.
pub fn side() -> f64 {
    2.0 * MARGIN + (SIZE - 1) as f64 * STEP
}

/// The static board without the `<svg>` element around it: background, border bands and
/// lines, labels and all 140 holes. A page embeds it and draws pegs and links over it.
pub fn board_layer() -> String {
    let mut p = Picture::new(false);
    p.board();
    p.holes(Cell::all());
    background(side()) + &p.body
}

/// The board's background, `height` high (the board, and the caption line if any).
fn background(height: f64) -> String {
    format!(
        "<rect width=\"{}\" height=\"{height}\" fill=\"{BACKGROUND}\"/>\n",
        side()
    )
}

/// An SVG picture of the board under construction.
pub struct Picture {
    body: String,
    /// Room for a caption line under the board.
    room: bool,
    caption: Option<String>,
}

impl Picture {
    /// An empty picture, with room for a caption line under the board when `caption`.
    pub fn new(caption: bool) -> Picture {
        Picture {
            body: String::new(),
            room: caption,
            caption: None,
        }
    }

    /// The whole `<svg>` element, on the board's background.
    pub fn finish(self) -> String {
        let w = side();
        let h = w + if self.room { CAPTION } else { 0.0 };
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
        );
        out.push_str(STYLE);
        out.push('\n');
        out.push_str(&background(h));
        out.push_str(&self.body);
        if let (true, Some(text)) = (self.room, &self.caption) {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" class="cap">{}</text>"#,
                w / 2.0,
                h - 16.0,
                escape(text)
            );
        }
        out.push_str("</svg>\n");
        out
    }

    /// The static board: each player's border bands and lines, and the labels.
    pub fn board(&mut self) {
        self.borders();
        self.labels();
    }

    /// Each player's border lines as bands in a light shade of its colour, and the lines that
    /// separate them from the inner holes in its full colour.
    fn borders(&mut self) {
        let at = |i: f64| MARGIN + i * STEP;
        let (lo, len, thick) = (at(0.6), STEP * 9.8, STEP * 0.8);
        for row in [0.0, 11.0] {
            let y = at(row) - thick / 2.0;
            let _ = writeln!(
                self.body,
                r#"<rect x="{lo}" y="{y}" width="{len}" height="{thick}" rx="8" fill="{}"/>"#,
                LIGHT[0]
            );
            let _ = writeln!(
                self.body,
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
                self.body,
                r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="3"/>"#,
                COLOURS[p]
            );
        }
    }

    /// Column letters above the board, row numbers left of it.
    fn labels(&mut self) {
        for i in 0..SIZE {
            let p = MARGIN + i as f64 * STEP;
            let letter = (b'A' + i as u8) as char;
            let _ = writeln!(
                self.body,
                r#"<text x="{p}" y="{}" class="lab">{letter}</text>"#,
                MARGIN - 28.0
            );
            let _ = writeln!(
                self.body,
                r#"<text x="{}" y="{}" class="lab">{}</text>"#,
                MARGIN - 32.0,
                p + 4.0,
                i + 1
            );
        }
    }

    /// A small dot for each of `cells` (the holes without a peg).
    pub fn holes(&mut self, cells: impl IntoIterator<Item = Cell>) {
        for c in cells {
            let (x, y) = centre(c);
            let _ = writeln!(
                self.body,
                r##"<circle class="hole" cx="{x}" cy="{y}" r="3" fill="#8a8174"><title>{c}</title></circle>"##
            );
        }
    }

    /// `p`'s links, each between two hole centres.
    pub fn links(&mut self, p: Player, links: impl IntoIterator<Item = (Cell, Cell)>) {
        for (a, b) in links {
            let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
            let _ = writeln!(
                self.body,
                r#"<line class="link p{}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="5" stroke-linecap="round" opacity="0.85"/>"#,
                p.index(),
                COLOURS[p.index()]
            );
        }
    }

    /// `p`'s pegs on `cells`.
    pub fn pegs(&mut self, p: Player, cells: impl IntoIterator<Item = Cell>) {
        for c in cells {
            let (x, y) = centre(c);
            let _ = writeln!(
                self.body,
                r##"<circle class="peg p{}" data-cell="{c}" cx="{x}" cy="{y}" r="9" fill="{}" stroke="#222" stroke-width="1.5"><title>{c}</title></circle>"##,
                p.index(),
                COLOURS[p.index()]
            );
        }
    }

    /// A golden ring around the hole `c` (the last move).
    pub fn ring(&mut self, c: Cell) {
        let (x, y) = centre(c);
        let _ = writeln!(
            self.body,
            r#"<circle class="ring" cx="{x}" cy="{y}" r="14" fill="none" stroke="{GOLD}" stroke-width="3"/>"#
        );
    }

    /// A golden glow along the link `a`-`b` (under the links of the chain that won).
    pub fn glow(&mut self, a: Cell, b: Cell) {
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        let _ = writeln!(
            self.body,
            r#"<line class="glow" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{GOLD}" stroke-width="13" stroke-linecap="round" opacity="0.6"/>"#
        );
    }

    /// A golden disc on `c` whose opacity grows with `intensity` (0..1, clamped): where the
    /// search looked most. A disc of intensity 0 is faint but still shows.
    pub fn heat(&mut self, c: Cell, intensity: f64) {
        let (x, y) = centre(c);
        let opacity = 0.08 + 0.82 * intensity.clamp(0.0, 1.0);
        let _ = writeln!(
            self.body,
            r#"<circle class="heat" cx="{x}" cy="{y}" r="17" fill="{GOLD}" fill-opacity="{opacity:.3}"><title>{c}</title></circle>"#
        );
    }

    /// The number `n` on the hole `c`, in `p`'s colour, on a white disc ringed in it: the
    /// n-th move of a line, played by `p`.
    pub fn number(&mut self, c: Cell, n: usize, p: Player) {
        let (x, y) = centre(c);
        let colour = COLOURS[p.index()];
        let _ = writeln!(
            self.body,
            r##"<circle class="num p{}" cx="{x}" cy="{y}" r="10" fill="#fff" stroke="{colour}" stroke-width="2"/><text class="num" x="{x}" y="{}" fill="{colour}">{n}</text>"##,
            p.index(),
            y + 4.0
        );
    }

    /// The caption under the board (shown when the picture was made with room for it).
    pub fn caption(&mut self, text: &str) {
        self.caption = Some(text.to_string());
    }
}

/// `text` safe inside an SVG element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cell;

    #[test]
    fn pegs_and_links_stand_where_centre_says() {
        let mut p = Picture::new(true);
        p.board();
        p.links(Player::Zero, [(cell("E5"), cell("F7"))]);
        p.pegs(Player::Zero, [cell("E5"), cell("F7")]);
        p.caption("two pegs & a link");
        let svg = p.finish();
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches(r#"class="peg p0""#).count(), 2);
        assert_eq!(svg.matches(r#"class="link p0""#).count(), 1);
        let (x, y) = centre(cell("F7"));
        assert_eq!((x, y), (MARGIN + 5.0 * STEP, MARGIN + 6.0 * STEP));
        assert!(svg.contains(&format!(r#"data-cell="F7" cx="{x}" cy="{y}""#)));
        let (x1, y1) = centre(cell("E5"));
        assert!(svg.contains(&format!(r#"x1="{x1}" y1="{y1}" x2="{x}" y2="{y}""#)));
        assert!(svg.contains("two pegs &amp; a link"));
        assert!(svg.contains(&format!(r#"height="{}""#, side() + CAPTION)));
    }

    #[test]
    fn the_board_layer_holds_every_hole_and_no_svg_element() {
        let layer = board_layer();
        assert_eq!(layer.matches(r#"class="hole""#).count(), 140);
        assert_eq!(layer.matches("class=\"lab\"").count(), 2 * SIZE);
        assert!(!layer.contains("<svg") && !layer.contains("class=\"peg"));
        let (x, y) = centre(cell("A2"));
        assert_eq!((x, y), (MARGIN, MARGIN + STEP));
        assert!(layer.contains(&format!(r#"cx="{x}" cy="{y}""#)));
    }

    #[test]
    fn marks_are_drawn_and_heat_is_clamped() {
        let mut p = Picture::new(false);
        p.heat(cell("E5"), 2.0);
        p.heat(cell("E6"), 0.0);
        p.number(cell("E5"), 1, Player::One);
        p.ring(cell("E6"));
        p.glow(cell("E5"), cell("F7"));
        p.caption("no room for this");
        let svg = p.finish();
        assert!(svg.contains(r#"fill-opacity="0.900""#), "{svg}");
        assert!(svg.contains(r#"fill-opacity="0.080""#), "{svg}");
        assert!(svg.contains(&format!(r#"fill="{}">1</text>"#, COLOURS[1])));
        assert_eq!(svg.matches(r#"class="ring""#).count(), 1);
        assert_eq!(svg.matches(r#"class="glow""#).count(), 1);
        assert!(!svg.contains("no room"));
        assert!(svg.contains(&format!(r#"height="{}""#, side())));
    }
}
