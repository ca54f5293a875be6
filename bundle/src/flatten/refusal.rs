//! Why the library's modules cannot be made one: the refusal [`super::flatten`] returns,
//! whose names the caller may give back as the crate spells them.

use std::fmt;

/// Why the library's modules cannot be made one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The file has no inline module of the library's name.
    NoLibrary(String),
    /// A module carries an attribute other than `allow`.
    Attributes(String),
    /// A module's items are not inline.
    NoBody(String),
    /// Two modules define one name.
    TwoDefine(String),
    /// Variables are named like these functions or statics.
    Shadowed(Vec<String>),
    /// An import is named like a module: a path through the module would reach the import.
    ImportLikeModule(String),
    /// The flattened tokens do not parse.
    Syntax(String),
}

impl Refusal {
    /// The same refusal with every name it holds passed through `f` (to give back the names
    /// the renaming took away).
    pub fn map_names(self, f: impl Fn(&str) -> String) -> Refusal {
        match self {
            Refusal::NoLibrary(n) => Refusal::NoLibrary(f(&n)),
            Refusal::Attributes(n) => Refusal::Attributes(f(&n)),
            Refusal::NoBody(n) => Refusal::NoBody(f(&n)),
            Refusal::TwoDefine(n) => Refusal::TwoDefine(f(&n)),
            Refusal::Shadowed(names) => Refusal::Shadowed(names.iter().map(|n| f(n)).collect()),
            Refusal::ImportLikeModule(n) => Refusal::ImportLikeModule(f(&n)),
            Refusal::Syntax(e) => Refusal::Syntax(e),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refusal::NoLibrary(n) => write!(f, "no module `{n}`"),
            Refusal::Attributes(n) => write!(f, "module `{n}` has attributes its items would lose"),
            Refusal::NoBody(n) => write!(f, "module `{n}` has no body"),
            Refusal::TwoDefine(n) => write!(f, "two modules define `{n}`"),
            Refusal::Shadowed(names) => {
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                write!(
                    f,
                    "variables are named like the items {} (a path through a module would \
                     reach the variable once the path is bare)",
                    names.join(", ")
                )
            }
            Refusal::ImportLikeModule(n) => write!(
                f,
                "an import is named like the module `{n}` (a path through the module would \
                 reach the import once the module is gone)"
            ),
            Refusal::Syntax(e) => write!(f, "the flattened library does not parse: {e}"),
        }
    }
}
