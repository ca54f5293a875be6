//! `twixt-train regenerate`: the self-play data the repository does not hold, made again to
//! the bytes it was made with. [`manifest`] lists each part with its teacher (a commit),
//! command and sums; [`teacher`] builds that commit's `twixt-train`; the part's games are
//! played by it, its sample (its first games, seconds of play) first, so that a teacher that
//! plays other games is found at once. docs/DATA.md, "What is committed", gives the rule.

pub mod entry;
pub mod manifest;
pub mod teacher;

use anyhow::{bail, Context, Result};
use clap::Args;
use manifest::{Manifest, Part};
use std::path::{Path, PathBuf};
use std::process::Command;
use teacher::Teachers;
use twixt_host::sum::sha256_file;

/// `twixt-train regenerate`'s options.
#[derive(Args, Debug)]
pub struct RegenerateOptions {
    /// The parts to make (`gen1/shard1`, ...); default: every part the repository does not
    /// hold (with --committed: every part it holds).
    pub parts: Vec<String>,
    /// Only each part's sample: its first games, checked against its sum.
    #[arg(long, conflicts_with = "committed")]
    pub sample: bool,
    /// Play nothing: check that each committed file unpacks to its part's sum.
    #[arg(long)]
    pub committed: bool,
    /// The manifest.
    #[arg(long, default_value = manifest::MANIFEST)]
    pub manifest: PathBuf,
    /// Where the parts are written (`DIR/genK/shardI.bin`, samples under `DIR/sample/`).
    #[arg(long, default_value = "target/regenerated")]
    pub dir: PathBuf,
    /// Where the teachers are built and kept.
    #[arg(long, default_value = "target/teachers")]
    pub cache: PathBuf,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// Makes (or checks) the parts, in the repository the command runs in; an error names the
/// first part that differs.
pub fn run(o: &RegenerateOptions) -> Result<()> {
    let manifest = Manifest::read(&o.manifest)?;
    let mut parts = manifest.select(&o.parts)?;
    if o.parts.is_empty() {
        parts.retain(|p| held(p).is_some() == o.committed);
    }
    if parts.is_empty() {
        println!("regenerate: no part to make");
    }
    for part in parts {
        if o.committed {
            check_committed(part, &o.dir)?;
        } else {
            make(part, o)?;
        }
    }
    Ok(())
}

/// The part's committed file, when the repository holds it.
fn held(part: &Part) -> Option<&Path> {
    part.committed.as_deref().filter(|p| p.is_file())
}

/// Plays the part's sample, then (unless `--sample`) the whole part, each checked.
fn make(part: &Part, o: &RegenerateOptions) -> Result<()> {
    if o.sample && part.sample.is_none() {
        println!("{}: no sample recorded", part.name);
        return Ok(());
    }
    let root = std::env::current_dir()?;
    // Absolute: cargo runs in the commit's tree.
    let teachers = Teachers {
        cache: root.join(&o.cache),
    };
    let exe = teachers.build(&root, &part.teacher)?;
    if let Some(sample) = &part.sample {
        let out = o.dir.join("sample").join(format!("{}.bin", part.name));
        let _ = std::fs::remove_file(&out);
        play(part, &exe, &out, sample.games, o.threads)?;
        verify(part, &out, sample.games, &sample.sha256)
            .with_context(|| format!("{}'s sample", part.name))?;
        println!(
            "{}: its first {} games, as recorded",
            part.name, sample.games
        );
    }
    if !o.sample {
        let out = o.dir.join(format!("{}.bin", part.name));
        play(part, &exe, &out, part.games, o.threads)?;
        verify(part, &out, part.games, &part.sha256).with_context(|| part.name.clone())?;
        println!(
            "{}: {} games, as recorded: {}",
            part.name,
            part.games,
            out.display()
        );
    }
    Ok(())
}

/// The teacher plays the part's first `games` games into `out` (adding to what it holds).
fn play(part: &Part, exe: &Path, out: &Path, games: u32, threads: usize) -> Result<()> {
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    let status = Command::new(exe)
        .arg("selfplay")
        .arg("--out")
        .arg(out)
        .args(["--games", &part.run_games_for(games)?.to_string()])
        .args(["--shard", &part.shard])
        .args(&part.args)
        .args(["--threads", &threads.to_string(), "--resume"])
        .status()
        .with_context(|| format!("cannot start {}", exe.display()))?;
    if !status.success() {
        bail!(
            "{}: {} selfplay failed ({status})",
            part.name,
            exe.display()
        );
    }
    Ok(())
}

/// The file holds the games of the part's teacher, and its sum is the one recorded.
fn verify(part: &Part, file: &Path, games: u32, sha256: &str) -> Result<()> {
    let data = crate::data::read(file)?;
    if data.header.teacher != part.fingerprint() {
        bail!(
            "{} holds the games of teacher {}, not {}: the commit's build is not the teacher",
            file.display(),
            data.header.teacher,
            part.fingerprint
        );
    }
    if data.games.len() != games as usize {
        bail!(
            "{} holds {} games, not {games}",
            file.display(),
            data.games.len()
        );
    }
    let sum = sha256_file(file)?;
    if sum != sha256 {
        bail!(
            "{} has sha256 {sum}, the manifest records {sha256}: the teacher played other games",
            file.display()
        );
    }
    Ok(())
}

/// The committed (packed) file unpacks to the part's recorded bytes.
fn check_committed(part: &Part, dir: &Path) -> Result<()> {
    let packed = part
        .committed
        .as_deref()
        .with_context(|| format!("{}: the manifest names no committed file", part.name))?;
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    let out = dir.join(format!("committed.{}.bin", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let sum = crate::data::packed::unpack_file(packed, &out).and_then(|_| sha256_file(&out));
    let _ = std::fs::remove_file(&out);
    let sum = sum?;
    if sum != part.sha256 {
        bail!(
            "{}: {} unpacks to sha256 {sum}, the manifest records {}",
            part.name,
            packed.display(),
            part.sha256
        );
    }
    println!("{}: {} holds it", part.name, packed.display());
    Ok(())
}
