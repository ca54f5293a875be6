//! The compact bundle's second renaming: each function's locals again, within the function.
//!
//! A local is a name that binds a variable and is otherwise at most a field's or a method's
//! (`pos` the variable beside `self.pos` the field): no bare path can reach anything else of
//! that name. Inside one function (with its closures and nested items) it may then take any
//! name the function's tokens do not hold, so most locals get one letter even where items
//! took those letters elsewhere. Only the variable's own uses change, read from the syntax
//! tree:
//! - bindings (`let pos`, parameters, closure and match patterns);
//! - bare one-segment paths (`pos + 1`), which can only be the variable;
//! - field shorthand, spelt out (`S { pos }` becomes `S { pos: a }`, in patterns too);
//! - the arguments of std's macros (`write!(f, "{}", pos)`), which are tokens: a word there
//!   after `.` or beside `::` is left alone. The crate's own macros' arguments and names a
//!   format string captures keep their names ([`super::rename`]).

use super::fresh::{Case, Fresh, NEVER, RESERVED};
use super::rename::{is_crate_macro, scan};
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use syn::visit_mut::{self, VisitMut};

/// `file` with the locals of each function renamed within it; `locals` are their names
/// after the first renaming.
pub fn shorten(mut file: syn::File, locals: &BTreeSet<String>) -> syn::File {
    Functions { locals }.visit_file_mut(&mut file);
    file
}

/// Finds the functions, outermost first.
struct Functions<'a> {
    locals: &'a BTreeSet<String>,
}

impl Functions<'_> {
    /// The new name of each local in `tokens`, one function's: the most used first.
    fn names(&self, tokens: TokenStream) -> BTreeMap<String, String> {
        let (mut counts, mut keep) = (BTreeMap::new(), BTreeSet::new());
        scan(tokens, &mut counts, &mut keep, false);
        let mut taken: BTreeSet<String> = counts.keys().cloned().collect();
        taken.extend(RESERVED.iter().chain(NEVER).map(|w| w.to_string()));
        let mut mine: Vec<(&String, &usize)> = counts
            .iter()
            .filter(|(name, _)| self.locals.contains(*name) && !keep.contains(*name))
            .collect();
        mine.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut fresh = Fresh::default();
        mine.into_iter()
            .map(|(name, _)| (name.clone(), fresh.next(Case::Lower, &mut taken)))
            .filter(|(old, new)| new.len() < old.len())
            .collect()
    }
}

impl VisitMut for Functions<'_> {
    fn visit_item_fn_mut(&mut self, f: &mut syn::ItemFn) {
        let names = self.names(f.to_token_stream());
        Rename { names: &names }.visit_item_fn_mut(f);
    }

    fn visit_impl_item_fn_mut(&mut self, f: &mut syn::ImplItemFn) {
        let names = self.names(f.to_token_stream());
        Rename { names: &names }.visit_impl_item_fn_mut(f);
    }

    fn visit_trait_item_fn_mut(&mut self, f: &mut syn::TraitItemFn) {
        let names = self.names(f.to_token_stream());
        Rename { names: &names }.visit_trait_item_fn_mut(f);
    }
}

/// Renames one function's locals where they are the variable.
struct Rename<'a> {
    names: &'a BTreeMap<String, String>,
}

impl Rename<'_> {
    fn renames(&self, member: &syn::Member) -> bool {
        matches!(member, syn::Member::Named(n) if self.names.contains_key(&n.to_string()))
    }

    fn new_name(&self, ident: &Ident) -> Option<Ident> {
        let new = self.names.get(&ident.to_string())?;
        Some(Ident::new(new, ident.span()))
    }
}

impl VisitMut for Rename<'_> {
    fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
        if let Some(new) = self.new_name(&p.ident) {
            p.ident = new;
        }
        visit_mut::visit_pat_ident_mut(self, p);
    }

    fn visit_expr_path_mut(&mut self, e: &mut syn::ExprPath) {
        let bare = e.qself.is_none() && e.path.leading_colon.is_none();
        if bare && e.path.segments.len() == 1 {
            let segment = &mut e.path.segments[0];
            if let (syn::PathArguments::None, Some(new)) =
                (&segment.arguments, self.new_name(&segment.ident))
            {
                segment.ident = new;
            }
        }
        visit_mut::visit_expr_path_mut(self, e);
    }

    fn visit_field_value_mut(&mut self, f: &mut syn::FieldValue) {
        // `S { pos }` is `S { pos: pos }`: the field keeps its name, the variable changes.
        if f.colon_token.is_none() && self.renames(&f.member) {
            f.colon_token = Some(Default::default());
        }
        visit_mut::visit_field_value_mut(self, f);
    }

    fn visit_field_pat_mut(&mut self, f: &mut syn::FieldPat) {
        if f.colon_token.is_none() && self.renames(&f.member) {
            f.colon_token = Some(Default::default());
        }
        visit_mut::visit_field_pat_mut(self, f);
    }

    fn visit_member_mut(&mut self, _: &mut syn::Member) {
        // A field's name (`.pos`, `pos:` in `S { pos: .. }`) is never the variable.
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        let name = m.path.segments.last().map(|s| s.ident.to_string());
        if name.is_some_and(|n| !is_crate_macro(&n)) {
            m.tokens = self.tokens(std::mem::take(&mut m.tokens));
        }
    }

    fn visit_item_macro_mut(&mut self, _: &mut syn::ItemMacro) {
        // A `macro_rules!` inside a function: its body keeps its words.
    }
}

impl Rename<'_> {
    /// A std macro's arguments: a word that is not after `.` nor beside `::` is the variable.
    fn tokens(&self, tokens: TokenStream) -> TokenStream {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |i: Option<usize>, c: char| matches!(i.and_then(|i| tokens.get(i)), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let mut out = Vec::with_capacity(tokens.len());
        for (i, token) in tokens.iter().enumerate() {
            let before = |k: usize| i.checked_sub(k);
            let after = |k: usize| Some(i + k);
            // A field or method (`.pos`), a lifetime, or a step of a path (`a::pos::b`).
            let other = punct(before(1), '.')
                || punct(before(1), '\'')
                || punct(before(1), ':') && punct(before(2), ':')
                || punct(after(1), ':') && punct(after(2), ':');
            out.push(match token {
                TokenTree::Ident(id) if !other => match self.new_name(id) {
                    Some(new) => TokenTree::Ident(new),
                    None => token.clone(),
                },
                TokenTree::Group(g) => {
                    let mut group = proc_macro2::Group::new(g.delimiter(), self.tokens(g.stream()));
                    group.set_span(g.span());
                    TokenTree::Group(group)
                }
                _ => token.clone(),
            });
        }
        out.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shortened(file: syn::File, locals: &[&str]) -> String {
        let locals = locals.iter().map(|l| l.to_string()).collect();
        shorten(file, &locals).to_token_stream().to_string()
    }

    #[test]
    fn a_local_beside_a_field_of_its_name_changes_only_as_the_variable() {
        let file: syn::File = syn::parse_quote! {
            fn f(s: S) -> S {
                let pos = s.pos + 1;
                let t = S { pos };
                let S { pos: _, .. } = t;
                let S { pos, .. } = t;
                write!(out, "{}", pos);
                S { pos: pos.max(2) }
            }
        };
        let text = shortened(file, &["pos", "t"]);
        assert!(text.contains("let a = s . pos + 1"), "{text}");
        assert!(text.contains("S { pos : a }"), "{text}");
        assert!(text.contains("S { pos : _ , .. }"), "{text}");
        assert!(text.contains("let S { pos : a , .. }"), "{text}");
        assert!(text.contains("write ! (out , \"{}\" , a)"), "{text}");
        assert!(text.contains("S { pos : a . max (2) }"), "{text}");
    }

    #[test]
    fn each_function_starts_its_letters_afresh_around_what_it_holds() {
        let file: syn::File = syn::parse_quote! {
            fn f() -> u8 { let counter = 1; counter }
            fn g(a: u8) -> u8 { let counter = a; counter + self::a() }
        };
        let text = shortened(file, &["counter"]);
        assert!(text.contains("fn f () -> u8 { let a = 1 ; a }"), "{text}");
        assert!(text.contains("let b = a ; b + self :: a ()"), "{text}");
    }
}
