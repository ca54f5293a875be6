//! The `twixt-bundle` command: it writes target/codingame/main.rs and reports its true size.

use std::process::Command;

#[test]
fn writes_the_bundle_and_prints_its_character_count() {
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-bundle"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let written = root.join("target/codingame/main.rs");
    let chars = std::fs::read_to_string(written)
        .unwrap()
        .encode_utf16()
        .count();
    let expected = format!(
        "target/codingame/main.rs: {chars} characters in UTF-16 code units, as CodinGame counts (limit 100000)"
    );
    assert_eq!(stdout.lines().next(), Some(expected.as_str()));
}

#[test]
fn refuses_arguments() {
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-bundle"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
