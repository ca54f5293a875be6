//! The library crate root and the part of it the binary needs.
//!
//! The unit of selection is a crate-root item of `lib.rs`: a top-level module (shipped whole,
//! with its submodules), a re-export (`pub use cell::Cell;`) or another named item. An item is
//! selected when selected code names it; a module file is read only once it is selected, so
//! host-only modules are never even parsed. Impl blocks and `macro_rules!` at the root carry
//! no name to be reached by and are always kept.

use super::check;
use super::load;
use super::manifest::Manifest;
use super::refs::{self, Uses};
use anyhow::Result;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use syn::ext::IdentExt;
use syn::{Attribute, Item};

pub struct Library {
    path: PathBuf,
    attrs: Vec<Attribute>,
    items: Vec<Item>,
    /// The uses of each selected item (`None` while unselected).
    uses: Vec<Option<Uses>>,
}

impl Library {
    /// Parses `lib.rs` (its modules are read later, when selected).
    pub fn load(path: &Path) -> Result<Library> {
        let file = load::parse_file(path)?;
        Ok(Library {
            path: path.to_owned(),
            attrs: file.attrs,
            uses: vec![None; file.items.len()],
            items: file.items,
        })
    }

    /// Selects the items always kept, and what they and the crate-root names in `wanted` need,
    /// transitively.
    pub fn select(&mut self, wanted: impl IntoIterator<Item = String>) -> Result<()> {
        let always: Vec<usize> = (0..self.items.len())
            .filter(|&i| names(&self.items[i]).is_none())
            .collect();
        let mut queue = self.select_items(always)?;
        queue.extend(wanted);
        let mut seen = BTreeSet::new();
        while let Some(name) = queue.pop() {
            if seen.insert(name.clone()) {
                let found = self.resolve(&name);
                queue.extend(self.select_items(found)?);
            }
        }
        Ok(())
    }

    /// The items of the crate root defining `name`; failing that, the root glob re-exports.
    fn resolve(&self, name: &str) -> Vec<usize> {
        let defining = |n: &str| {
            (0..self.items.len())
                .filter(|&i| {
                    names(&self.items[i]).is_some_and(|names| names.iter().any(|d| d == n))
                })
                .collect::<Vec<_>>()
        };
        let found = defining(name);
        if found.is_empty() {
            defining("*")
        } else {
            found
        }
    }

    /// Marks items selected (reading their module files) and returns the root names they use.
    fn select_items(&mut self, indices: Vec<usize>) -> Result<Vec<String>> {
        let mut wanted = Vec::new();
        for i in indices {
            if self.uses[i].is_some() {
                continue;
            }
            if let Item::Mod(module) = &mut self.items[i] {
                if !load::inline_module(module, load::dir_of(&self.path), &self.path)? {
                    continue; // its file is `#![cfg(test)]`: nothing to ship
                }
            }
            let uses = refs::collect(std::slice::from_ref(&self.items[i]), 0);
            wanted.extend(
                uses.paths
                    .iter()
                    .filter_map(|p| p.library_root())
                    .map(str::to_owned),
            );
            self.uses[i] = Some(uses);
        }
        Ok(wanted)
    }

    /// Everything the selected items use that the bundle cannot carry.
    pub fn problems(&self, manifest: &Manifest) -> BTreeSet<String> {
        self.selected()
            .flat_map(|(item, uses)| {
                check::problems(&self.describe(item, manifest), uses, manifest)
            })
            .collect()
    }

    /// The names of the selected top-level modules, in source order.
    pub fn modules(&self) -> Vec<String> {
        self.selected()
            .filter_map(|(item, _)| match item {
                Item::Mod(m) => Some(m.ident.unraw().to_string()),
                _ => None,
            })
            .collect()
    }

    /// The crate root's inner attributes and its selected items, in source order.
    pub fn into_parts(self) -> (Vec<Attribute>, Vec<Item>) {
        let items = self
            .items
            .into_iter()
            .zip(self.uses)
            .filter_map(|(item, uses)| uses.map(|_| item))
            .collect();
        (self.attrs, items)
    }

    fn selected(&self) -> impl Iterator<Item = (&Item, &Uses)> {
        self.items
            .iter()
            .zip(&self.uses)
            .filter_map(|(item, uses)| Some((item, uses.as_ref()?)))
    }

    fn describe(&self, item: &Item, manifest: &Manifest) -> String {
        match item {
            Item::Mod(m) => format!("module {}::{}", manifest.lib_name, m.ident.unraw()),
            _ => self.path.display().to_string(),
        }
    }
}

/// The names a crate-root item can be reached by; `None` for items that are always kept.
/// A glob re-export is named `*`.
fn names(item: &Item) -> Option<Vec<String>> {
    let ident = |id: &syn::Ident| Some(vec![id.unraw().to_string()]);
    match item {
        Item::Use(u) => {
            let mut leaves = Vec::new();
            refs::use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
            Some(leaves.into_iter().map(|leaf| leaf.binds).collect())
        }
        Item::Mod(i) => ident(&i.ident),
        Item::Fn(i) => ident(&i.sig.ident),
        Item::Struct(i) => ident(&i.ident),
        Item::Enum(i) => ident(&i.ident),
        Item::Union(i) => ident(&i.ident),
        Item::Const(i) => ident(&i.ident),
        Item::Static(i) => ident(&i.ident),
        Item::Type(i) => ident(&i.ident),
        Item::Trait(i) => ident(&i.ident),
        Item::TraitAlias(i) => ident(&i.ident),
        _ => None,
    }
}
