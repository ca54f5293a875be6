//! The HTML page around a report or a single game: inline CSS, the replay viewer's board and
//! controls, the games' data as JSON and the viewer's script, all in one file that fetches
//! nothing.

use super::replay::Replay;
use std::fmt::Write;

/// The page's style sheet.
const STYLE: &str = include_str!("report.css");
/// The replay viewer's script.
const VIEWER: &str = include_str!("viewer.js");

/// `text` safe inside HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// `value` as JSON safe inside a `<script>` element: no `<` can close it early (JSON only
/// has `<` inside strings, where `\u003c` means the same).
fn script_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .expect("report data always serialises")
        .replace('<', "\\u003c")
}

/// The board's geometry and colours, for the script to place pegs where the picture module
/// puts holes.
#[derive(serde::Serialize)]
struct Geometry {
    margin: f64,
    step: f64,
    colours: [&'static str; 2],
    /// Where `twixt-board` serves, for the link to analyse the position shown.
    board: &'static str,
}

/// The replay viewer: the board with its controls and the move list, then the games' data
/// and the script that steps through them. `games` must not be empty.
pub fn viewer(games: &[Replay]) -> String {
    let side = twixt::picture::side();
    let geometry = Geometry {
        margin: twixt::picture::MARGIN,
        step: twixt::picture::STEP,
        colours: twixt::picture::COLOURS,
        board: super::BOARD,
    };
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<section id="viewer"><h2 id="game-title">Replay</h2><div class="viewer"><div class="boardbox">
<svg id="board" width="{side}" height="{side}" viewBox="0 0 {side} {side}" role="img" aria-label="board">
{layer}<g id="pieces"></g></svg>
<div class="controls"><button id="first" title="start (Home)">|&#x25C0;</button><button id="prev" title="back (left arrow)">&#x25C0;</button><span id="ply-label"></span><button id="next" title="forward (right arrow)">&#x25B6;</button><button id="last" title="end (End)">&#x25B6;|</button></div>
<p id="ending"></p>
<p class="boardlink"><a id="board-link" target="_blank" rel="noopener">analyse this position on the board</a> (start <code>twixt-board</code> first)</p></div>
<div class="side"><p id="players"></p><ol id="moves" start="1"></ol></div></div></section>
<script type="application/json" id="games">{games}</script>
<script type="application/json" id="geometry">{geometry}</script>
<script>
{VIEWER}</script>
"#,
        layer = twixt::picture::board_layer(),
        games = script_json(&games),
        geometry = script_json(&geometry),
    );
    out
}

/// The players' colours, from the picture module's, for pegs, links and moves.
fn colour_rules() -> String {
    let mut out = String::new();
    for (p, colour) in twixt::picture::COLOURS.iter().enumerate() {
        let _ = writeln!(
            out,
            "#board .peg.p{p} {{ fill: {colour}; }}\n#board .link.p{p} {{ stroke: {colour}; }}\n\
             #moves li.p{p} {{ color: {colour}; }}"
        );
    }
    out
}

/// A whole page: `title`, then `body` (already HTML), then the viewer of `games`.
pub fn page(title: &str, body: &str, games: &[Replay]) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>{STYLE}{colours}</style></head>\n<body><h1>{t}</h1>\n{body}\n{viewer}</body></html>\n",
        t = escape(title),
        colours = colour_rules(),
        viewer = viewer(games),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_cannot_break_out_of_their_elements() {
        assert_eq!(
            escape(r#"<b a="x">'&'</b>"#),
            "&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;"
        );
        let json = script_json(&vec!["</script><script>alert(1)</script>"]);
        assert!(!json.contains('<'), "{json}");
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ["</script><script>alert(1)</script>"]);
    }
}
