//! The processes a test started, found through `/proc` from a process id it holds, so that it
//! ends exactly those: a pattern over command lines would also match another test's processes
//! or a real run on the machine.

use std::process::Command;

/// The parent of process `pid`, from `/proc/PID/stat` (after the name, which may hold spaces
/// and parentheses, come the state and the parent).
fn parent(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

/// Every process now running below `root` (its children, theirs, and so on).
pub fn descendants(root: u32) -> Vec<u32> {
    let all: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .filter_map(|pid| Some((pid, parent(pid)?)))
                .collect()
        })
        .unwrap_or_default();
    let mut found = vec![root];
    let mut next = 0;
    while next < found.len() {
        let above = found[next];
        found.extend(all.iter().filter(|(_, p)| *p == above).map(|(pid, _)| *pid));
        next += 1;
    }
    found.remove(0);
    found
}

/// The command line of process `pid`, a word an element; empty once it is gone.
pub fn argv(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let Some(words) = raw.strip_suffix(&[0]) else {
        return Vec::new();
    };
    words
        .split(|&b| b == 0)
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect()
}

/// Sends SIGKILL to process `pid` alone; true if it was delivered.
pub fn kill(pid: u32) -> bool {
    Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .is_ok_and(|s| s.success())
}
