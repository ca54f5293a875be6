//! Shared by the tests/bundle_*.rs files: fixture crates in scratch directories, and compiling
//! and running a bundle with the current rustc.

#![allow(dead_code)] // each test file uses its own part of it

use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;
use twixt_bundle::{self as bundle, Bundle};

/// The miniature crate in tests/fixtures/mini.
pub fn mini_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini")
}

/// A scratch copy of the miniature crate with some files replaced or added.
pub fn mini_with(files: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new().expect("a scratch directory");
    copy_tree(&mini_dir(), dir.path());
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Bundles the crate in `dir` (its src/main.rs and src/lib.rs), printed readable: the
/// tests that look for a name in the text need the names as written (the compact print
/// renames them, so a name's absence there would prove nothing).
pub fn bundle_crate(dir: &Path) -> anyhow::Result<Bundle> {
    let mut options = bundle::Options::for_crate(dir);
    options.pretty = true;
    bundle::bundle(&options)
}

/// Bundles the crate in `dir` compactly, as `twixt-bundle` does by default.
pub fn bundle_compact(dir: &Path) -> anyhow::Result<Bundle> {
    bundle::bundle(&bundle::Options::for_crate(dir))
}

/// The error message of a bundle that must fail.
pub fn bundle_error(dir: &Path) -> String {
    match bundle_crate(dir) {
        Ok(b) => panic!("the bundle should have failed, got:\n{}", b.source),
        Err(e) => format!("{e:#}"),
    }
}

/// A bundle compiled to a binary (in a scratch directory that lives as long as this).
pub struct Compiled {
    _dir: TempDir,
    pub binary: PathBuf,
}

/// Compiles `source` as one file with the current rustc, `extra` arguments appended.
pub fn compile(source: &str, extra: &[&str]) -> Compiled {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("main.rs");
    let binary = dir.path().join("bundle");
    std::fs::write(&file, source).unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let compiled = Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "bin", "-o"])
        .arg(&binary)
        .arg(&file)
        .args(extra)
        .output()
        .expect("rustc runs");
    assert!(
        compiled.status.success(),
        "the bundle does not compile:\n{}\n--- source ---\n{source}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    Compiled { _dir: dir, binary }
}

impl Compiled {
    /// Runs the binary with `args` and returns its standard output.
    pub fn run(&self, args: &[&str]) -> String {
        let run = Command::new(&self.binary).args(args).output().unwrap();
        assert!(run.status.success(), "the bundle failed: {run:?}");
        String::from_utf8(run.stdout).unwrap()
    }
}

/// Compiles `source` (see [`compile`]), runs it with `args` and returns its standard output.
pub fn compile_and_run(source: &str, extra: &[&str], args: &[&str]) -> String {
    compile(source, extra).run(args)
}
