//! The real `twixt-board` binary, started as a person starts it (with `--host` another
//! loopback address, which the requests then name): an upload of junk as large as the limit
//! allows is refused with the first bad lines named and the rest counted, the server's resident
//! memory stays near what it was, and the board plays on.

mod common;

use common::binary::start;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use twixt_board::library::NAMED;
use twixt_board::routes::UPLOAD_LIMIT;

/// A line of /proc/PID/status, in kB (`VmRSS`: resident now; `VmHWM`: the most so far).
fn memory_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// `method path` with a JSON `body` (or none); the status and the answer as JSON.
async fn call(
    c: &reqwest::Client,
    base: &str,
    method: &str,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = c.request(method, format!("{base}{path}"));
    if !body.is_null() {
        req = req
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    (
        status,
        serde_json::from_str(&resp.text().await.unwrap()).unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_of_junk_at_the_limit_costs_little_memory_and_the_board_plays_on() {
    let (server, base) = start(&["--port", "0", "--host", "127.0.0.2"]);
    let pid = server.child.id();
    let c = reqwest::Client::builder().no_proxy().build().unwrap();
    let page = c.get(format!("{base}/")).send().await.unwrap();
    assert_eq!(page.status(), 200, "the --host address is answered");
    let (status, made) = call(&c, &base, "POST", "/api/boards", Value::Null).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();

    let before = memory_kb(pid, "VmRSS:");
    let junk_lines = (UPLOAD_LIMIT - 2) / 2;
    let mut file = Vec::with_capacity(UPLOAD_LIMIT);
    file.extend_from_slice(b"{\n");
    for _ in 0..junk_lines {
        file.extend_from_slice(b"x\n");
    }
    let resp = c
        .post(format!("{base}/api/boards/{id}/upload"))
        .header("content-type", "text/plain")
        .body(file)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let answer: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    let why = answer["error"].as_str().unwrap();
    assert!(why.starts_with("no game can be opened: line 1: not a game record"));
    assert!(
        why.contains(&format!("; line {NAMED}: not a game record")),
        "{why:.400}"
    );
    assert!(!why.contains(&format!("line {}:", NAMED + 1)), "{why:.400}");
    let more = junk_lines + 1 - NAMED;
    assert!(
        why.ends_with(&format!("; and {more} more lines left out")),
        "{why:.400}"
    );
    let after = memory_kb(pid, "VmRSS:");
    eprintln!(
        "twixt-board's resident memory: {before} kB before the upload of {UPLOAD_LIMIT} bytes, \
         {after} kB after, {} kB at most",
        memory_kb(pid, "VmHWM:")
    );
    assert!(
        after <= before + 100 * 1024,
        "{before} kB before, {after} kB after"
    );

    // The board plays on: a new board, a game against the engine, its answer.
    let (status, made) = call(&c, &base, "POST", "/api/boards", Value::Null).await;
    assert_eq!(status, 201, "{made}");
    let board = format!("/api/boards/{}", made["id"].as_str().unwrap());
    let (status, v) = call(
        &c,
        &base,
        "POST",
        &format!("{board}/new"),
        json!({"seat": 0, "ms": 200}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = call(
        &c,
        &base,
        "POST",
        &format!("{board}/play"),
        json!({"move": "F6"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let until = Instant::now() + Duration::from_secs(10);
    let mut v = v;
    while v["thinking"] == true && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
        v = call(&c, &base, "GET", &board, Value::Null).await.1;
    }
    assert_eq!(v["length"], 2, "the bot answered: {v}");
    assert!(v["over"].is_null(), "{v}");
}
