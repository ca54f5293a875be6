//! Path rewriting for the library's new home, `mod <lib>` at the root of the binary crate.

use super::tokens::{colon2, is_colon2_at, is_ident, is_punct, map_group};
use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use syn::visit_mut::{self, VisitMut};
use syn::{ItemUse, Macro, Path, PathSegment, UsePath, UseTree};

/// `crate::` becomes `crate::<module>::` throughout (`$crate::` too), so that the library's
/// paths still reach the library once it is a module of the binary.
pub fn nest_crate_paths(tokens: TokenStream, module: &str) -> TokenStream {
    insert_after_crate(tokens, module)
}

/// The binary's paths into the library, `lib::X` and `::lib::X`, become `crate::lib::X`, so
/// they resolve from any module of the binary. `extern crate lib;` must be gone already.
pub fn root_binary_paths(file: &mut syn::File, lib: &str) {
    BinaryPaths { lib }.visit_file_mut(file);
}

struct BinaryPaths<'a> {
    lib: &'a str,
}

impl VisitMut for BinaryPaths<'_> {
    fn visit_path_mut(&mut self, node: &mut Path) {
        if node.segments.len() > 1 && node.segments[0].ident == self.lib {
            node.leading_colon = None;
            node.segments.insert(0, PathSegment::from(crate_ident()));
        }
        visit_mut::visit_path_mut(self, node);
    }

    fn visit_item_use_mut(&mut self, node: &mut ItemUse) {
        root_use_tree(&mut node.tree, self.lib);
        if matches!(&node.tree, UseTree::Path(p) if p.ident == "crate") {
            node.leading_colon = None;
        }
    }

    fn visit_macro_mut(&mut self, node: &mut Macro) {
        visit_mut::visit_macro_mut(self, node);
        let tokens = std::mem::take(&mut node.tokens);
        node.tokens = insert_before(tokens, self.lib);
    }
}

fn root_use_tree(tree: &mut UseTree, lib: &str) {
    let first = match tree {
        UseTree::Path(p) => &p.ident,
        UseTree::Name(n) => &n.ident,
        UseTree::Rename(r) => &r.ident,
        UseTree::Group(g) => return g.items.iter_mut().for_each(|t| root_use_tree(t, lib)),
        UseTree::Glob(_) => return,
    };
    if first == lib {
        let star = UseTree::Glob(syn::UseGlob {
            star_token: Default::default(),
        });
        let inner = std::mem::replace(tree, star);
        *tree = UseTree::Path(UsePath {
            ident: crate_ident(),
            colon2_token: Default::default(),
            tree: Box::new(inner),
        });
    }
}

fn crate_ident() -> Ident {
    Ident::new("crate", Span::call_site())
}

/// In a macro body: `lib::` not preceded by `::` becomes `crate::lib::`.
fn insert_before(tokens: TokenStream, lib: &str) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        let after_colon = is_punct(i.checked_sub(1).map(|p| &tokens[p]), ':');
        if is_ident(token, lib) && is_colon2_at(&tokens, i + 1) && !after_colon {
            out.push(TokenTree::Ident(crate_ident()));
            out.extend(colon2());
        }
        out.push(map_group(token, |t| insert_before(t, lib)));
    }
    out.into_iter().collect()
}

/// After every `crate::`, inserts `<module>::`.
fn insert_after_crate(tokens: TokenStream, module: &str) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        out.push(map_group(&tokens[i], |t| insert_after_crate(t, module)));
        if is_ident(&tokens[i], "crate") && is_colon2_at(&tokens, i + 1) {
            out.extend(colon2());
            out.push(TokenTree::Ident(Ident::new(module, Span::call_site())));
            out.extend(colon2());
            i += 3;
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}
