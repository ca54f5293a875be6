//! The server-wide bound on searches through real HTTP: the bots' turns and the analyses of
//! all tabs share it.

mod common;

use common::{client, json, new_board, send, settled, Server};
use serde_json::json;
use std::time::Duration;
use twixt_board::Config;

/// The bots' turns and the analyses share one bound: with one search slot taken by another
/// tab's analysis, a move that would start the bot is refused with the reason and not played;
/// a tab's own analysis gives its slot to its bot; once the slot is free the bot plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_turns_and_the_analyses_share_the_search_slots() {
    let config = Config {
        max_searches: 1,
        ..Config::default()
    };
    let server = Server::start(config).await;
    let (c, base) = (client(), server.base.clone());
    let (a, b) = (new_board(&c, &base).await, new_board(&c, &base).await);
    let at = |id: &str, r: &str| format!("/api/boards/{id}/{r}");
    let analysing = json(
        &c,
        &base,
        "POST",
        &at(&a, "analysis"),
        json!({"ms": 60_000}),
    )
    .await;
    assert_eq!(analysing.status, 200, "{}", analysing.body);

    let new = json(
        &c,
        &base,
        "POST",
        &at(&b, "new"),
        json!({"seat": 0, "ms": 200}),
    )
    .await;
    assert_eq!(new.status, 200, "the person moves first: no search yet");
    let busy = [
        json(&c, &base, "POST", &at(&b, "play"), json!({"move": "F6"})).await,
        send(&c, &base, "POST", &at(&b, "bot"), None).await,
        json(
            &c,
            &base,
            "POST",
            &at(&b, "new"),
            json!({"seat": 1, "ms": 200}),
        )
        .await,
        json(&c, &base, "POST", &at(&b, "analysis"), json!({"ms": 1000})).await,
    ];
    for refused in busy {
        assert_eq!(refused.status, 429, "{}", refused.body);
        let why = refused.body["error"].as_str().unwrap();
        assert!(
            why.contains("at most 1 search at once (analyses and bots'"),
            "{why}"
        );
    }
    let v = send(&c, &base, "GET", &format!("/api/boards/{b}"), None).await;
    assert_eq!(
        (v.body["length"].as_u64(), v.body["seat"].as_u64()),
        (Some(0), Some(0))
    );

    // Tab a's bot takes the slot of a's analysis, which a new game stopped.
    let new = json(
        &c,
        &base,
        "POST",
        &at(&a, "new"),
        json!({"seat": 0, "ms": 200}),
    )
    .await;
    assert_eq!(new.status, 200, "{}", new.body);
    let played = json(&c, &base, "POST", &at(&a, "play"), json!({"move": "F6"})).await;
    assert_eq!(played.status, 200, "{}", played.body);
    let v = settled(&c, &base, &a, Duration::from_secs(5)).await;
    assert_eq!(v["length"], 2, "a's bot answered: {v}");

    let played = json(&c, &base, "POST", &at(&b, "play"), json!({"move": "F6"})).await;
    assert_eq!(played.status, 200, "the slot is free: {}", played.body);
    let v = settled(&c, &base, &b, Duration::from_secs(5)).await;
    assert_eq!(v["length"], 2, "b's bot answered: {v}");
    server.stop().await;
}
