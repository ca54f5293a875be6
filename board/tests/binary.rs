//! The real `twixt-board` binary, started as a person starts it (with `--host` another
//! loopback address, which the requests then name): an upload of junk as large as the limit
//! allows is refused with the first bad lines named and the rest counted, the server's peak
//! resident memory grows by little more than the file, and the board plays on; many uploads
//! at once are taken in a few at a time.

mod common;

use axum::body::Bytes;
use common::binary::{memory_kb, start, upload_at_once};
use common::{client, json, new_board, settled};
use serde_json::json;
use std::time::Duration;
use twixt_board::library::NAMED;
use twixt_board::routes::{UPLOADS_AT_ONCE, UPLOAD_LIMIT};

/// The most the server's peak resident memory may grow by while it takes in and reads a file
/// at the limit, in kB: the file (16 MiB), and little besides. A message kept for every one of
/// its eight million lines would take hundreds of megabytes.
const UPLOAD_GROWTH_KB: u64 = 30 * 1024;

/// The lines of junk after the first line's `{` in [`lines_of_junk`].
const JUNK_LINES: usize = (UPLOAD_LIMIT - 2) / 2;

/// A file at the limit that looks like records (its first line starts one) and is all junk:
/// eight million bad lines, each read and left out.
fn lines_of_junk() -> Bytes {
    let mut file = Vec::with_capacity(UPLOAD_LIMIT);
    file.extend_from_slice(b"{\n");
    for _ in 0..JUNK_LINES {
        file.extend_from_slice(b"x\n");
    }
    Bytes::from(file)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_of_junk_at_the_limit_costs_little_memory_and_the_board_plays_on() {
    let (server, base) = start(&["--port", "0", "--host", "127.0.0.2"]);
    let pid = server.child.id();
    let c = client();
    let page = c.get(format!("{base}/")).send().await.unwrap();
    assert_eq!(page.status(), 200, "the --host address is answered");
    let id = new_board(&c, &base).await;

    let before = memory_kb(pid, "VmRSS:");
    let resp = c
        .post(format!("{base}/api/boards/{id}/upload"))
        .header("content-type", "text/plain")
        .body(lines_of_junk())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let answer: serde_json::Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    let why = answer["error"].as_str().unwrap();
    assert!(why.starts_with("no game can be opened: line 1: not a game record"));
    assert!(
        why.contains(&format!("; line {NAMED}: not a game record")),
        "{why:.400}"
    );
    assert!(!why.contains(&format!("line {}:", NAMED + 1)), "{why:.400}");
    let more = JUNK_LINES + 1 - NAMED;
    assert!(
        why.ends_with(&format!("; and {more} more lines left out")),
        "{why:.400}"
    );
    // The peak, not what is resident after: memory given back at the end would hide it.
    let peak = memory_kb(pid, "VmHWM:");
    eprintln!(
        "twixt-board's resident memory: {before} kB before the upload of {UPLOAD_LIMIT} bytes, \
         {peak} kB at most since it started"
    );
    assert!(
        peak <= before + UPLOAD_GROWTH_KB,
        "{before} kB before, {peak} kB at the peak"
    );

    // The board plays on: a new board, a game against the engine, its answer.
    let board = new_board(&c, &base).await;
    let at = |r: &str| format!("/api/boards/{board}/{r}");
    let v = json(&c, &base, "POST", &at("new"), json!({"seat": 0, "ms": 200})).await;
    assert_eq!(v.status, 200, "{}", v.body);
    let v = json(&c, &base, "POST", &at("play"), json!({"move": "F6"})).await;
    assert_eq!(v.status, 200, "{}", v.body);
    let v = settled(&c, &base, &board, Duration::from_secs(10)).await;
    assert_eq!(v["length"], 2, "the bot answered: {v}");
    assert!(v["over"].is_null(), "{v}");
}

/// Eight files at the limit sent at once, each a second's reading, are read a few at a time:
/// the server's peak grows by those few files (and a little), not by all eight.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_at_once_are_read_a_few_at_a_time() {
    let (server, base) = start(&["--port", "0", "--host", "127.0.0.2"]);
    let pid = server.child.id();
    let c = client();
    let mut boards = Vec::new();
    for _ in 0..8 {
        boards.push(new_board(&c, &base).await);
    }
    let before = memory_kb(pid, "VmRSS:");
    let answers = upload_at_once(&c, &base, &boards, lines_of_junk()).await;
    assert!(
        answers.iter().all(|(status, _)| *status == 400),
        "{answers:.300?}"
    );
    let peak = memory_kb(pid, "VmHWM:");
    // The files read at once and one more, for what the allocator keeps of those already read
    // (eight at once would hold all eight), and the little besides an upload.
    let files_kb = ((UPLOADS_AT_ONCE + 1) * UPLOAD_LIMIT / 1024) as u64;
    eprintln!("8 uploads at once: {before} kB before, {peak} kB at the peak");
    assert!(
        peak <= before + files_kb + UPLOAD_GROWTH_KB,
        "{before} kB before, {peak} kB at the peak"
    );
}
