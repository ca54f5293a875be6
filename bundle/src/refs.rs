//! What a piece of code refers to: every path it spells (in types, expressions, patterns,
//! `use` trees, attributes and macro bodies), the derives it asks for and the crates it
//! declares with `extern crate`.

use super::tokens::is_colon2_at;
use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Attribute, Item, ItemExternCrate, ItemMod, ItemUse, Macro, Path, Token, UseTree};

/// One path as written, with the module depth it is written at (0 = the crate root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathUse {
    pub depth: usize,
    pub leading_colon: bool,
    pub segments: Vec<String>,
    /// Invoked as a macro (`name!`).
    pub bang: bool,
}

impl PathUse {
    /// The crate-root name this path reaches when it is written inside the library: the `N`
    /// of `crate::N`, of `super::..::N` climbing to the root, or of a relative path at the root.
    pub fn library_root(&self) -> Option<&str> {
        let s = &self.segments;
        let supers = s.iter().take_while(|x| *x == "super").count();
        let name = match s.first()?.as_str() {
            _ if self.leading_colon => None,
            "crate" => s.get(1),
            "super" if supers == self.depth => s.get(supers),
            "self" if self.depth == 0 => s.get(1),
            "super" | "self" => None,
            _ if self.depth == 0 => s.first(),
            _ => None,
        };
        name.map(String::as_str)
    }

    /// The library-root name reached by a path of the binary written `lib::N...`.
    pub fn through(&self, lib: &str) -> Option<&str> {
        match self.segments.as_slice() {
            [first, name, ..] if first == lib => Some(name),
            _ => None,
        }
    }
}

/// Everything a piece of code refers to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    pub paths: Vec<PathUse>,
    pub derives: Vec<String>,
    pub extern_crates: Vec<String>,
    /// How many `cfg!(..)` expressions name `codingame`: the bundler evaluates only `#[cfg]`
    /// attributes, and rustc never sets `codingame`, so such an expression is false in the
    /// bundle too.
    pub cfg_codingame_macros: usize,
}

/// Collects the uses of `items`, which stand at module depth `depth`.
pub fn collect(items: &[Item], depth: usize) -> Uses {
    let mut collector = Collector {
        depth,
        uses: Uses::default(),
    };
    for item in items {
        collector.visit_item(item);
    }
    collector.uses
}

struct Collector {
    depth: usize,
    uses: Uses,
}

impl Collector {
    fn push(&mut self, leading_colon: bool, segments: Vec<String>, bang: bool) {
        self.uses.paths.push(PathUse {
            depth: self.depth,
            leading_colon,
            segments,
            bang,
        });
    }

    /// Counts a `cfg!` whose predicate names `codingame`.
    fn note_cfg_macro(&mut self, predicate: TokenStream) {
        if names_ident(predicate, "codingame") {
            self.uses.cfg_codingame_macros += 1;
        }
    }

    /// Records the paths spelled inside a macro body: `a::b::c`, `::a::b`, `name!`.
    fn scan_tokens(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            if let TokenTree::Group(g) = &tokens[i] {
                self.scan_tokens(g.stream());
                i += 1;
                continue;
            }
            let leading = is_colon2_at(&tokens, i) && !(i > 0 && ends_path(&tokens[i - 1]));
            let start = if leading { i + 2 } else { i };
            match path_at(&tokens, start) {
                Some((segments, end)) => {
                    let bang = matches!(tokens.get(end), Some(TokenTree::Punct(p)) if p.as_char() == '!' && p.spacing() == Spacing::Alone);
                    if bang && segments == ["cfg"] {
                        if let Some(TokenTree::Group(g)) = tokens.get(end + 1) {
                            self.note_cfg_macro(g.stream());
                        }
                    }
                    self.push(leading, segments, bang);
                    i = end;
                }
                None => i += 1,
            }
        }
    }
}

/// Whether `name` appears as an identifier anywhere in `tokens`.
fn names_ident(tokens: TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(id) => id == name,
        TokenTree::Group(g) => names_ident(g.stream(), name),
        _ => false,
    })
}

/// `a::b::c` starting at `start`: its segments and the index just past it.
fn path_at(tokens: &[TokenTree], start: usize) -> Option<(Vec<String>, usize)> {
    let ident = |i: usize| match tokens.get(i) {
        Some(TokenTree::Ident(id)) => Some(id.unraw().to_string()),
        _ => None,
    };
    let mut segments = vec![ident(start)?];
    let mut end = start + 1;
    while let (true, Some(next)) = (is_colon2_at(tokens, end), ident(end + 2)) {
        segments.push(next);
        end += 3;
    }
    Some((segments, end))
}

/// Whether a token can end a path segment (so a following `::` continues that path).
fn ends_path(token: &TokenTree) -> bool {
    match token {
        TokenTree::Ident(_) => true,
        TokenTree::Punct(p) => p.as_char() == '>',
        _ => false,
    }
}

/// One leaf of a `use` tree: the path it imports and the name it binds (`*` for a glob).
pub struct UseLeaf {
    pub path: Vec<String>,
    pub binds: String,
}

/// The leaves of a `use` tree whose enclosing segments are `prefix`.
pub fn use_leaves(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<UseLeaf>) {
    let mut leaf = |last: &syn::Ident, binds: &syn::Ident| {
        let mut path = prefix.clone();
        path.push(last.unraw().to_string());
        let binds = match binds.unraw().to_string() {
            s if s == "self" => prefix.last().cloned().unwrap_or(s),
            s => s,
        };
        out.push(UseLeaf { path, binds });
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.unraw().to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => leaf(&n.ident, &n.ident),
        UseTree::Rename(r) => leaf(&r.ident, &r.rename),
        UseTree::Glob(_) => {
            let mut path = prefix.clone();
            path.push("*".to_owned());
            out.push(UseLeaf {
                path,
                binds: "*".to_owned(),
            });
        }
        UseTree::Group(g) => g.items.iter().for_each(|t| use_leaves(t, prefix, out)),
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_mod(&mut self, node: &'ast ItemMod) {
        self.depth += 1;
        visit::visit_item_mod(self, node);
        self.depth -= 1;
    }

    fn visit_item_use(&mut self, node: &'ast ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&node.tree, &mut Vec::new(), &mut leaves);
        for leaf in leaves {
            self.push(node.leading_colon.is_some(), leaf.path, false);
        }
        node.attrs.iter().for_each(|a| self.visit_attribute(a));
    }

    fn visit_item_extern_crate(&mut self, node: &'ast ItemExternCrate) {
        self.uses.extern_crates.push(node.ident.unraw().to_string());
    }

    fn visit_path(&mut self, node: &'ast Path) {
        let segments = node
            .segments
            .iter()
            .map(|s| s.ident.unraw().to_string())
            .collect();
        self.push(node.leading_colon.is_some(), segments, false);
        visit::visit_path(self, node);
    }

    fn visit_macro(&mut self, node: &'ast Macro) {
        let segments = node
            .path
            .segments
            .iter()
            .map(|s| s.ident.unraw().to_string())
            .collect();
        if node.path.is_ident("cfg") {
            self.note_cfg_macro(node.tokens.clone());
        }
        self.push(node.path.leading_colon.is_some(), segments, true);
        self.scan_tokens(node.tokens.clone());
    }

    fn visit_attribute(&mut self, node: &'ast Attribute) {
        if node.path().is_ident("doc") {
            return; // stripped from the bundle, whatever it reads
        }
        if node.path().is_ident("derive") {
            let paths = node.parse_args_with(Punctuated::<Path, Token![,]>::parse_terminated);
            for path in paths.iter().flatten() {
                let name = path.segments.last().map(|s| s.ident.to_string());
                self.uses.derives.extend(name);
            }
        }
        visit::visit_attribute(self, node);
    }
}
