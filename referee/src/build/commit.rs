//! A commit's bundle, made by the commit's own `twixt-bundle` from an archive of the commit
//! (`git archive`: never the working tree, whatever is changed or untracked there).

use super::cache::{Cache, Entry};
use super::run::{self, command};
use anyhow::{bail, Context, Result};
use std::fs;
use std::path::Path;

/// The full hash of the commit `rev` names in the repository `root`.
pub fn resolve(root: &Path, rev: &str) -> Result<String> {
    twixt_host::commit::resolve(root, rev, spawn)
}

/// The referee's way to start git and tar (the termination signals unblocked).
fn spawn(program: &str) -> std::process::Command {
    command(program)
}

/// A commit's short name: as the user gave it when that is a short hash of it, its first 7
/// hex digits otherwise (a branch or `HEAD` moves; the hash does not).
pub fn label(rev: &str, sha: &str) -> String {
    let hex = rev.len() >= 4 && rev.chars().all(|c| c.is_ascii_hexdigit());
    if hex && rev.len() <= 12 && sha.starts_with(&rev.to_ascii_lowercase()) {
        rev.to_ascii_lowercase()
    } else {
        sha[..sha.len().min(7)].to_string()
    }
}

/// Writes the entry's `main.rs`: exports the commit next to it, builds its `twixt-bundle`
/// (the dev profile, in the target folder all commits share) and runs it. The export is
/// removed afterwards, whether it worked or not (the log stays).
pub fn make_bundle(cache: &Cache, root: &Path, sha: &str, entry: &Entry) -> Result<()> {
    let tree = entry.dir.join("tree");
    let _ = fs::remove_dir_all(&tree);
    let made = bundle_in(cache, root, sha, entry, &tree);
    let _ = fs::remove_dir_all(&tree);
    made
}

fn bundle_in(cache: &Cache, root: &Path, sha: &str, entry: &Entry, tree: &Path) -> Result<()> {
    twixt_host::commit::export(root, sha, tree, spawn)?;
    if !tree.join("bundle/Cargo.toml").is_file() {
        bail!("it has no twixt-bundle (no bundle/Cargo.toml): it is older than the bundler");
    }
    eprintln!("build: {sha}: building its twixt-bundle");
    let log = entry.log();
    let mut cargo = command(twixt_host::commit::cargo());
    // Unoptimised: the engine's crate, which the bundler reads its weights' sizes from,
    // compiles in half the time of the workspace's dev level, and the bundle is the same.
    cargo
        .args([
            "build",
            "--quiet",
            "-p",
            "twixt-bundle",
            "--bin",
            "twixt-bundle",
        ])
        .env("CARGO_TARGET_DIR", cache.bundler_target())
        .env("CARGO_PROFILE_DEV_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .current_dir(tree);
    run::logged(&mut cargo, &log, "building its twixt-bundle")?;
    let bundler = cache.bundler_target().join("debug").join("twixt-bundle");
    run::logged(
        command(&bundler).current_dir(tree),
        &log,
        "its twixt-bundle",
    )?;
    let made = tree.join("target/codingame/main.rs");
    fs::rename(&made, entry.source())
        .with_context(|| format!("its twixt-bundle wrote no {}", made.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "251a39c374fc576c283e3c87dd7cab28becb4b65";

    #[test]
    fn a_commit_is_labelled_by_its_short_hash() {
        assert_eq!(label("251a39c", SHA), "251a39c");
        assert_eq!(label("251A39C3", SHA), "251a39c3");
        assert_eq!(label(SHA, SHA), "251a39c");
        assert_eq!(label("HEAD", SHA), "251a39c");
        assert_eq!(label("main", SHA), "251a39c");
        assert_eq!(label("beef", SHA), "251a39c", "hex, but not this commit's");
    }
}
