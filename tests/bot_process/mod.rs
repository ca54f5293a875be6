//! Runs the built `twixt-bot` on a turn input, as CodinGame would: one fresh process.

use std::io::Write;
use std::process::{Command, Stdio};

/// What one run of the bot gave.
pub struct BotRun {
    /// Exit status (-1 when killed by a signal).
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `twixt-bot --playouts PLAYOUTS --seed SEED --quiet` with `input` on its stdin.
pub fn run_bot(input: impl AsRef<[u8]>, playouts: u64, seed: u64) -> BotRun {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twixt-bot"))
        .args([
            "--playouts",
            &playouts.to_string(),
            "--seed",
            &seed.to_string(),
            "--quiet",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bot starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    BotRun {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
