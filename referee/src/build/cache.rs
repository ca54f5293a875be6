//! The cache of compiled bundles under `target/codingame/`: one folder a commit (keyed by its
//! full hash) or a bundle file (keyed by its name), and the folders every build shares (the
//! vendored crates, the two cargo target directories), with one lock so that two builds at once
//! never share a half-written binary.

use anyhow::{Context, Result};
use std::fs::{self, File, TryLockError};
use std::path::{Path, PathBuf};

/// The file name of every compiled bundle.
pub const BINARY: &str = "twixt-codingame";

/// `target/codingame/` of a repository: where bundles are made, compiled and kept.
#[derive(Clone, Debug)]
pub struct Cache {
    /// The folder itself.
    pub dir: PathBuf,
}

/// Held while a build writes to the cache: a second build waits for the first.
pub struct Lock(#[allow(dead_code)] File);

impl Cache {
    /// The cache of the repository (or folder) `root`.
    pub fn at(root: &Path) -> Cache {
        Cache {
            dir: root.join("target").join("codingame"),
        }
    }

    /// The entry of a commit, by its full hash.
    pub fn commit(&self, sha: &str) -> Entry {
        Entry {
            dir: self.dir.join("commits").join(sha),
        }
    }

    /// The entry of a bundle file, by its name without the extension.
    pub fn bundle(&self, name: &str) -> Entry {
        Entry {
            dir: self.dir.join("bundles").join(name),
        }
    }

    /// CodinGame's crates, vendored once for Debian's cargo, which builds offline.
    pub fn vendor(&self) -> PathBuf {
        self.dir.join("vendor")
    }

    /// Debian's cargo's home (its configuration: the vendored crates replace crates.io).
    pub fn cargo_home(&self) -> PathBuf {
        self.dir.join("cargo-home")
    }

    /// Debian's cargo's target directory, shared by every entry: the crates compile once.
    pub fn debian_target(&self) -> PathBuf {
        self.dir.join("debian-target")
    }

    /// The target directory of the commits' bundlers, shared: their dependencies compile once.
    pub fn bundler_target(&self) -> PathBuf {
        self.dir.join("bundler-target")
    }

    /// Takes the cache's lock, waiting (and saying so) while another build holds it.
    pub fn lock(&self) -> Result<Lock> {
        fs::create_dir_all(&self.dir).with_context(|| self.dir.display().to_string())?;
        let path = self.dir.join("build.lock");
        let file = File::create(&path).with_context(|| path.display().to_string())?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                eprintln!(
                    "build: waiting for another build to finish ({})",
                    path.display()
                );
                file.lock().with_context(|| path.display().to_string())?;
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| path.display().to_string())
            }
        }
        Ok(Lock(file))
    }
}

/// One compiled bundle's folder: `main.rs` (the bundle), its scratch package, the binary, the
/// binary's SHA-256 (as `sha256sum` writes it) and the build's log.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The folder.
    pub dir: PathBuf,
}

impl Entry {
    /// Its key: the commit's full hash, or the bundle file's name.
    pub fn name(&self) -> String {
        self.dir
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
    }

    /// The bundle's source, the file CodinGame is given.
    pub fn source(&self) -> PathBuf {
        self.dir.join("main.rs")
    }

    /// The compiled bundle.
    pub fn binary(&self) -> PathBuf {
        self.dir.join(BINARY)
    }

    /// What the last build of this entry printed.
    pub fn log(&self) -> PathBuf {
        self.dir.join("build.log")
    }

    fn sum_file(&self) -> PathBuf {
        self.dir.join(format!("{BINARY}.sha256"))
    }

    /// Whether the binary is there with the hash recorded when it was compiled: such an entry
    /// is never built again.
    pub fn is_built(&self) -> bool {
        let recorded = fs::read_to_string(self.sum_file()).unwrap_or_default();
        let recorded = recorded.split_whitespace().next();
        recorded.is_some() && recorded == sha256_file(&self.binary()).ok().as_deref()
    }

    /// Keeps `compiled` as this entry's binary and records its hash (the hash last, so that
    /// an interrupted copy leaves an entry that is built again).
    pub fn keep(&self, compiled: &Path) -> Result<()> {
        let _ = fs::remove_file(self.sum_file());
        let partial = self.dir.join(format!("{BINARY}.partial"));
        fs::copy(compiled, &partial).with_context(|| compiled.display().to_string())?;
        fs::rename(&partial, self.binary()).with_context(|| partial.display().to_string())?;
        let sum = sha256_file(&self.binary())?;
        let path = self.sum_file();
        fs::write(&path, format!("{sum}  {BINARY}\n")).with_context(|| path.display().to_string())
    }
}

/// The SHA-256 of a file's bytes, in lowercase hex (shared with `twixt-train generation`).
pub use twixt_host::sum::sha256_file;

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("twixt-cache-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn sha256_is_the_standard_one() {
        let dir = scratch("sha");
        let file = dir.join("abc");
        fs::write(&file, "abc").unwrap();
        assert_eq!(
            sha256_file(&file).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(sha256_file(&dir.join("missing")).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_entry_is_built_only_with_its_binary_and_the_hash_it_had() {
        let dir = scratch("entry");
        let cache = Cache::at(&dir);
        let entry = cache.commit("0123abcd");
        assert!(entry.dir.ends_with("target/codingame/commits/0123abcd"));
        fs::create_dir_all(&entry.dir).unwrap();
        assert!(!entry.is_built(), "no binary");
        let compiled = dir.join("compiled");
        fs::write(&compiled, "binary bytes").unwrap();
        entry.keep(&compiled).unwrap();
        assert!(entry.is_built());
        let sums = fs::read_to_string(entry.dir.join("twixt-codingame.sha256")).unwrap();
        assert!(sums.ends_with("  twixt-codingame\n"), "{sums}");
        fs::write(entry.binary(), "another binary").unwrap();
        assert!(!entry.is_built(), "a binary that changed since");
        entry.keep(&compiled).unwrap();
        fs::remove_file(entry.dir.join("twixt-codingame.sha256")).unwrap();
        assert!(!entry.is_built(), "no recorded hash");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_second_lock_waits_for_the_first() {
        let dir = scratch("lock");
        let cache = Cache::at(&dir);
        let first = cache.lock().unwrap();
        let file = File::open(cache.dir.join("build.lock")).unwrap();
        assert!(matches!(file.try_lock(), Err(TryLockError::WouldBlock)));
        drop(first);
        assert!(file.try_lock().is_ok());
        fs::remove_dir_all(&dir).unwrap();
    }
}
