//! The bundle compiled as CodinGame compiles it: Debian's rustc 1.63 and its cargo (installed
//! when missing), `cargo build --release` of a package whose one binary is the bundle, against
//! exactly the crates CodinGame ships (vendored once with today's cargo, then offline), in a
//! cleared environment, every warning an error (CodinGame shows warnings to whoever submits).
//! CodinGame's own compiler is rustc 1.70: what passes on 1.63 passes there.

use super::cache::{Cache, Entry, BINARY};
use super::run::{self, command};
use anyhow::{bail, Context, Result};
use std::fs;
use std::path::Path;

/// Debian's compiler and cargo.
const RUSTC: &str = "/usr/bin/rustc";
const CARGO: &str = "/usr/bin/cargo";

/// The crates CodinGame offers a Rust bot, at its versions.
pub const CRATES: [(&str, &str); 6] = [
    ("rand", "0.8.5"),
    ("rand_core", "0.6.4"),
    ("rand_chacha", "0.3.1"),
    ("getrandom", "0.2.10"),
    ("libc", "0.2.147"),
    ("ppv-lite86", "0.2.17"),
];

/// The `[dependencies]` table of the pinned crates.
fn dependencies() -> String {
    let pins: String = CRATES
        .iter()
        .map(|(name, version)| format!("{name} = \"={version}\"\n"))
        .collect();
    format!("[dependencies]\n{pins}")
}

/// The scratch package of one bundle: its `main.rs` the only binary, named `bin` (a name of
/// its own: every entry's binary lands in the one shared target folder), the pinned crates,
/// and a workspace of its own (it sits inside the twixt workspace's target folder).
pub fn manifest(bin: &str) -> String {
    format!(
        "[package]\nname = \"{BINARY}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = \
         false\n\n[[bin]]\nname = \"{bin}\"\npath = \"main.rs\"\n\n{}\n[profile.release]\n\
         panic = \"unwind\"\n\n[workspace]\n",
        dependencies()
    )
}

/// Installs Debian's rustc and cargo when either is missing (`apt-get`, through sudo unless
/// root).
pub fn ensure_installed() -> Result<()> {
    if Path::new(RUSTC).is_file() && Path::new(CARGO).is_file() {
        return Ok(());
    }
    eprintln!("build: installing Debian's rustc and cargo (apt-get install rustc cargo)");
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    for args in [&["update", "-qq"][..], &["install", "-y", "rustc", "cargo"]] {
        let mut apt = command(if root { "apt-get" } else { "sudo" });
        if !root {
            apt.arg("apt-get");
        }
        // Its chatter on stderr: stdout is for the binaries' paths.
        let status = apt
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(std::io::stderr())
            .status();
        if !status.is_ok_and(|s| s.success()) {
            bail!(
                "Debian's rustc and cargo are needed in /usr/bin, and `apt-get {}` failed: \
                 install them (Debian or Ubuntu: apt-get install rustc cargo)",
                args.join(" ")
            );
        }
    }
    Ok(())
}

/// Vendors the pinned crates once (a later build with the same pins keeps them); needs
/// crates.io the first time.
pub fn vendor(cache: &Cache) -> Result<()> {
    let dir = cache.vendor();
    let marker = dir.join(".pins");
    if fs::read_to_string(&marker).ok() == Some(dependencies()) {
        return Ok(());
    }
    eprintln!(
        "build: vendoring CodinGame's crates (once) into {}",
        dir.display()
    );
    let package = cache.dir.join("vendor-package");
    fs::create_dir_all(&package).with_context(|| package.display().to_string())?;
    let text = format!(
        "[package]\nname = \"vendor-package\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
         [lib]\npath = \"lib.rs\"\n\n{}\n[workspace]\n",
        dependencies()
    );
    write(&package.join("Cargo.toml"), &text)?;
    write(&package.join("lib.rs"), "")?;
    let _ = fs::remove_dir_all(&dir);
    let mut cargo = command(twixt_host::commit::cargo());
    cargo
        .args(["vendor", "--quiet"])
        .arg(&dir)
        .current_dir(&package);
    run::logged(&mut cargo, &package.join("vendor.log"), "cargo vendor")?;
    write(&marker, &dependencies())
}

/// Compiles the entry's `main.rs` and keeps the binary in the entry; the error says where
/// the compiler's messages are.
pub fn compile(cache: &Cache, entry: &Entry) -> Result<()> {
    ensure_installed()?;
    vendor(cache)?;
    write_config(cache)?;
    let bin = format!("bundle-{}", entry.name());
    write(&entry.dir.join("Cargo.toml"), &manifest(&bin))?;
    let log = entry.log();
    let versions = versions()?;
    eprintln!(
        "build: compiling {} with {versions}",
        entry.source().display()
    );
    let mut cargo = debian_cargo(cache);
    cargo
        .args(["build", "--offline", "--release"])
        .current_dir(&entry.dir);
    run::logged(&mut cargo, &log, &format!("compiling with {versions}"))
        .with_context(|| format!("{} does not compile", entry.source().display()))?;
    if let Ok(lock) = fs::read_to_string(entry.dir.join("Cargo.lock")) {
        eprintln!("build: locked {}", locked(&lock));
    }
    entry.keep(&cache.debian_target().join("release").join(bin))
}

/// Debian's cargo in a cleared environment: only what it needs, every warning an error.
fn debian_cargo(cache: &Cache) -> std::process::Command {
    let mut cargo = command(CARGO);
    cargo
        .env_clear()
        .env("HOME", std::env::var_os("HOME").unwrap_or_default())
        .env("PATH", "/usr/bin:/bin")
        .env("CARGO_HOME", cache.cargo_home())
        .env("CARGO_TARGET_DIR", cache.debian_target())
        .env("RUSTC", RUSTC)
        .env("RUSTDOC", "/usr/bin/rustdoc")
        .env("RUSTFLAGS", "-D warnings");
    cargo
}

/// Debian's cargo reads crates.io's crates from the vendored folder only.
fn write_config(cache: &Cache) -> Result<()> {
    let vendor = cache.vendor();
    let vendor = vendor
        .to_str()
        .filter(|p| !p.contains('\''))
        .with_context(|| format!("{}: a path TOML can quote", vendor.display()))?;
    let text = format!(
        "[source.crates-io]\nreplace-with = \"vendored-sources\"\n\n\
         [source.vendored-sources]\ndirectory = '{vendor}'\n"
    );
    let home = cache.cargo_home();
    fs::create_dir_all(&home).with_context(|| home.display().to_string())?;
    write(&home.join("config.toml"), &text)
}

/// `rustc 1.63.0 (...) and cargo 1.65.0 (...)`, Debian's, with a warning when the compiler
/// is not of CodinGame's generation.
fn versions() -> Result<String> {
    let rustc = run::output(command(RUSTC).arg("--version"), "rustc --version")?;
    let cargo = run::output(command(CARGO).arg("--version"), "cargo --version")?;
    if !rustc.starts_with("rustc 1.63.") {
        eprintln!("build: warning: {RUSTC} is not rustc 1.63, which this check is made for");
    }
    Ok(format!("{} and {}", rustc.trim(), cargo.trim()))
}

/// The versions a lock file holds of the pinned crates: `rand 0.8.5, rand_core 0.6.4, ...`.
fn locked(lock: &str) -> String {
    let mut out = Vec::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"'));
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            if CRATES.iter().any(|(c, _)| *c == n) {
                out.push(format!("{n} {}", v.trim_matches('"')));
            }
        }
    }
    out.join(", ")
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_pins_codingames_crates_exactly() {
        let text = manifest("bundle-main");
        for (name, version) in CRATES {
            assert!(
                text.contains(&format!("\n{name} = \"={version}\"\n")),
                "{text}"
            );
        }
        assert!(text.contains("[[bin]]\nname = \"bundle-main\"\npath = \"main.rs\"\n"));
        assert!(text.ends_with("\n[workspace]\n"), "a workspace of its own");
    }

    #[test]
    fn a_lock_file_gives_the_pinned_crates_versions() {
        let lock = "[[package]]\nname = \"getrandom\"\nversion = \"0.2.10\"\n\n[[package]]\n\
                    name = \"twixt-codingame\"\nversion = \"0.0.0\"\n\n[[package]]\n\
                    name = \"rand\"\nversion = \"0.8.5\"\n";
        assert_eq!(locked(lock), "getrandom 0.2.10, rand 0.8.5");
    }
}
