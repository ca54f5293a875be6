//! The page: one HTML document with its style sheet and script served beside it from the
//! binary. The board is the picture module's (the report's viewer draws the same), pegs and
//! marks are placed by the script with the same geometry. A content security policy keeps the
//! page to this server: it fetches nothing from outside, and no other page may frame it.

use axum::http::{header, HeaderValue};
use axum::response::{Html, IntoResponse, Response};

const HTML: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/board.js");
const MOVES: &str = include_str!("../static/moves.js");
const GRAPH: &str = include_str!("../static/graph.js");
const LOSSES: &str = include_str!("../static/losses.js");
const STYLE: &str = include_str!("../static/board.css");

/// Only this server: scripts, styles, requests and images; and no page may frame it.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The page, with the board and its geometry filled in.
pub fn html() -> String {
    let geometry = serde_json::json!({
        "margin": twixt::picture::MARGIN,
        "step": twixt::picture::STEP,
        "colours": twixt::picture::COLOURS,
    });
    HTML.replace("{{SIDE}}", &twixt::picture::side().to_string())
        .replace("{{BOARD}}", &twixt::picture::board_layer())
        .replace("{{GEOMETRY}}", &geometry.to_string())
}

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    Html(html())
}

/// Every answer (the page, its files, the API's, the refusals) with the policy and
/// `X-Frame-Options: DENY` (for browsers before `frame-ancestors`): another site's page may
/// not show the board in a frame, where the person's clicks would carry the board's own Host
/// and Origin past the [`crate::guard`].
pub async fn unframed(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let policy = HeaderValue::from_static(POLICY);
    headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// A script of the page.
fn javascript(text: &'static str) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        text,
    )
}

/// `GET /board.js`.
pub async fn script() -> impl IntoResponse {
    javascript(SCRIPT)
}

/// `GET /moves.js`: the move list's drawing.
pub async fn moves_script() -> impl IntoResponse {
    javascript(MOVES)
}

/// `GET /graph.js`: the evaluation graph's part of the page.
pub async fn graph_script() -> impl IntoResponse {
    javascript(GRAPH)
}

/// `GET /losses.js`: a results file's lost games.
pub async fn losses_script() -> impl IntoResponse {
    javascript(LOSSES)
}

/// `GET /board.css`.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_the_board_and_names_nothing_outside() {
        let page = html();
        assert!(!page.contains("{{"), "a placeholder is left");
        assert_eq!(page.matches(r#"class="hole""#).count(), 140);
        for text in [page.as_str(), SCRIPT, MOVES, GRAPH, LOSSES, STYLE] {
            assert!(
                !text.contains("http://") && !text.contains("https://") && !text.contains("//cdn")
            );
        }
        assert!(page.contains(r#"<script src="/board.js">"#));
        assert!(page.contains(r#"<script src="/graph.js">"#));
        assert!(page.contains(r#"<script src="/losses.js">"#));
    }
}
