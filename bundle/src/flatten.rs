//! The compact bundle's last step: the library's modules flattened into its one module.
//!
//! Once every module's items sit in `mod <lib>` itself, the paths between them shrink to the
//! bare name (`crate::lib::search::params::Params` is `Params`), the `use` lines that join
//! modules go, and so does every `pub` but on what the binary reaches. That takes names that
//! are unique across the modules: the renaming gives each old name one new name, so two
//! modules' items of one name would meet. When they do, or a module carries an attribute
//! that its items would lose, [`flatten`] refuses and says why ([`Refusal`]).
//!
//! Paths from another crate (`std::cell::RefCell`, `::rand::Rng`) are that crate's: a step
//! named like one of this crate's modules is left in them.

mod refusal;

pub use refusal::Refusal;

use super::check::ALLOWED_CRATES;
use super::strip::item_attrs;
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use syn::visit_mut::{self, VisitMut};
use syn::{Item, UseTree};

/// Flattens the library module `lib` of `file` (its name after renaming), or says why not
/// (and leaves `file` as it was).
pub fn flatten(file: &mut syn::File, lib: &str) -> Result<(), Refusal> {
    let index = file
        .items
        .iter()
        .position(|i| matches!(i, Item::Mod(m) if m.ident == lib && m.content.is_some()))
        .ok_or_else(|| Refusal::NoLibrary(lib.to_owned()))?;
    let Item::Mod(module) = &file.items[index] else {
        unreachable!("found above")
    };
    let items = &module.content.as_ref().expect("found above").1;
    let mut modules = BTreeSet::new();
    module_names(items, &mut modules);
    let mut flat = Vec::new();
    collect(items.clone(), &modules, &mut flat)?;
    check_unique(&flat)?;
    check_unshadowed(&flat)?;
    check_imports(&flat, &modules)?;
    // What the binary names keeps `pub` (an item, a method, a field of that name); the rest is
    // in one module and needs none.
    let mut main_items: Vec<Item> = file.items.clone();
    main_items.remove(index);
    let reached: BTreeSet<String> = flat_words(quote::quote!(#(#main_items)*))
        .into_iter()
        .collect();
    let mut flat_file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: flat,
    };
    // A `pub` item that names a private type is an error: only when the binary reaches
    // nothing but functions whose signatures name no type of the crate (the bot's `main`
    // calls one) do the others lose theirs.
    let defined: BTreeSet<String> = flat_file
        .items
        .iter()
        .filter(|i| !matches!(i, Item::Use(_)))
        .flat_map(names)
        .collect();
    let plain = flat_file.items.iter().all(|item| match item {
        Item::Fn(f) if reached.contains(&f.sig.ident.to_string()) => {
            let words = flat_words(f.sig.to_token_stream());
            // A word before `=` names an associated type (`Item = String`), not the crate's.
            let typed = |k: usize| words.get(k + 1).is_some_and(|n| n == "=");
            let own = f.sig.ident.to_string();
            (0..words.len()).all(|k| typed(k) || words[k] == own || !defined.contains(&words[k]))
        }
        other => !names(other).iter().any(|n| reached.contains(n)),
    });
    if plain {
        Private { keep: &reached }.visit_file_mut(&mut flat_file);
    }
    let tokens = strip_paths(flat_file.into_token_stream(), lib, &modules, true);
    let flat: syn::File = syn::parse2(tokens).map_err(|e| Refusal::Syntax(e.to_string()))?;
    let mut items = Vec::with_capacity(file.items.len());
    for item in &file.items {
        items.push(match item {
            Item::Mod(m) if m.ident == lib => {
                let mut m = m.clone();
                m.content.as_mut().expect("found above").1 = flat.items.clone();
                Item::Mod(m)
            }
            other => {
                let tokens = strip_paths(other.to_token_stream(), lib, &modules, false);
                syn::parse2(tokens).map_err(|e| Refusal::Syntax(e.to_string()))?
            }
        });
    }
    file.items = items;
    Ok(())
}

fn module_names(items: &[Item], out: &mut BTreeSet<String>) {
    for item in items {
        if let Item::Mod(m) = item {
            out.insert(m.ident.to_string());
            if let Some((_, inner)) = &m.content {
                module_names(inner, out);
            }
        }
    }
}

/// `items` with their modules' items in place of the modules, the `use` lines between the
/// modules dropped and those of other crates kept once.
fn collect(
    items: Vec<Item>,
    modules: &BTreeSet<String>,
    out: &mut Vec<Item>,
) -> Result<(), Refusal> {
    for item in items {
        match item {
            Item::Mod(m) => {
                if m.attrs.iter().any(|a| !a.path().is_ident("allow")) {
                    return Err(Refusal::Attributes(m.ident.to_string()));
                }
                let Some((_, inner)) = m.content else {
                    return Err(Refusal::NoBody(m.ident.to_string()));
                };
                collect(inner, modules, out)?;
            }
            Item::Use(u) if is_internal(&u.tree, modules) => {}
            Item::Use(u) => {
                // One `use` a path, so that two modules' imports of one path count once.
                let attrs: TokenStream = u.attrs.iter().map(|a| a.to_token_stream()).collect();
                let mut paths = Vec::new();
                leaves(&u.tree, String::new(), &mut paths);
                for path in paths {
                    let one: Item = syn::parse_str(&format!("{attrs} use {path};"))
                        .map_err(|e| Refusal::Syntax(format!("use {path}: {e}")))?;
                    let text = one.to_token_stream().to_string();
                    if !out.iter().any(|i| i.to_token_stream().to_string() == text) {
                        out.push(one);
                    }
                }
            }
            other => out.push(other),
        }
    }
    Ok(())
}

/// Every path a `use` tree imports, each as text (`std::io::Write`, `std::fmt`, `x::*`).
fn leaves(tree: &UseTree, prefix: String, out: &mut Vec<String>) {
    match tree {
        UseTree::Path(p) => leaves(&p.tree, format!("{prefix}{}::", p.ident), out),
        UseTree::Name(n) if n.ident == "self" => {
            out.push(prefix.trim_end_matches("::").to_owned());
        }
        UseTree::Name(n) => out.push(format!("{prefix}{}", n.ident)),
        UseTree::Rename(r) => out.push(format!("{prefix}{} as {}", r.ident, r.rename)),
        UseTree::Glob(_) => out.push(format!("{prefix}*")),
        UseTree::Group(g) => g.items.iter().for_each(|t| leaves(t, prefix.clone(), out)),
    }
}

/// Whether a `use` reaches into this crate (`crate::`, `super::`, `self::`, a module).
fn is_internal(tree: &UseTree, modules: &BTreeSet<String>) -> bool {
    match tree {
        UseTree::Path(p) => {
            let first = p.ident.to_string();
            ["crate", "super", "self"].contains(&first.as_str()) || modules.contains(&first)
        }
        UseTree::Group(g) => g.items.iter().any(|t| is_internal(t, modules)),
        UseTree::Name(n) => modules.contains(&n.ident.to_string()),
        UseTree::Rename(r) => modules.contains(&r.ident.to_string()),
        UseTree::Glob(_) => false,
    }
}

/// Fails when two of the flattened items, or an item and an import, share a name (items
/// told apart by a `cfg` are not the same).
fn check_unique(items: &[Item]) -> Result<(), Refusal> {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for item in items {
        let cfg: String = item_attrs(item)
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .map(|a| a.to_token_stream().to_string())
            .collect();
        for name in names(item) {
            if name == "_" {
                continue;
            }
            if let Some(other) = seen.insert(name.clone(), cfg.clone()) {
                if other == cfg {
                    return Err(Refusal::TwoDefine(name));
                }
            }
        }
    }
    Ok(())
}

/// Fails when a variable is named like a function or a static: a path that reached the
/// item through its module (`features::quiet(..)`) would, made bare, reach the variable.
fn check_unshadowed(items: &[Item]) -> Result<(), Refusal> {
    struct Bindings(BTreeSet<String>);
    impl<'ast> syn::visit::Visit<'ast> for Bindings {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.insert(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut bindings = Bindings(BTreeSet::new());
    items
        .iter()
        .for_each(|i| syn::visit::Visit::visit_item(&mut bindings, i));
    let shadowed: Vec<String> = items
        .iter()
        .filter_map(|item| match item {
            Item::Fn(f) => Some(f.sig.ident.to_string()),
            Item::Static(s) => Some(s.ident.to_string()),
            _ => None,
        })
        .filter(|name| bindings.0.contains(name))
        .collect();
    if shadowed.is_empty() {
        Ok(())
    } else {
        Err(Refusal::Shadowed(shadowed))
    }
}

/// Fails when an import of another crate is named like one of this crate's modules
/// (`use std::cell;` beside `mod cell`): [`strip_paths`] drops a module's step from every
/// path that starts with it, `cell::RefCell` as well.
fn check_imports(items: &[Item], modules: &BTreeSet<String>) -> Result<(), Refusal> {
    let imported = items
        .iter()
        .filter(|i| matches!(i, Item::Use(_)))
        .flat_map(names)
        .find(|name| modules.contains(name));
    match imported {
        Some(name) => Err(Refusal::ImportLikeModule(name)),
        None => Ok(()),
    }
}

/// The names an item puts in its module.
fn names(item: &Item) -> Vec<String> {
    let one = |i: &Ident| vec![i.to_string()];
    match item {
        Item::Const(i) => one(&i.ident),
        Item::Enum(i) => one(&i.ident),
        Item::Fn(i) => one(&i.sig.ident),
        Item::Macro(i) => i.ident.iter().map(|n| n.to_string()).collect(),
        Item::Static(i) => one(&i.ident),
        Item::Struct(i) => one(&i.ident),
        Item::Trait(i) => one(&i.ident),
        Item::Type(i) => one(&i.ident),
        Item::Union(i) => one(&i.ident),
        Item::Use(u) => {
            let mut out = Vec::new();
            use_names(&u.tree, &mut out);
            out
        }
        _ => Vec::new(),
    }
}

fn use_names(tree: &UseTree, out: &mut Vec<String>) {
    match tree {
        UseTree::Path(p) => use_names(&p.tree, out),
        UseTree::Name(n) if n.ident != "self" => out.push(n.ident.to_string()),
        UseTree::Name(_) | UseTree::Glob(_) => {}
        UseTree::Rename(r) => out.push(r.rename.to_string()),
        UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
    }
}

/// The tokens as words, with `::` one word and groups opened in line.
fn flat_words(tokens: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    for token in tokens {
        match token {
            TokenTree::Group(g) => {
                out.push("(".to_owned());
                out.extend(flat_words(g.stream()));
                out.push(")".to_owned());
            }
            TokenTree::Punct(p) if p.as_char() == ':' && out.last().is_some_and(|l| l == ":") => {
                *out.last_mut().expect("checked") = "::".to_owned();
            }
            other => out.push(other.to_string()),
        }
    }
    out
}

/// Drops the module steps of paths: `crate :: lib ::` inside the library (`inside`), every
/// `super ::`, `self ::` and `module ::`; outside it, the steps after `crate :: lib ::`. A
/// path from another crate (`std ::`, `:: rand ::`, with a `{ .. }` of a `use` after it) is
/// left whole.
fn strip_paths(
    tokens: TokenStream,
    lib: &str,
    modules: &BTreeSet<String>,
    inside: bool,
) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let colons = |i: usize| {
        matches!((tokens.get(i), tokens.get(i + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
    };
    let word = |i: usize, w: &str| matches!(tokens.get(i), Some(TokenTree::Ident(x)) if x == w);
    let mut out = Vec::with_capacity(tokens.len());
    // Whether the path being written started at another crate.
    let mut foreign = false;
    let mut i = 0;
    while i < tokens.len() {
        let dollar = i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
        // After what is written so far (a step dropped before this one does not count).
        let after_colons = matches!(out.as_slice(), [.., TokenTree::Punct(a), TokenTree::Punct(b)]
            if a.as_char() == ':' && b.as_char() == ':');
        foreign = match &tokens[i] {
            TokenTree::Ident(w) => {
                let root = colons(i + 1) && ALLOWED_CRATES.iter().any(|c| w == c);
                root || foreign && after_colons
            }
            TokenTree::Punct(p) => foreign && p.as_char() == ':',
            TokenTree::Group(_) => foreign && after_colons,
            TokenTree::Literal(_) => false,
        };
        if foreign {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        }
        // `crate :: lib ::` (or `$crate :: lib ::`) inside: the whole prefix goes.
        if inside && word(i, "crate") && colons(i + 1) && word(i + 3, lib) && colons(i + 4) {
            if dollar {
                out.pop();
            }
            i += 6;
            continue;
        }
        let step = match &tokens[i] {
            TokenTree::Ident(w) if colons(i + 1) => {
                let w = w.to_string();
                let module = modules.contains(&w) && (inside || after_colons);
                (inside && (w == "super" || w == "self") && !after_colons) || module
            }
            _ => false,
        };
        if step {
            i += 3;
            continue;
        }
        out.push(match &tokens[i] {
            TokenTree::Group(g) => {
                let mut group = proc_macro2::Group::new(
                    g.delimiter(),
                    strip_paths(g.stream(), lib, modules, inside),
                );
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// Makes every item private but those the binary reaches.
struct Private<'a> {
    keep: &'a BTreeSet<String>,
}

impl Private<'_> {
    fn hide(&self, v: &mut syn::Visibility, name: Option<&Ident>) {
        if !name.is_some_and(|n| self.keep.contains(&n.to_string())) {
            *v = syn::Visibility::Inherited;
        }
    }
}

impl VisitMut for Private<'_> {
    fn visit_item_mut(&mut self, item: &mut Item) {
        let reached = names(item).iter().any(|n| self.keep.contains(n));
        if !reached {
            if let Some(v) = visibility(item) {
                *v = syn::Visibility::Inherited;
            }
        }
        visit_mut::visit_item_mut(self, item);
    }

    fn visit_impl_item_fn_mut(&mut self, f: &mut syn::ImplItemFn) {
        self.hide(&mut f.vis, Some(&f.sig.ident));
        visit_mut::visit_impl_item_fn_mut(self, f);
    }

    fn visit_impl_item_const_mut(&mut self, c: &mut syn::ImplItemConst) {
        self.hide(&mut c.vis, Some(&c.ident));
    }

    fn visit_field_mut(&mut self, f: &mut syn::Field) {
        self.hide(&mut f.vis, f.ident.as_ref());
        visit_mut::visit_field_mut(self, f);
    }
}

fn visibility(item: &mut Item) -> Option<&mut syn::Visibility> {
    match item {
        Item::Const(i) => Some(&mut i.vis),
        Item::Enum(i) => Some(&mut i.vis),
        Item::Fn(i) => Some(&mut i.vis),
        Item::Static(i) => Some(&mut i.vis),
        Item::Struct(i) => Some(&mut i.vis),
        Item::Trait(i) => Some(&mut i.vis),
        Item::Type(i) => Some(&mut i.vis),
        Item::Union(i) => Some(&mut i.vis),
        Item::Use(i) => Some(&mut i.vis),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flattened(mut file: syn::File) -> Result<String, String> {
        flatten(&mut file, "lib").map_err(|e| e.to_string())?;
        Ok(file.to_token_stream().to_string())
    }

    #[test]
    fn modules_become_one_and_paths_their_last_word() {
        let file: syn::File = syn::parse_quote! {
            fn main() { crate::lib::bot::run(); }
            mod lib {
                pub mod cell { use std::fmt; pub struct Cell; pub(crate) const N: u8 = 1; }
                pub mod bot {
                    use std::fmt::{self, Write};
                    use super::cell::{Cell, N};
                    pub fn run() { let _ = crate::lib::cell::N + N; helper(); }
                    fn helper() { let _ = super::cell::Cell; }
                }
            }
        };
        let text = flattened(file).unwrap();
        assert!(
            text.contains("fn main () { crate :: lib :: run () ; }"),
            "{text}"
        );
        assert!(
            text.contains("pub fn run () { let _ = N + N ; helper () ; }"),
            "{text}"
        );
        assert!(text.contains("fn helper () { let _ = Cell ; }"), "{text}");
        assert!(
            !text.contains("pub struct") && !text.contains("pub (crate)"),
            "{text}"
        );
        assert_eq!(text.matches("use std :: fmt ;").count(), 1, "{text}");
        assert!(text.contains("use std :: fmt :: Write ;"), "{text}");
        assert!(
            !text.contains("mod cell") && !text.contains("use super"),
            "{text}"
        );
    }

    #[test]
    fn a_clash_a_shadowing_variable_or_an_import_named_like_a_module_is_refused() {
        let twice: syn::File = syn::parse_quote! {
            mod lib { mod a { fn f() {} } mod b { fn f() {} } }
        };
        assert_eq!(flattened(twice).unwrap_err(), "two modules define `f`");
        let shadow: syn::File = syn::parse_quote! {
            mod lib { mod a { pub fn f() {} } mod b { fn g(f: u8) -> u8 { super::a::f(); f } } }
        };
        let err = flattened(shadow).unwrap_err();
        assert!(
            err.starts_with("variables are named like the items `f` ("),
            "{err}"
        );
        let cfg: syn::File = syn::parse_quote! {
            mod lib { #[cfg(unix)] mod a { fn f() {} } }
        };
        assert!(flattened(cfg).unwrap_err().contains("attributes"));
        let import: syn::File = syn::parse_quote! {
            mod lib {
                mod cell { pub struct Cell; }
                mod bot { use std::cell; fn f() -> cell::RefCell<u8> { cell::RefCell::new(0) } }
            }
        };
        let err = flattened(import).unwrap_err();
        assert!(
            err.starts_with("an import is named like the module `cell` ("),
            "{err}"
        );
    }

    #[test]
    fn paths_from_other_crates_keep_steps_named_like_a_module() {
        let file: syn::File = syn::parse_quote! {
            use std::{rc::Rc, sync::mpsc::channel};
            fn main() {
                let _ = std::cell::RefCell::new(0);
                let _: Vec<std::cell::Cell<u8>> = Vec::new();
                crate::lib::bot::run();
            }
            mod lib {
                pub mod cell { pub struct Cell; }
                pub mod rngs { pub fn seed() -> u64 { 1 } }
                pub mod mpsc {}
                pub mod bot {
                    use std::cell::RefCell;
                    use core::cell::Cell as CoreCell;
                    use rand::rngs::SmallRng;
                    pub fn run() {
                        let a = RefCell::new(super::cell::Cell);
                        let b = ::std::cell::Cell::new(super::rngs::seed());
                        let c: std::collections::HashMap<super::cell::Cell, alloc::rc::Rc<u8>>;
                        println!("{:?}", std::cell::Cell::new(crate::lib::cell::Cell));
                    }
                }
            }
        };
        let text = flattened(file).unwrap();
        for whole in [
            "use std :: { rc :: Rc , sync :: mpsc :: channel } ;",
            "let _ = std :: cell :: RefCell :: new (0) ;",
            "Vec < std :: cell :: Cell < u8 > >",
            "use std :: cell :: RefCell ;",
            "use core :: cell :: Cell as CoreCell ;",
            "use rand :: rngs :: SmallRng ;",
            ":: std :: cell :: Cell :: new (seed ())",
            "std :: collections :: HashMap < Cell , alloc :: rc :: Rc < u8 > >",
            "std :: cell :: Cell :: new (Cell)",
            "RefCell :: new (Cell)",
        ] {
            assert!(text.contains(whole), "`{whole}` in {text}");
        }
    }
}
