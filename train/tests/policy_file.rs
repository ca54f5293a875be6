//! The policy's model file: it round-trips to the very same weights, and damage names its
//! file and place.

use twixt::knowledge::features::FEATURES;
use twixt::knowledge::Policy;
use twixt_train::policy_file;

fn policy() -> Policy {
    Policy {
        weights: (0..FEATURES).map(|i| (i as f32 - 40.0) / 7.0).collect(),
    }
}

fn error(text: &str) -> String {
    format!("{:#}", policy_file::parse(text).unwrap_err())
}

#[test]
fn a_model_round_trips_exactly() {
    let p = policy();
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
    assert!(
        error(&garbled).starts_with("line 3 (offset 27): 'x' is not a weight"),
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
