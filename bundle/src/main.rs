//! Writes the CodinGame submission, `target/codingame/main.rs` under the workspace root: the
//! bot and the engine modules it uses in one file (see the `twixt_bundle` library). Run
//! `cargo run --release --bin twixt-bundle [-- --pretty] [-- --out FILE]`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use twixt_bundle::{self as bundle, Options, LIMIT};

const OUTPUT: &str = "target/codingame/main.rs";

const USAGE: &str = "usage: twixt-bundle [--pretty] [--out FILE]
  writes the bot as one file for CodinGame (default target/codingame/main.rs under the
  workspace root), compact: only the whitespace Rust's tokens need, the crate's own names
  shortened. --pretty writes readable Rust instead, to trace a compile error.";

fn main() -> ExitCode {
    // The engine is the workspace's root package, the folder above this crate.
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("twixt-bundle sits in the engine's workspace");
    let mut options = Options::for_crate(crate_dir);
    let mut output = crate_dir.join(OUTPUT);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--pretty", _) => options.pretty = true,
            ("--out", Some(file)) => {
                output = PathBuf::from(file);
                i += 1;
            }
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
        i += 1;
    }
    match bundle::bundle(&options).and_then(|b| write(&output, &b)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // Never leave a stale bundle behind for someone to paste.
            let _ = std::fs::remove_file(&output);
            eprintln!("twixt-bundle: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn write(output: &Path, bundle: &bundle::Bundle) -> anyhow::Result<()> {
    if let Some(dir) = output.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(output, &bundle.source)?;
    let (all, weights) = (bundle.chars(), bundle.weight_chars());
    // A closed stdout (`| head`) loses the report, not the bundle written above.
    let room = match LIMIT.checked_sub(all) {
        Some(left) => format!("{left} of the limit of {LIMIT} left"),
        None => format!(
            "{} over the limit of {LIMIT}: submit the compact print",
            all - LIMIT
        ),
    };
    let _ = writeln!(
        std::io::stdout(),
        "{}: {all} characters in UTF-16 code units, as CodinGame counts: code {}, weights \
         {weights}; {room}\n{}\nmodules: {}",
        output.display(),
        all - weights,
        shipped_weights(),
        bundle.modules.join(", ")
    );
    Ok(())
}

/// What the engine's shipped weights are: the network's shape and bits, the policy's count,
/// and the book's entries (whose characters the weights' count takes in).
fn shipped_weights() -> String {
    use twixt::knowledge::{features::FEATURES, hidden::HIDDEN, network::Network, Policy};
    let network = match Network::shipped() {
        Ok(net) => {
            let policy = match &net.policy {
                Some(p) => format!("a policy head in {}-bit weights", p.bits),
                None => "no policy head".to_string(),
            };
            format!(
                "{} weights ({} hidden units a view, input rows in {}-bit weights, {policy})",
                net.weights(),
                net.hidden,
                net.row_bits
            )
        }
        Err(e) => format!("does not decode ({e})"),
    };
    let book = twixt::bot::book::readable(twixt::bot::book::BOOK).map_or(0, |e| e.len());
    let hidden = match Policy::shipped().map(|p| p.hidden) {
        Ok(Some(h)) => format!(" and {} hidden units in {}-bit weights", HIDDEN, h.bits),
        Ok(None) => String::new(),
        Err(e) => format!(" (does not decode: {e})"),
    };
    format!(
        "weights: the network {network}; the move policy {FEATURES} f32 weights{hidden}; the \
         book {book} entries"
    )
}
