//! The shipped weights: the generated modules match the committed model files (the policy's
//! and the value network's, with its golden values), and the engine decodes them to the very
//! weights the trainer wrote.

use std::path::Path;
use twixt::knowledge::Policy;
use twixt_train::net::export as net_export;
use twixt_train::policy::{export, file as policy_file};

const MODEL: &str = "train/models/policy.txt";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn the_shipped_module_is_the_export_of_the_committed_model() {
    let policy = policy_file::read(&root().join(MODEL)).unwrap();
    let module = std::fs::read_to_string(root().join(export::MODULE)).unwrap();
    assert!(
        module == export::module(&policy, MODEL),
        "{} is stale: run `cargo run --release --bin twixt-train -- export {MODEL}`",
        export::MODULE
    );
    assert_eq!(Policy::shipped(), Ok(policy));
}

const NET_MODEL: &str = "train/models/value.txt";

#[test]
fn the_shipped_network_is_the_export_of_the_committed_model() {
    let model = twixt_train::net::file::read(&root().join(NET_MODEL)).unwrap();
    // At the widths the module was exported with: a module of other widths, or of another
    // model, is stale.
    let shipped = twixt::knowledge::network::Network::shipped().unwrap();
    let policy_bits = shipped.policy.as_ref().map_or(8, |p| p.bits);
    let net = model.quantize(shipped.row_bits, policy_bits).unwrap();
    let module = std::fs::read_to_string(root().join(net_export::MODULE)).unwrap();
    let golden = std::fs::read_to_string(root().join(net_export::GOLDEN)).unwrap();
    let fix = format!(
        "run `cargo run --release --bin twixt-train -- export-net {NET_MODEL} --row-bits {} --policy-bits {policy_bits}`",
        shipped.row_bits
    );
    assert!(
        module == net_export::module(&net, NET_MODEL),
        "{} is stale: {fix}",
        net_export::MODULE
    );
    assert!(
        golden == net_export::golden(&net),
        "{} is stale: {fix}",
        net_export::GOLDEN
    );
    assert_eq!(twixt::knowledge::network::Network::shipped(), Ok(net));
    assert_eq!(
        shipped.row_bits,
        net_export::ROW_BITS,
        "export-net's default row bits are the shipped network's"
    );
}
