//! The board in a real browser: Debian's Chromium driven through WebDriver ([`chrome`]; without
//! it these tests pass loudly on a developer's machine but fail in CI). The first test clicks
//! holes and buttons and presses keys as a person would, and reads what the page drew: the
//! bot's answers on the board, the links, the analysis's heat map and expected line updating
//! live, a recorded game opened from a file and stepped through with the arrow keys, and a game
//! opened from a report's link; then variations ([`chrome::tree`]). The second opens another site's page that frames the board.
//!
//! With `TWIXT_BOARD_SCREENSHOT=OUT.png` it also saves a picture of a game in analysis (how
//! `docs/board.png` was made): `TWIXT_BOARD_SCREENSHOT_MOVES` (`E5,F7,...`) and
//! `TWIXT_BOARD_SCREENSHOT_PLY` choose the game and the move; with
//! `TWIXT_BOARD_TREE_SCREENSHOT=OUT.png` a picture of the move list with variations
//! (`docs/board-tree.png`).

mod chrome;
mod common;

use common::Server;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use twixt::cell::Player;
use twixt::position::Move;
use twixt_board::Config;
use twixt_reference::{turn_input, RefGame};

/// The value of the JavaScript expression `js` in the page.
async fn eval(c: &Client, js: &str) -> Value {
    c.execute(&format!("return ({js});"), vec![]).await.unwrap()
}

/// Waits until `js` is true in the page (at most 20 s); on failure says `what` and the status.
async fn until(c: &Client, what: &str, js: &str) {
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        if eval(c, js).await == Value::Bool(true) {
            return;
        }
        if Instant::now() > end {
            let status = eval(c, "document.getElementById('status').textContent + ' | ' + document.getElementById('error').textContent").await;
            panic!("{what}: `{js}` never held; the page says {status}");
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap();
}

async fn count(c: &Client, css: &str) -> u64 {
    let css = serde_json::to_string(css).unwrap();
    eval(c, &format!("document.querySelectorAll({css}).length"))
        .await
        .as_u64()
        .unwrap()
}

async fn text(c: &Client, id: &str) -> String {
    eval(c, &format!("document.getElementById('{id}').textContent"))
        .await
        .as_str()
        .unwrap()
        .to_string()
}

async fn key(c: &Client, k: Key) {
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k.into() })
        .then(KeyAction::Up { value: k.into() });
    c.perform_actions(keys).await.unwrap();
}

/// The pegs the page drew, as `hole:player`, sorted; and how many links.
async fn drawn(c: &Client) -> (Vec<String>, u64) {
    let pegs = eval(c, "Array.from(document.querySelectorAll('#pieces .peg')).map(function (e) { return e.dataset.cell + ':' + (e.classList.contains('p1') ? 1 : 0); }).sort()").await;
    let pegs = pegs
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    (pegs, count(c, "#pieces .link").await)
}

/// What the reference rules hold after `moves`: pegs as `hole:player` sorted, and links.
fn expected(moves: &[Move]) -> (Vec<String>, u64) {
    let game = RefGame::from_moves(moves).unwrap();
    let mut pegs = Vec::new();
    for p in Player::BOTH {
        pegs.extend(game.pegs(p).iter().map(|c| format!("{c}:{}", p.index())));
    }
    pegs.sort();
    let links = game.links(Player::Zero).len() + game.links(Player::One).len();
    (pegs, links as u64)
}

/// The moves the page lists.
async fn listed(c: &Client) -> Vec<Move> {
    let items = eval(c, "Array.from(document.querySelectorAll('#moves li')).map(function (e) { return e.textContent.split(' ')[0]; })").await;
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().parse().unwrap())
        .collect()
}

/// A game player 1 wins by A5 C6 E5 G6 I5 K6 L8, and a short one.
const WON: &str = "E2 A5 E3 C6 E4 E5 E10 G6 E11 I5 F11 K6 G11 L8";
const SHORT: &str = "F6 E8 G8 D6 H5";

fn record(moves: &str, winner: Option<u8>, seed: u64) -> String {
    let moves: Vec<&str> = moves.split(' ').collect();
    json!({ "moves": moves, "ms": vec![Value::Null; moves.len()], "winner": winner,
            "reason": if winner.is_some() { "connected" } else { "draw" }, "detail": "",
            "cmd0": "red-bot", "cmd1": "blue-bot", "seed": seed })
    .to_string()
}

fn moves(text: &str) -> Vec<Move> {
    text.split(' ').map(|m| m.parse().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_analyses_and_steps_through_a_recorded_game_in_chromium() {
    let Some((chromium, chromedriver)) = chrome::tools() else {
        return;
    };
    let server = Server::start(Config::default()).await;
    let (_driver, driver_url) = chrome::start_driver(&chromedriver);
    let scratch = std::env::temp_dir().join(format!("twixt-board-browser-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let c = chrome::browser(&chromium, &driver_url, &scratch.join("profile")).await;
    walk(&c, &server.base, &scratch).await;
    chrome::tree::variations(&c, &server.base).await;
    if let Ok(out) = std::env::var("TWIXT_BOARD_SCREENSHOT") {
        screenshot(&c, &server.base, &out).await;
    }
    if let Ok(out) = std::env::var("TWIXT_BOARD_TREE_SCREENSHOT") {
        chrome::tree::screenshot(&c, &server.base, &out).await;
    }
    c.close().await.unwrap();
    server.stop().await;
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// Serves `page` on a free loopback port of its own (another site's, to the browser), to
/// every request, from a thread that lasts as long as the test; its address.
fn another_site(page: String) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}/", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut head = Vec::new();
            let mut byte = [0u8];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    address
}

/// A page of another site (another loopback port) that frames the real binary's board shows
/// nothing of it: the page itself loads, its frame holds no part of the board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_sites_page_cannot_show_the_board_in_a_frame() {
    let Some((chromium, chromedriver)) = chrome::tools() else {
        return;
    };
    let (_server, base) = common::binary::start(&["--port", "0"]);
    let elsewhere = another_site(format!(
        "<!doctype html><title>elsewhere</title><p id=\"outer\">another site</p>\
         <iframe src=\"{base}/\" onload=\"window.framed = true\"></iframe>"
    ));
    let (_driver, driver_url) = chrome::start_driver(&chromedriver);
    let scratch = std::env::temp_dir().join(format!("twixt-board-frame-{}", std::process::id()));
    let c = chrome::browser(&chromium, &driver_url, &scratch.join("profile")).await;
    c.goto(&elsewhere).await.unwrap();
    let end = Instant::now() + Duration::from_secs(20);
    while eval(&c, "window.framed === true").await != Value::Bool(true) {
        assert!(Instant::now() < end, "the frame never loaded");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let outer = eval(&c, "document.getElementById('outer').textContent").await;
    assert_eq!(outer, "another site", "the page itself loaded");
    c.enter_frame(0).await.unwrap();
    let inside = eval(&c, "document.documentElement.outerHTML").await;
    let inside = inside.as_str().unwrap_or_default().to_string();
    assert_eq!(
        count(&c, ".hole").await,
        0,
        "the board shows in the frame: {inside:.300}"
    );
    assert_eq!(
        count(&c, "#board, script[src='/board.js']").await,
        0,
        "{inside:.300}"
    );
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The evaluation graph in the real binary: a game opened from a link is valued ply by ply
/// with its progress shown; a click on the graph goes to that ply; a blunder is marked in the
/// move list and on the graph, and its "Play it" plays the engine's better line from the ply
/// before it; a results file's lost games for a side are listed with their collapse, and one
/// opens where it turned. With `TWIXT_BOARD_GRAPH_SCREENSHOT=OUT.png` it saves the picture of the graph
/// (how `docs/board-graph.png` was made).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_evaluation_graph_and_a_results_files_losses_in_chromium() {
    let Some((chromium, chromedriver)) = chrome::tools() else {
        return;
    };
    let (_server, base) = common::binary::start(&["--port", "0"]);
    let (_driver, driver_url) = chrome::start_driver(&chromedriver);
    let scratch = std::env::temp_dir().join(format!("twixt-board-graph-{}", std::process::id()));
    let c = chrome::browser(&chromium, &driver_url, &scratch.join("profile")).await;
    c.goto(&format!("{base}/#moves={}&ply=0", WON.replace(' ', ",")))
        .await
        .unwrap();
    until(
        &c,
        "the whole graph",
        "document.getElementById('graph-info').textContent.startsWith('15 of 15 plies valued')",
    )
    .await;
    let points = eval(
        &c,
        "document.querySelector('#graph-svg .curve').getAttribute('points').split(' ').length",
    )
    .await;
    assert_eq!(points, json!(15), "a point a ply");
    // The graph's middle is ply 7 of 14.
    click(&c, "#graph-svg").await;
    until(
        &c,
        "the ply clicked",
        "document.getElementById('ply-label').textContent === 'move 7 / 14'",
    )
    .await;
    if let Ok(out) = std::env::var("TWIXT_BOARD_GRAPH_SCREENSHOT") {
        std::fs::write(out, c.screenshot().await.unwrap()).unwrap();
    }
    assert!(
        count(&c, "#moves li.blunder").await >= 1,
        "a blunder marked"
    );
    assert_eq!(
        count(&c, "#moves li.blunder").await,
        count(&c, "#graph-svg .mark.blunder").await,
        "the list and the graph mark the same blunders"
    );
    // "N. MOVE blunder (-FALL): better B, line B ... Play it": played out from ply N - 1.
    let mark = eval(
        &c,
        "document.querySelector('#graph-marks li.blunder').textContent",
    )
    .await;
    let mark = mark.as_str().unwrap().to_string();
    let ply: usize = mark.split('.').next().unwrap().parse().unwrap();
    let words = mark.split(", line ").nth(1).unwrap().split_whitespace();
    let line: Vec<Move> = words.filter_map(|m| m.parse().ok()).collect();
    click(&c, "#graph-marks li.blunder button").await;
    let shown = ply - 1 + line.len();
    until(
        &c,
        "the better line played",
        &format!("document.getElementById('ply-label').textContent.startsWith('move {shown} /')"),
    )
    .await;
    let mut played = moves(WON)[..ply - 1].to_vec();
    played.extend(line);
    assert_eq!(drawn(&c).await, expected(&played), "{mark}");
    losses(&c, &scratch).await;
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&scratch);
}

/// A results file's lost games for red: red lost `WON` after its value fell below half at
/// ply 8 (from 52% at ply 6); a click opens that game at ply 8 with the analysis running.
async fn losses(c: &Client, scratch: &std::path::Path) {
    let values = "60% a 55% b 58% c 52% d 40% e 30% f 20% g";
    let mut lost: Value = serde_json::from_str(&record(WON, Some(1), 3)).unwrap();
    lost["messages"] = json!(values.split(' ').collect::<Vec<_>>());
    let file = scratch.join("losses.jsonl");
    let lines = format!("{lost}\n{}\n", record(SHORT, None, 4));
    std::fs::create_dir_all(scratch).unwrap();
    std::fs::write(&file, lines).unwrap();
    click(c, "#games summary").await;
    let input = c.find(Locator::Id("file")).await.unwrap();
    input.send_keys(file.to_str().unwrap()).await.unwrap();
    until(
        c,
        "the sides offered",
        "document.querySelectorAll('#losses-side option').length === 3",
    )
    .await;
    let side = c.find(Locator::Id("losses-side")).await.unwrap();
    side.select_by_value("red-bot").await.unwrap();
    until(
        c,
        "red's losses",
        "document.querySelectorAll('#losses li').length === 1",
    )
    .await;
    assert_eq!(
        text(c, "losses-info").await,
        "1 lost of 2 games (0 won, 1 drawn)"
    );
    let loss = text(c, "losses").await;
    assert!(
        loss.contains("collapse at ply 8, E11 (52% before"),
        "{loss}"
    );
    click(c, "#losses li").await;
    until(
        c,
        "the ply before the collapse, analysed",
        "document.getElementById('ply-label').textContent === 'move 8 / 14' && document.getElementById('analysis-info').textContent.startsWith('search')",
    )
    .await;
}

async fn walk(c: &Client, base: &str, scratch: &std::path::Path) {
    c.goto(&format!("{base}/")).await.unwrap();
    until(
        c,
        "the page starts",
        "document.getElementById('status').textContent !== 'connecting…'",
    )
    .await;

    // Play red against the bot at 300 ms a move.
    click(c, "input[name=clock][value=ms]").await;
    let ms = c.find(Locator::Id("clock-ms")).await.unwrap();
    ms.clear().await.unwrap();
    ms.send_keys("300").await.unwrap();
    click(c, "#new").await;
    until(
        c,
        "a new game",
        "document.getElementById('status').textContent.includes('your move')",
    )
    .await;
    for (k, hole) in ["C1", "E2"].iter().enumerate() {
        click(c, &format!("#spots .spot[data-cell='{hole}']")).await;
        let n = 2 * (k + 1);
        until(c, "the bot answers", &format!("document.querySelectorAll('#moves li').length === {n} && document.getElementById('status').textContent.includes('your move')")).await;
        let played = listed(c).await;
        assert_eq!(played[2 * k], hole.parse().unwrap());
        assert_eq!(
            drawn(c).await,
            expected(&played),
            "after the bot's answer {}",
            played[n - 1]
        );
        if let Move::Peg(answer) = played[n - 1] {
            assert_eq!(
                count(c, &format!("#pieces .peg.p1[data-cell='{answer}']")).await,
                1
            );
        }
        assert_eq!(count(c, "#pieces .ring").await, 1);
    }
    click(c, "#takeback").await;
    until(
        c,
        "a take back",
        "document.querySelectorAll('#moves li').length === 2",
    )
    .await;
    assert_eq!(drawn(c).await, expected(&listed(c).await));

    // The analysis: live lines, heat and the expected line; then stop.
    let secs = c.find(Locator::Id("analysis-s")).await.unwrap();
    secs.clear().await.unwrap();
    secs.send_keys("20").await.unwrap();
    click(c, "#go").await;
    until(c, "heat and a line", "document.querySelectorAll('#heat .heat').length >= 5 && document.querySelectorAll('#line .pv').length >= 2 && document.querySelectorAll('#lines tbody tr').length >= 5").await;
    let iterations = |t: String| -> u64 {
        t.split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let first = iterations(text(c, "analysis-info").await);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let later = iterations(text(c, "analysis-info").await);
    assert!(
        later > first && first > 0,
        "the view is live: {first} then {later} iterations"
    );
    let both = eval(c, "[document.querySelector('#lines tbody tr td').textContent, document.querySelector('#line .pv').dataset.cell]").await;
    assert_eq!(
        both[0], both[1],
        "the expected line starts with the most visited move"
    );
    let unheated = eval(c, "Array.from(document.querySelectorAll('#lines tbody tr')).map(function (r) { return [r.cells[0].textContent, Number(r.cells[1].textContent)]; }).filter(function (m) { return m[1] > 0 && !document.querySelector('#heat .heat[data-cell=\"' + m[0] + '\"]'); })").await;
    assert_eq!(
        unheated,
        json!([]),
        "every visited move of the table is on the heat map"
    );
    click(c, "#stop").await;
    until(
        c,
        "the analysis stops",
        "document.getElementById('analysis-info').textContent.includes('stopped')",
    )
    .await;

    // A results file from the browser: two games, stepped through with keys and buttons.
    let file = scratch.join("results.jsonl");
    std::fs::write(
        &file,
        format!(
            "{}\nnot a record\n{}\n",
            record(WON, Some(1), 3),
            record(SHORT, None, 4)
        ),
    )
    .unwrap();
    click(c, "#games summary").await;
    c.find(Locator::Id("file"))
        .await
        .unwrap()
        .send_keys(file.to_str().unwrap())
        .await
        .unwrap();
    until(
        c,
        "the games are listed",
        "document.querySelectorAll('#gamelist option').length === 2",
    )
    .await;
    assert!(text(c, "left-out")
        .await
        .contains("line 2: not a game record"));
    until(
        c,
        "game 1 at its start",
        "document.getElementById('ply-label').textContent === 'move 0 / 14'",
    )
    .await;
    click(c, "#ply-label").await;
    let won = moves(WON);
    for n in 1..=3 {
        key(c, Key::Right).await;
        until(
            c,
            "a step",
            &format!("document.getElementById('ply-label').textContent === 'move {n} / 14'"),
        )
        .await;
        assert_eq!(drawn(c).await, expected(&won[..n]), "move {n}");
    }
    key(c, Key::Left).await;
    until(
        c,
        "a step back",
        "document.getElementById('ply-label').textContent === 'move 2 / 14'",
    )
    .await;
    click(c, "#last").await;
    until(
        c,
        "the end",
        "document.getElementById('ply-label').textContent === 'move 14 / 14'",
    )
    .await;
    assert_eq!(drawn(c).await, expected(&won));
    assert_eq!(
        count(c, "#pieces .glow").await,
        6,
        "the chain that won glows"
    );
    assert!(text(c, "status").await.starts_with("Player 1 wins"));
    click(c, "#prev").await;
    until(
        c,
        "one back",
        "document.querySelectorAll('#pieces .glow').length === 0",
    )
    .await;

    // The other game, analysed at its third move, exported as a turn input.
    c.find(Locator::Id("gamelist"))
        .await
        .unwrap()
        .select_by_value("2")
        .await
        .unwrap();
    until(
        c,
        "game 2",
        "document.getElementById('ply-label').textContent === 'move 0 / 5'",
    )
    .await;
    click(c, "#moves li:nth-child(3)").await;
    until(
        c,
        "move 3",
        "document.getElementById('ply-label').textContent === 'move 3 / 5'",
    )
    .await;
    click(c, "#go").await;
    until(
        c,
        "heat at move 3",
        "document.querySelectorAll('#heat .heat').length >= 5",
    )
    .await;
    click(c, "#stop").await;
    click(c, "#export summary").await;
    click(c, "#show-turn").await;
    until(
        c,
        "the turn input",
        "document.getElementById('turn').textContent.length > 0",
    )
    .await;
    let short = moves(SHORT);
    assert_eq!(
        text(c, "turn").await,
        turn_input(&RefGame::from_moves(&short[..3]).unwrap())
    );

    // A position set up peg by peg, of either colour, then analysed.
    click(c, "#setup summary").await;
    click(c, "#setup-clear").await;
    until(c, "an empty set-up board", "document.querySelectorAll('#pieces .peg').length === 0 && document.getElementById('status').textContent.startsWith('Set-up')").await;
    for (hole, colour) in [("F6", "0"), ("G8", "0"), ("E8", "1")] {
        click(c, &format!("input[name=colour][value='{colour}']")).await;
        let before = count(c, "#pieces .peg").await;
        click(c, &format!("#spots .spot[data-cell='{hole}']")).await;
        until(
            c,
            "a set-up peg",
            &format!(
                "document.querySelectorAll('#pieces .peg').length === {}",
                before + 1
            ),
        )
        .await;
    }
    let (pegs, links) = drawn(c).await;
    assert_eq!(
        (pegs, links),
        (vec!["E8:1".to_string(), "F6:0".into(), "G8:0".into()], 1)
    );
    click(c, "#spots .spot[data-cell='E8']").await;
    until(
        c,
        "a peg taken away",
        "document.querySelectorAll('#pieces .peg').length === 2",
    )
    .await;
    click(c, "#go").await;
    until(
        c,
        "heat on the set-up position",
        // Any heat. Player 0 to move two linked pegs up is a won game to the network: two
        // moves value near 0.88 and the rest at most 0.56, so the search may visit no third.
        "document.querySelectorAll('#heat .heat').length >= 1",
    )
    .await;
    click(c, "#stop").await;

    // A report's link opens its game at its move.
    c.goto(&format!("{base}/?from=report#moves=E5,F7,G9&ply=2"))
        .await
        .unwrap();
    until(
        c,
        "the linked game",
        "document.getElementById('ply-label').textContent === 'move 2 / 3'",
    )
    .await;
    assert_eq!(drawn(c).await, expected(&moves("E5 F7")));
}

/// A picture of a game in analysis, saved to `out`.
async fn screenshot(c: &Client, base: &str, out: &str) {
    let moves = std::env::var("TWIXT_BOARD_SCREENSHOT_MOVES").unwrap_or(WON.replace(' ', ","));
    let ply = std::env::var("TWIXT_BOARD_SCREENSHOT_PLY").unwrap_or("9".into());
    c.goto(&format!("{base}/?shot#moves={moves}&ply={ply}"))
        .await
        .unwrap();
    until(
        c,
        "the game",
        &format!("document.getElementById('ply-label').textContent.startsWith('move {ply} /')"),
    )
    .await;
    click(c, "#go").await;
    tokio::time::sleep(Duration::from_secs(4)).await;
    std::fs::write(out, c.screenshot().await.unwrap()).unwrap();
    click(c, "#stop").await;
}
