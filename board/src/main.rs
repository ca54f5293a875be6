//! `twixt-board [--port N] [--host ADDR] [--bot CMD] [--searches N] [--memory-mb N]`: serves
//! the board and prints its address; Ctrl-C (or SIGTERM) stops it, ending every bot it started.

use clap::Parser;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use twixt_board::opponent::Kind;
use twixt_board::{memory, serve, Config, DEFAULT_PORT};

/// A Twixt-PP board in the browser: play the bot, watch its analysis live, step through
/// recorded games. The page fetches nothing from outside.
#[derive(Parser)]
#[command(name = "twixt-board", version)]
struct Args {
    /// The port to listen on (0: any free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to listen on: the loopback unless told otherwise (another address lets
    /// other machines start bots and searches here). Requests must name it (with 0.0.0.0 or
    /// ::, the address they reached), or over the loopback a loopback name, as their host.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The bot to play: a command that speaks the CodinGame protocol (default: the engine in
    /// this process).
    #[arg(long, value_name = "CMD")]
    bot: Option<String>,
    /// How many searches run at once, live analyses and the bots' turns together; more are
    /// refused until one ends (default: one a core, two at least).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    searches: Option<u32>,
    /// The memory every search's trees may take together, in MiB: each search reserves its
    /// share (this over --searches) or less; past it, idle bots' trees are given up, then
    /// searches refused.
    #[arg(long, value_name = "N", default_value_t = memory::DEFAULT_MB)]
    memory_mb: usize,
}

fn main() -> ExitCode {
    map_large_buffers();
    match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime.block_on(run()),
        Err(e) => {
            eprintln!("twixt-board: cannot start the server's threads: {e}");
            ExitCode::from(2)
        }
    }
}

/// Large buffers (uploads of up to 16 MiB, search trees) mapped on their own and given back
/// to the system when freed. Otherwise glibc raises its mapping threshold once such a buffer
/// is freed and keeps the later ones in its heaps, and the server's resident memory grew past
/// what it holds by up to a buffer's worth (eight uploads at once peaked at 41 to 74 MB and
/// more; with this, 42 MB). Set before any thread starts, as glibc asks.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn map_large_buffers() {
    // SAFETY: sets one parameter of the allocator, before the program starts a thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Other allocators than glibc's are left as they are.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn map_large_buffers() {}

/// Serves the board as the command line says; the exit status.
async fn run() -> ExitCode {
    let args = Args::parse();
    let mut config = Config {
        host: args.host,
        memory_mb: args.memory_mb,
        ..Config::default()
    };
    if let Some(n) = args.searches {
        config.max_searches = n as usize;
    }
    if let Err(e) = memory::check(config.memory_mb, config.max_searches) {
        eprintln!("twixt-board: --memory-mb: {e}");
        return ExitCode::from(2);
    }
    if let Some(cmd) = args.bot {
        if let Err(e) = twixt_referee::process::split_command(&cmd) {
            eprintln!("twixt-board: --bot: {e}");
            return ExitCode::from(2);
        }
        config.bot = Kind::Command(cmd);
    }
    let addr = SocketAddr::new(args.host, args.port);
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("twixt-board: cannot listen on {addr}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut local = listener.local_addr().unwrap_or(addr);
    if local.ip().is_unspecified() {
        // Not an address to open: the loopback's is one a wildcard answers to here.
        local.set_ip(Ipv4Addr::LOCALHOST.into());
    }
    if !args.host.is_loopback() {
        eprintln!("twixt-board: warning: listening on {}, not the loopback: anyone who can reach it can use it", args.host);
    }
    println!(
        "twixt-board: open http://{local}/ (bot: {}; Ctrl-C stops)",
        config.bot.name()
    );
    match serve(listener, config, stopped()).await {
        Ok(()) => {
            eprintln!("twixt-board: stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("twixt-board: {e}");
            ExitCode::from(2)
        }
    }
}

/// Completes at Ctrl-C or SIGTERM.
async fn stopped() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    let term = async {
        match term.as_mut() {
            Some(t) => {
                t.recv().await;
            }
            None => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
    }
}
