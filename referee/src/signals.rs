//! Ctrl-C and kill during a game or match: bots run in their own process groups, so the
//! terminal's SIGINT never reaches them. The binary blocks SIGINT, SIGTERM and SIGHUP and waits
//! for them on one thread, which kills every live bot group before the referee exits.

use std::sync::Mutex;

/// The process groups of the bots alive now.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn with_live<R>(f: impl FnOnce(&mut Vec<i32>) -> R) -> R {
    f(&mut LIVE.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Notes a bot's process group as live.
pub fn register(pgid: i32) {
    with_live(|v| v.push(pgid));
}

/// Notes a bot's process group as gone.
pub fn unregister(pgid: i32) {
    with_live(|v| v.retain(|&p| p != pgid));
}

fn termination_set() -> libc::sigset_t {
    // SAFETY: sigset_t is plain data, initialised by sigemptyset before use.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        set
    }
}

/// Blocks the termination signals in this thread (and so in every thread started after it) and
/// starts the thread that handles them. Call first thing in `main`.
pub fn install() {
    let set = termination_set();
    // SAFETY: changes this thread's signal mask only.
    unsafe {
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    std::thread::spawn(move || {
        let mut sig: libc::c_int = 0;
        // SAFETY: waits for one of the blocked signals.
        unsafe {
            libc::sigwait(&set, &mut sig);
        }
        with_live(|s| {
            for &pgid in s.iter() {
                // SAFETY: a plain kill of a process group we created.
                unsafe {
                    libc::kill(-pgid, libc::SIGKILL);
                }
            }
        });
        eprintln!("twixt-referee: stopped by signal {sig}; the bots were killed");
        std::process::exit(128 + sig);
    });
}

/// In a freshly forked bot, before exec: unblock every signal again (masks are inherited).
pub fn unblock_all_in_child() -> std::io::Result<()> {
    // SAFETY: sigprocmask is async-signal-safe, fit for the time between fork and exec.
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
    }
    Ok(())
}
