//! The tree of variations through real HTTP: a move at an earlier ply starts a variation,
//! which is entered, promoted, deleted and played out as a line; the tree's text goes out and
//! comes back in; a bad node or line is a 400 with the reason, nothing changed.

mod common;

use common::{client, json, new_board, send, settled, Server};
use serde_json::{json, Value};
use std::time::Duration;
use twixt_board::Config;

/// The moves listed, as `move:node` words, variations in parentheses.
fn listed(v: &Value) -> String {
    let words: Vec<String> = v["tree"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| match e["t"].as_str().unwrap() {
            "move" => format!(
                "{}:{}",
                e["mv"].as_str().unwrap(),
                e["node"].as_str().unwrap()
            ),
            t => t.to_string(),
        })
        .collect();
    words.join(" ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variations_are_played_entered_promoted_deleted_exported_and_imported() {
    let server = Server::start(Config::default()).await;
    let (c, base) = (client(), server.base.clone());
    let id = new_board(&c, &base).await;
    let at = |r: &str| format!("/api/boards/{id}/{r}");
    let post = |r: &str, body: Value| {
        let (c, base, path) = (&c, &base, at(r));
        async move { json(c, base, "POST", &path, body).await }
    };
    assert_eq!(
        post("moves", json!({"moves": "E5 F7 G9"})).await.status,
        200
    );
    assert_eq!(post("goto", json!({"ply": 1})).await.status, 200);
    let v = post("play", json!({"move": "D4"})).await.body;
    assert_eq!(listed(&v), "E5:0 F7:0.0 ( D4:0.1 ) G9:0.0.0");
    assert_eq!(
        (v["node"].as_str(), v["ply"].as_u64()),
        (Some("0.1"), Some(2))
    );
    assert_eq!(v["up"], json!([0, 0]));
    let v = post("line", json!({"node": [0, 1], "moves": ["C3", "B2"]}))
        .await
        .body;
    assert_eq!(
        (v["node"].as_str(), v["length"].as_u64()),
        (Some("0.1.0.0"), Some(4))
    );
    let v = post("promote", json!({"node": [0, 1, 0]})).await.body;
    assert_eq!(
        listed(&v),
        "E5:0 D4:0.0 ( F7:0.1 G9:0.1.0 ) C3:0.0.0 B2:0.0.0.0"
    );
    let record = send(&c, &base, "GET", &at("record"), None).await.body;
    assert_eq!(record["moves"], json!(["E5", "D4", "C3", "B2"]), "{record}");
    let text = send(&c, &base, "GET", &at("tree"), None).await.body;
    assert_eq!(text, "E5 D4 (F7 G9) C3 B2\n");
    let v = post("delete", json!({"node": [0, 1]})).await.body;
    assert_eq!(listed(&v), "E5:0 D4:0.0 C3:0.0.0 B2:0.0.0.0");
    let v = post("moves", json!({"moves": text})).await.body;
    assert_eq!(
        listed(&v),
        "E5:0 D4:0.0 ( F7:0.1 G9:0.1.0 ) C3:0.0.0 B2:0.0.0.0"
    );
    let v = post("node", json!({"node": [0, 1, 0]})).await.body;
    assert_eq!(
        (v["ply"].as_u64(), v["moves"][2]["mv"].as_str()),
        (Some(3), Some("G9"))
    );

    for (route, body, why) in [
        (
            "node",
            json!({"node": [0, 5]}),
            "0.5 is not a move of the tree",
        ),
        (
            "delete",
            json!({"node": []}),
            "the start of the game cannot be deleted",
        ),
        (
            "promote",
            json!({"node": "0.1"}),
            "not what this route takes",
        ),
        (
            "line",
            json!({"node": [0], "moves": ["F7", "Z9"]}),
            "move 2 \"Z9\" is not a move",
        ),
        (
            "line",
            json!({"node": [0], "moves": ["E5"]}),
            "move 1 of the line: E5 is not legal",
        ),
        (
            "moves",
            json!({"moves": "E5 (F7"}),
            "the variation opened at word 2",
        ),
    ] {
        let a = post(route, body).await;
        let error = a.body["error"].as_str().unwrap_or_default().to_string();
        assert_eq!(a.status, 400, "{route}: {}", a.body);
        assert!(error.contains(why), "{route}: {error}");
    }
    let v = send(&c, &base, "GET", &format!("/api/boards/{id}"), None)
        .await
        .body;
    assert_eq!(
        (v["node"].as_str(), v["tree"].as_array().unwrap().len()),
        (Some("0.1.0"), 8)
    );
    server.stop().await;
}

/// Against the bot, a move at an earlier ply starts a variation and the bot answers in it (a
/// bot whose line changed is started afresh); take back there leaves the main line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_answers_inside_a_variation_and_take_back_keeps_the_main_line() {
    let server = Server::start(Config::default()).await;
    let (c, base) = (client(), server.base.clone());
    let id = new_board(&c, &base).await;
    let at = |r: &str| format!("/api/boards/{id}/{r}");
    let new = json(&c, &base, "POST", &at("new"), json!({"seat": 0, "ms": 100})).await;
    assert_eq!(new.status, 200, "{}", new.body);
    for (ply, hole) in [(0, "E5"), (0, "F6")] {
        let goto = json(&c, &base, "POST", &at("goto"), json!({"ply": ply})).await;
        assert_eq!(goto.status, 200, "{}", goto.body);
        let played = json(&c, &base, "POST", &at("play"), json!({"move": hole})).await;
        assert_eq!(played.status, 200, "{}", played.body);
        let v = settled(&c, &base, &id, Duration::from_secs(10)).await;
        assert_eq!(
            (v["length"].as_u64(), v["ply"].as_u64()),
            (Some(2), Some(2)),
            "{v}"
        );
    }
    let v = send(&c, &base, "GET", &format!("/api/boards/{id}"), None)
        .await
        .body;
    let words = listed(&v);
    assert!(words.starts_with("E5:0 ( F6:1 "), "{words}");
    assert_eq!(words.split(' ').count(), 6, "{words}");
    let took = send(&c, &base, "POST", &at("takeback"), None).await.body;
    assert_eq!(listed(&took).split(' ').count(), 2, "{took}");
    assert_eq!(took["node"], "", "{took}");
    server.stop().await;
}
