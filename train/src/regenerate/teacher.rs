//! A teacher: the `twixt-train` of the commit that played a part, built from the commit's own
//! files (never the working tree) and kept by its hash, so that the games come out as that
//! build played them.

use anyhow::{bail, Context, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use twixt_host::commit;

/// Where teachers are built and kept: `CACHE/<hash>/twixt-train`, one target folder for all.
pub struct Teachers {
    pub cache: PathBuf,
}

impl Teachers {
    /// The commit's `twixt-train`, built (release) unless the cache has it. The build's
    /// output goes to `CACHE/<hash>/build.log`, and a failure shows its end.
    pub fn build(&self, root: &Path, sha: &str) -> Result<PathBuf> {
        let dir = self.cache.join(sha);
        let exe = dir.join("twixt-train");
        if exe.is_file() {
            return Ok(exe);
        }
        // A folder of this process's own: two builds of one commit at once do not share it.
        let tree = dir.join(format!("tree.{}", std::process::id()));
        let _ = fs::remove_dir_all(&tree);
        let built = self.build_in(root, sha, &tree, &dir);
        let _ = fs::remove_dir_all(&tree);
        let built = built.with_context(|| format!("building twixt-train at {sha}"))?;
        let partial = dir.join(format!("twixt-train.{}", std::process::id()));
        fs::copy(&built, &partial).with_context(|| partial.display().to_string())?;
        fs::rename(&partial, &exe).with_context(|| exe.display().to_string())?;
        Ok(exe)
    }

    fn build_in(&self, root: &Path, sha: &str, tree: &Path, dir: &Path) -> Result<PathBuf> {
        commit::export(root, sha, tree, |program| Command::new(program))?;
        if !tree.join("train/Cargo.toml").is_file() {
            bail!("it has no twixt-train (no train/Cargo.toml)");
        }
        eprintln!("regenerate: building twixt-train at {sha}");
        let log = dir.join("build.log");
        let out = fs::File::create(&log).with_context(|| log.display().to_string())?;
        let err = out.try_clone()?;
        let target = self.cache.join("target");
        let status = Command::new(commit::cargo())
            .args(["build", "--release", "--quiet", "-p", "twixt-train"])
            .args(["--bin", "twixt-train"])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(tree)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .status()
            .context("cannot start cargo")?;
        if !status.success() {
            let end = crate::generation::run::tail(&log);
            bail!(
                "cargo build failed ({status}); the end of {}:\n{end}",
                log.display()
            );
        }
        Ok(target.join("release").join("twixt-train"))
    }
}
