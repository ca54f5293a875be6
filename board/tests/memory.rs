//! The memory of every board together, through the real binary under a small budget
//! (`--memory-mb 256`) with a search slot for each board (`--searches 64`): 64 boards each
//! analysing at once, then 8 uploads at the size limit at once. The server's peak resident
//! memory stays within the budget and 200 MB, no board loses anything, and the bot still plays.

mod common;

use common::binary::{self, junk_file, memory_kb, start};
use common::{client, json, send, settled};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use twixt_board::routes::UPLOAD_LIMIT;

/// The test's budget for the search trees, in MiB, unless `TWIXT_BOARD_TEST_MEMORY_MB` says
/// another (to measure at the default, 1024, by hand: its trees take longer to fill).
const BUDGET_MB: u64 = 256;
/// What the server may hold besides its trees, in MiB: itself, its boards, the files being
/// read.
const BESIDES_MB: u64 = 200;
const BOARDS: usize = 64;
const UPLOADS: usize = 8;

/// Creates the boards, each with its own first move, each analysing for a minute; their ids
/// and first moves.
async fn analysing_boards(c: &reqwest::Client, base: &str) -> Vec<(String, String)> {
    let mut boards = Vec::new();
    for i in 0..BOARDS {
        let made = send(c, base, "POST", "/api/boards", None).await;
        assert_eq!(made.status, 201, "{}", made.body);
        let id = made.body["id"].as_str().unwrap().to_string();
        let first = made.body["view"]["legal"][i].as_str().unwrap().to_string();
        let at = |r: &str| format!("/api/boards/{id}/{r}");
        let moved = json(c, base, "POST", &at("moves"), json!({"moves": first})).await;
        assert_eq!(moved.status, 200, "{}", moved.body);
        let a = json(c, base, "POST", &at("analysis"), json!({"ms": 60_000})).await;
        assert_eq!(a.status, 200, "board {i}'s analysis: {}", a.body);
        boards.push((id, first));
    }
    boards
}

/// Waits (a minute at most) until the server holds `kb` or more.
async fn resident_reaches(pid: u32, kb: u64) {
    let until = Instant::now() + Duration::from_secs(60);
    while memory_kb(pid, "VmRSS:") < kb {
        assert!(
            Instant::now() < until,
            "the analyses' trees hold {} kB, not {kb}",
            memory_kb(pid, "VmRSS:")
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sends a junk file at the limit to each of `boards` at once; each is refused, nothing opened.
async fn upload_at_once(c: &reqwest::Client, base: &str, boards: &[(String, String)]) {
    let ids: Vec<String> = boards.iter().map(|(id, _)| id.clone()).collect();
    for (status, body) in binary::upload_at_once(c, base, &ids, junk_file()).await {
        assert_eq!(status, 400, "{body:.300}");
        assert!(body.contains("is not a move"), "{body:.300}");
    }
}

/// A board still shows its one move, and the analysis it was asked for, stopped only now.
fn intact(v: &Value, first: &str) {
    assert_eq!(v["length"], 1, "{v:.300}");
    assert_eq!(v["moves"][0]["mv"], first, "{v:.300}");
    assert_eq!(v["games"], 1, "{v:.300}");
    let analysis = &v["analysis"];
    assert!(analysis["updates"].as_u64().unwrap() > 0, "{v:.300}");
    assert!(
        analysis["ended"].is_null() || analysis["ended"] == "stopped",
        "{v:.300}"
    );
}

/// The budget to measure at, in MiB.
fn budget_mb() -> u64 {
    match std::env::var("TWIXT_BOARD_TEST_MEMORY_MB") {
        Ok(mb) => mb
            .parse()
            .expect("TWIXT_BOARD_TEST_MEMORY_MB is a number of MiB"),
        Err(_) => BUDGET_MB,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_analyses_and_eight_uploads_stay_within_the_budget() {
    let budget_mb = budget_mb();
    let budget = budget_mb.to_string();
    let args = ["--port", "0", "--searches", "64", "--memory-mb", &budget];
    let (server, base) = start(&args);
    let pid = server.child.id();
    let c = client();
    let boards = analysing_boards(&c, &base).await;
    // The trees fill the budget: the server holds it and more.
    resident_reaches(pid, budget_mb * 1024).await;
    upload_at_once(&c, &base, &boards[..UPLOADS]).await;
    // A second more of every analysis: trees not bound by the budget would pass it by far.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let peak = memory_kb(pid, "VmHWM:");
    eprintln!(
        "twixt-board with --memory-mb {budget_mb}: {BOARDS} analyses and {UPLOADS} uploads of \
         {UPLOAD_LIMIT} bytes at once, {peak} kB resident at the peak"
    );
    assert!(
        peak <= (budget_mb + BESIDES_MB) * 1024,
        "{peak} kB at the peak, over {budget_mb} + {BESIDES_MB} MiB"
    );
    for (id, first) in &boards {
        let stop = format!("/api/boards/{id}/analysis");
        let stopped = send(&c, &base, "DELETE", &stop, None).await;
        assert_eq!(stopped.status, 200, "{}", stopped.body);
        intact(&stopped.body, first);
    }

    // The bot plays on the first board, in the memory the analyses gave back.
    let (id, _) = &boards[0];
    let at = |r: &str| format!("/api/boards/{id}/{r}");
    let v = json(&c, &base, "POST", &at("new"), json!({"seat": 0, "ms": 200})).await;
    assert_eq!(v.status, 200, "{}", v.body);
    let v = json(&c, &base, "POST", &at("play"), json!({"move": "F6"})).await;
    assert_eq!(v.status, 200, "{}", v.body);
    let v = settled(&c, &base, id, Duration::from_secs(10)).await;
    assert_eq!(v["length"], 2, "the bot answered: {v}");
    assert!(v["over"].is_null(), "{v}");
}
