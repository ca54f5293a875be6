//! A commit of the repository as the host tools build it: its name resolved to the full hash,
//! its files exported (`git archive`: never the working tree, whatever is changed or untracked
//! there), and the cargo that builds it. `twixt-referee build` compiles a commit's bundle this
//! way, `twixt-train regenerate` a commit's `twixt-train` (the teacher of data made there).
//!
//! The programs are started by the caller's `spawn` (`Command::new`, or a constructor that
//! sets up the child as the caller needs: the referee unblocks the termination signals).

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Makes the command that runs a program.
pub type Spawn = fn(&str) -> Command;

/// The full hash of the commit `rev` names in the repository `root`.
pub fn resolve(root: &Path, rev: &str, spawn: Spawn) -> Result<String> {
    if rev.is_empty() || rev.starts_with('-') {
        bail!("{rev:?} is not a commit");
    }
    let mut git = spawn("git");
    git.arg("-C")
        .arg(root)
        .args(["rev-parse", "--verify", "--quiet"])
        .arg(format!("{rev}^{{commit}}"));
    let Output { status, stdout, .. } = git
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .context("cannot start git")?;
    if !status.success() {
        bail!("{rev} is not a commit of {}", root.display());
    }
    Ok(String::from_utf8_lossy(&stdout).trim().to_string())
}

/// Writes the commit's files into `tree` (`git archive | tar -x`); `root` is the repository's
/// top folder (from a folder below it, git archives only that folder). The files are dated
/// now, not at their commit: cargo names a path package's build the same whatever folder
/// holds it, and in a target folder shared by commits it would take an older commit's files
/// for unchanged since another commit's build, and keep that build.
pub fn export(root: &Path, sha: &str, tree: &Path, spawn: Spawn) -> Result<()> {
    std::fs::create_dir_all(tree).with_context(|| tree.display().to_string())?;
    let mut archive = spawn("git")
        .arg("-C")
        .arg(root)
        .args(["archive", "--format=tar", sha])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("git archive")?;
    let tar = spawn("tar")
        .args(["-x", "-m"])
        .arg("-C")
        .arg(tree)
        .stdin(archive.stdout.take().expect("piped"))
        .status()
        .context("tar")?;
    let git = archive.wait().context("git archive")?;
    if !git.success() || !tar.success() {
        bail!("exporting {sha} failed (git archive: {git}, tar: {tar})");
    }
    Ok(())
}

/// The cargo of today's toolchain: the one running us (`CARGO`, under `cargo run` and in
/// tests), else rustup's, else the first on the path.
pub fn cargo() -> PathBuf {
    if let Some(cargo) = std::env::var_os("CARGO") {
        return cargo.into();
    }
    let rustup = std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo/bin/cargo"));
    rustup
        .filter(|c| c.is_file())
        .unwrap_or_else(|| "cargo".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(program: &str) -> Command {
        Command::new(program)
    }

    #[test]
    fn a_name_that_is_no_commit_is_an_error_naming_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for rev in ["no-such-branch-anywhere", "--help", ""] {
            let err = resolve(root, rev, plain).unwrap_err().to_string();
            assert!(err.contains("is not a commit"), "{rev}: {err}");
        }
    }

    /// The workspace's own history: the commit that checked out this tree, exported.
    #[test]
    fn head_resolves_and_exports() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let sha = match resolve(root, "HEAD", plain) {
            Ok(sha) => sha,
            Err(e) => {
                // A source archive has no history; CI's checkout has.
                assert!(std::env::var("CI").as_deref() != Ok("true"), "{e:#}");
                return;
            }
        };
        assert_eq!(sha.len(), 40);
        let tree = std::env::temp_dir().join(format!("twixt-export-{}", std::process::id()));
        export(root, &sha, &tree, plain).unwrap();
        assert!(tree.join("bundle/Cargo.toml").is_file());
        assert!(tree.join("train/src/main.rs").is_file());
        std::fs::remove_dir_all(&tree).unwrap();
    }
}
