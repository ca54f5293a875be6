//! The shipped weights: the generated module matches the committed model file, and the
//! engine decodes it to the very weights the trainer wrote.

use std::path::Path;
use twixt::knowledge::Policy;
use twixt_train::{export, model};

const MODEL: &str = "train/models/policy.txt";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn the_shipped_module_is_the_export_of_the_committed_model() {
    let policy = model::read(&root().join(MODEL)).unwrap();
    let module = std::fs::read_to_string(root().join(export::MODULE)).unwrap();
    assert!(
        module == export::module(&policy, MODEL),
        "{} is stale: run `cargo run --release --bin twixt-train -- export {MODEL}`",
        export::MODULE
    );
    assert_eq!(Policy::shipped(), Ok(policy));
}
