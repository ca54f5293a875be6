//! What the bundler needs from `Cargo.toml`: the library's name and every dependency name.

use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::path::Path;

/// The library crate name (what `main.rs` writes before `::`) and the names, as code spells
/// them, of every crate the package depends on (normal, dev, build and target-specific).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub lib_name: String,
    pub dependencies: BTreeSet<String>,
}

/// Reads `dir/Cargo.toml`.
pub fn read(dir: &Path) -> Result<Manifest> {
    let path = dir.join("Cargo.toml");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    parse(&text).with_context(|| format!("parsing {}", path.display()))
}

/// Parses the text of a `Cargo.toml`.
pub fn parse(text: &str) -> Result<Manifest> {
    let table: toml::Table = text.parse()?;
    let lib_name = lib_name(&table).context("no [lib] name and no [package] name")?;
    let mut dependencies = BTreeSet::new();
    collect_dependencies(&table, &mut dependencies);
    if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
        for target in targets.values().filter_map(|t| t.as_table()) {
            collect_dependencies(target, &mut dependencies);
        }
    }
    Ok(Manifest {
        lib_name,
        dependencies,
    })
}

fn lib_name(table: &toml::Table) -> Option<String> {
    let name = |section: &str| table.get(section)?.get("name")?.as_str().map(str::to_owned);
    name("lib")
        .or_else(|| name("package"))
        .map(|n| n.replace('-', "_"))
}

fn collect_dependencies(table: &toml::Table, out: &mut BTreeSet<String>) {
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(deps) = table.get(section).and_then(|d| d.as_table()) {
            out.extend(deps.keys().map(|k| k.replace('-', "_")));
        }
    }
}
