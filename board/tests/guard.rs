//! The guard through real HTTP on the loopback: requests written by hand with another site's
//! host or origin, or a body that is not JSON, are refused with the reason; the page's own
//! requests, and requests from no page (curl), pass; `--host` adds an address, only when given;
//! with a wildcard `--host` the real binary answers only the address a connection reached; no
//! answer may be shown in another page's frame.

mod common;

use common::binary::{port, start};
use common::{by_hand, client, new_board, raw, send, Server};
use serde_json::Value;
use twixt_board::Config;

/// Each request the guard refuses, and each it lets through: another site's host (DNS
/// rebinding) or origin (a page posting across sites) is 403, a body that is not JSON is 415,
/// the page's own origin and no origin at all (curl) pass; what was refused changed nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_boards_own_page_may_drive_it() {
    let server = Server::start(Config::default()).await;
    let (c, base) = (client(), server.base.clone());
    let me = base.trim_start_matches("http://").to_string();
    let port = me.rsplit(':').next().unwrap().to_string();
    let id = new_board(&c, &base).await;
    let board = format!("/api/boards/{id}");
    let plain = "Content-Type: text/plain";
    let json_type = "Content-Type: application/json";
    let evil = "Origin: http://evil.example";
    let own = format!("Origin: http://{me}");
    let mv = r#"{"move": "E5"}"#;
    let cases: Vec<(String, &str, u16, &str)> = vec![
        (
            "GET / HTTP/1.1\r\nHost: evil.example".into(),
            "",
            403,
            "not this board's address",
        ),
        (
            format!("GET / HTTP/1.1\r\nHost: evil.example:{port}"),
            "",
            403,
            "evil.example",
        ),
        (
            format!("GET {board} HTTP/1.1\r\nHost: evil.example:{port}"),
            "",
            403,
            "open it at",
        ),
        (
            format!("POST /api/boards HTTP/1.1\r\nHost: {me}\r\n{evil}\r\n{plain}"),
            "x",
            403,
            "another site",
        ),
        (
            format!("POST /api/boards HTTP/1.1\r\nHost: {me}\r\n{evil}"),
            "",
            403,
            "http://evil.example",
        ),
        (
            format!("POST {board}/play HTTP/1.1\r\nHost: {me}\r\n{evil}\r\n{json_type}"),
            mv,
            403,
            "another site",
        ),
        (
            format!("DELETE {board}/analysis HTTP/1.1\r\nHost: {me}\r\n{evil}"),
            "",
            403,
            "another site",
        ),
        (
            format!("POST {board}/evaluation HTTP/1.1\r\nHost: {me}\r\n{evil}"),
            "",
            403,
            "another site",
        ),
        (
            format!("POST {board}/upload HTTP/1.1\r\nHost: {me}\r\n{evil}\r\n{plain}"),
            "E5 F7",
            403,
            "another site",
        ),
        (
            format!("POST {board}/play HTTP/1.1\r\nHost: {me}\r\n{plain}"),
            mv,
            415,
            "application/json",
        ),
        (
            format!("POST {board}/play HTTP/1.1\r\nHost: {me}\r\n{own}"),
            mv,
            415,
            "the type given: none",
        ),
        (
            format!("POST /api/boards HTTP/1.1\r\nHost: {me}\r\n{plain}"),
            "",
            415,
            "text/plain",
        ),
    ];
    for (head, body, status, why) in &cases {
        let (got, answer) = by_hand(&base, head, body).await;
        assert_eq!(got, *status, "{head}: {answer}");
        let reason: Value = serde_json::from_str(&answer).unwrap();
        let reason = reason["error"].as_str().unwrap();
        assert!(reason.contains(why), "{head}: {reason}");
    }
    let v = send(&c, &base, "GET", &board, None).await;
    assert_eq!(
        v.body["length"], 0,
        "nothing refused was played: {}",
        v.body
    );

    let accepted: Vec<(String, &str, u16)> = vec![
        (format!("GET / HTTP/1.1\r\nHost: localhost:{port}"), "", 200),
        ("GET / HTTP/1.1\r\nHost: 127.0.0.1".into(), "", 200),
        (format!("GET {board} HTTP/1.1\r\nHost: [::1]:{port}\r\n{evil}"), "", 200),
        (format!("POST {board}/play HTTP/1.1\r\nHost: {me}\r\n{own}\r\n{json_type}"), mv, 200),
        (format!("POST /api/boards HTTP/1.1\r\nHost: localhost:{port}\r\nOrigin: http://localhost:{port}"), "", 201),
        (format!("POST /api/boards HTTP/1.1\r\nHost: {me}"), "", 201),
        (format!("POST {board}/upload HTTP/1.1\r\nHost: {me}\r\n{own}\r\n{plain}"), "E5 F7", 200),
    ];
    for (head, body, status) in &accepted {
        let (got, answer) = by_hand(&base, head, body).await;
        assert_eq!(got, *status, "{head}: {answer}");
    }
    let v = send(&c, &base, "GET", &board, None).await;
    assert_eq!(
        v.body["length"], 2,
        "the upload's game is shown: {}",
        v.body
    );
    server.stop().await;
}

/// The `--host` address is answered when it is the one given, and only then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_host_address_is_answered_only_when_given() {
    let config = Config {
        host: "127.0.0.2".parse().unwrap(),
        ..Config::default()
    };
    let server = Server::start_on("127.0.0.2", config).await;
    let (c, base) = (client(), server.base.clone());
    let me = base.trim_start_matches("http://").to_string();
    let page = send(&c, &base, "GET", "/", None).await;
    assert_eq!(page.status, 200);
    let id = new_board(&c, &base).await;
    let head = format!("POST /api/boards/{id}/play HTTP/1.1\r\nHost: {me}\r\nOrigin: http://{me}\r\nContent-Type: application/json");
    let (status, answer) = by_hand(&base, &head, r#"{"move": "F6"}"#).await;
    assert_eq!(status, 200, "{answer}");
    let other = me.replace("127.0.0.2", "127.0.0.3");
    let (status, answer) = by_hand(&base, &format!("GET / HTTP/1.1\r\nHost: {other}"), "").await;
    assert_eq!(status, 403, "{answer}");
    server.stop().await;

    let server = Server::start_on("127.0.0.2", Config::default()).await;
    let a = send(&c, &server.base, "GET", "/", None).await;
    assert_eq!(a.status, 403, "not given: {}", a.body);
    let port = server.base.rsplit(':').next().unwrap().to_string();
    let why = a.body["error"].as_str().unwrap();
    assert!(
        why.contains(&format!("open it at http://127.0.0.1:{port}/")),
        "{why}"
    );
    server.stop().await;
}

/// With a wildcard `--host` the real binary answers, as its host, the address a connection
/// reached (and the loopback's names over the loopback), not any address written in digits;
/// and a page of another address at the same port may not change the board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_wildcard_host_only_the_address_reached_is_the_boards() {
    let (_server, base) = start(&["--port", "0", "--host", "0.0.0.0"]);
    let port = port(&base);
    assert_eq!(
        base,
        format!("http://127.0.0.1:{port}"),
        "an address to open"
    );
    let reached = format!("http://127.0.0.2:{port}");
    let get = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}");
    for host in [format!("127.0.0.2:{port}"), format!("localhost:{port}")] {
        let (status, answer) = by_hand(&reached, &get(&host), "").await;
        assert_eq!(status, 200, "{host}: {answer:.300}");
    }
    for host in [format!("127.0.0.3:{port}"), format!("10.1.2.3:{port}")] {
        let (status, answer) = by_hand(&reached, &get(&host), "").await;
        assert_eq!(status, 403, "{host}: {answer}");
        let why = format!("is not this board's address: open it at {reached}/");
        assert!(answer.contains(&why), "{answer}");
    }
    let post = |origin: &str| {
        format!("POST /api/boards HTTP/1.1\r\nHost: 127.0.0.2:{port}\r\nOrigin: {origin}")
    };
    for origin in [
        format!("http://127.0.0.3:{port}"),
        format!("http://10.1.2.3:{port}"),
    ] {
        let (status, answer) = by_hand(&reached, &post(&origin), "").await;
        assert_eq!(status, 403, "{origin}: {answer}");
        assert!(answer.contains("a page of another site"), "{answer}");
    }
    let (status, answer) = by_hand(&reached, &post(&format!("http://127.0.0.2:{port}")), "").await;
    assert_eq!(status, 201, "{answer}");
}

/// The lines of an answer's head, lower-cased.
fn head_lines(answer: &str) -> Vec<String> {
    let head = answer.split("\r\n\r\n").next().unwrap_or("");
    head.lines().map(str::to_ascii_lowercase).collect()
}

/// Every answer of the real binary forbids frames, the refusals' too: the page's policy says
/// `frame-ancestors 'none'`, and `X-Frame-Options` says `DENY`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_may_be_shown_in_a_frame() {
    let (_server, base) = start(&["--port", "0"]);
    let me = base.trim_start_matches("http://");
    let requests = [
        (format!("GET / HTTP/1.1\r\nHost: {me}"), "200"),
        (format!("GET /board.js HTTP/1.1\r\nHost: {me}"), "200"),
        (format!("POST /api/boards HTTP/1.1\r\nHost: {me}"), "201"),
        (format!("GET /nowhere HTTP/1.1\r\nHost: {me}"), "404"),
        ("GET / HTTP/1.1\r\nHost: evil.example".to_string(), "403"),
    ];
    for (head, status) in &requests {
        let request = format!("{head}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        let answer = raw(&base, request.into_bytes()).await;
        let lines = head_lines(&answer);
        assert!(lines[0].contains(status), "{head}: {}", lines[0]);
        assert!(
            lines.contains(&"x-frame-options: deny".to_string()),
            "{head}: {lines:?}"
        );
        let policy = lines
            .iter()
            .find(|l| l.starts_with("content-security-policy:"));
        assert!(
            policy.is_some_and(|p| p.contains("frame-ancestors 'none'")),
            "{head}: {lines:?}"
        );
    }
}
