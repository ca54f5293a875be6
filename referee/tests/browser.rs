//! The replay viewer in a real browser: headless Chromium opens a generated report, steps
//! through a recorded game with the keyboard and the buttons, and the board it renders must
//! hold the pegs and links the reference rules give after each move reached.
//!
//! Chromium is driven by its own command line, with no client library: `--dump-dom` prints
//! the page as its scripts left it. The test writes a copy of the report with a script of its
//! own appended, which presses the keys and buttons as a user would (the viewer's own event
//! handlers run) and writes what the board showed at each stop into the page as JSON.
//!
//! Chromium is found as `$CHROMIUM`, or `chromium`, `chromium-browser` or `google-chrome` on
//! the PATH (`.ci/run` installs Debian's `chromium`). Without one the test says so loudly; it
//! passes on a developer's machine but fails in CI (`CI=true`), where the browser must be.

mod common;

use common::{known_match, report, scratch, KNOWN};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use twixt::cell::Player;
use twixt::position::Move;
use twixt_reference::RefGame;

/// The browser to run, if this machine has one.
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

/// Chromium's DOM of `url` once its scripts have run.
fn dump_dom(chromium: &Path, url: &str, profile: &Path) -> String {
    // As the probe of this machine runs it: no sandbox (root), no GPU, no network chatter.
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1200,1000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("Chromium starts");
    assert!(
        out.status.success(),
        "Chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the DOM is text")
}

/// What the page showed at one stop of the walk.
#[derive(Debug, Deserialize)]
struct Stop {
    /// The pegs as `hole:player`, sorted.
    pegs: Vec<String>,
    links: usize,
    glow: usize,
    ring: usize,
    label: String,
    ending: String,
    /// The marked move in the list, if any.
    current: Option<String>,
    hash: String,
}

/// The script appended to the page: `stop()` records what the board shows; the walk between
/// the stops presses keys and clicks as a user would.
const SNAPSHOT: &str = r#"
function stop() {
  var pegs = Array.from(document.querySelectorAll('#board .peg'))
    .map(function (e) { return e.dataset.cell + ':' + (e.classList.contains('p1') ? 1 : 0); });
  var current = document.querySelector('#moves li.current');
  stops.push({
    pegs: pegs.sort(),
    links: document.querySelectorAll('#board .link').length,
    glow: document.querySelectorAll('#board .glow').length,
    ring: document.querySelectorAll('#board .ring').length,
    label: document.getElementById('ply-label').textContent,
    ending: document.getElementById('ending').textContent,
    current: current ? current.textContent : null,
    hash: location.hash
  });
}
function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); }
function click(selector) { document.querySelector(selector).click(); }
"#;

/// A copy of the report at `page` with `walk` (JavaScript using `stop`, `key` and `click`)
/// run after the viewer, its stops written into a `<pre id="stops">`.
fn with_walk(page: &Path, walk: &str) -> PathBuf {
    let html = std::fs::read_to_string(page).unwrap();
    let script = format!(
        "<script>\nvar stops = [];\n{SNAPSHOT}\n{walk}\nvar pre = document.createElement('pre');\
         \npre.id = 'stops';\npre.textContent = JSON.stringify(stops);\
         \ndocument.body.appendChild(pre);\n</script>\n</body>"
    );
    assert!(html.contains("</body>"), "the report ends its body");
    let walked = page.with_file_name("walked.html");
    std::fs::write(&walked, html.replacen("</body>", &script, 1)).unwrap();
    walked
}

/// The stops the walk recorded in the dumped DOM.
fn stops(dom: &str) -> Vec<Stop> {
    let start = dom.find("<pre id=\"stops\">").expect("the walk ran") + "<pre id=\"stops\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    // A text node escapes only these three in HTML serialisation.
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
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

fn assert_board(stop: &Stop, moves: &[Move], n: usize) {
    let (pegs, links) = expected(moves, n);
    assert_eq!(stop.pegs, pegs, "pegs after move {n}");
    assert_eq!(stop.links, links, "links after move {n}");
    assert_eq!(stop.label, format!("move {n} / {}", moves.len()));
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
    let Some(chromium) = chromium() else {
        common::unavailable(
            "NO CHROMIUM: the replay viewer's browser test did not run. Install Debian's \
             chromium (apt-get install chromium) or set CHROMIUM.",
        );
        return;
    };
    let dir = scratch("browser");
    let page = known_report(&dir);
    let walk = "stop();\
                for (var i = 0; i < 9; i++) key('ArrowRight'); stop();\
                key('ArrowLeft'); key('ArrowLeft'); stop();\
                click('#next'); stop();\
                key('End'); stop();\
                click('tr[data-game=\"1\"]'); stop();";
    let url = format!("file://{}", with_walk(&page, walk).display());
    let walked = stops(&dump_dom(&chromium, &url, &dir.join("profile")));
    let moves = known_moves();
    assert_eq!(walked.len(), 6, "{walked:?}");
    // The first game of the match is the known game; the viewer opens it before any move.
    for (stop, n) in walked.iter().zip([0, 9, 7, 8, moves.len()]) {
        assert_board(stop, &moves, n);
        assert_eq!(stop.hash, format!("#game=1&move={n}"));
    }
    // The end: A5 C6 E5 G6 I5 K6 L8 glow, the last move is ringed and marked, the reason given.
    let end = &walked[4];
    assert_eq!((end.glow, end.ring), (6, 1));
    assert!(end.ending.contains("Player 1 wins (connected)"), "{end:?}");
    let current = end.current.as_deref().unwrap_or_default();
    assert!(
        current.starts_with("L8"),
        "the last move is marked: {end:?}"
    );
    assert_eq!((walked[0].glow, walked[0].ring), (0, 0));
    // A click on the second game's row opens it before its first move; it has none but the
    // barred one, so its board stays empty.
    let second = &walked[5];
    assert_eq!(
        (second.label.as_str(), second.pegs.len()),
        ("move 0 / 0", 0)
    );
    assert_eq!(second.hash, "#game=2&move=0");
    // A link of the form #game=N&move=K opens that game at that move.
    let linked = format!("file://{}#game=1&move=5", page.display());
    let dom = dump_dom(&chromium, &linked, &dir.join("profile"));
    let board = &dom[dom.find("id=\"board\"").expect("the board is drawn")..];
    let (pegs, _) = expected(&moves, 5);
    for peg in &pegs {
        let (cell, player) = peg.split_once(':').unwrap();
        let drawn = format!("class=\"peg p{player}\" data-cell=\"{cell}\"");
        assert!(board.contains(&drawn), "{drawn} after move 5");
    }
    assert_eq!(board.matches("class=\"peg ").count(), pegs.len());
    assert!(dom.contains("move 5 / 14"));
}
