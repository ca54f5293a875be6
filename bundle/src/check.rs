//! What the bundle cannot carry: crates CodinGame does not ship, macros that read the host
//! (files, environment) at compile time, derive macros from outside std, and `cfg!(codingame)`
//! (always false: only `#[cfg]` attributes are evaluated by the bundler).

use super::manifest::Manifest;
use super::refs::Uses;
use std::collections::BTreeSet;

/// Crates a shipped module may name: the standard library and `rand` (CodinGame's 0.8.5).
pub const ALLOWED_CRATES: [&str; 4] = ["std", "core", "alloc", "rand"];

/// Macros that read the host at compile time: the file they read is not pasted with the bundle.
pub const HOST_MACROS: [&str; 5] = [
    "include",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
];

/// The derives std provides.
pub const STD_DERIVES: [&str; 9] = [
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "PartialEq",
    "Eq",
    "Hash",
    "PartialOrd",
    "Ord",
];

/// One line per thing in `uses` that the bundle cannot carry, each starting with `who`.
pub fn problems(who: &str, uses: &Uses, manifest: &Manifest) -> BTreeSet<String> {
    let foreign = |name: &str| {
        !ALLOWED_CRATES.contains(&name)
            && name != manifest.lib_name
            && manifest.dependencies.contains(name)
    };
    let mut out = BTreeSet::new();
    for name in &uses.extern_crates {
        if !ALLOWED_CRATES.contains(&name.as_str()) && *name != manifest.lib_name {
            out.insert(format!(
                "{who}: `extern crate {name}` (only std, core, alloc and rand can be bundled)"
            ));
        }
    }
    for path in &uses.paths {
        let Some(first) = path.segments.first() else {
            continue;
        };
        let spelled = path.segments.join("::");
        let rooted_elsewhere = path.leading_colon
            && !ALLOWED_CRATES.contains(&first.as_str())
            && *first != manifest.lib_name;
        if foreign(first) || rooted_elsewhere {
            out.insert(format!(
                "{who}: uses crate `{first}` (`{spelled}`), which CodinGame does not ship"
            ));
        }
        let last = path.segments.last().map_or("", String::as_str);
        if path.bang && HOST_MACROS.contains(&last) {
            out.insert(format!(
                "{who}: `{last}!` reads the host at compile time; a pasted file cannot"
            ));
        }
    }
    if uses.cfg_codingame_macros > 0 {
        out.insert(format!(
            "{who}: `cfg!(codingame)` is false in the bundle as everywhere (the bundler \
             evaluates only `#[cfg(..)]` attributes); use the attribute"
        ));
    }
    for name in &uses.derives {
        if !STD_DERIVES.contains(&name.as_str()) {
            out.insert(format!(
                "{who}: `#[derive({name})]` is not one of std's derives"
            ));
        }
    }
    out
}
