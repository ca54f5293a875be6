//! The CodinGame bundler (host-only, never itself bundled): one source file holding the bot's
//! `main.rs` and the library modules it uses.
//!
//! Layout of the bundle: the binary's items first, then the library as a nested module named
//! after it (`mod twixt { ... }`), whose body is `lib.rs` with its selected items and every
//! module file inlined as `mod name { ... }`. Nesting (rather than flattening the library into
//! the binary's root) keeps the two crate roots' namespaces apart, so a name the binary
//! imports can never clash with a re-export of `lib.rs`. The cost is one rewrite on each side:
//! the library's `crate::X` becomes `crate::twixt::X`, and the binary's `twixt::X` becomes
//! `crate::twixt::X` (which also covers `::twixt::X` and paths in the binary's own modules).
//!
//! Stripped on the way: items gated by `cfg(test)` (their module files are not even read),
//! doc comments, comments (the printer never sees them) and the files' inner attributes other
//! than `allow`.

mod alias;
mod check;
mod compact;
mod flatten;
mod fresh;
mod library;
mod load;
mod locals;
mod manifest;
mod print;
mod refs;
mod rename;
mod rewrite;
mod strip;
mod tokens;

pub use manifest::Manifest;

use anyhow::{bail, Result};
use library::Library;
use std::collections::BTreeSet;
use std::path::PathBuf;
use syn::Item;

/// CodinGame's limit on a submitted file, in characters as it counts them: UTF-16 code units.
pub const LIMIT: usize = 100_000;

/// Where the crate is and which roots to bundle.
#[derive(Clone, Debug)]
pub struct Options {
    /// The package directory (with `Cargo.toml`).
    pub crate_dir: PathBuf,
    /// The binary's root file.
    pub main: PathBuf,
    /// The library's root file.
    pub lib: PathBuf,
    /// Readable Rust (to trace a compile error on CodinGame) instead of the compact print.
    pub pretty: bool,
}

impl Options {
    /// The package in `crate_dir`, with `src/main.rs` and `src/lib.rs`.
    pub fn for_crate(crate_dir: impl Into<PathBuf>) -> Options {
        let crate_dir = crate_dir.into();
        Options {
            main: crate_dir.join("src/main.rs"),
            lib: crate_dir.join("src/lib.rs"),
            crate_dir,
            pretty: false,
        }
    }
}

/// A finished bundle.
#[derive(Clone, Debug)]
pub struct Bundle {
    pub source: String,
    /// The library's top-level modules it ships, in source order.
    pub modules: Vec<String>,
}

impl Bundle {
    /// The length CodinGame counts: UTF-16 code units (a character outside the Basic
    /// Multilingual Plane counts two).
    pub fn chars(&self) -> usize {
        self.source.encode_utf16().count()
    }

    /// The part of [`Bundle::chars`] that carries weights: the characters of the engine's
    /// weight encoding (`twixt::knowledge::encoding`, all from U+3400 up), which nothing
    /// else in the shipped code uses.
    pub fn weight_chars(&self) -> usize {
        self.source.chars().filter(|&c| c >= '\u{3400}').count()
    }
}

/// Builds the bundle; fails when the compact print would exceed [`LIMIT`] (the readable one,
/// for tracing a compile error, may: it is never the file submitted), when the compact print
/// cannot make the library's modules one (the error says why), or when a shipped module uses
/// something a single pasted file cannot carry.
pub fn bundle(options: &Options) -> Result<Bundle> {
    let manifest = manifest::read(&options.crate_dir)?;
    let lib = manifest.lib_name.as_str();
    let mut main = load::parse_file(&options.main)?;
    load::inline_all(&mut main.items, load::dir_of(&options.main), &options.main)?;
    main.items.retain(|item| !is_extern_crate(item, lib));
    let main_uses = refs::collect(&main.items, 0);

    let mut library = Library::load(&options.lib)?;
    library.select(binary_wants(&main_uses, lib))?;
    let mut problems = check::problems(&options.main.display().to_string(), &main_uses, &manifest);
    problems.extend(library.problems(&manifest));
    reject(problems)?;

    let modules = library.modules();
    let (lib_attrs, lib_items) = library.into_parts();
    let source = print::render(main, lib_attrs, lib_items, lib, options.pretty)?;
    let bundle = Bundle { source, modules };
    if !options.pretty && bundle.chars() > LIMIT {
        bail!(
            "the bundle would be {} characters, over CodinGame's limit of {LIMIT}",
            bundle.chars()
        );
    }
    Ok(bundle)
}

fn is_extern_crate(item: &Item, name: &str) -> bool {
    matches!(item, Item::ExternCrate(e) if e.ident == name)
}

/// The library's crate-root names the binary reaches: `lib::N`, and after `use lib::*` every
/// name the binary spells first in a path.
fn binary_wants(uses: &refs::Uses, lib: &str) -> BTreeSet<String> {
    let glob = uses.paths.iter().any(|p| p.through(lib) == Some("*"));
    let through = uses.paths.iter().filter_map(|p| p.through(lib));
    let firsts = uses
        .paths
        .iter()
        .filter(|_| glob)
        .filter_map(|p| p.segments.first());
    through
        .chain(firsts.map(String::as_str))
        .map(str::to_owned)
        .collect()
}

fn reject(problems: BTreeSet<String>) -> Result<()> {
    if problems.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = problems.into_iter().map(|p| format!("  - {p}")).collect();
    bail!(
        "the bundle cannot carry what the shipped code uses:\n{}",
        list.join("\n")
    )
}
