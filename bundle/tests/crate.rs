//! The bundler on this very crate: the real library modules bundle, compile as one file with
//! the current rustc and behave like the library. (The compile with rustc 1.63 against
//! CodinGame's crates is .ci/codingame-check's job; what stays out is tests/host_only.rs's.)

mod support;

#[path = "fixtures/crate_main/random_game.rs"]
mod random_game;

use std::path::{Path, PathBuf};
use support::compile;
use twixt_bundle::{self as bundle, Options};

/// The engine's package: the workspace root, above this crate.
fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the bundler sits in the engine's workspace")
}

/// This crate's library with a stand-in main that plays seeded random games.
fn random_game_bundle() -> bundle::Bundle {
    let mut options = Options::for_crate(crate_dir());
    options.main = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/crate_main/main.rs");
    bundle::bundle(&options).unwrap()
}

#[test]
fn the_library_bundled_plays_the_same_games_as_the_library() {
    let compiled = compile(&random_game_bundle().source, &["-O"]);
    for seed in [1u64, 2, 3] {
        let printed = compiled.run(&[&seed.to_string()]);
        assert_eq!(printed.trim_end(), random_game::play(seed));
    }
}

/// The newest rand 0.8 rlib beside this test binary (dev-dependencies may bring other rand
/// versions: each `librand-HASH.rlib` has a `rand-HASH.d` naming its sources).
fn rand_rlib() -> PathBuf {
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_owned();
    let is_rand_08 = |rlib: &Path| {
        let name = rlib.file_name().unwrap().to_string_lossy();
        let Some(hash) = name
            .strip_prefix("librand-")
            .and_then(|n| n.strip_suffix(".rlib"))
        else {
            return false;
        };
        let sources = std::fs::read_to_string(deps.join(format!("rand-{hash}.d")));
        sources.is_ok_and(|s| s.contains("/rand-0.8."))
    };
    std::fs::read_dir(&deps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| is_rand_08(p))
        .max_by_key(|p| p.metadata().unwrap().modified().unwrap())
        .expect("twixt depends on rand 0.8, so its rlib is built beside the tests")
}

/// The most the compact bundle's code (all but the weights' characters) may take: what is
/// left of CodinGame's 100,000 UTF-16 units is for the weights and the book's entries, so the
/// code is held to what the bot needs. A change that needs more raises it and says why in its
/// commit (`git log -L` on this line gives the history; `twixt-bundle` prints what the code
/// and the weights take).
const CODE_LIMIT: usize = 62_200;

#[test]
fn the_bot_bundle_compiles_as_one_file_and_fits() {
    let bundle = bundle::bundle(&Options::for_crate(crate_dir())).unwrap();
    let code = bundle.chars() - bundle.weight_chars();
    assert!(code <= CODE_LIMIT, "{code} UTF-16 units of code");
    // Every knowledge character of the shipped modules, the policy's, the network's and the
    // book's, and nothing else: a bundle that lost one would be smaller by thousands (the
    // book by its entries).
    let modules = [
        "src/knowledge/weights.rs",
        "src/knowledge/net_weights.rs",
        "src/bot/book_moves.rs",
    ];
    let shipped: usize = modules
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(crate_dir().join(f)).unwrap();
            text.chars().filter(|&c| c >= '\u{3400}').count()
        })
        .sum();
    assert!(shipped > 10_000, "{shipped}");
    assert_eq!(
        bundle.weight_chars(),
        shipped,
        "the shipped knowledge's characters"
    );
    let rand = format!("rand={}", rand_rlib().display());
    let deps = format!("dependency={}", rand_rlib().parent().unwrap().display());
    let compiled = compile(&bundle.source, &["--extern", &rand, "-L", &deps]);
    assert!(compiled.binary.is_file());
}

#[test]
fn the_bot_bundle_makes_the_library_one_module() {
    // A bundle whose modules cannot be made one fails with the reason; this says so here,
    // before the size cap above would say it with a number.
    let bundle = match bundle::bundle(&Options::for_crate(crate_dir())) {
        Ok(bundle) => bundle,
        Err(e) => panic!("{e:#}"),
    };
    let file = syn::parse_file(&bundle.source).unwrap();
    let Some(syn::Item::Mod(library)) = file.items.last() else {
        panic!("the bundle ends with the library's module");
    };
    let items = &library.content.as_ref().expect("an inline module").1;
    let nested: Vec<String> = items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    assert!(nested.is_empty(), "modules left in the library: {nested:?}");
}

#[test]
fn the_pretty_bundle_is_the_same_code_printed_readable() {
    let compact = bundle::bundle(&Options::for_crate(crate_dir())).unwrap();
    let mut options = Options::for_crate(crate_dir());
    options.pretty = true;
    let pretty = bundle::bundle(&options).unwrap();
    assert!(pretty.source.starts_with("// Twixt-PP bot for CodinGame"));
    assert!(pretty.source.contains("\nmod twixt {\n"));
    assert!(compact.chars() < pretty.chars() * 2 / 3);
    assert_eq!(compact.weight_chars(), pretty.weight_chars());
    assert_eq!(compact.modules, pretty.modules);
    // Compact: no comment, no indentation.
    assert!(!compact.source.contains("//") && !compact.source.contains("\n "));
    assert!(!compact.source.contains("\n\t"));
}
