//! The API under bad input and load, through real HTTP on the loopback: hundreds of malformed,
//! illegal, oversized and misdirected requests must each get a 4xx with a reason (never a 5xx,
//! never a hang), and then a whole game is played against the engine, exported and read back.

mod common;

use common::{analysis_ended, client, json, new_board, raw, send, settled, Server};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use twixt_board::opponent::Kind;
use twixt_board::Config;
use twixt_referee::record::GameRecord;

/// Asserts a refusal: a 4xx whose JSON names a reason.
fn refused(a: &common::Answer, what: &str) {
    assert!(
        (400..500).contains(&a.status),
        "{what}: status {} {}",
        a.status,
        a.body
    );
    let why = a.body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: no reason in {}", a.body));
    assert!(!why.is_empty(), "{what}");
}

/// Junk of every shape a JSON body can take.
fn junk(rng: &mut rand::rngs::StdRng) -> Vec<u8> {
    let words = [
        "E5",
        "Z9",
        "SWAP",
        "swap",
        "",
        "E",
        "5E",
        "A1",
        "L12",
        "E13",
        "E0",
        "e5",
        "E5 F7",
        "\u{1F600}",
        "M5",
    ];
    let word = words[rng.gen_range(0..words.len())];
    let n: i64 = rng.gen_range(-5..200);
    let value = match rng.gen_range(0..14) {
        0 => json!({ "move": word }),
        1 => json!({ "move": n }),
        2 => json!({ "ply": n }),
        3 => json!({ "ply": word }),
        4 => json!({ "seat": n, "ms": n * 1000 }),
        5 => json!({ "ms": n * n * n }),
        6 => json!({ "game": n }),
        7 => json!({ "moves": format!("{word} {word} E5") }),
        8 => json!({ "pegs": [[word, n]], "to_move": n }),
        9 => json!({ "unknown": true, "move": "E5" }),
        10 => json!([word, n]),
        11 => Value::Null,
        12 => json!({ "pegs": vec![json!(["F6", 0]); 3], "to_move": 0 }),
        _ => return (0..rng.gen_range(0..64)).map(|_| rng.gen()).collect(),
    };
    value.to_string().into_bytes()
}

const ROUTES: [(&str, &str); 12] = [
    ("POST", "new"),
    ("POST", "play"),
    ("POST", "goto"),
    ("POST", "setup"),
    ("POST", "analysis"),
    ("POST", "moves"),
    ("POST", "open"),
    ("POST", "upload"),
    ("GET", "turn"),
    ("POST", "takeback"),
    ("POST", "bot"),
    ("GET", "record"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hundreds_of_bad_requests_are_refused_with_reasons_then_a_game_is_played() {
    let config = Config {
        max_boards: 8,
        max_searches: 2,
        ..Config::default()
    };
    let server = Server::start(config).await;
    let (c, base) = (client(), server.base.clone());
    let id = new_board(&c, &base).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let mut refusals = 0;

    // Unknown boards, routes and methods.
    for path in [
        "/api/boards/0123456789abcdef",
        "/api/boards/x",
        "/nothing",
        "/api/boards/%00%ff/play",
        "/api/boards/../../etc/passwd",
    ] {
        let a = send(&c, &base, "GET", path, None).await;
        assert!((400..500).contains(&a.status), "{path}: {}", a.status);
        refusals += 1;
    }
    let long = "a".repeat(5000);
    refused(
        &send(&c, &base, "GET", &format!("/api/boards/{long}"), None).await,
        "a long id",
    );
    refused(
        &send(&c, &base, "DELETE", &format!("/api/boards/{id}/play"), None).await,
        "a wrong method",
    );
    refused(
        &json(
            &c,
            &base,
            "POST",
            "/api/boards/feedfeedfeedfeed/play",
            json!({"move": "E5"}),
        )
        .await,
        "an unknown board",
    );

    // Random junk at every route, on a board that holds a game in progress.
    // A bot asked by the junk answers within 100 ms.
    json(
        &c,
        &base,
        "POST",
        &format!("/api/boards/{id}/new"),
        json!({"seat": null, "ms": 100}),
    )
    .await;
    refused(
        &json(
            &c,
            &base,
            "POST",
            &format!("/api/boards/{id}/moves"),
            json!({"moves": "F6 G7 SWAP"}),
        )
        .await,
        "a late swap",
    );
    let ok = json(
        &c,
        &base,
        "POST",
        &format!("/api/boards/{id}/moves"),
        json!({"moves": "F6 E7 G8"}),
    )
    .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    for _ in 0..300 {
        let (method, route) = ROUTES[rng.gen_range(0..ROUTES.len())];
        let body = junk(&mut rng);
        let a = send(
            &c,
            &base,
            method,
            &format!("/api/boards/{id}/{route}"),
            Some(body.clone()),
        )
        .await;
        assert!(
            a.status < 500,
            "{method} {route} {:?}: {} {}",
            String::from_utf8_lossy(&body),
            a.status,
            a.body
        );
        if a.status >= 400 {
            refused(&a, route);
            refusals += 1;
        }
        // Whatever junk was taken, stop what it started so that the next request is judged alone.
        send(
            &c,
            &base,
            "DELETE",
            &format!("/api/boards/{id}/analysis"),
            None,
        )
        .await;
        settled(&c, &base, &id, Duration::from_secs(15)).await;
    }

    // Each kind of refusal, named.
    let at = |r: &str| format!("/api/boards/{id}/{r}");
    json(&c, &base, "POST", &at("new"), json!({"seat": null})).await;
    json(&c, &base, "POST", &at("play"), json!({"move": "F6"})).await;
    let cases: Vec<(&str, Value, &str)> = vec![
        ("play", json!({"move": "Z9"}), "off the 12x12 board"),
        ("play", json!({"move": "F6"}), "already has a peg"),
        ("play", json!({"move": "E1"}), "opponent's border"),
        ("play", json!({"move": "E5", "x": 1}), "unknown field"),
        ("goto", json!({"ply": 7}), "past the end"),
        ("goto", json!({"ply": -1}), "invalid value"),
        ("new", json!({"seat": 2}), "seat must be 0 or 1"),
        (
            "new",
            json!({"seat": 0, "ms": 5}),
            "the bot's time must be 100 to 10000 ms",
        ),
        (
            "analysis",
            json!({"ms": 999_999_999}),
            "the analysis's time must be",
        ),
        ("open", json!({"game": 9}), "there is no game 9"),
        (
            "setup",
            json!({"pegs": [["F6", 0], ["F6", 1]], "to_move": 0}),
            "already has a peg",
        ),
        (
            "setup",
            json!({"pegs": vec![json!(["F6", 0]); 141], "to_move": 0}),
            "140 holes",
        ),
        ("moves", json!({"moves": "E5 E5"}), "move 2 (E5)"),
    ];
    for (route, body, why) in cases {
        let a = json(&c, &base, "POST", &at(route), body.clone()).await;
        refused(&a, route);
        assert!(
            a.body["error"].as_str().unwrap().contains(why),
            "{route} {body}: {}",
            a.body
        );
        refusals += 1;
    }
    let big = format!("{{\"moves\": \"{}\"}}", "E5 ".repeat(30_000));
    let a = send(&c, &base, "POST", &at("moves"), Some(big.into_bytes())).await;
    assert_eq!(a.status, 413, "{}", a.body);
    refused(&a, "a body over the limit");
    // A file over the upload limit is refused once the limit is passed.
    let mut request = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n",
        at("upload"),
        base.trim_start_matches("http://"),
        17 << 20
    )
    .into_bytes();
    request.resize(request.len() + (16 << 20) + 4096, b'{');
    let answer = raw(&base, request).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("the request body could not be read"),
        "{answer}"
    );
    let a = send(
        &c,
        &base,
        "POST",
        &at("upload"),
        Some(b"not a record\n{\"moves\":".to_vec()),
    )
    .await;
    refused(&a, "a damaged file");
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .contains("line 2: not a game record"),
        "{}",
        a.body
    );
    let a = send(
        &c,
        &base,
        "POST",
        &at("upload"),
        Some(vec![0xff, 0xfe, b'E']),
    )
    .await;
    assert!(
        a.body["error"].as_str().unwrap().contains("not UTF-8"),
        "{}",
        a.body
    );
    refusals += 4;

    // Malformed HTTP on a raw connection is refused too.
    let answer = raw(
        &base,
        b"POST /api/boards HTTP/1.1\r\nContent-Length: nope\r\n\r\n".to_vec(),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer:?}");
    assert!(refusals >= 200, "only {refusals} refusals");

    // Many tabs: more boards than the server keeps; the oldest idle ones are given up.
    let mut tabs = Vec::new();
    for _ in 0..12 {
        tabs.push(new_board(&c, &base).await);
    }
    let gone = send(&c, &base, "GET", &format!("/api/boards/{id}"), None).await;
    assert_eq!(
        gone.status, 404,
        "the first board was the least recently used"
    );
    assert!(gone.body["error"]
        .as_str()
        .unwrap()
        .contains("reload the page"));
    let views = futures_all(&c, &base, &tabs[4..]).await;
    assert!(views.iter().all(|&s| s == 200), "{views:?}");
    // At most two analyses at once.
    for (k, tab) in tabs[4..7].iter().enumerate() {
        let a = json(
            &c,
            &base,
            "POST",
            &format!("/api/boards/{tab}/analysis"),
            json!({"ms": 5000}),
        )
        .await;
        if k < 2 {
            assert_eq!(a.status, 200, "{}", a.body);
        } else {
            assert_eq!(a.status, 429, "{}", a.body);
            let why = a.body["error"].as_str().unwrap();
            assert!(why.contains("stop an analysis"), "{why}");
        }
    }
    for tab in &tabs[4..6] {
        send(
            &c,
            &base,
            "DELETE",
            &format!("/api/boards/{tab}/analysis"),
            None,
        )
        .await;
        // A stopped search holds its slot to the end of its slice; the bot needs one.
        analysis_ended(&c, &base, tab).await;
    }

    play_a_game(&c, &base, &tabs[11]).await;
    server.stop().await;
}

/// GETs every board at once; their statuses.
async fn futures_all(c: &reqwest::Client, base: &str, ids: &[String]) -> Vec<u16> {
    let mut handles = Vec::new();
    for id in ids {
        let (c, url) = (c.clone(), format!("{base}/api/boards/{id}"));
        handles.push(tokio::spawn(async move {
            c.get(url).send().await.unwrap().status().as_u16()
        }));
    }
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

/// Plays player 1 against the engine (player 0) at 200 ms a move, taking one move back on
/// the way, until the game ends; checks the clock, the record and the turn input.
async fn play_a_game(c: &reqwest::Client, base: &str, id: &str) {
    let at = |r: &str| format!("/api/boards/{id}/{r}");
    let v = json(c, base, "POST", &at("new"), json!({"seat": 1, "ms": 200})).await;
    assert_eq!(v.status, 200, "{}", v.body);
    let v = settled(c, base, id, Duration::from_secs(5)).await;
    assert_eq!(v["length"], 1, "the bot opened: {v}");
    // The person swaps: the bot's peg becomes the person's, mirrored, and the bot moves on.
    assert_eq!(v["swap_allowed"], true, "{v}");
    let a = json(c, base, "POST", &at("play"), json!({"move": "SWAP"})).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let mut v = settled(c, base, id, Duration::from_secs(5)).await;
    assert_eq!(v["length"], 3, "{v}");
    assert_eq!(v["swap_allowed"], false);
    let swapped = v["drawn"]["pegs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["p"] == 1)
        .count();
    assert_eq!(swapped, 1, "{v}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut took_back = false;
    let start = Instant::now();
    while v["over"].is_null() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the game goes on: {v}"
        );
        assert_eq!(v["to_move"], 1, "{v}");
        let legal = v["legal"].as_array().unwrap();
        let mv = legal[rng.gen_range(0..legal.len())]
            .as_str()
            .unwrap()
            .to_string();
        let a = json(c, base, "POST", &at("play"), json!({"move": mv})).await;
        assert_eq!(a.status, 200, "{}", a.body);
        let again = json(c, base, "POST", &at("play"), json!({"move": mv})).await;
        assert!(again.status == 409 || again.status == 400, "{}", again.body);
        v = settled(c, base, id, Duration::from_secs(5)).await;
        if !took_back && v["length"] == 7 {
            // Back to the person's previous turn: the bot's answer and the person's move go.
            let a = send(c, base, "POST", &at("takeback"), None).await;
            assert_eq!(
                (a.status, a.body["length"].as_u64()),
                (200, Some(5)),
                "{}",
                a.body
            );
            took_back = true;
            v = a.body;
        }
    }
    assert!(took_back);
    let moves = v["moves"].as_array().unwrap();
    for m in moves.iter().filter(|m| m["player"] == 0) {
        assert!(m["ms"].as_u64().unwrap() <= 200, "{m}");
    }
    assert_eq!(v["over"]["reason"], "connected", "{v}");
    assert!(!v["drawn"]["chain"].as_array().unwrap().is_empty());
    let record = send(c, base, "GET", &at("record"), None).await;
    let line = match &record.body {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let r: GameRecord = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(r.moves.len(), moves.len());
    r.reference_game().unwrap();
    assert_eq!(r.cmd0, Kind::Engine.name());
    let turn = send(c, base, "GET", &format!("/api/boards/{id}/turn"), None).await;
    assert!(
        turn.body.as_str().is_some_and(|t| t.lines().count() > 4),
        "{}",
        turn.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_command_that_hangs_or_crashes_is_reported_in_time() {
    for (cmd, reason) in [
        ("sleep 30", "timeout"),
        ("true", "crash"),
        ("echo E1", "illegal"),
    ] {
        let config = Config {
            bot: Kind::Command(cmd.into()),
            ..Config::default()
        };
        let server = Server::start(config).await;
        let (c, base) = (client(), server.base.clone());
        let id = new_board(&c, &base).await;
        let a = json(
            &c,
            &base,
            "POST",
            &format!("/api/boards/{id}/new"),
            json!({"seat": 0, "ms": 200}),
        )
        .await;
        assert_eq!(a.status, 200);
        let a = json(
            &c,
            &base,
            "POST",
            &format!("/api/boards/{id}/play"),
            json!({"move": "F6"}),
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.body);
        let asked = Instant::now();
        let v = settled(&c, &base, &id, Duration::from_secs(5)).await;
        assert!(asked.elapsed() < Duration::from_secs(2), "{cmd}");
        assert_eq!(v["over"]["reason"], reason, "{cmd}: {v}");
        assert_eq!(v["over"]["winner"], 0);
        let a = send(
            &c,
            &base,
            "POST",
            &format!("/api/boards/{id}/takeback"),
            None,
        )
        .await;
        assert_eq!(
            a.status, 200,
            "after a fault the person may take back: {}",
            a.body
        );
        let started = Instant::now();
        server.stop().await;
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{cmd}: the server stops"
        );
    }
    let config = Config {
        bot: Kind::Command("/no/such/bot".into()),
        ..Config::default()
    };
    let server = Server::start(config).await;
    let (c, base) = (client(), server.base.clone());
    let id = new_board(&c, &base).await;
    let a = json(
        &c,
        &base,
        "POST",
        &format!("/api/boards/{id}/new"),
        json!({"seat": 1}),
    )
    .await;
    assert!(
        a.body["bot_note"]
            .as_str()
            .unwrap()
            .contains("cannot start the bot"),
        "{}",
        a.body
    );
    server.stop().await;
}
