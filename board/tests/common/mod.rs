//! A board server on a free loopback port, for the tests, and a small client for its API;
//! [`binary`] starts the real binary instead.
#![allow(dead_code)]

pub mod binary;

use serde_json::Value;
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use twixt_board::{serve, Config};

/// A running server; stopped when dropped.
pub struct Server {
    pub base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    /// Serves `config` on 127.0.0.1 at a free port.
    pub async fn start(config: Config) -> Server {
        Server::start_on("127.0.0.1", config).await
    }

    /// Serves `config` on `address` at a free port.
    pub async fn start_on(address: &str, config: Config) -> Server {
        let listener = tokio::net::TcpListener::bind((address, 0)).await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(serve(listener, config, async {
            let _ = stopped.await;
        }));
        Server {
            base,
            stop: Some(stop),
            done: Some(done),
        }
    }

    /// Stops it and waits until it has ended its bots.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.done.take().unwrap().await.unwrap().unwrap();
    }
}

/// An answer: its status and its body as JSON (`Value::String` when it is not JSON).
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

/// Sends `method path` with `body` (sent as is) and reads the answer.
pub async fn send(
    client: &reqwest::Client,
    base: &str,
    method: &str,
    path: &str,
    body: Option<Vec<u8>>,
) -> Answer {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = client.request(method, format!("{base}{path}"));
    if let Some(b) = body {
        req = req.header("content-type", "application/json").body(b);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Answer { status, body }
}

/// `send` with a JSON body.
pub async fn json(
    client: &reqwest::Client,
    base: &str,
    method: &str,
    path: &str,
    body: Value,
) -> Answer {
    send(
        client,
        base,
        method,
        path,
        Some(body.to_string().into_bytes()),
    )
    .await
}

/// A new board's id.
pub async fn new_board(client: &reqwest::Client, base: &str) -> String {
    let a = send(client, base, "POST", "/api/boards", None).await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.body["id"].as_str().unwrap().to_string()
}

/// The board's view once the bot has stopped thinking (at most `within`).
pub async fn settled(client: &reqwest::Client, base: &str, id: &str, within: Duration) -> Value {
    let until = Instant::now() + within;
    loop {
        let a = send(client, base, "GET", &format!("/api/boards/{id}"), None).await;
        assert_eq!(a.status, 200, "{}", a.body);
        if !a.body["thinking"].as_bool().unwrap() || Instant::now() > until {
            return a.body;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A client that goes straight to the loopback.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// What the server answers to `request` written on a connection of its own (read until it
/// closes it, or five seconds).
pub async fn raw(base: &str, request: Vec<u8>) -> String {
    let addr = base.trim_start_matches("http://").to_string();
    tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        // The server may answer and close before a long request is all written.
        let _ = s.write_all(&request);
        let mut bytes = Vec::new();
        let _ = s.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
    .await
    .unwrap()
}

/// Waits (at most ten seconds) until the board's analysis has ended.
pub async fn analysis_ended(c: &reqwest::Client, base: &str, id: &str) {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let v = send(c, base, "GET", &format!("/api/boards/{id}"), None).await;
        if v.body["analysis"]["running"] != true {
            return;
        }
        assert!(Instant::now() < until, "the analysis goes on: {}", v.body);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The status and body of a request written by hand: `head` (the request line and headers),
/// then `Connection: close`, the length of `body`, and `body`.
pub async fn by_hand(base: &str, head: &str, body: &str) -> (u16, String) {
    let request = format!(
        "{head}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let answer = raw(base, request.into_bytes()).await;
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map_or("", |x| x.1);
    (status, body.to_string())
}
