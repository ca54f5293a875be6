//! Fresh short names for the compact bundle: in the case of the name they replace, shortest
//! first, never a keyword, a primitive type or one of std's short names.

use std::collections::BTreeSet;

/// Short names never given: std's own short names that a method call could reach.
pub const NEVER: &[&str] = &[
    "eq", "ne", "lt", "le", "gt", "ge", "or", "as", "do", "fn", "if", "in", "io", "is", "ok", "os",
    "rc", "fs",
];

/// Keywords and primitive types: never a new name.
pub const RESERVED: &[&str] = &[
    "abstract", "as", "async", "await", "become", "bool", "box", "break", "char", "const",
    "continue", "crate", "do", "dyn", "else", "enum", "extern", "f32", "f64", "false", "final",
    "fn", "for", "gen", "i8", "i16", "i32", "i64", "i128", "if", "impl", "in", "isize", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "self", "Self", "static", "str", "struct", "super", "trait", "true", "try", "type", "typeof",
    "u8", "u16", "u32", "u64", "u128", "union", "unsafe", "unsized", "use", "usize", "virtual",
    "where", "while", "yield",
];

/// A name's case class, kept by its new name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// `snake_case`: functions, fields, bindings, modules.
    Lower,
    /// `CamelCase`: types, traits, variants.
    Camel,
    /// `UPPER_CASE`: constants, statics, one-letter generics.
    Upper,
}

impl Case {
    pub fn of(name: &str) -> Case {
        let first_upper = name.starts_with(|c: char| c.is_ascii_uppercase());
        match (first_upper, name.chars().any(|c| c.is_ascii_lowercase())) {
            (false, _) => Case::Lower,
            (true, true) => Case::Camel,
            (true, false) => Case::Upper,
        }
    }
}

/// Fresh names of each case, shortest first.
#[derive(Default)]
pub struct Fresh {
    next: [usize; 3],
}

impl Fresh {
    /// The next name of `case` not in `taken`, which then holds it (a one-letter name is
    /// both `Camel` and `Upper`).
    pub fn next(&mut self, case: Case, taken: &mut BTreeSet<String>) -> String {
        let slot = case as usize;
        loop {
            let name = nth_name(case, self.next[slot]);
            self.next[slot] += 1;
            if taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// The `n`-th name of a case: one letter, then a letter and a letter or digit, and so on.
fn nth_name(case: Case, mut n: usize) -> String {
    let (first, rest): (&[u8], &[u8]) = match case {
        Case::Lower => (
            b"abcdefghijklmnopqrstuvwxyz",
            b"abcdefghijklmnopqrstuvwxyz0123456789",
        ),
        // Lower-case letters only after the first: `A0` would read as UPPER.
        Case::Camel => (b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz"),
        Case::Upper => (
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        ),
    };
    let mut name = vec![first[n % first.len()]];
    n /= first.len();
    while n > 0 {
        n -= 1;
        name.push(rest[n % rest.len()]);
        n /= rest.len();
    }
    String::from_utf8(name).expect("ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_are_distinct_and_keep_their_case() {
        let mut seen = BTreeSet::new();
        for case in [Case::Lower, Case::Camel, Case::Upper] {
            for n in 0..3000 {
                let name = nth_name(case, n);
                assert!(Case::of(&name) == case || name.len() == 1 && case == Case::Camel);
                assert!(seen.insert((case as usize, name)), "{n}");
            }
        }
        assert_eq!(nth_name(Case::Lower, 0), "a");
        assert_eq!(nth_name(Case::Lower, 26), "aa");
    }
}
