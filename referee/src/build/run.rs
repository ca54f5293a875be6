//! The programs a build runs (git, tar, the cargos, the bundler): their output goes to the
//! entry's log, and a failure says which step failed with the log's last lines.

use crate::signals;
use anyhow::{bail, Context, Result};
use std::fs::{File, OpenOptions};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// How many of the log's last lines a failure shows.
const TAIL: usize = 25;

/// `program` with the termination signals unblocked (the referee blocks them in every thread,
/// and a child inherits the mask): Ctrl-C stops a build's compiler as it stops the referee.
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    // SAFETY: the hook only calls sigprocmask, which is async-signal-safe.
    unsafe {
        cmd.pre_exec(signals::unblock_all_in_child);
    }
    cmd
}

/// Runs `cmd` to its end with its stdout and stderr appended to `log`; an error naming `step`
/// and showing the log's last lines when it fails.
pub fn logged(cmd: &mut Command, log: &Path, step: &str) -> Result<()> {
    let out = append(log)?;
    let err = out.try_clone().with_context(|| log.display().to_string())?;
    let status = cmd
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .status()
        .with_context(|| format!("{step}: cannot start {:?}", cmd.get_program()))?;
    if !status.success() {
        bail!(
            "{step} failed ({status}); the end of {}:\n{}",
            log.display(),
            tail(log)
        );
    }
    Ok(())
}

/// Runs `cmd` to its end and returns its stdout; an error naming `step` with its stderr when
/// it fails.
pub fn output(cmd: &mut Command, step: &str) -> Result<String> {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("{step}: cannot start {:?}", cmd.get_program()))?;
    if !status.success() {
        let said = String::from_utf8_lossy(&stderr);
        match said.trim() {
            "" => bail!("{step}"),
            said => bail!("{step}: {said}"),
        }
    }
    Ok(String::from_utf8_lossy(&stdout).into_owned())
}

/// Opens `log` to append to it.
pub fn append(log: &Path) -> Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .with_context(|| log.display().to_string())
}

/// The last lines of a log.
fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(TAIL)..].join("\n")
}
