//! Short aliases for std's most spelt types, after the library is flattened: `usize`, written
//! hundreds of times, becomes a two-letter `type Xy = usize;`.
//!
//! An alias is the same type to rustc wherever a type may be named: in signatures, `as`
//! casts, `impl Trait for`, generic arguments and paths to associated items (`Xy::MAX`,
//! `Xy::from(..)`, `Vec`'s alias `Ab::new()`, whose argument rustc infers). So every token of
//! the name in the library module becomes the alias, except:
//! - in `use` items (`use std::{time::Duration}` names std's item, not a type in scope);
//! - after `::` (`fmt::Result` is another type than the prelude's `Result`);
//! - in attributes (`#[derive(..)]`, `#[cfg(..)]`), lifetimes and string literals (tokens of
//!   their own or none at all).
//!
//! The `type` items sit in the library module, where the names resolve as at their uses (a
//! `Duration` imported from std, say). A name the library defines itself is left alone, as is
//! a generic one it imports (its alias declares the prelude type's parameters), and a name
//! whose alias would not pay for its own `type` item. The binary keeps std's names: it cannot
//! see the library's private items.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use syn::Item;

use super::fresh::{Case, Fresh};
use super::rename::words_of;
use super::tokens::{is_colon2_at, is_punct};

/// The types that may be aliased, each with its generic parameters as the alias declares
/// them (`type Ab<T> = Vec<T>;`).
const ALIASED: &[(&str, &str)] = &[
    ("usize", ""),
    ("u64", ""),
    ("u32", ""),
    ("u16", ""),
    ("i64", ""),
    ("i32", ""),
    ("i16", ""),
    ("f64", ""),
    ("f32", ""),
    ("bool", ""),
    ("char", ""),
    ("str", ""),
    ("Option", "<T>"),
    ("Vec", "<T>"),
    ("String", ""),
    ("Result", "<T, E>"),
    ("Duration", ""),
    ("Instant", ""),
];

/// Gives the library module `lib` of `file` its aliases; returns the names aliased, each with
/// its alias.
pub fn alias(file: &mut syn::File, lib: &str) -> BTreeMap<String, String> {
    let mut taken = BTreeSet::new();
    words_of(file.to_token_stream(), &mut taken);
    taken.extend(super::fresh::RESERVED.iter().map(|w| w.to_string()));
    let Some((_, items)) = file.items.iter_mut().find_map(|i| match i {
        Item::Mod(m) if m.ident == lib => m.content.as_mut(),
        _ => None,
    }) else {
        return BTreeMap::new();
    };
    let same: BTreeMap<String, String> = ALIASED
        .iter()
        .map(|(n, _)| (n.to_string(), n.to_string()))
        .collect();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for item in items.iter().filter(|i| !matches!(i, Item::Use(_))) {
        rewrite(item.to_token_stream(), &same, &mut |name| {
            *counts.entry(name.to_owned()).or_insert(0) += 1
        });
    }
    let defined: BTreeSet<String> = items.iter().filter_map(defined_name).collect();
    let mut chosen: Vec<(&str, &str, usize)> = ALIASED
        .iter()
        .filter(|(name, params)| {
            !defined.contains(*name) && (params.is_empty() || !imported(items, name))
        })
        .filter_map(|&(name, params)| Some((name, params, *counts.get(name)?)))
        .collect();
    chosen.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    let mut fresh = Fresh::default();
    let mut map = BTreeMap::new();
    let mut decls = Vec::new();
    for (name, params, uses) in chosen {
        let new = fresh.next(Case::Camel, &mut taken);
        // `type Ab<T>=Vec<T>;` costs its characters; each use saves the difference.
        let cost = "type=;".len() + new.len() + name.len() + 2 * params.len();
        if uses * name.len().saturating_sub(new.len()) <= cost {
            continue;
        }
        let decl = format!("type {new}{params} = {name}{params};");
        decls.push(syn::parse_str::<Item>(&decl).expect("an alias parses"));
        map.insert(name.to_owned(), new);
    }
    for item in items.iter_mut().filter(|i| !matches!(i, Item::Use(_))) {
        let tokens = rewrite(item.to_token_stream(), &map, &mut |_| {});
        *item = syn::parse2(tokens).expect("an item with aliased names parses again");
    }
    items.splice(0..0, decls);
    map
}

/// The name an item defines in the type namespace, if any.
fn defined_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Enum(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        Item::Mod(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Whether a `use` item of `items` brings in a name `name`.
fn imported(items: &[Item], name: &str) -> bool {
    items.iter().any(|item| {
        let mut found = BTreeSet::new();
        if let Item::Use(u) = item {
            words_of(u.to_token_stream(), &mut found);
        }
        found.contains(name)
    })
}

/// `tokens` with each name of `map` that stands for the type replaced, calling `seen` with
/// each: not after `::`, nor in an attribute or after a lifetime's quote.
fn rewrite(
    tokens: TokenStream,
    map: &BTreeMap<String, String>,
    seen: &mut dyn FnMut(&str),
) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        let after_path = i >= 2 && is_colon2_at(&tokens, i - 2);
        let after_quote = i >= 1 && is_punct(tokens.get(i - 1), '\'');
        let attribute = i >= 1 && is_punct(tokens.get(i - 1), '#')
            || i >= 2 && is_punct(tokens.get(i - 2), '#') && is_punct(tokens.get(i - 1), '!');
        out.push(match token {
            TokenTree::Ident(id) if !after_path && !after_quote => match map.get(&id.to_string()) {
                Some(new) => {
                    seen(&id.to_string());
                    TokenTree::Ident(Ident::new(new, Span::call_site()))
                }
                None => token.clone(),
            },
            TokenTree::Group(g) if !attribute => {
                let mut group =
                    proc_macro2::Group::new(g.delimiter(), rewrite(g.stream(), map, seen));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            _ => token.clone(),
        });
    }
    out.into_iter().collect()
}
