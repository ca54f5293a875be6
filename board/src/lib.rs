//! `twixt-board`: a Twixt-PP board in the browser, served on the loopback. Play the bot (the
//! engine in this process, or any command that speaks the protocol), watch the engine's
//! analysis of any position live, arrange positions, step through recorded games, see a
//! game's evaluation graph with its mistakes, and a match's losses.
//!
//! [`routes`] is the HTTP API and [`page`] the page it serves (HTML, CSS and script, all in
//! the binary: the page fetches nothing from outside); the [`guard`] lets only that page drive
//! it. A [`registry`] holds one [`tab`] per browser tab: a [`game`] judged by the reference
//! rules (a [`tree`] of moves), or a position arranged in the [`editor`], drawn as [`drawn`] says; the [`opponent`]
//! answers on a thread under its clock, the [`live`] analysis searches in slices and the
//! [`evaluation`] graph values a whole game ply by ply, each a [`background`] search, all within the
//! server's search [`slots`] and its [`memory`] budget for search trees; [`library`] reads
//! games brought as text, a few files at a time, and [`losses`] lists a results file's lost
//! games with the collapse `twixt-referee losses` finds.
//! Every refusal is an [`ApiError`]: a 4xx answer with the reason.

pub mod background;
pub mod drawn;
pub mod editor;
mod error;
pub mod evaluation;
pub mod game;
pub mod guard;
pub mod library;
pub mod live;
pub mod losses;
pub mod memory;
pub mod opponent;
pub mod page;
pub mod registry;
pub mod routes;
pub mod slots;
pub mod tab;
pub mod tree;

pub use error::ApiError;

use guard::Guard;
use memory::Budget;
use opponent::Kind;
use registry::Registry;
use slots::Slots;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

/// The port the board listens on unless told otherwise (the report's links point there).
pub const DEFAULT_PORT: u16 = 8765;

/// What the server runs with.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot the person plays.
    pub bot: Kind,
    /// How many boards (tabs) are kept at once.
    pub max_boards: usize,
    /// How many searches run at once: live analyses and bots' turns together.
    pub max_searches: usize,
    /// The memory every search's trees may take together, in MiB ([`memory`]).
    pub memory_mb: usize,
    /// The address the server is reached at besides the loopback's names (`--host`; with a
    /// wildcard, whichever address a connection reached): a request naming another host is
    /// refused ([`guard`]).
    pub host: IpAddr,
}

impl Default for Config {
    /// The engine in this process, 64 boards, a search a core (two at least), 1 GiB for the
    /// search trees, the loopback.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            bot: Kind::Engine,
            max_boards: 64,
            max_searches: cores.max(2),
            memory_mb: memory::DEFAULT_MB,
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
        }
    }
}

/// What every request handler shares.
#[derive(Clone)]
pub struct App {
    boards: Arc<Registry>,
    slots: Arc<Slots>,
    /// The uploads read at once ([`routes::UPLOADS_AT_ONCE`]).
    uploads: Arc<tokio::sync::Semaphore>,
    kind: Kind,
    guard: Arc<Guard>,
}

/// Serves the board on `listener` (answering, at the listener's port, the address a connection
/// reached where it is [`Config::host`], and the loopback's names over the loopback) until
/// `shutdown` completes, then waits for bots still thinking (a few seconds at most) and ends
/// every bot and analysis. An error too when the memory budget cannot hold the search slots
/// ([`memory::check`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    memory::check(config.memory_mb, config.max_searches)
        .map_err(|why| std::io::Error::new(std::io::ErrorKind::InvalidInput, why))?;
    let port = listener.local_addr()?.port();
    let budget = Budget::new(config.memory_mb << 20, config.max_searches);
    let app = App {
        boards: Registry::new(config.max_boards, budget),
        slots: Slots::new(config.max_searches),
        uploads: Arc::new(tokio::sync::Semaphore::new(routes::UPLOADS_AT_ONCE)),
        kind: config.bot,
        guard: Arc::new(Guard::new(config.host, port)),
    };
    let boards = app.boards.clone();
    let service = routes::router(app).into_make_service_with_connect_info::<guard::Reached>();
    let served = axum::serve(listener, service)
        .with_graceful_shutdown(shutdown)
        .await;
    let wait = opponent::Clock::RANGE.1 + 2000;
    let _ = tokio::task::spawn_blocking(move || boards.shutdown(Duration::from_millis(wait))).await;
    served
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_report_links_to_the_default_port() {
        let address = format!("http://127.0.0.1:{}/", super::DEFAULT_PORT);
        assert_eq!(twixt_referee::report::BOARD, address);
    }
}
