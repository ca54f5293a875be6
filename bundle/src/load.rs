//! Reading source files and inlining `mod name;` declarations as `mod name { ... }` blocks.
//!
//! Module files are found as rustc finds them without `#[path]`: the children of the module
//! `name` declared in directory `dir` live in `dir/name/`, whether `name` is `dir/name.rs` or
//! `dir/name/mod.rs`; the crate roots (`lib.rs`, `main.rs`) declare theirs in their own
//! directory.

use super::strip;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use syn::ext::IdentExt;
use syn::{AttrStyle, Attribute, Item, ItemMod};

/// The directory holding `file`, where a crate root's `mod name;` files live.
pub fn dir_of(file: &Path) -> &Path {
    file.parent().unwrap_or(Path::new("."))
}

/// Parses a file and drops its `cfg(test)` items; its `mod name;` declarations stay as they are.
pub fn parse_file(path: &Path) -> Result<syn::File> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut file = syn::parse_file(&text).with_context(|| format!("parsing {}", path.display()))?;
    strip::strip_cfg_test(&mut file);
    Ok(file)
}

/// Inlines every module declared (at any depth) in `items`, which belong to a module whose
/// children live in `dir`. `file` names the source file, for messages.
pub fn inline_all(items: &mut Vec<Item>, dir: &Path, file: &Path) -> Result<()> {
    let mut kept = Vec::with_capacity(items.len());
    for mut item in items.drain(..) {
        if let Item::Mod(module) = &mut item {
            if !inline_module(module, dir, file)? {
                continue;
            }
        }
        kept.push(item);
    }
    *items = kept;
    Ok(())
}

/// Inlines `module` (declared in `file`, with its siblings' files in `dir`) and everything
/// below it. Returns false when the module's file turns out to be `#![cfg(test)]`.
pub fn inline_module(module: &mut ItemMod, dir: &Path, file: &Path) -> Result<bool> {
    let name = module.ident.unraw().to_string();
    if module.attrs.iter().any(|a| a.path().is_ident("path")) {
        bail!(
            "{}: `#[path]` on module `{name}` cannot be bundled: move the file where rustc looks by default",
            file.display()
        );
    }
    let child_dir = dir.join(&name);
    match &mut module.content {
        Some((_, items)) => inline_all(items, &child_dir, file)?,
        None => {
            let path = module_file(dir, &name, file)?;
            let mut parsed = parse_file(&path)?;
            if strip::is_cfg_false(&parsed.attrs) {
                return Ok(false);
            }
            inline_all(&mut parsed.items, &child_dir, &path)?;
            module
                .attrs
                .extend(parsed.attrs.into_iter().filter(keep_inner));
            module.content = Some((Default::default(), parsed.items));
            module.semi = None;
        }
    }
    Ok(true)
}

/// A file's inner attributes worth keeping once it becomes a `mod` block: the lint
/// allowances. Others (`#![deny(missing_docs)]` with the docs gone, `#![doc]`) are dropped.
pub fn keep_inner(attr: &Attribute) -> bool {
    matches!(attr.style, AttrStyle::Inner(_)) && attr.path().is_ident("allow")
}

/// `dir/name.rs` or `dir/name/mod.rs`: exactly one of them must exist.
fn module_file(dir: &Path, name: &str, declared_in: &Path) -> Result<PathBuf> {
    let flat = dir.join(format!("{name}.rs"));
    let nested = dir.join(name).join("mod.rs");
    match (flat.is_file(), nested.is_file()) {
        (true, false) => Ok(flat),
        (false, true) => Ok(nested),
        (true, true) => bail!(
            "{}: module `{name}` is ambiguous: both {} and {} exist",
            declared_in.display(),
            flat.display(),
            nested.display()
        ),
        (false, false) => bail!(
            "{}: cannot find the file of module `{name}`: neither {} nor {} exists",
            declared_in.display(),
            flat.display(),
            nested.display()
        ),
    }
}
