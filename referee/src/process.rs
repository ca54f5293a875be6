//! A bot as a child process: spawned in its own process group, fed through a writer thread,
//! read through a reader thread, timed with a monotonic clock and killed with its whole group.
//!
//! Neither thread can block the referee: the referee only waits on a channel with a deadline.
//! A bot that never reads its input or never writes a line is simply late.

use super::signals;
use anyhow::{anyhow, Context, Result};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// A line longer than this is cut: a garbage printer cannot fill the referee's memory.
const MAX_LINE: usize = 4096;
/// How often the waiting loop looks whether the bot process has exited.
const EXIT_POLL: Duration = Duration::from_millis(20);
/// After the bot process has exited, how long a line it printed may take to reach us.
const EXIT_DRAIN: Duration = Duration::from_millis(50);

/// What the bot's threads report, in the order it happened.
#[derive(Debug)]
enum Event {
    /// The turn input with this number reached the bot's stdin pipe.
    Written(u64, Instant),
    /// Writing failed: the bot closed its stdin (or died).
    WriteFailed,
    /// One line of the bot's stdout, and when it was read.
    Line(String, Instant),
    /// The bot's stdout is closed.
    Eof,
}

/// How waiting for an answer ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The line, and the milliseconds from the last input byte written to the line read.
    Line(String, Duration),
    /// Nothing before the deadline.
    Silent,
    /// The bot closed its stdout.
    Closed,
    /// The bot closed its stdin (the input could not be written).
    InputClosed,
    /// The bot process exited (the status as text), without answering.
    Exited(String),
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    pgid: i32,
    input: Option<Sender<(u64, String)>>,
    turn: u64,
    events: Receiver<Event>,
    early_lines: Vec<(String, Instant)>,
    exited: Option<ExitStatus>,
    killed: bool,
}

/// Splits a shell-style command line into program and arguments.
pub fn split_command(cmd: &str) -> Result<Vec<String>> {
    shlex::split(cmd)
        .filter(|argv| !argv.is_empty())
        .ok_or_else(|| anyhow!("cannot split the command line {cmd:?}"))
}

impl BotProcess {
    /// Starts `cmd` in a new process group; its stderr goes to `stderr_file` or is dropped.
    pub fn spawn(cmd: &str, stderr_file: Option<&Path>) -> Result<BotProcess> {
        let argv = split_command(cmd)?;
        let stderr = match stderr_file {
            Some(p) => Stdio::from(File::create(p).with_context(|| p.display().to_string())?),
            None => Stdio::null(),
        };
        let mut command = Command::new(&argv[0]);
        command
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .process_group(0);
        // SAFETY: the hook only calls sigprocmask, which is async-signal-safe.
        unsafe {
            command.pre_exec(signals::unblock_all_in_child);
        }
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start {:?}", argv[0]))?;
        let pgid = child.id() as i32;
        signals::register(pgid);
        let (tx, events) = mpsc::channel();
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let input = spawn_writer(stdin, tx.clone());
        spawn_reader(stdout, tx);
        Ok(BotProcess {
            child,
            pgid,
            input: Some(input),
            turn: 0,
            events,
            early_lines: Vec::new(),
            exited: None,
            killed: false,
        })
    }

    /// Sends one turn input and waits for the answer line: `clock` counts from the moment the
    /// last input byte was written, and waiting stops at `clock + grace` whatever happens.
    pub fn ask(&mut self, text: String, clock: Duration, grace: Duration) -> Reply {
        let sent = Instant::now();
        self.turn += 1;
        if let Some(input) = &self.input {
            if input.send((self.turn, text)).is_err() {
                return self.exit_reply();
            }
        }
        let written = match self.wait_written(sent + clock + grace) {
            Ok(at) => at,
            // A bot may answer and leave without reading its input: its answer still counts.
            Err(reply) => match self.drain_lines().take_early_line() {
                Some((line, at)) => return Reply::Line(line, at.saturating_duration_since(sent)),
                None => return reply,
            },
        };
        if let Some((line, at)) = self.take_early_line() {
            return Reply::Line(line, at.saturating_duration_since(written));
        }
        self.wait_line(written, written + clock + grace)
    }

    /// Keeps every line still on its way, up to the end of the bot's output (or a short wait).
    fn drain_lines(&mut self) -> &mut Self {
        let until = Instant::now() + EXIT_DRAIN;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.events.recv_timeout(left) {
                Ok(Event::Line(line, at)) => self.early_lines.push((line, at)),
                Ok(Event::Eof) | Err(_) => break,
                Ok(_) => {}
            }
        }
        self
    }

    fn take_early_line(&mut self) -> Option<(String, Instant)> {
        if self.early_lines.is_empty() {
            None
        } else {
            Some(self.early_lines.remove(0))
        }
    }

    /// Waits until the writer thread has delivered the input; lines that come first are kept.
    fn wait_written(&mut self, deadline: Instant) -> Result<Instant, Reply> {
        loop {
            match self.next_event(deadline)? {
                Event::Written(turn, at) if turn == self.turn => return Ok(at),
                Event::Written(..) => {}
                Event::Line(line, at) => self.early_lines.push((line, at)),
                Event::WriteFailed => return Err(self.closed_reply(Reply::InputClosed)),
                Event::Eof => return Err(self.closed_reply(Reply::Closed)),
            }
        }
    }

    fn wait_line(&mut self, written: Instant, deadline: Instant) -> Reply {
        loop {
            match self.next_event(deadline) {
                Ok(Event::Line(line, at)) => {
                    return Reply::Line(line, at.saturating_duration_since(written))
                }
                Ok(Event::Eof) => return self.closed_reply(Reply::Closed),
                Ok(Event::WriteFailed) => return self.closed_reply(Reply::InputClosed),
                Ok(Event::Written(..)) => {}
                Err(reply) => return reply,
            }
        }
    }

    /// The next event before `deadline`; `Err` with the reply when there is none or the bot
    /// process has exited and printed nothing more.
    fn next_event(&mut self, deadline: Instant) -> Result<Event, Reply> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(Reply::Silent);
            }
            match self.events.recv_timeout(EXIT_POLL.min(deadline - now)) {
                Ok(ev) => return Ok(ev),
                Err(RecvTimeoutError::Disconnected) => return Err(self.closed_reply(Reply::Closed)),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if self.poll_exit().is_some() {
                return self
                    .events
                    .recv_timeout(EXIT_DRAIN)
                    .map_err(|_| self.exit_reply());
            }
        }
    }

    /// The exit status, if the bot process has ended (it is reaped then).
    fn poll_exit(&mut self) -> Option<ExitStatus> {
        if self.exited.is_none() {
            self.exited = self.child.try_wait().ok().flatten();
        }
        self.exited
    }

    fn exit_reply(&mut self) -> Reply {
        self.exit_or(Reply::Closed)
    }

    fn exit_or(&mut self, otherwise: Reply) -> Reply {
        match self.poll_exit() {
            Some(status) => Reply::Exited(status.to_string()),
            None => otherwise,
        }
    }

    /// The bot closed a pipe: say whether it also exited (give it a moment to do so).
    fn closed_reply(&mut self, otherwise: Reply) -> Reply {
        let until = Instant::now() + EXIT_DRAIN;
        while self.poll_exit().is_none() && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        self.exit_or(otherwise)
    }

    /// Kills the whole process group at once and reaps the bot (once: the group's id must not
    /// be signalled again after it may have been reused).
    pub fn kill(&mut self) {
        self.close_input();
        if std::mem::replace(&mut self.killed, true) {
            return;
        }
        // SAFETY: plain syscall; a negative pid addresses the process group we created.
        unsafe {
            libc::kill(-self.pgid, libc::SIGKILL);
        }
        if self.exited.is_none() {
            self.exited = self.child.wait().ok();
        }
        signals::unregister(self.pgid);
    }

    /// Closes the bot's stdin: the polite way to say the game is over.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The polite end of a game: close stdin, let the bot leave until `until`, then kill the
    /// group anyway (a child it left behind must not outlive the game).
    pub fn finish_by(&mut self, until: Instant) {
        self.close_input();
        while self.poll_exit().is_none() && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The writer thread: writes each turn input, then reports when it is through.
fn spawn_writer(mut stdin: ChildStdin, events: Sender<Event>) -> Sender<(u64, String)> {
    let (tx, rx) = mpsc::channel::<(u64, String)>();
    thread::spawn(move || {
        for (turn, text) in rx {
            let ok = stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush());
            let ev = match ok {
                Ok(()) => Event::Written(turn, Instant::now()),
                Err(_) => Event::WriteFailed,
            };
            if events.send(ev).is_err() || ok.is_err() {
                return;
            }
        }
    });
    tx
}

/// The reader thread: one event per line (cut at `MAX_LINE`), then `Eof`.
fn spawn_reader(stdout: ChildStdout, events: Sender<Event>) {
    thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            match read_capped_line(&mut reader) {
                Some(line) => {
                    if events.send(Event::Line(line, Instant::now())).is_err() {
                        return;
                    }
                }
                None => {
                    let _ = events.send(Event::Eof);
                    return;
                }
            }
        }
    });
}

/// Reads up to the next newline, keeping at most `MAX_LINE` bytes; `None` at end of stream.
fn read_capped_line<R: BufRead>(reader: &mut R) -> Option<String> {
    let mut kept = Vec::new();
    let mut seen_any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(_) => return None,
        };
        if buf.is_empty() {
            return seen_any.then(|| String::from_utf8_lossy(&kept).into_owned());
        }
        seen_any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        let room = MAX_LINE.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let found_newline = done > chunk.len();
        reader.consume(done);
        if found_newline {
            let text = String::from_utf8_lossy(&kept);
            return Some(text.trim_end_matches('\r').to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn read_lines_capped<R: Read>(r: R) -> Vec<String> {
        let mut reader = BufReader::new(r);
        std::iter::from_fn(|| read_capped_line(&mut reader)).collect()
    }

    #[test]
    fn lines_are_split_and_capped() {
        let long = "x".repeat(MAX_LINE * 3);
        let text = format!("E5 hi\r\n{long}\nlast");
        let lines = read_lines_capped(text.as_bytes());
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "E5 hi");
        assert_eq!(lines[1].len(), MAX_LINE);
        assert_eq!(lines[2], "last");
    }

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command("python3 'a b.py' 7").unwrap(),
            vec!["python3", "a b.py", "7"]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("echo 'open").is_err());
    }
}
