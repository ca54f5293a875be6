//! Debian's Chromium, headless, driven through WebDriver (`chromedriver`, with the fantoccini
//! client), for the browser tests.
//!
//! Chromium is `$CHROMIUM` or `chromium` (or `chromium-browser`, `google-chrome`) on the PATH,
//! the driver `$CHROMEDRIVER` or `chromedriver`; `.ci/run` installs both. Without them a test
//! says so loudly and passes on a developer's machine, but fails in CI (`CI=true`).

pub mod tree;

use fantoccini::{Client, ClientBuilder};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium and chromedriver; `None`, said loudly, where either is missing (a failure in CI).
pub fn tools() -> Option<(PathBuf, PathBuf)> {
    let names = ["chromium", "chromium-browser", "google-chrome"];
    let found = (
        program("CHROMIUM", &names),
        program("CHROMEDRIVER", &["chromedriver"]),
    );
    if let (Some(chromium), Some(driver)) = found {
        return Some((chromium, driver));
    }
    let banner = "#".repeat(78);
    eprintln!("{banner}\n# BROWSER TEST NOT RUN: chromium and chromedriver are needed\n# (apt-get install chromium chromium-driver)\n{banner}");
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true: the browser test must run"
    );
    None
}

/// The first of `names` on the PATH, or the file `var` names.
fn program(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var) {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// The driver process, killed when dropped.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts chromedriver on a free port; its address once it listens.
pub fn start_driver(path: &Path) -> (Driver, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let until = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < until,
            "chromedriver does not listen on port {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (Driver(child), format!("http://127.0.0.1:{port}"))
}

/// A headless Chromium session, started as root on a closed network needs it.
pub async fn browser(chromium: &Path, driver: &str, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--window-size=1320,1000",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let caps = json!({ "goog:chromeOptions": { "binary": chromium, "args": args } });
    let mut builder = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
    builder.capabilities(caps.as_object().unwrap().clone());
    builder.connect(driver).await.expect("a WebDriver session")
}
