//! The `twixt-bundle` command: it writes the bundle where told and reports its true size.

use std::process::Command;

#[test]
fn writes_the_bundle_and_prints_its_character_count() {
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("main.rs");
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-bundle"))
        .arg("--out")
        .arg(&written)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let text = std::fs::read_to_string(&written).unwrap();
    let chars = text.encode_utf16().count();
    let weights = text.chars().filter(|&c| c >= '\u{3400}').count();
    let expected = format!(
        "{}: {chars} characters in UTF-16 code units, as CodinGame counts: code {}, weights \
         {weights}; {} of the limit of 100000 left",
        written.display(),
        chars - weights,
        100_000 - chars
    );
    assert_eq!(stdout.lines().next(), Some(expected.as_str()));
    assert!(weights > 0, "the policy's weights are counted");
    let pretty = dir.path().join("pretty.rs");
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-bundle"))
        .args(["--pretty", "--out"])
        .arg(&pretty)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let readable = std::fs::read_to_string(&pretty).unwrap();
    assert!(readable.encode_utf16().count() > chars);
}

#[test]
fn refuses_arguments() {
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-bundle"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
