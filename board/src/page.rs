//! The page: one HTML document with its style sheet and script served beside it from the
//! binary. The board is the picture module's (the report's viewer draws the same), pegs and
//! marks are placed by the script with the same geometry. A content security policy keeps the
//! page to this server: it fetches nothing from outside.

use axum::http::header;
use axum::response::{Html, IntoResponse};

const HTML: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/board.js");
const STYLE: &str = include_str!("../static/board.css");

/// Only this server: scripts, styles, requests and images.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'";

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
    ([(header::CONTENT_SECURITY_POLICY, POLICY)], Html(html()))
}

/// `GET /board.js`.
pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
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
        for text in [page.as_str(), SCRIPT, STYLE] {
            assert!(
                !text.contains("http://") && !text.contains("https://") && !text.contains("//cdn")
            );
        }
        assert!(page.contains(r#"<script src="/board.js">"#));
    }
}
