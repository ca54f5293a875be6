//! A bot asked to move in a game under way, where a person played both sides so far: the
//! engine is told its side; a command is first sent its first turn of the game, to learn its
//! side, and that turn's answer leaves no trace in the game; a command that fails that turn
//! leaves the game as it was, with a note that says why.

mod common;

use common::{client, json, new_board, send, settled, Server};
use serde_json::{json, Value};
use std::time::Duration;
use twixt_board::opponent::Kind;
use twixt_board::Config;
use twixt_referee::record::GameRecord;

/// Answers `B2 first` to the first turn it reads and `H9 second` to every later one.
const SCRIPTED: &str = "sh -c 't=0; while read last; do for g in 1 2 3 4; do read n; i=0; \
    while [ $i -lt $n ]; do read x; i=$((i+1)); done; done; t=$((t+1)); \
    if [ $t = 1 ]; then echo B2 first; else echo H9 second; fi; done'";

/// E7 SWAP D4: player 1 to move, with as many pegs as player 0 and none on a border, so that
/// the position alone would say player 0.
const PLAYED: [&str; 3] = ["E7", "SWAP", "D4"];

/// The view once a server whose bot is `kind` has asked it to move after [`PLAYED`] (a person
/// played both sides at 200 ms a turn), and the record of the game.
async fn joined(kind: Kind) -> (Value, GameRecord) {
    let server = Server::start(Config {
        bot: kind,
        ..Config::default()
    })
    .await;
    let (c, base) = (client(), server.base.clone());
    let id = new_board(&c, &base).await;
    let at = |r: &str| format!("/api/boards/{id}/{r}");
    let a = json(
        &c,
        &base,
        "POST",
        &at("new"),
        json!({"seat": null, "ms": 200}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    for mv in PLAYED {
        let a = json(&c, &base, "POST", &at("play"), json!({ "move": mv })).await;
        assert_eq!(a.status, 200, "{mv}: {}", a.body);
    }
    let a = send(&c, &base, "POST", &at("bot"), None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let v = settled(&c, &base, &id, Duration::from_secs(5)).await;
    let record = send(&c, &base, "GET", &at("record"), None).await;
    server.stop().await;
    let record = serde_json::from_value(record.body).expect("a record");
    (v, record)
}

/// The moves of a view, as written.
fn moves(v: &Value) -> Vec<&str> {
    let list = v["moves"].as_array().unwrap();
    list.iter().map(|m| m["mv"].as_str().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_joins_a_game_under_way_and_only_its_answer_is_kept() {
    let (v, _) = joined(Kind::Engine).await;
    assert_eq!(moves(&v)[..3], PLAYED, "{v}");
    assert_eq!(
        (v["length"].as_u64(), v["seat"].as_u64()),
        (Some(4), Some(0)),
        "{v}"
    );
    assert!(v["over"].is_null() && v["bot_note"].is_null(), "{v}");

    let (v, record) = joined(Kind::Command(SCRIPTED.into())).await;
    assert_eq!(moves(&v), ["E7", "SWAP", "D4", "H9"], "{v}");
    assert_eq!(v["moves"][3]["msg"], "second", "{v}");
    assert!(v["over"].is_null() && v["bot_note"].is_null(), "{v}");
    assert_eq!(record.moves, ["E7", "SWAP", "D4", "H9"]);
    let said = [None, None, None, Some("second".to_string())];
    assert_eq!(record.messages, said, "only the answer played is kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_that_fails_its_first_turn_leaves_the_game_as_it_was() {
    for (cmd, why) in [
        ("sleep 30", "gave no answer within 200 ms"),
        // Its words depend on when it went: its output closed, or it exited.
        ("true", ""),
    ] {
        let (v, _) = joined(Kind::Command(cmd.into())).await;
        assert_eq!(moves(&v), PLAYED, "{cmd}: {v}");
        assert!(v["over"].is_null() && v["thinking"] == false, "{cmd}: {v}");
        let note = v["bot_note"].as_str().unwrap_or_default();
        assert!(
            note.contains("cannot join the game") && note.contains(why),
            "{cmd}: {v}"
        );
    }
}
