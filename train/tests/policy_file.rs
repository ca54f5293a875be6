//! The policy's model file: it round-trips to the very same weights, and damage names its
//! file and place.

use twixt::knowledge::features::FEATURES;
use twixt::knowledge::hidden::{Hidden, HIDDEN};
use twixt::knowledge::Policy;
use twixt_train::policy::file as policy_file;

fn policy() -> Policy {
    Policy::linear((0..FEATURES).map(|i| (i as f32 - 40.0) / 7.0).collect())
}

/// [`policy`] with a hidden layer of 7-bit weights.
fn with_hidden() -> Policy {
    let ints: Vec<i32> = (0..(FEATURES + 2) * HIDDEN)
        .map(|k| (k % 127) as i32 - 63)
        .collect();
    Policy {
        hidden: Some(Hidden::from_ints(7, &ints)),
        ..policy()
    }
}

fn error(text: &str) -> String {
    format!("{:#}", policy_file::parse(text).unwrap_err())
}

#[test]
fn a_model_round_trips_exactly() {
    round_trip(policy());
    round_trip(with_hidden());
}

fn round_trip(p: Policy) {
    let text = policy_file::to_text(&p);
    assert_eq!(policy_file::parse(&text).unwrap(), p);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.txt");
    policy_file::write(&path, &p).unwrap();
    assert_eq!(policy_file::read(&path).unwrap(), p);
}

#[test]
fn damage_is_named_by_file_line_and_offset() {
    let text = policy_file::to_text(&policy());
    assert_eq!(
        error("hello\n"),
        "line 1 (offset 0): 'hello' where 'twixt-policy 1' belongs"
    );
    let other = text.replace(&format!("features {FEATURES}"), "features 3");
    assert_eq!(
        error(&other),
        format!("line 2 (offset 15): 'features 3' where 'features {FEATURES}' belongs")
    );
    let garbled = text.replacen("\n-5.714286\n", "\nx\n", 1);
    let third = format!("twixt-policy 1\nfeatures {FEATURES}\n").len();
    assert!(
        error(&garbled).starts_with(&format!("line 3 (offset {third}): 'x' is not a weight")),
        "{}",
        error(&garbled)
    );
    let flipped = text.replacen("-5.714286", "-5.714287", 1);
    assert!(
        error(&flipped).contains("where the weights give"),
        "{}",
        error(&flipped)
    );
    let cut = &text[..text.len() / 2];
    assert!(error(cut).contains("the file ends early"), "{}", error(cut));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.txt");
    std::fs::write(&path, &flipped).unwrap();
    let error = format!("{:#}", policy_file::read(&path).unwrap_err());
    let named = format!("{}: line {} (offset ", path.display(), FEATURES + 3);
    assert!(error.starts_with(&named), "{error}");
    let error = format!(
        "{:#}",
        policy_file::read(std::path::Path::new("/no/such/model")).unwrap_err()
    );
    assert!(error.contains("/no/such/model"), "{error}");
}

#[test]
fn a_hidden_weight_that_is_not_an_integer_of_its_bits_is_refused_with_its_line() {
    let text = policy_file::to_text(&with_hidden());
    let line = format!("hidden {HIDDEN} bits 7\n");
    assert!(text.contains(&format!("\n{line}")), "{text}");
    let body_start = text.find(&line).unwrap() + line.len();
    let (head, body) = text.split_at(body_start);
    let mut lines: Vec<String> = body.lines().map(str::to_string).collect();
    // The first hidden weight (the row of feature 0, unit 0) is -63.
    assert_eq!(lines[FEATURES], "-63.0");
    for bad in ["-64.0", "-62.5"] {
        lines[FEATURES] = bad.to_string();
        let weights = &lines[..lines.len() - 1];
        let body: String = weights.iter().map(|l| format!("{l}\n")).collect();
        let crc = format!("crc32 {:08x}\n", crc32fast::hash(body.as_bytes()));
        let damaged = format!("{head}{body}{crc}");
        assert_eq!(
            error(&damaged),
            format!(
                "line {}: '{bad}' is not an integer of 7 bits (within ±63), as the hidden \
                 layer's weights are",
                4 + FEATURES
            )
        );
    }
}
