//! The data the repository does not hold is made again as it was made: `twixt-train
//! regenerate --sample` builds the teacher of the first such part from its commit and plays the
//! first games of its parts, whose file must have the sum `train/data/regenerate.toml` records
//! (taken from the original run). A sum changed in the manifest fails, naming the part; and every
//! committed file unpacks to its part's recorded sum, so a part can leave the repository and come
//! back.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use twixt_train::regenerate::manifest::{Manifest, MANIFEST};

/// The workspace's root: the command runs there (the teachers are its commits).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .into()
}

/// Teachers are kept between runs of the tests (a build takes half a minute).
fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("teachers")
}

fn regenerate(args: &[&str], manifest: &Path, dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_twixt-train"))
        .arg("regenerate")
        .args(args)
        .arg("--manifest")
        .arg(manifest)
        .arg("--dir")
        .arg(dir)
        .arg("--cache")
        .arg(cache())
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn the_uncommitted_parts_samples_come_out_with_their_recorded_sums() {
    if !root().join(".git").exists() {
        // A source archive has no history to build the teachers from; CI's checkout has.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no git checkout"
        );
        return;
    }
    let manifest_path = root().join(MANIFEST);
    let manifest = Manifest::read(&manifest_path).unwrap();
    // The uncommitted parts of one teacher (the first's): one build, in CI's time.
    let first = manifest
        .part
        .iter()
        .find(|p| p.committed.is_none() && p.sample.is_some())
        .expect("no uncommitted part has a sample to check");
    let uncommitted: Vec<_> = manifest
        .part
        .iter()
        .filter(|p| p.committed.is_none() && p.sample.is_some() && p.teacher == first.teacher)
        .collect();
    let scratch = tempfile::tempdir().unwrap();

    let mut args = vec!["--sample"];
    args.extend(uncommitted.iter().map(|p| p.name.as_str()));
    let out = regenerate(&args, &manifest_path, scratch.path());
    assert!(out.status.success(), "{}", text(&out));
    for part in &uncommitted {
        let games = part.sample.as_ref().unwrap().games;
        let said = format!("{}: its first {games} games, as recorded", part.name);
        assert!(text(&out).contains(&said), "{}", text(&out));
    }

    // The first sampled part with one digit of its sample's sum changed.
    let part = first;
    let sum = &part.sample.as_ref().unwrap().sha256;
    let flipped = format!(
        "{}{}",
        if sum.starts_with('0') { '1' } else { '0' },
        &sum[1..]
    );
    let original = std::fs::read_to_string(&manifest_path).unwrap();
    assert_eq!(original.matches(sum.as_str()).count(), 1);
    let damaged = scratch.path().join("damaged.toml");
    std::fs::write(&damaged, original.replace(sum.as_str(), &flipped)).unwrap();
    let out = regenerate(&["--sample", &part.name], &damaged, scratch.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = format!("{}'s sample", part.name);
    assert!(text(&out).contains(&said), "{}", text(&out));
    assert!(text(&out).contains(&flipped), "{}", text(&out));
}

#[test]
fn every_committed_file_unpacks_to_its_parts_sum() {
    let scratch = tempfile::tempdir().unwrap();
    let out = regenerate(&["--committed"], &root().join(MANIFEST), scratch.path());
    assert!(out.status.success(), "{}", text(&out));
    let manifest = Manifest::read(&root().join(MANIFEST)).unwrap();
    for part in manifest.part.iter().filter(|p| p.committed.is_some()) {
        let said = format!(
            "{}: {} holds it",
            part.name,
            part.committed.as_ref().unwrap().display()
        );
        assert!(text(&out).contains(&said), "{}", text(&out));
    }
}
