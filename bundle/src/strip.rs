//! Removing what CodinGame does not need: items whose `cfg` is false in the bundle, and doc
//! comments.
//!
//! The bundler knows two cfg options: `test` is off, and `codingame` is on (it is set nowhere
//! else: `#[cfg(not(codingame))]` keeps host-only conveniences out of the bundle, and
//! `#[cfg(codingame)]` code exists only there). Items whose cfg is false are dropped; cfg
//! attributes that are true are removed, since CodinGame's rustc would not know `codingame`.
//! A cfg depending on anything else is left to rustc. (`cfg!(..)` in expressions is not
//! evaluated.)

use super::tokens::{is_punct, map_group};
use proc_macro2::{TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Block, ImplItem, Item, ItemImpl, ItemMod, ItemTrait, Meta, Stmt, Token};
use syn::{ExprMatch, ExprStruct, FieldsNamed, ItemEnum, PatStruct};

/// Drops every item, impl item, trait item, statement, struct field (in a definition, an
/// expression or a pattern), enum variant and match arm whose `#[cfg(...)]` is false in the
/// bundle (`cfg(test)`, `cfg(all(test, ..))`, `cfg(not(codingame))`...), at any depth, and
/// every `debug_assert!` statement (off in an optimised build).
pub fn strip_cfg_test(file: &mut syn::File) {
    retain_items(&mut file.items);
    CfgTest.visit_file_mut(file);
}

/// True when the attributes contain a `cfg` that is false in the bundle.
pub fn is_cfg_false(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| cfg_value(&a.meta) == Some(false))
}

/// The value in the bundle of a `cfg(..)` attribute's meta; `None` for other attributes and
/// for predicates on options the bundler does not know.
fn cfg_value(meta: &Meta) -> Option<bool> {
    match meta {
        Meta::List(list) if list.path.is_ident("cfg") => eval_cfg(&list.parse_args().ok()?),
        _ => None,
    }
}

/// Evaluates a cfg predicate with `test` off and `codingame` on.
fn eval_cfg(meta: &Meta) -> Option<bool> {
    match meta {
        Meta::Path(path) if path.is_ident("test") => Some(false),
        Meta::Path(path) if path.is_ident("codingame") => Some(true),
        Meta::List(list) => {
            let args = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()?;
            let values: Vec<Option<bool>> = args.iter().map(eval_cfg).collect();
            let name = list.path.get_ident()?.to_string();
            match name.as_str() {
                "not" if values.len() == 1 => values[0].map(|v| !v),
                "all" if values.contains(&Some(false)) => Some(false),
                "all" if values.iter().all(|v| *v == Some(true)) => Some(true),
                "any" if values.contains(&Some(true)) => Some(true),
                "any" if values.iter().all(|v| *v == Some(false)) => Some(false),
                _ => None,
            }
        }
        _ => None,
    }
}

fn retain_items(items: &mut Vec<Item>) {
    items.retain(|item| !is_cfg_false(item_attrs(item)));
}

/// The attributes of any item (empty for the kinds that carry none we care about).
pub fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

struct CfgTest;

impl VisitMut for CfgTest {
    fn visit_item_mod_mut(&mut self, node: &mut ItemMod) {
        if let Some((_, items)) = &mut node.content {
            retain_items(items);
        }
        visit_mut::visit_item_mod_mut(self, node);
    }

    fn visit_item_impl_mut(&mut self, node: &mut ItemImpl) {
        node.items
            .retain(|item| !is_cfg_false(impl_item_attrs(item)));
        visit_mut::visit_item_impl_mut(self, node);
    }

    fn visit_item_trait_mut(&mut self, node: &mut ItemTrait) {
        node.items.retain(|item| match item {
            syn::TraitItem::Const(i) => !is_cfg_false(&i.attrs),
            syn::TraitItem::Fn(i) => !is_cfg_false(&i.attrs),
            syn::TraitItem::Type(i) => !is_cfg_false(&i.attrs),
            _ => true,
        });
        visit_mut::visit_item_trait_mut(self, node);
    }

    fn visit_block_mut(&mut self, node: &mut Block) {
        node.stmts.retain(|stmt| match stmt {
            Stmt::Item(item) => !is_cfg_false(item_attrs(item)),
            Stmt::Local(local) => !is_cfg_false(&local.attrs),
            Stmt::Macro(mac) => !is_cfg_false(&mac.attrs) && !is_debug_assert(&mac.mac),
            Stmt::Expr(syn::Expr::Macro(e), _) => !is_debug_assert(&e.mac),
            Stmt::Expr(expr, _) => !is_cfg_false(expr_attrs(expr)),
        });
        visit_mut::visit_block_mut(self, node);
    }

    fn visit_fields_named_mut(&mut self, node: &mut FieldsNamed) {
        node.named = retain(&node.named, |f| &f.attrs);
        visit_mut::visit_fields_named_mut(self, node);
    }

    fn visit_expr_struct_mut(&mut self, node: &mut ExprStruct) {
        node.fields = retain(&node.fields, |f| &f.attrs);
        visit_mut::visit_expr_struct_mut(self, node);
    }

    fn visit_pat_struct_mut(&mut self, node: &mut PatStruct) {
        node.fields = retain(&node.fields, |f| &f.attrs);
        visit_mut::visit_pat_struct_mut(self, node);
    }

    fn visit_item_enum_mut(&mut self, node: &mut ItemEnum) {
        node.variants = retain(&node.variants, |v| &v.attrs);
        visit_mut::visit_item_enum_mut(self, node);
    }

    fn visit_expr_match_mut(&mut self, node: &mut ExprMatch) {
        node.arms.retain(|arm| !is_cfg_false(&arm.attrs));
        visit_mut::visit_expr_match_mut(self, node);
    }
}

/// Whether `mac` is a `debug_assert!` (or `_eq!`, `_ne!`): a statement that CodinGame's
/// optimised build compiles to nothing, as `debug_assertions` is off there.
fn is_debug_assert(mac: &syn::Macro) -> bool {
    let name = mac.path.segments.last().map(|s| s.ident.to_string());
    matches!(
        name.as_deref(),
        Some("debug_assert" | "debug_assert_eq" | "debug_assert_ne")
    )
}

/// The entries of a punctuated list whose cfg is not false in the bundle, each with its
/// punctuation (a struct expression's `..rest` needs the comma after its last field).
fn retain<T: Clone, P: Clone>(
    list: &Punctuated<T, P>,
    attrs: impl Fn(&T) -> &Vec<Attribute>,
) -> Punctuated<T, P> {
    let kept = list
        .pairs()
        .filter(|pair| !is_cfg_false(attrs(pair.value())));
    kept.map(|pair| pair.cloned()).collect()
}

/// The attributes of the expressions that carry them as statements (`#[cfg(..)] if .. {}`).
fn expr_attrs(expr: &syn::Expr) -> &[Attribute] {
    use syn::Expr;
    match expr {
        Expr::Block(e) => &e.attrs,
        Expr::Call(e) => &e.attrs,
        Expr::ForLoop(e) => &e.attrs,
        Expr::If(e) => &e.attrs,
        Expr::Loop(e) => &e.attrs,
        Expr::Macro(e) => &e.attrs,
        Expr::Match(e) => &e.attrs,
        Expr::MethodCall(e) => &e.attrs,
        Expr::Assign(e) => &e.attrs,
        Expr::Return(e) => &e.attrs,
        Expr::While(e) => &e.attrs,
        _ => &[],
    }
}

fn impl_item_attrs(item: &ImplItem) -> &[Attribute] {
    match item {
        ImplItem::Const(i) => &i.attrs,
        ImplItem::Fn(i) => &i.attrs,
        ImplItem::Type(i) => &i.attrs,
        ImplItem::Macro(i) => &i.attrs,
        _ => &[],
    }
}

/// Removes doc attributes (`#[doc ..]`, `#![doc ..]`: doc comments once parsed) and cfg
/// attributes that are true in the bundle, at any depth of the token stream.
pub fn strip_attributes(tokens: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        match needless_attribute_len(&tokens[i..]) {
            Some(len) => i += len,
            None => {
                out.push(map_group(&tokens[i], strip_attributes));
                i += 1;
            }
        }
    }
    out.into_iter().collect()
}

/// The number of tokens of a needless attribute starting the slice, if it starts with one.
fn needless_attribute_len(tokens: &[TokenTree]) -> Option<usize> {
    if !is_punct(tokens.first(), '#') {
        return None;
    }
    let bang = usize::from(is_punct(tokens.get(1), '!'));
    let TokenTree::Group(group) = tokens.get(1 + bang)? else {
        return None;
    };
    if group.delimiter() != proc_macro2::Delimiter::Bracket {
        return None;
    }
    let meta: Meta = syn::parse2(group.stream()).ok()?;
    let needless = meta.path().is_ident("doc") || cfg_value(&meta) == Some(true);
    needless.then_some(2 + bang)
}
