//! The replay viewer in a real browser: headless Chromium opens a generated report, steps
//! through a recorded game with the keyboard and the buttons, and the board it renders must
//! hold the pegs and links the reference rules give after each move reached.
//!
//! Chromium is found as `$CHROMIUM`, or `chromium`, `chromium-browser` or `google-chrome` on
//! the PATH (`.ci/run` installs Debian's `chromium`). Without one the test says so loudly; it
//! passes on a developer's machine but fails in CI (`CI=true`), where the browser must be.

mod common;

use common::{known_match, report, scratch, KNOWN};
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use twixt::cell::Player;
use twixt::position::Move;
use twixt_reference::RefGame;

/// The browser to drive, if this machine has one.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH")?;
    let names = ["chromium", "chromium-browser", "google-chrome"];
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// Chromium, or `None` after a loud message; a panic in CI.
fn browser() -> Option<Browser> {
    let Some(path) = chromium() else {
        let message = "NO CHROMIUM: the replay viewer's browser test did not run. Install \
                       Debian's chromium (apt-get install chromium) or set CHROMIUM.";
        eprintln!("\n{}\n{message}\n{}\n", "!".repeat(78), "!".repeat(78));
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        return None;
    };
    // As the probe of this machine runs it: no sandbox (root), no GPU, no network chatter.
    let args: Vec<&OsStr> = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .sandbox(false)
        .window_size(Some((1200, 1000)))
        .args(args)
        .build()
        .expect("launch options");
    Some(Browser::new(options).expect("Chromium starts"))
}

/// Runs `js` in the page and returns its value as JSON text (the script stringifies it).
fn eval(tab: &Tab, js: &str) -> String {
    let value = tab
        .evaluate(&format!("JSON.stringify({js})"), false)
        .expect("the script runs")
        .value;
    value
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The pegs the rendered board shows, as `hole:player` sorted.
fn board_pegs(tab: &Tab) -> Vec<String> {
    let js = "Array.from(document.querySelectorAll('#board .peg'))\
              .map(e => e.dataset.cell + ':' + (e.classList.contains('p1') ? 1 : 0))";
    let mut pegs: Vec<String> = serde_json::from_str(&eval(tab, js)).unwrap();
    pegs.sort();
    pegs
}

fn count(tab: &Tab, selector: &str) -> usize {
    eval(
        tab,
        &format!("document.querySelectorAll('{selector}').length"),
    )
    .parse()
    .unwrap()
}

/// What the reference rules hold after the first `n` moves of `moves`: pegs as
/// `hole:player` sorted, and the number of links.
fn expected(moves: &[Move], n: usize) -> (Vec<String>, usize) {
    let game = RefGame::from_moves(&moves[..n]).unwrap();
    let mut pegs = Vec::new();
    for p in Player::BOTH {
        pegs.extend(game.pegs(p).iter().map(|c| format!("{c}:{}", p.index())));
    }
    pegs.sort();
    let links = game.links(Player::Zero).len() + game.links(Player::One).len();
    (pegs, links)
}

fn assert_board(tab: &Tab, moves: &[Move], n: usize) {
    let (pegs, links) = expected(moves, n);
    assert_eq!(board_pegs(tab), pegs, "pegs after move {n}");
    assert_eq!(count(tab, "#board .link"), links, "links after move {n}");
    let label = eval(tab, "document.getElementById('ply-label').textContent");
    assert_eq!(label, format!("\"move {n} / {}\"", moves.len()));
}

/// The known game's moves in playing order.
fn known_moves() -> Vec<Move> {
    let (zero, one) = (KNOWN[0].split(' '), KNOWN[1].split(' '));
    zero.zip(one)
        .flat_map(|(a, b)| [a, b])
        .map(|m| m.parse().unwrap())
        .collect()
}

/// A report of the known match, written in `dir`.
fn known_report(dir: &Path) -> PathBuf {
    let (run, out) = report(dir, &known_match(dir), &[]);
    assert_eq!(run.output.status.code(), Some(0), "{}", run.stdout());
    out
}

#[test]
fn the_viewer_steps_through_a_recorded_game_in_chromium() {
    let Some(browser) = browser() else { return };
    let page = known_report(&scratch("browser"));
    let tab = browser.new_tab().expect("a tab");
    let url = format!("file://{}", page.display());
    tab.navigate_to(&url)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("#board .hole")
        .expect("the board is drawn");
    let moves = known_moves();
    // The first game of the match is the known game; the viewer opens it before any move.
    assert_board(&tab, &moves, 0);
    for _ in 0..9 {
        tab.press_key("ArrowRight").unwrap();
    }
    assert_board(&tab, &moves, 9);
    tab.press_key("ArrowLeft").unwrap();
    tab.press_key("ArrowLeft").unwrap();
    assert_board(&tab, &moves, 7);
    tab.find_element("#next").unwrap().click().unwrap();
    assert_board(&tab, &moves, 8);
    tab.press_key("End").unwrap();
    assert_board(&tab, &moves, moves.len());
    // The end: A5 C6 E5 G6 I5 K6 L8 glow, the last move is ringed, the reason is given.
    assert_eq!(count(&tab, "#board .glow"), 6);
    assert_eq!(count(&tab, "#board .ring"), 1);
    let ending = eval(&tab, "document.getElementById('ending').textContent");
    assert!(ending.contains("Player 1 wins (connected)"), "{ending}");
    let current = eval(
        &tab,
        "document.querySelector('#moves li.current').textContent",
    );
    assert!(
        current.starts_with("\"L8"),
        "the last move is marked: {current}"
    );
    // A click on the second game's row opens it before its first move; it has none but the
    // barred one, so its board stays empty.
    tab.find_element("tr[data-game=\"1\"]")
        .unwrap()
        .click()
        .unwrap();
    let label = eval(&tab, "document.getElementById('ply-label').textContent");
    assert_eq!(label, "\"move 0 / 0\"");
    assert_eq!(board_pegs(&tab), Vec::<String>::new());
}
