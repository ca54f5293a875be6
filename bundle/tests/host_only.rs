//! What the engine marks host-only stays out of the bot's bundle. The host-only items are
//! read from the engine's sources here, by a rule of this test's own (an item under
//! `#[cfg(not(codingame))]` or `#[cfg(test)]`), not from a list kept by hand nor from the
//! bundler's cfg evaluation; the bundle is parsed back and each module's items counted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use syn::{ImplItem, Item, UseTree};
use twixt_bundle::{self as bundle, Options};

/// An item's place: its module path (from the crate root) and what it is (`fn all in impl
/// Cell`, `mod picture`, `use IllegalMove`).
type Key = (String, String);

/// How many items of each key a crate holds, apart by whether they are host-only.
#[derive(Default)]
struct Census {
    shipped: BTreeMap<Key, usize>,
    host_only: BTreeMap<Key, usize>,
}

fn engine_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// Whether an item's attributes keep it for the host: `cfg(test)`, `cfg(not(codingame))`, or
/// `cfg(all(.., not(codingame)))` with no other mention of either (`cfg(codingame)` and
/// `cfg(any(test, codingame))` ship). Any other cfg of `test` or `codingame` is a form this
/// rule does not know: the test stops rather than count it as shipped.
fn is_host_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| match &a.meta {
        syn::Meta::List(list) if list.path.is_ident("cfg") => {
            let args: String = list.tokens.to_string().split_whitespace().collect();
            let known = ["test", "not(codingame)", "codingame", "any(test,codingame)"];
            let all_host = args.starts_with("all(")
                && args.matches("codingame").count() == 1
                && args.contains(",not(codingame))")
                && !args.contains("test");
            if !known.contains(&args.as_str()) && !all_host {
                assert!(
                    !args.contains("test") && !args.contains("codingame"),
                    "cfg({args}): teach this test what it means"
                );
            }
            args == "test" || args == "not(codingame)" || all_host
        }
        _ => false,
    })
}

/// The last segment's name of a type or trait path (`crate::cell::Cell` is `Cell`).
fn last_name(tokens: impl quote::ToTokens) -> String {
    let text = tokens.to_token_stream().to_string();
    let head = text.split('<').next().unwrap_or_default();
    head.rsplit("::")
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned()
}

fn use_names(tree: &UseTree, out: &mut Vec<String>) {
    match tree {
        UseTree::Path(p) => use_names(&p.tree, out),
        UseTree::Name(n) => out.push(n.ident.to_string()),
        UseTree::Rename(r) => out.push(r.rename.to_string()),
        UseTree::Glob(_) => out.push("*".to_owned()),
        UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
    }
}

/// What an item is called in its module (`None` for items this test does not follow).
fn item_names(item: &Item) -> Vec<String> {
    let named = |kind: &str, ident: &syn::Ident| vec![format!("{kind} {ident}")];
    match item {
        Item::Const(i) => named("const", &i.ident),
        Item::Enum(i) => named("enum", &i.ident),
        Item::Fn(i) => named("fn", &i.sig.ident),
        Item::Mod(i) => named("mod", &i.ident),
        Item::Static(i) => named("static", &i.ident),
        Item::Struct(i) => named("struct", &i.ident),
        Item::Trait(i) => named("trait", &i.ident),
        Item::Type(i) => named("type", &i.ident),
        Item::Macro(i) => i.ident.iter().flat_map(|n| named("macro", n)).collect(),
        Item::Impl(i) => vec![impl_name(i)],
        Item::Use(u) => {
            let mut names = Vec::new();
            use_names(&u.tree, &mut names);
            names.into_iter().map(|n| format!("use {n}")).collect()
        }
        _ => Vec::new(),
    }
}

fn impl_name(i: &syn::ItemImpl) -> String {
    match &i.trait_ {
        Some((_, path, _)) => format!("impl {} for {}", last_name(path), last_name(&i.self_ty)),
        None => format!("impl {}", last_name(&i.self_ty)),
    }
}

impl Census {
    fn count(&mut self, host_only: bool, module: &str, name: String) {
        let map = if host_only {
            &mut self.host_only
        } else {
            &mut self.shipped
        };
        *map.entry((module.to_owned(), name)).or_default() += 1;
    }

    /// Counts `items` of `module`; `dir` is where its `mod x;` files are (`None` in a bundle,
    /// whose modules are inline). A host-only item's contents are host-only too.
    fn add(&mut self, items: &[Item], module: &str, dir: Option<&Path>, host: bool) {
        for item in items {
            let host_only = host || is_host_only(syn_attrs(item));
            for name in item_names(item) {
                self.count(host_only, module, name);
            }
            match item {
                Item::Impl(i) => {
                    let scope = format!("{module} {}", impl_name(i));
                    for member in &i.items {
                        if let ImplItem::Fn(f) = member {
                            let host_only = host_only || is_host_only(&f.attrs);
                            self.count(host_only, &scope, format!("fn {}", f.sig.ident));
                        }
                    }
                }
                Item::Mod(m) => {
                    let inner = format!("{module}::{}", m.ident);
                    let host_only = host_only || is_host_only(&m.attrs);
                    match (&m.content, dir) {
                        (Some((_, items)), _) => self.add(items, &inner, dir, host_only),
                        (None, Some(dir)) => {
                            let (file, sub) = module_file(dir, &m.ident.to_string());
                            let parsed = parse(&file);
                            self.add(&parsed.items, &inner, Some(&sub), host_only);
                        }
                        (None, None) => panic!("{inner}: a module without a body in a bundle"),
                    }
                }
                _ => {}
            }
        }
    }
}

fn syn_attrs(item: &Item) -> &[syn::Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The file of module `name` declared in `dir`, and the directory of its own submodules.
fn module_file(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let flat = dir.join(format!("{name}.rs"));
    if flat.is_file() {
        (flat, dir.join(name))
    } else {
        (dir.join(name).join("mod.rs"), dir.join(name))
    }
}

fn parse(path: &Path) -> syn::File {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The engine library as its sources declare it.
fn engine() -> Census {
    let mut census = Census::default();
    let src = engine_dir().join("src");
    census.add(
        &parse(&src.join("lib.rs")).items,
        "crate",
        Some(&src),
        false,
    );
    census
}

/// The library part of the bot's bundle (`mod twixt { .. }`), as the bundle holds it: printed
/// readable, since the compact print renames what it ships (the two ship the same items:
/// tests/crate.rs).
fn bundled() -> Census {
    let mut options = Options::for_crate(engine_dir());
    options.pretty = true;
    let bundle = bundle::bundle(&options).unwrap();
    let file = syn::parse_file(&bundle.source).expect("the bundle parses");
    let lib = file
        .items
        .iter()
        .find_map(|item| match item {
            Item::Mod(m) if m.ident == "twixt" => m.content.as_ref().map(|(_, items)| items),
            _ => None,
        })
        .expect("the bundle holds the library as mod twixt");
    let mut census = Census::default();
    census.add(lib, "crate", None, false);
    census
}

#[test]
fn the_bot_bundle_leaves_out_every_host_only_item() {
    let (engine, bundled) = (engine(), bundled());
    // The rule finds what the engine is known to keep for the host: if it found nothing
    // (a renamed attribute, a module it could not read), the check below would be empty.
    for known in [
        ("crate", "mod bench"),
        ("crate", "mod picture"),
        ("crate", "mod testing"),
        ("crate::bot", "mod analyze"),
        ("crate::search::params", "struct Spec"),
        ("crate::position impl Position", "fn check"),
    ] {
        let key = (known.0.to_owned(), known.1.to_owned());
        assert!(
            engine.host_only.contains_key(&key),
            "{known:?} is host-only"
        );
    }
    assert!(bundled.host_only.is_empty(), "{:?}", bundled.host_only);
    let mut shipped_host_items = Vec::new();
    for (key, host) in &engine.host_only {
        let in_bundle = bundled.shipped.get(key).copied().unwrap_or(0);
        let allowed = engine.shipped.get(key).copied().unwrap_or(0);
        if in_bundle > allowed {
            shipped_host_items.push(format!("{key:?}: {host} host-only, {in_bundle} bundled"));
        }
    }
    assert!(
        shipped_host_items.is_empty(),
        "host-only items in the bundle:\n{}",
        shipped_host_items.join("\n")
    );
    // And what ships is there: the bot's own modules with their items.
    for key in [
        ("crate", "mod position"),
        ("crate::bot", "fn main_with_args"),
    ] {
        let key = (key.0.to_owned(), key.1.to_owned());
        assert_eq!(bundled.shipped.get(&key), Some(&1), "{key:?}");
    }
}
