//! Small helpers over token trees, for the rewrites and scans that work below the syntax tree
//! (macro bodies are only tokens to `syn`).

use proc_macro2::{Group, Punct, Spacing, TokenStream, TokenTree};

/// Applies `f` to the inside of a group token; other tokens are returned unchanged.
pub fn map_group(token: &TokenTree, f: impl Fn(TokenStream) -> TokenStream) -> TokenTree {
    match token {
        TokenTree::Group(g) => {
            let mut group = Group::new(g.delimiter(), f(g.stream()));
            group.set_span(g.span());
            TokenTree::Group(group)
        }
        other => other.clone(),
    }
}

pub fn is_ident(token: &TokenTree, name: &str) -> bool {
    matches!(token, TokenTree::Ident(id) if id == name)
}

pub fn is_punct(token: Option<&TokenTree>, c: char) -> bool {
    matches!(token, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// Whether `tokens[i..]` starts with `::`.
pub fn is_colon2_at(tokens: &[TokenTree], i: usize) -> bool {
    matches!(tokens.get(i..), Some([TokenTree::Punct(a), TokenTree::Punct(b), ..])
        if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
}

/// The two tokens of `::`.
pub fn colon2() -> [TokenTree; 2] {
    [
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
    ]
}
