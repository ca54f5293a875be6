//! Shortening the crate's own names, for the compact bundle.
//!
//! A name is shortened when the bundle defines it (an item, a field, a variant, a method of
//! an inherent impl or of the crate's own trait, a generic parameter, a binding) and nothing
//! fixes it from outside:
//! - the names of impls of traits from std (`fmt`, `next`, `from_str`, `Err`...);
//! - names in the arguments of the crate's macros and of `stringify!` (a macro may make
//!   strings of them, as the parameter table does), and macro fragment specifiers;
//! - names captured by a format string (`"{name}"`);
//! - `main`, and [`STD_NAMES`]: names the crate defines that std also uses (a crate method
//!   `len` beside `Vec::len`), found by compiling the renamed bundle.
//!
//! Every occurrence of a shortened name becomes the same new name, no two old names share
//! one, and no new name is a word the bundle keeps: applied to every token at once, the
//! renaming is a permutation of the crate's names, so every path, method and binding
//! resolves as before. (What `{:?}` prints of the crate's own types shows the new names: the
//! shipped code prints none of it.) New names keep the old one's case (`snake`, `Camel`,
//! `UPPER`), so rustc's naming lints stay quiet, and the most used names get the shortest.

use super::fresh::{Case, Fresh, NEVER, RESERVED};
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use syn::visit::{self, Visit};

/// Names the crate defines that std or rand also use (a method `len` beside `Vec::len`), one
/// a line: renaming one would break the std use, and the compile of the renamed bundle with
/// rustc names it (`no method named ..`; `TWIXT_BUNDLE_NAMES=FILE twixt-bundle` writes the
/// new names with the old, to look it up).
const STD_NAMES: &str = include_str!("std_names.txt");

/// The fragment specifiers of `macro_rules!` patterns (`$name:ident`).
const FRAGMENTS: &[&str] = &[
    "block",
    "expr",
    "ident",
    "item",
    "lifetime",
    "literal",
    "meta",
    "pat",
    "pat_param",
    "path",
    "stmt",
    "tt",
    "ty",
    "vis",
];

/// The crates a path may start from besides this one: their names are theirs.
const EXTERNAL_CRATES: &[&str] = &super::check::ALLOWED_CRATES;

/// Names of std's prelude: the crate may define a variant `None`, but `None` alone is std's.
const PRELUDE: &[&str] = &[
    "Box",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Eq",
    "Err",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Into",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Vec",
];

/// What to rename in a file.
pub struct Plan {
    /// The new name of each shortened name, the same all over the file.
    pub names: BTreeMap<String, String>,
    /// The new names of the locals: names that bind a variable and are otherwise at most
    /// a field's or a method's (never reached by a bare path), which
    /// [`super::locals::shorten`] renames again function by function.
    pub locals: BTreeSet<String>,
}

/// What to rename in `file`.
pub fn plan(file: &syn::File) -> Plan {
    let mut defs = Definitions::default();
    defs.visit_file(file);
    let tokens = file.to_token_stream();
    let mut counts = BTreeMap::new();
    let mut keep = defs.fixed.clone();
    keep.extend(["main", "_"].iter().chain(FRAGMENTS).map(|n| n.to_string()));
    keep.extend(STD_NAMES.lines().map(str::trim).map(str::to_owned));
    scan(tokens, &mut counts, &mut keep, false);
    let renamed = |name: &String| defs.defined.contains(name) && !keep.contains(name);
    let mut chosen: Vec<(&String, &usize)> = counts.iter().filter(|(n, _)| renamed(n)).collect();
    // A new name may be an old one that is renamed away (the map is applied to every token
    // at once, so it is a permutation of names); never one that stays.
    let mut words: BTreeSet<String> = counts.keys().filter(|n| !renamed(n)).cloned().collect();
    words.extend(RESERVED.iter().chain(NEVER).map(|w| w.to_string()));
    // The most used first, so they get the shortest names; ties in name order.
    chosen.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut fresh = Fresh::default();
    let names: BTreeMap<String, String> = chosen
        .into_iter()
        .map(|(name, _)| {
            let new = fresh.next(Case::of(name), &mut words);
            (name.clone(), new)
        })
        .collect();
    // A name in a `macro_rules!` body may be an item the visitor does not see (the parameter
    // table's `set`): not a local.
    let mut in_rules = BTreeSet::new();
    rules_names(file.to_token_stream(), &mut in_rules);
    let locals = defs
        .bindings
        .iter()
        .filter(|b| !defs.items.contains(*b) && !in_rules.contains(*b))
        .filter_map(|b| names.get(b).cloned())
        .collect();
    Plan { names, locals }
}

/// `tokens` with every name in `map` replaced, but in attributes and lifetimes.
pub fn apply(tokens: TokenStream, map: &BTreeMap<String, String>) -> TokenStream {
    let mut out = Vec::new();
    let mut after = (false, false); // (the last token was `#`, ... or `'`)
    for token in tokens {
        let next = match &token {
            TokenTree::Ident(i) if !after.1 => match map.get(&i.to_string()) {
                Some(new) => TokenTree::Ident(Ident::new(new, i.span())),
                None => token.clone(),
            },
            TokenTree::Group(g) if after.0 && g.delimiter() == proc_macro2::Delimiter::Bracket => {
                token.clone()
            }
            TokenTree::Group(g) => {
                let mut group = proc_macro2::Group::new(g.delimiter(), apply(g.stream(), map));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            _ => token.clone(),
        };
        after = match &token {
            TokenTree::Punct(p) => (
                p.as_char() == '#' || after.0 && p.as_char() == '!',
                p.as_char() == '\'',
            ),
            _ => (false, false),
        };
        out.push(next);
    }
    out.into_iter().collect()
}

/// Counts every identifier of `tokens` (but lifetimes and attributes); adds to `keep` those
/// inside macro definitions and invocations (`in_macro`) and those a format string names.
pub(crate) fn scan(
    tokens: TokenStream,
    counts: &mut BTreeMap<String, usize>,
    keep: &mut BTreeSet<String>,
    in_macro: bool,
) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    // Inside a path from an external crate (`std::io::stdin`, `use std::{fmt, io}`): its
    // names are std's, whatever the crate calls its own.
    let mut external = false;
    for (i, token) in tokens.iter().enumerate() {
        let prev = |k: usize| i.checked_sub(k).and_then(|j| tokens.get(j));
        let punct = |t: Option<&TokenTree>, c: char| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
        let after_colons = punct(prev(1), ':') && punct(prev(2), ':');
        match token {
            TokenTree::Ident(id) if !punct(prev(1), '\'') => {
                let name = id.to_string();
                external = EXTERNAL_CRATES.contains(&name.as_str()) || external && after_colons;
                if in_macro || external || PRELUDE.contains(&name.as_str()) {
                    keep.insert(name.clone());
                }
                *counts.entry(name).or_default() += 1;
            }
            // A lifetime's name.
            TokenTree::Ident(_) => external = false,
            TokenTree::Group(g) if external && after_colons => {
                let mut names = BTreeMap::new();
                scan(g.stream(), &mut names, keep, in_macro);
                keep.extend(names.keys().cloned());
                for (name, n) in names {
                    *counts.entry(name).or_default() += n;
                }
                external = false;
            }
            TokenTree::Group(g) => {
                external = false;
                let attribute = punct(prev(1), '#') || punct(prev(1), '!') && punct(prev(2), '#');
                if attribute && g.delimiter() == proc_macro2::Delimiter::Bracket {
                    continue;
                }
                // The arguments of a crate macro (`name!(..)`, `$m!{..}`, `stringify!(..)`)
                // are kept whole: the macro may make strings of them. A `macro_rules!` body
                // is code, renamed like the rest.
                let invoked = match (punct(prev(1), '!'), prev(2)) {
                    (true, Some(TokenTree::Ident(m))) => is_crate_macro(&m.to_string()),
                    _ => false,
                };
                scan(g.stream(), counts, keep, in_macro || invoked);
            }
            TokenTree::Literal(l) => {
                external = false;
                keep.extend(format_captures(&l.to_string()));
            }
            TokenTree::Punct(p) => external &= p.as_char() == ':',
        }
    }
}

/// Every word in the bodies of the `macro_rules!` of `tokens`.
fn rules_names(tokens: TokenStream, out: &mut BTreeSet<String>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, token) in tokens.iter().enumerate() {
        if let TokenTree::Group(g) = token {
            let rules =
                i >= 3 && matches!(&tokens[i - 3], TokenTree::Ident(m) if m == "macro_rules");
            if rules {
                words_of(g.stream(), out);
            } else {
                rules_names(g.stream(), out);
            }
        }
    }
}

/// Every identifier of `tokens`, at any depth.
pub(crate) fn words_of(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            TokenTree::Group(g) => words_of(g.stream(), out),
            _ => {}
        }
    }
}

/// Whether the word before a `!` and a group names a macro of the crate (or `$m`, one passed
/// to a macro): not one of std's, whose arguments are ordinary code, nor a keyword
/// (`return !(..)`).
pub(crate) fn is_crate_macro(name: &str) -> bool {
    const STD_MACROS: &[&str] = &[
        "assert",
        "assert_eq",
        "assert_ne",
        "debug_assert",
        "debug_assert_eq",
        "debug_assert_ne",
        "eprint",
        "eprintln",
        "format",
        "matches",
        "panic",
        "print",
        "println",
        "unreachable",
        "unimplemented",
        "todo",
        "vec",
        "write",
        "writeln",
        "format_args",
        "concat",
        "cfg",
    ];
    !STD_MACROS.contains(&name) && !RESERVED.contains(&name)
}

/// The names a string literal's format placeholders capture: `{name}` and `{name:..}`.
fn format_captures(literal: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = literal;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if rest.starts_with('{') {
            rest = &rest[1..];
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = rest[name.len()..].chars().next();
        if !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && matches!(after, Some('}') | Some(':'))
        {
            out.push(name);
        }
    }
    out
}

/// The names the bundle defines, and those fixed by the traits it implements.
#[derive(Default)]
struct Definitions {
    defined: BTreeSet<String>,
    /// Names that bind a variable somewhere.
    bindings: BTreeSet<String>,
    /// Names of items, variants and generic parameters: what a bare path can reach.
    items: BTreeSet<String>,
    fixed: BTreeSet<String>,
    traits: BTreeSet<String>,
}

impl Definitions {
    fn define(&mut self, ident: &Ident) {
        self.defined.insert(ident.to_string());
        self.items.insert(ident.to_string());
    }

    /// A field's or an associated item's name: reached after `.` or `Type::`, never alone.
    fn define_member(&mut self, ident: &Ident) {
        self.defined.insert(ident.to_string());
    }
}

impl<'ast> Visit<'ast> for Definitions {
    fn visit_file(&mut self, file: &'ast syn::File) {
        // The crate's own traits first: their impls' names are the crate's to shorten.
        struct Traits<'a>(&'a mut BTreeSet<String>);
        impl<'ast> Visit<'ast> for Traits<'_> {
            fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
                self.0.insert(t.ident.to_string());
            }
        }
        Traits(&mut self.traits).visit_file(file);
        visit::visit_file(self, file);
    }

    fn visit_item_fn(&mut self, i: &'ast syn::ItemFn) {
        self.define(&i.sig.ident);
        visit::visit_item_fn(self, i);
    }

    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        self.define(&i.ident);
        visit::visit_item_struct(self, i);
    }

    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        self.define(&i.ident);
        visit::visit_item_enum(self, i);
    }

    fn visit_variant(&mut self, v: &'ast syn::Variant) {
        self.define(&v.ident);
        visit::visit_variant(self, v);
    }

    fn visit_field(&mut self, f: &'ast syn::Field) {
        if let Some(ident) = &f.ident {
            self.define_member(ident);
        }
        visit::visit_field(self, f);
    }

    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.define(&i.ident);
        visit::visit_item_const(self, i);
    }

    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.define(&i.ident);
        visit::visit_item_static(self, i);
    }

    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        self.define(&i.ident);
        visit::visit_item_type(self, i);
    }

    fn visit_item_mod(&mut self, i: &'ast syn::ItemMod) {
        self.define(&i.ident);
        visit::visit_item_mod(self, i);
    }

    fn visit_item_trait(&mut self, i: &'ast syn::ItemTrait) {
        self.define(&i.ident);
        for item in &i.items {
            match item {
                syn::TraitItem::Fn(f) => self.define_member(&f.sig.ident),
                syn::TraitItem::Const(c) => self.define_member(&c.ident),
                syn::TraitItem::Type(t) => self.define_member(&t.ident),
                _ => {}
            }
        }
        visit::visit_item_trait(self, i);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let foreign = i.trait_.as_ref().is_some_and(|(_, path, _)| {
            let last = path.segments.last().map(|s| s.ident.to_string());
            !last.is_some_and(|l| self.traits.contains(&l))
        });
        for item in &i.items {
            let ident = match item {
                syn::ImplItem::Fn(f) => &f.sig.ident,
                syn::ImplItem::Const(c) => &c.ident,
                syn::ImplItem::Type(t) => &t.ident,
                _ => continue,
            };
            if foreign {
                self.fixed.insert(ident.to_string());
            } else {
                self.define_member(ident);
            }
        }
        visit::visit_item_impl(self, i);
    }

    fn visit_generic_param(&mut self, p: &'ast syn::GenericParam) {
        match p {
            syn::GenericParam::Type(t) => self.define(&t.ident),
            syn::GenericParam::Const(c) => self.define(&c.ident),
            syn::GenericParam::Lifetime(_) => {}
        }
        visit::visit_generic_param(self, p);
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.defined.insert(p.ident.to_string());
        self.bindings.insert(p.ident.to_string());
        visit::visit_pat_ident(self, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_strings_name_their_captures() {
        assert_eq!(
            format_captures("\"{a} {{b}} {c:>3} {0} {} {d.e}\""),
            ["a", "c"]
        );
    }

    #[test]
    fn locals_are_renamed_again_in_each_function() {
        let file: syn::File = syn::parse_quote! {
            struct S { pos: u8 }
            macro_rules! set { () => { fn set() {} } }
            fn first(pos: u8) -> u8 { let counter = pos + 1; let set = counter; set }
            fn second() -> u8 { let counter = 2; counter }
        };
        let plan = plan(&file);
        let locals: BTreeSet<&str> = plan.locals.iter().map(String::as_str).collect();
        assert!(locals.contains(plan.names["counter"].as_str()));
        // A field of the name does not stop a local: only a bare path could reach an item.
        assert!(locals.contains(plan.names["pos"].as_str()));
        assert!(!plan.names.contains_key("set") || !locals.contains(plan.names["set"].as_str()));
        let renamed = syn::parse2(apply(file.to_token_stream(), &plan.names)).unwrap();
        let text = super::super::locals::shorten(renamed, &plan.locals)
            .to_token_stream()
            .to_string();
        // Both functions' `counter` take the first letter their function leaves free.
        let second = &text[text.rfind("fn ").unwrap()..];
        assert!(second.contains("let a = 2 ; a"), "{second}");
        // `set`, a word of a macro body, keeps its one name for the whole file.
        let set = &plan.names["set"];
        assert!(text.contains(&format!("let {set} = a ; {set}")), "{text}");
        assert!(text.contains(&format!("fn {set} ()")), "{text}");
    }

    #[test]
    fn a_file_is_renamed_as_a_bijection_that_spares_what_is_fixed() {
        let file: syn::File = syn::parse_quote! {
            struct Board { cells: Vec<u8> }
            impl Board {
                fn tally(&self) -> usize { self.cells.len() }
            }
            impl std::fmt::Display for Board {
                fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    let total = self.tally();
                    write!(f, "{total}")
                }
            }
            macro_rules! named { ($n:ident) => { stringify!($n) } }
            fn main() { let label = named!(label_name); println!("{}", label); }
        };
        let map = plan(&file).names;
        for kept in ["fmt", "main", "total", "label_name", "len", "Vec", "named"] {
            assert!(!map.contains_key(kept), "{kept} renamed: {map:?}");
        }
        for renamed in ["Board", "cells", "tally", "label", "f"] {
            assert!(map.contains_key(renamed), "{renamed} kept: {map:?}");
        }
        let news: BTreeSet<&String> = map.values().collect();
        assert_eq!(news.len(), map.len());
        assert!(map["Board"].starts_with(|c: char| c.is_ascii_uppercase()));
    }
}
