//! The evaluation graph through real HTTP: drawn ply by ply in the board's view, within the
//! search slots, and dropped when the board leaves the game.

mod common;

use common::{client, json, new_board, send, Server};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use twixt_board::Config;

const GAME: &str = "F6 E7 G8 H5 J7 D9";

/// The view once the graph has stopped running (at most thirty seconds).
async fn graph_done(c: &reqwest::Client, base: &str, id: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let v = send(c, base, "GET", &format!("/api/boards/{id}"), None).await;
        if v.body["graph"]["running"] != true {
            return v.body;
        }
        assert!(Instant::now() < until, "the graph goes on: {}", v.body);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A pasted game's graph values every ply for the player to move, the same each time; the
/// marks name their better move; opening a game or setting a position up drops it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_graph_values_every_ply_and_goes_with_the_game() {
    let server = Server::start(Config::default()).await;
    let (c, base) = (client(), server.base.clone());
    let id = new_board(&c, &base).await;
    let at = |r: &str| format!("/api/boards/{id}/{r}");
    let pasted = json(&c, &base, "POST", &at("moves"), json!({ "moves": GAME })).await;
    assert_eq!(pasted.status, 200, "{}", pasted.body);
    assert_eq!(pasted.body["graph"], Value::Null, "made on request only");
    let started = send(&c, &base, "POST", &at("evaluation"), None).await;
    assert_eq!(started.status, 200, "{}", started.body);
    let view = graph_done(&c, &base, &id).await;
    let graph = &view["graph"];
    assert_eq!(graph["moves"].as_array().unwrap().len(), 6);
    let values = graph["values"].as_array().unwrap();
    assert_eq!(values.len(), 7, "{graph}");
    for v in values {
        let value = v["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&value), "{v}");
        assert!(v["best"].is_string(), "{v}");
    }
    for m in graph["marks"].as_array().unwrap() {
        assert!(m["fall"].as_f64().unwrap() >= 0.1, "{m}");
        assert_eq!(m["line"][0], m["better"], "{m}");
    }
    send(&c, &base, "POST", &at("evaluation"), None).await;
    let again = graph_done(&c, &base, &id).await;
    assert_eq!(
        again["graph"]["values"], graph["values"],
        "a fixed budget and seed"
    );

    json(&c, &base, "POST", &at("moves"), json!({ "moves": GAME })).await;
    let opened = send(&c, &base, "GET", &format!("/api/boards/{id}"), None).await;
    assert_eq!(
        opened.body["graph"],
        Value::Null,
        "another game opened: no graph"
    );
    send(&c, &base, "POST", &at("evaluation"), None).await;
    let set = json(
        &c,
        &base,
        "POST",
        &at("setup"),
        json!({"pegs": [], "to_move": 0}),
    )
    .await;
    assert_eq!(
        set.body["graph"],
        Value::Null,
        "a set-up position: no graph"
    );
    let refused = send(&c, &base, "POST", &at("evaluation"), None).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    server.stop().await;
}

/// The graph takes a search slot: with all taken it is refused with a 429 and the reason,
/// and a graph that ends gives its slot back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_graph_takes_a_search_slot() {
    let config = Config {
        max_searches: 1,
        ..Config::default()
    };
    let server = Server::start(config).await;
    let (c, base) = (client(), server.base.clone());
    let (a, b) = (new_board(&c, &base).await, new_board(&c, &base).await);
    let at = |id: &str, r: &str| format!("/api/boards/{id}/{r}");
    json(
        &c,
        &base,
        "POST",
        &at(&a, "analysis"),
        json!({"ms": 60_000}),
    )
    .await;
    json(
        &c,
        &base,
        "POST",
        &at(&b, "moves"),
        json!({ "moves": GAME }),
    )
    .await;
    let refused = send(&c, &base, "POST", &at(&b, "evaluation"), None).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    let why = refused.body["error"].as_str().unwrap();
    assert!(why.starts_with("the evaluation graph must wait"), "{why}");
    send(&c, &base, "DELETE", &at(&a, "analysis"), None).await;
    common::analysis_ended(&c, &base, &a).await;
    let started = send(&c, &base, "POST", &at(&b, "evaluation"), None).await;
    assert_eq!(started.status, 200, "{}", started.body);
    let stopped = send(&c, &base, "DELETE", &at(&b, "evaluation"), None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.body);
    // It may have ended on its own before the stop came: either way its slot is back.
    graph_done(&c, &base, &b).await;
    let analysing = json(&c, &base, "POST", &at(&a, "analysis"), json!({"ms": 100})).await;
    assert_eq!(
        analysing.status, 200,
        "the slot is back: {}",
        analysing.body
    );
    server.stop().await;
}

/// The losses route refuses what it cannot answer, with the reason: no results file open,
/// an empty side, a field it does not take.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_losses_route_says_why_it_cannot_list() {
    let server = Server::start(Config::default()).await;
    let (c, base) = (client(), server.base.clone());
    let id = new_board(&c, &base).await;
    let at = format!("/api/boards/{id}/losses");
    let none = json(&c, &base, "POST", &at, json!({})).await;
    assert_eq!(none.status, 409, "{}", none.body);
    assert!(none.body["error"]
        .as_str()
        .unwrap()
        .contains("no results file"));
    let empty = json(&c, &base, "POST", &at, json!({ "ours": "" })).await;
    assert_eq!(empty.status, 400, "{}", empty.body);
    let odd = json(&c, &base, "POST", &at, json!({ "side": 1 })).await;
    assert_eq!(odd.status, 400, "{}", odd.body);
    server.stop().await;
}
