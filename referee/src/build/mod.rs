//! `twixt-referee build`: any commit's bot as CodinGame runs it. The commit is exported (never
//! the working tree), bundled by its own `twixt-bundle` ([`commit`]), and the bundle compiled
//! as CodinGame compiles it ([`toolchain`]); the binary is kept in a cache keyed by the
//! commit's full hash ([`cache`]), so that a commit is built once. `--bundle FILE` compiles a
//! bundle file as it is (`.ci/codingame-check` compiles the working tree's so).

pub mod cache;
pub mod commit;
mod run;
pub mod toolchain;

use anyhow::{Context, Result};
use cache::{Cache, Entry};
use std::path::{Path, PathBuf};

/// The options of `build`.
#[derive(clap::Args, Clone, Debug)]
pub struct BuildArgs {
    /// Commits to build: anything `git rev-parse` takes (251a39c, HEAD~2, a tag).
    pub revs: Vec<String>,
    /// A bundle file to compile as it is, instead of a commit's (repeatable).
    #[arg(long, value_name = "FILE")]
    pub bundle: Vec<PathBuf>,
}

/// A commit's compiled bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The commit's full hash.
    pub commit: String,
    /// The compiled bundle.
    pub binary: PathBuf,
}

/// Builds every commit and bundle file asked for and prints the binaries' paths, one a line.
pub fn run(args: &BuildArgs) -> Result<i32> {
    if args.revs.is_empty() && args.bundle.is_empty() {
        anyhow::bail!("nothing to build: give commits, or --bundle FILE");
    }
    let root = repo_root();
    let cache = Cache::at(&root);
    for rev in &args.revs {
        println!(
            "{}",
            shown(&build_commit(&cache, &root, rev)?.binary).display()
        );
    }
    for file in &args.bundle {
        println!("{}", shown(&build_bundle(&cache, file)?).display());
    }
    Ok(0)
}

/// The repository the referee runs in (its top folder), or the current folder outside one:
/// the cache, the default results and the balanced book are found from it.
pub fn repo_root() -> PathBuf {
    let mut git = run::command("git");
    git.args(["rev-parse", "--show-toplevel"]);
    match run::output(&mut git, "git rev-parse") {
        Ok(top) if !top.trim().is_empty() => PathBuf::from(top.trim()),
        _ => PathBuf::from("."),
    }
}

/// Builds the commit `rev` of the repository `root` unless the cache has it.
pub fn build_commit(cache: &Cache, root: &Path, rev: &str) -> Result<Built> {
    let sha = commit::resolve(root, rev)?;
    let entry = cache.commit(&sha);
    if !entry.is_built() {
        let _lock = cache.lock()?;
        // Another build may have made it while this one waited.
        if !entry.is_built() {
            make_commit(cache, root, &sha, &entry)
                .with_context(|| format!("commit {sha} ({rev})"))?;
        }
    }
    Ok(Built {
        commit: sha,
        binary: entry.binary(),
    })
}

fn make_commit(cache: &Cache, root: &Path, sha: &str, entry: &Entry) -> Result<()> {
    std::fs::create_dir_all(&entry.dir).with_context(|| entry.dir.display().to_string())?;
    let _ = std::fs::remove_file(entry.log());
    if !entry.source().is_file() {
        commit::make_bundle(cache, root, sha, entry)?;
    }
    toolchain::compile(cache, entry)
}

/// Compiles a bundle file unless the cache has this very file compiled (under its name).
pub fn build_bundle(cache: &Cache, file: &Path) -> Result<PathBuf> {
    let text = std::fs::read(file).with_context(|| file.display().to_string())?;
    let entry = cache.bundle(&entry_name(file));
    let _lock = cache.lock()?;
    let same = std::fs::read(entry.source()).is_ok_and(|t| t == text);
    if !(same && entry.is_built()) {
        std::fs::create_dir_all(&entry.dir).with_context(|| entry.dir.display().to_string())?;
        let _ = std::fs::remove_file(entry.log());
        std::fs::write(entry.source(), &text)
            .with_context(|| entry.source().display().to_string())?;
        toolchain::compile(cache, &entry).with_context(|| file.display().to_string())?;
    }
    Ok(entry.binary())
}

/// A bundle file's key in the cache: its name without the extension, in the letters a
/// binary's name may have.
fn entry_name(file: &Path) -> String {
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned());
    let name: String = stem
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "bundle".into()
    } else {
        name
    }
}

/// A path as the user can type it: relative to the current folder when it lies below it.
pub fn shown(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let here = std::fs::canonicalize(&cwd).unwrap_or(cwd);
    match absolute.strip_prefix(&here) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_path_buf(),
        _ => absolute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_file_is_kept_under_its_name() {
        assert_eq!(entry_name(Path::new("target/codingame/main.rs")), "main");
        assert_eq!(
            entry_name(Path::new("/tmp/my bundle.v2.rs")),
            "my-bundle-v2"
        );
        assert_eq!(entry_name(Path::new("/")), "bundle");
    }

    #[test]
    fn a_path_below_here_is_shown_relative() {
        let here = std::env::current_dir().unwrap();
        let file = here.join("Cargo.toml");
        assert_eq!(shown(&file), PathBuf::from("Cargo.toml"));
        assert_eq!(shown(Path::new("/")), PathBuf::from("/"));
    }
}
