//! Packed data files: `pack` and `unpack` give a self-play file's bytes back, every reader
//! takes the packed file for its data file, `selfplay --resume` refuses one, and any damage
//! (a cut anywhere, a flipped bit in any byte, another magic or version) is an error naming
//! the file and the offset, never a panic.

use std::path::{Path, PathBuf};
use std::process::Command;
use twixt_train::data::{self, packed};
use twixt_train::selfplay::{self, SelfplayOptions};

fn options(out: &Path, resume: bool) -> SelfplayOptions {
    SelfplayOptions {
        out: out.to_path_buf(),
        games: 6,
        iterations: 150,
        fast: Some(30),
        full_share: 0.5,
        opening: 2,
        starts: None,
        seed: 11,
        threads: 2,
        resume,
        set: Vec::new(),
        shard: None,
    }
}

/// A self-play file and its packed copy, in a temporary folder.
fn packed_run() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (raw, packed) = (dir.path().join("run.bin"), dir.path().join("run.zst"));
    selfplay::run(&options(&raw, false)).unwrap();
    let said = packed::pack_file(&raw, &packed, true).unwrap();
    assert!(
        said.contains("6 games") && said.contains("values"),
        "{said}"
    );
    (dir, raw, packed)
}

/// Runs `twixt-train ARGS`: its status, stdout and stderr.
fn train(args: &[&Path]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-train"))
        .args(args)
        .output()
        .expect("twixt-train runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let code = out.status.code().unwrap_or(-1);
    (code, text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_packed_file_unpacks_to_the_same_bytes_and_reads_as_the_same_games() {
    let (dir, raw, packed) = packed_run();
    let (bytes, packed_bytes) = (
        std::fs::read(&raw).unwrap(),
        std::fs::read(&packed).unwrap(),
    );
    assert!(
        packed_bytes.len() < bytes.len(),
        "{} bytes",
        packed_bytes.len()
    );
    let back = dir.path().join("back.bin");
    let (code, said, err) = train(&[Path::new("unpack"), &packed, &back]);
    assert_eq!((code, err.as_str()), (0, ""), "{said}");
    assert_eq!(std::fs::read(&back).unwrap(), bytes, "byte for byte");
    let (a, b) = (data::read(&raw).unwrap(), data::read(&packed).unwrap());
    assert_eq!(
        (a.header, a.version, a.torn_at),
        (b.header, b.version, b.torn_at)
    );
    assert!(a.games == b.games && a.games.len() == 6);
    assert!(data::read_complete(&[packed.clone().into()]).unwrap() == a.games);
    // The packed file is the same run's games: a training that reads both counts none twice.
    let e = format!(
        "{:#}",
        data::read_complete(&[raw.clone().into(), packed.clone().into()]).unwrap_err()
    );
    assert!(e.contains("a game would count twice"), "{e}");
    let (code, info, _) = train(&[Path::new("info"), &packed]);
    assert_eq!(code, 0);
    assert!(
        info.contains("games: 6,") && info.contains("packed"),
        "{info}"
    );
    // Nothing is written over, nothing is packed twice, and only a packed file unpacks.
    let again = format!("{:#}", packed::pack_file(&raw, &back, false).unwrap_err());
    assert!(again.contains("back.bin: cannot create"), "{again}");
    let twice = dir.path().join("twice.zst");
    let e = format!(
        "{:#}",
        packed::pack_file(&packed, &twice, false).unwrap_err()
    );
    assert!(
        e.ends_with("run.zst: offset 0: the file is packed already"),
        "{e}"
    );
    let e = format!("{:#}", packed::unpack_file(&raw, &twice).unwrap_err());
    assert!(
        e.ends_with("run.bin: offset 0: not a packed data file"),
        "{e}"
    );
    assert!(!twice.exists());
}

#[test]
fn resume_refuses_a_packed_file() {
    let (_dir, _raw, packed) = packed_run();
    let e = format!("{:#}", selfplay::run(&options(&packed, true)).unwrap_err());
    assert!(
        e.contains("run.zst: a packed file; --resume adds to a data file"),
        "{e}"
    );
}

/// The error reading `bytes` as the file `path` gives.
fn error(path: &Path, bytes: &[u8]) -> String {
    std::fs::write(path, bytes).unwrap();
    let e = format!("{:#}", data::read(path).unwrap_err());
    assert!(
        e.starts_with(&format!("{}: offset ", path.display())),
        "{e}"
    );
    e
}

#[test]
fn every_damage_to_a_packed_file_is_an_error_naming_the_file_and_offset() {
    let (dir, _raw, packed) = packed_run();
    let good = std::fs::read(&packed).unwrap();
    let bad = dir.path().join("bad.zst");
    // Every byte in memory, some through a file: the reader adds the path.
    let parse = |bytes: &[u8]| format!("{:#}", data::parse(bytes).unwrap_err());
    for at in 0..good.len() {
        let mut flipped = good.clone();
        flipped[at] ^= 1 << (at % 8);
        for e in [parse(&flipped), parse(&good[..at])] {
            assert!(e.starts_with("offset "), "{e}");
        }
        if at % 101 == 0 {
            error(&bad, &flipped);
            error(&bad, &good[..at]);
        }
    }
    let mut longer = good.clone();
    longer.push(0);
    let e = error(&bad, &longer);
    assert!(
        e.ends_with(&format!(
            "offset {}: bytes after the last block",
            good.len()
        )),
        "{e}"
    );
    let mut magic = good.clone();
    magic[3] = b'x';
    let e = error(&bad, &magic);
    assert!(e.ends_with("offset 0: not a twixt-train data file"), "{e}");
    let mut version = good.clone();
    version[8] = 9;
    let e = error(&bad, &version);
    assert!(
        e.ends_with("offset 8: packed version 9, this reads 1"),
        "{e}"
    );
    let mut block = good.clone();
    block[200] ^= 0x10;
    let e = error(&bad, &block);
    assert!(
        e.contains("offset 72: block 0: its checksum does not match"),
        "{e}"
    );
    let e = error(&bad, &good[..good.len() - 1]);
    assert!(
        e.ends_with("offset 72: block 0: it is cut short (the file is truncated)"),
        "{e}"
    );
    let e = error(&bad, &good[..72]);
    assert!(e.ends_with("offset 72: the file ends after 0 of its 1 blocks (it is cut short)"));
    // `unpack` says the same and writes nothing.
    let out = dir.path().join("out.bin");
    let (code, _, err) = train(&[Path::new("unpack"), &bad, &out]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.zst: offset 72: the file ends after 0 of its 1 blocks"),
        "{err}"
    );
    assert!(!out.exists());
}
