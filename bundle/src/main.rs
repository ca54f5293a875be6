//! Writes the CodinGame submission, `target/codingame/main.rs` under the workspace root: the
//! bot and the engine modules it uses in one file (see the `twixt_bundle` library). Run
//! `cargo run --release --bin twixt-bundle`.

use std::path::Path;
use std::process::ExitCode;
use twixt_bundle::{self as bundle, Options, LIMIT};

const OUTPUT: &str = "target/codingame/main.rs";

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: twixt-bundle (no arguments; writes {OUTPUT} under the workspace root)");
        return ExitCode::from(2);
    }
    // The engine is the workspace's root package, the folder above this crate.
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("twixt-bundle sits in the engine's workspace");
    let output = crate_dir.join(OUTPUT);
    match bundle::bundle(&Options::for_crate(crate_dir)).and_then(|b| write(&output, &b)) {
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
    println!(
        "{OUTPUT}: {} characters in UTF-16 code units, as CodinGame counts (limit {LIMIT})",
        bundle.chars()
    );
    println!("modules: {}", bundle.modules.join(", "));
    Ok(())
}
