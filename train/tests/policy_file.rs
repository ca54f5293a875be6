//! The model file: it round-trips to the very same weights, and damage names its place.

use twixt::knowledge::features::FEATURES;
use twixt::knowledge::Policy;
use twixt_train::model;

fn policy() -> Policy {
    Policy {
        weights: (0..FEATURES).map(|i| (i as f32 - 40.0) / 7.0).collect(),
    }
}

fn error(text: &str) -> String {
    format!("{:#}", model::parse(text).unwrap_err())
}

#[test]
fn a_model_round_trips_exactly() {
    let p = policy();
    let text = model::to_text(&p);
    assert_eq!(model::parse(&text).unwrap(), p);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.txt");
    model::write(&path, &p).unwrap();
    assert_eq!(model::read(&path).unwrap(), p);
}

#[test]
fn damage_is_named_by_line_and_offset() {
    let text = model::to_text(&policy());
    assert!(error("hello\n").starts_with("line 1 (offset 0): not a model file"));
    let other = text.replace(&format!("features {FEATURES}"), "features 3");
    assert!(
        error(&other).contains("line 2 (offset 15): the model has 3 features"),
        "{}",
        error(&other)
    );
    let garbled = text.replacen("\n-5.714286\n", "\nx\n", 1);
    assert!(
        error(&garbled).starts_with("line 3 (offset 27): "),
        "{}",
        error(&garbled)
    );
    assert!(error(&garbled).contains("\"x\" is not a number"));
    let flipped = text.replacen("-5.714286", "-5.714287", 1);
    assert!(
        error(&flipped).contains("the checksum does not match"),
        "{}",
        error(&flipped)
    );
    let cut = &text[..text.len() / 2];
    assert!(
        error(cut).contains("the file ends before weight"),
        "{}",
        error(cut)
    );
    let error = format!(
        "{:#}",
        model::read(std::path::Path::new("/no/such/model")).unwrap_err()
    );
    assert!(error.contains("/no/such/model"), "{error}");
}
