//! The real `twixt-board` binary, started as a person starts it.

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

/// Starts the binary with `args`; it and the address it says to open, from its first line
/// (`twixt-board: open http://ADDRESS:PORT/ (...)`), without the last slash.
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

/// The port of a base address (`http://ADDRESS:PORT`).
pub fn port(base: &str) -> u16 {
    base.rsplit(':').next().unwrap().parse().unwrap()
}
