//! The tree of variations as a person uses it: a move at an earlier ply starts a variation
//! drawn in the move list, the arrow keys step along it and across to the line beside it, it
//! becomes the main line, the tree goes out as text and comes back in, a variation is deleted.

use crate::{click, eval, key, until};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

/// The main line's moves as the list shows them.
async fn main_line(c: &Client) -> String {
    let js = "Array.from(document.querySelectorAll('#moves li.mv')).map(function (e) { return e.textContent.split(' ')[0]; }).join(' ')";
    eval(c, js).await.as_str().unwrap().to_string()
}

/// Waits until the move shown is the one at `node`.
async fn shown(c: &Client, node: &str) {
    let js = format!("(document.querySelector('#moves .current') || {{}}).dataset && document.querySelector('#moves .current').dataset.node === '{node}'");
    until(c, &format!("node {node} shown"), &js).await;
}

/// The text the page's export link downloads.
async fn exported(c: &Client) -> String {
    eval(c, "(window.tree_text = null, fetch(document.getElementById('tree-link').href).then(function (r) { return r.text(); }).then(function (t) { window.tree_text = t; }), true)").await;
    until(c, "the export", "window.tree_text !== null").await;
    match eval(c, "window.tree_text").await {
        Value::String(s) => s,
        other => panic!("the export: {other}"),
    }
}

/// Plays a variation, steps through it, promotes it, exports and imports it, deletes one.
pub async fn variations(c: &Client, base: &str) {
    c.goto(&format!("{base}/?tree#moves=E5,F7,G9,D4&ply=1"))
        .await
        .unwrap();
    shown(c, "0").await;
    click(c, "#spots .spot[data-cell='H3']").await;
    shown(c, "0.1").await;
    click(c, "#spots .spot[data-cell='C3']").await;
    shown(c, "0.1.0").await;
    assert_eq!(main_line(c).await, "E5 F7 G9 D4");
    let variation = "Array.from(document.querySelectorAll('#moves .vars span.mv')).map(function (e) { return e.textContent; }).join(' ')";
    assert_eq!(eval(c, variation).await, "2. H3 3. C3");

    key(c, Key::Up).await;
    shown(c, "0.0").await;
    key(c, Key::Down).await;
    shown(c, "0.1").await;
    key(c, Key::Left).await;
    shown(c, "0").await;
    key(c, Key::Right).await;
    shown(c, "0.1").await;
    key(c, Key::End).await;
    shown(c, "0.1.0").await;

    click(c, "#promote").await;
    until(
        c,
        "the variation promoted",
        "document.querySelectorAll('#moves li.mv').length === 3",
    )
    .await;
    assert_eq!(main_line(c).await, "E5 H3 C3");
    let text = exported(c).await;
    assert_eq!(text, "E5 H3 (F7 G9 D4) C3\n");

    click(c, "#games summary").await;
    let area = c.find(Locator::Id("movelist")).await.unwrap();
    area.clear().await.unwrap();
    area.send_keys(text.trim()).await.unwrap();
    click(c, "#open-moves").await;
    until(
        c,
        "the tree imported",
        "document.getElementById('ply-label').textContent === 'move 0 / 3'",
    )
    .await;
    assert_eq!(main_line(c).await, "E5 H3 C3");
    assert_eq!(eval(c, variation).await, "2. F7 3. G9 4. D4");

    click(c, "#moves span.mv[data-node='0.1']").await;
    shown(c, "0.1").await;
    click(c, "#delete").await;
    until(
        c,
        "the variation deleted",
        "document.querySelectorAll('#moves .vars').length === 0",
    )
    .await;
    shown(c, "0").await;
}

/// A picture of the move list with variations (how `docs/board-tree.png` was made), saved to
/// `out`.
pub async fn screenshot(c: &Client, base: &str, out: &str) {
    let text = "E2 A5 E3 C6 (D6 E4 (F4) C4) E4 E5 (F5 G5 (H4 J6)) E10 G6 E11 I5 F11 K6 G11 L8";
    c.goto(&format!("{base}/?tree-shot")).await.unwrap();
    click(c, "#games summary").await;
    let area = c.find(Locator::Id("movelist")).await.unwrap();
    area.send_keys(text).await.unwrap();
    click(c, "#open-moves").await;
    until(
        c,
        "the game",
        "document.querySelectorAll('#moves .vars').length === 2",
    )
    .await;
    click(c, "#moves span.mv[data-node='0.0.0.1.0.0']").await;
    shown(c, "0.0.0.1.0.0").await;
    std::fs::write(out, c.screenshot().await.unwrap()).unwrap();
}
