//! The real `twixt-board` binary, started as a person starts it, and its memory as the kernel
//! counts it.

use axum::body::Bytes;
use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdout, Command, Stdio};

/// The server process, killed when dropped; its output is kept open while it runs.
pub struct Running {
    pub child: Child,
    _out: BufReader<ChildStdout>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary with `args` (`--port 0` and a `--host` among them); it and its address,
/// from its first line (`twixt-board: open http://HOST:PORT/ (...)`).
pub fn start(args: &[&str]) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twixt-board"))
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("twixt-board starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let address = line.split_whitespace().find(|w| w.starts_with("http://"));
    let base = address
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (Running { child, _out: out }, base)
}

/// A line of /proc/PID/status, in kB (`VmRSS:`: resident now; `VmHWM:`: the most so far).
pub fn memory_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A file at the upload limit that holds no game: long lines of junk, quick to read, so that
/// what an upload of it costs is the file itself.
pub fn junk_file() -> Bytes {
    let line = [vec![b'x'; (1 << 16) - 1], vec![b'\n']].concat();
    Bytes::from(line.repeat(twixt_board::routes::UPLOAD_LIMIT >> 16))
}

/// Sends `file` to each of `boards` at once; each answer's status and body.
pub async fn upload_at_once(
    c: &reqwest::Client,
    base: &str,
    boards: &[String],
    file: Bytes,
) -> Vec<(u16, String)> {
    let mut sent = tokio::task::JoinSet::new();
    for id in boards {
        let req = c
            .post(format!("{base}/api/boards/{id}/upload"))
            .header("content-type", "text/plain")
            .body(file.clone());
        sent.spawn(async move {
            let resp = req.send().await.unwrap();
            (resp.status().as_u16(), resp.text().await.unwrap())
        });
    }
    let mut answers = Vec::new();
    while let Some(done) = sent.join_next().await {
        answers.push(done.unwrap());
    }
    answers
}

/// The port of a base address (`http://ADDRESS:PORT`).
pub fn port(base: &str) -> u16 {
    base.rsplit(':').next().unwrap().parse().unwrap()
}
