//! The bundler on the miniature crate in tests/fixtures/mini: what it keeps, what it
//! strips, and that the result compiles and runs as one file.

mod support;

use support::{bundle_compact, bundle_crate, compile_and_run, mini_dir, mini_with};

#[test]
fn the_bundle_compiles_alone_and_runs_like_the_crate() {
    let bundle = bundle_crate(&mini_dir()).unwrap();
    // depth 0 → cell_of!(3) → best adds params::BONUS → "NAME double outside_tests"
    assert_eq!(compile_and_run(&bundle.source, &[], &[]), "cell 8 4\n");
}

#[test]
fn the_compact_bundle_runs_like_the_readable_one() {
    let compact = bundle_compact(&mini_dir()).unwrap();
    let pretty = bundle_crate(&mini_dir()).unwrap();
    assert!(compact.chars() < pretty.chars());
    assert_eq!(compact.modules, pretty.modules);
    assert_eq!(compile_and_run(&compact.source, &[], &[]), "cell 8 4\n");
}

#[test]
fn paths_into_std_keep_a_step_named_like_a_module_of_the_crate() {
    // The crate has a module `cell`; made one module, `std::cell::RefCell` must not become
    // `std::RefCell`, in the library or in main.
    let tree =
        "use super::super::cell::Cell;\nuse super::params::BONUS;\nuse std::cell::RefCell;\n\
                pub fn best(cell: Cell) -> Cell {\n\
                    let bonus = RefCell::new(BONUS);\n\
                    Cell(std::cell::Cell::new(cell.0).get() + bonus.into_inner())\n}\n";
    let main = "use twixt::bot::Options;\nfn main() {\n\
                let options = std::cell::Cell::new(Options::default());\n\
                println!(\"{}\", twixt::bot::run(&options.into_inner()));\n}\n";
    let dir = mini_with(&[("src/search/tree.rs", tree), ("src/main.rs", main)]);
    let compact = bundle_compact(dir.path()).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(
        compact.source.contains("std::cell::RefCell"),
        "{}",
        compact.source
    );
    assert_eq!(compile_and_run(&compact.source, &[], &[]), "cell 8 4\n");
}

#[test]
fn ships_only_the_modules_main_reaches() {
    let bundle = bundle_crate(&mini_dir()).unwrap();
    assert_eq!(bundle.modules, ["bot", "cell", "search"]);
    for absent in [
        "mod reference",
        "Referee",
        "clap",
        "mod unused",
        "include_str",
    ] {
        assert!(!bundle.source.contains(absent), "`{absent}` shipped");
    }
}

#[test]
fn inlines_mod_rs_directories_and_foo_rs_with_foo_directories() {
    let source = bundle_crate(&mini_dir()).unwrap().source;
    for module in [
        "pub mod bot {",
        "mod protocol {",
        "pub mod search {",
        "mod params {",
        "mod tree {",
    ] {
        assert!(source.contains(module), "`{module}` missing");
    }
}

#[test]
fn strips_cfg_test_items_and_doc_comments() {
    let source = bundle_crate(&mini_dir()).unwrap().source;
    for absent in [
        "mod tests",
        "#[test]",
        "only_in_tests",
        "only_in_slow_tests",
        "main_test_only",
        "protocol_test_only",
        "mod testutil",
        "mod fixtures",
        "doc",
        "stripped",
        "///",
        "//!",
        "deny(missing_docs)",
    ] {
        assert!(!source.contains(absent), "`{absent}` shipped:\n{source}");
    }
    for kept in [
        "outside_tests",
        "#[inline]",
        "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]",
        "#![allow(dead_code)]",
    ] {
        assert!(source.contains(kept), "`{kept}` lost");
    }
}

#[test]
fn rewrites_the_library_paths_for_its_nested_module() {
    // The printer spaces macro bodies freely (`crate ::twixt`): compare without spaces.
    let source = bundle_crate(&mini_dir()).unwrap().source.replace(' ', "");
    assert!(source.contains("modtwixt{"));
    assert!(
        source.contains("$crate::twixt::cell::Cell"),
        "macro_rules! body"
    );
    assert!(
        source.contains("crate::twixt::cell::NAME"),
        "format! argument"
    );
    assert!(
        source.contains("crate::twixt::bot::run(&options)"),
        "main's expression path"
    );
}

#[test]
fn reports_the_size_in_utf16_code_units_as_codingame_counts() {
    // é is one code unit (two UTF-8 bytes); 😀 is outside the BMP: two code units.
    let dir = mini_with(&[(
        "src/search/params.rs",
        "pub const BONUS: u8 = 1;\npub const WIDE: &str = \"ééé😀\";\n",
    )]);
    let bundle = bundle_crate(dir.path()).unwrap();
    assert_eq!(bundle.chars(), bundle.source.chars().count() + 1);
    assert!(bundle.chars() < bundle.source.len());
}

#[test]
fn is_generated_the_same_every_time() {
    assert_eq!(
        bundle_crate(&mini_dir()).unwrap().source,
        bundle_crate(&mini_dir()).unwrap().source
    );
}

#[test]
fn follows_main_through_a_glob_import_of_the_library() {
    let main =
        "use twixt::*;\nfn main() { println!(\"{}\", bot::run(&bot::Options::default())); }\n";
    let dir = mini_with(&[("src/main.rs", main)]);
    let bundle = bundle_crate(dir.path()).unwrap();
    assert_eq!(compile_and_run(&bundle.source, &[], &[]), "cell 8 4\n");
}

#[test]
fn handles_extern_crate_and_absolute_paths_in_main() {
    let main = "extern crate twixt;\nmod inner {\n    pub fn line() -> String { twixt::bot::run(&::twixt::bot::Options { depth: 1 }) }\n}\nfn main() { println!(\"{}\", inner::line()); }\n";
    let dir = mini_with(&[("src/main.rs", main)]);
    let bundle = bundle_crate(dir.path()).unwrap();
    assert!(!bundle.source.contains("extern crate"));
    assert_eq!(compile_and_run(&bundle.source, &[], &[]), "cell 10 5\n");
}

#[test]
fn drops_a_module_whose_file_is_cfg_test() {
    let search = "mod params;\nmod tree;\nmod extra;\npub use tree::best;\n";
    let extra = "#![cfg(test)]\npub fn test_helper() {}\n";
    let dir = mini_with(&[
        ("src/search/mod.rs", search),
        ("src/search/extra.rs", extra),
    ]);
    let bundle = bundle_crate(dir.path()).unwrap();
    assert!(!bundle.source.contains("extra"), "{}", bundle.source);
    assert_eq!(compile_and_run(&bundle.source, &[], &[]), "cell 8 4\n");
}

#[test]
fn indents_blocks_with_tabs_not_module_bodies_and_keeps_multi_line_strings_verbatim() {
    let text = "first\n    indented by four\n\tby a tab\n        by eight";
    let cell = std::fs::read_to_string(mini_dir().join("src/cell.rs")).unwrap();
    let cell = format!("{cell}\npub const TEXT: &str = \"{text}\";\n");
    let main = "fn main() { print!(\"{}\", twixt::cell::TEXT); }\n";
    let dir = mini_with(&[("src/cell.rs", &cell), ("src/main.rs", main)]);
    let source = bundle_crate(dir.path()).unwrap().source;
    // `mod twixt { mod cell { pub struct Cell(..); impl Cell { pub fn .. } } }`
    assert!(source.contains("\npub struct Cell"), "{source}");
    assert!(source.contains("\n\tpub fn "), "{source}");
    assert!(!source.contains("\n\t\tpub fn "), "{source}");
    assert_eq!(compile_and_run(&source, &[], &[]), text);
}

#[test]
fn evaluates_cfg_codingame_as_on_and_removes_true_cfgs() {
    let cell = std::fs::read_to_string(mini_dir().join("src/cell.rs")).unwrap();
    let cell = format!(
        "{cell}\n#[cfg(codingame)]\npub const PLATFORM: &str = \"codingame\";\n\
         #[cfg(not(codingame))]\npub const PLATFORM: &str = \"host\";\n\
         #[cfg(all(not(codingame), unix))]\npub fn host_only() {{}}\n"
    );
    let lib = std::fs::read_to_string(mini_dir().join("src/lib.rs")).unwrap();
    let lib = lib.replace("pub mod unused;", "#[cfg(not(codingame))]\npub mod unused;");
    let main = "fn main() { print!(\"{}\", twixt::cell::PLATFORM); }\n";
    let host = "#![cfg(not(codingame))]\npub fn never() {}\n";
    let dir = mini_with(&[
        ("src/cell.rs", &cell),
        ("src/lib.rs", &lib),
        ("src/main.rs", main),
        ("src/search/host.rs", host),
        (
            "src/search/mod.rs",
            "mod host;\nmod params;\nmod tree;\npub use tree::best;\n",
        ),
    ]);
    let source = bundle_crate(dir.path()).unwrap().source;
    for absent in [
        "codingame)",
        "\"host\"",
        "host_only",
        "never",
        "mod unused",
        "mod host",
    ] {
        assert!(!source.contains(absent), "`{absent}` shipped:\n{source}");
    }
    assert_eq!(compile_and_run(&source, &[], &[]), "codingame");
}

#[test]
fn follows_super_chains_and_root_re_exports_to_other_modules() {
    let lib = std::fs::read_to_string(mini_dir().join("src/lib.rs")).unwrap();
    let lib = format!("{lib}\npub mod climbed;\npub mod exported;\npub use exported::ZERO;\n");
    let tree = "use super::super::cell::Cell;\nuse super::params::BONUS;\n\
                pub fn best(cell: Cell) -> Cell {\n\
                    Cell(cell.0 + BONUS + super::super::climbed::ZERO + crate::ZERO)\n}\n";
    let dir = mini_with(&[
        ("src/lib.rs", &lib),
        ("src/climbed.rs", "pub const ZERO: u8 = 0;\n"),
        ("src/exported.rs", "pub const ZERO: u8 = 0;\n"),
        ("src/search/tree.rs", tree),
    ]);
    let bundle = bundle_crate(dir.path()).unwrap();
    assert_eq!(
        bundle.modules,
        ["bot", "cell", "search", "climbed", "exported"]
    );
    assert_eq!(compile_and_run(&bundle.source, &[], &[]), "cell 8 4\n");
}

#[test]
fn follows_the_paths_in_root_macros() {
    let lib = std::fs::read_to_string(mini_dir().join("src/lib.rs")).unwrap();
    let zero = "macro_rules! zero {\n    () => {\n        $crate::via_macro::ZERO\n    };\n}\n\n";
    let lib = lib.replace(
        "pub mod bot;",
        &format!("{zero}pub mod bot;\npub mod via_macro;"),
    );
    let tree = "use super::super::cell::Cell;\nuse super::params::BONUS;\n\
                pub fn best(cell: Cell) -> Cell {\n    Cell(cell.0 + BONUS + zero!())\n}\n";
    let dir = mini_with(&[
        ("src/lib.rs", &lib),
        ("src/via_macro.rs", "pub const ZERO: u8 = 0;\n"),
        ("src/search/tree.rs", tree),
    ]);
    let bundle = bundle_crate(dir.path()).unwrap();
    assert!(bundle.modules.contains(&"via_macro".to_owned()));
    assert_eq!(compile_and_run(&bundle.source, &[], &[]), "cell 8 4\n");
}

#[test]
fn drops_host_only_fields_variants_arms_and_statements_and_debug_assertions() {
    let cell = std::fs::read_to_string(mini_dir().join("src/cell.rs")).unwrap();
    let cell = format!(
        "{cell}\n\
         pub struct Counts {{ pub shipped: u8, #[cfg(not(codingame))] pub host_field: u8 }}\n\
         pub enum Kind {{ Plain, #[cfg(not(codingame))] HostVariant }}\n\
         pub fn counted() -> u8 {{\n\
             debug_assert!(1 + 1 == 3, \"a debug assertion\");\n\
             debug_assert_eq!(2, 3);\n\
             let base = Counts {{ shipped: 3, #[cfg(not(codingame))] host_field: 9 }};\n\
             let mut c = Counts {{ shipped: 4, #[cfg(not(codingame))] host_field: 8, ..base }};\n\
             #[cfg(not(codingame))]\n\
             if c.host_field > 0 {{ c.shipped = 0; }}\n\
             #[cfg(not(codingame))]\n\
             println!(\"host_print\");\n\
             let Counts {{ shipped, #[cfg(not(codingame))] host_field: _ }} = c;\n\
             match Kind::Plain {{\n\
                 Kind::Plain => shipped,\n\
                 #[cfg(not(codingame))]\n\
                 Kind::HostVariant => 7,\n\
             }}\n\
         }}\n"
    );
    let main = "fn main() { print!(\"{}\", twixt::cell::counted()); }\n";
    let dir = mini_with(&[("src/cell.rs", &cell), ("src/main.rs", main)]);
    let source = bundle_crate(dir.path()).unwrap().source;
    for absent in [
        "codingame",
        "host_field",
        "HostVariant",
        "host_print",
        "debug_assert",
    ] {
        assert!(!source.contains(absent), "`{absent}` shipped:\n{source}");
    }
    assert_eq!(compile_and_run(&source, &[], &[]), "4");
}

#[test]
fn aliases_std_s_most_spelt_types_where_they_pay_and_keeps_other_paths() {
    let lib = std::fs::read_to_string(mini_dir().join("src/lib.rs")).unwrap();
    let lib = format!("{lib}\npub mod spelt;\n");
    // `usize` and `Vec` many times over, in every place a type goes; `fmt::Result` and a
    // `u32` spelt once stay as they are.
    let spelt = "use std::fmt;\n\
        pub struct Wrap(pub usize);\n\
        impl fmt::Display for Wrap {\n\
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, \"{}\", self.0) }\n\
        }\n\
        impl From<usize> for Wrap { fn from(n: usize) -> Wrap { Wrap(n) } }\n\
        pub fn sums(n: usize) -> Vec<usize> {\n\
            let mut out: Vec<usize> = Vec::with_capacity(n);\n\
            let first: Option<usize> = (0..n).map(|i| i as usize).next();\n\
            let top = usize::MAX.min(n as usize) as usize + first.unwrap_or(0) as usize;\n\
            for i in 0..top { let v: usize = i as usize * 2usize; out.push(usize::from(v as u8)); }\n\
            let w: Vec<Wrap> = out.iter().map(|&v| Wrap::from(v)).collect::<Vec<Wrap>>();\n\
            let checked: Result<usize, String> = Ok(w.len() as u32 as usize);\n\
            out.push(checked.unwrap_or(0));\n\
            out\n\
        }\n\
        pub fn nest(a: Vec<Vec<u8>>, b: Vec<Vec<u8>>, c: Vec<Vec<u8>>, d: Vec<Vec<u8>>) -> Vec<Vec<u8>> {\n\
            let mut v: Vec<Vec<u8>> = Vec::new(); v.extend(a); v.extend(b); v.extend(c); v.extend(d); v\n\
        }\n";
    let main = "fn main() {\n\
        let s = twixt::spelt::sums(4);\n\
        let n = twixt::spelt::nest(vec![vec![1]], vec![], vec![vec![2, 3]], vec![]);\n\
        print!(\"{:?} {} {:?}\", s, twixt::spelt::Wrap(7), n);\n\
    }\n";
    let dir = mini_with(&[
        ("src/lib.rs", &lib),
        ("src/spelt.rs", spelt),
        ("src/main.rs", main),
    ]);
    let source = bundle_compact(dir.path()).unwrap().source;
    let flat = source.replace('\n', " ");
    let aliases: Vec<String> = flat
        .match_indices("type ")
        .filter_map(|(at, _)| flat[at + 5..].split(';').next())
        .map(|a| a.replace(' ', ""))
        .collect();
    assert!(
        aliases.iter().any(|a| a.ends_with("=usize")),
        "{aliases:?}\n{source}"
    );
    assert!(
        aliases.iter().any(|a| a.ends_with("=Vec<T>")),
        "{aliases:?}\n{source}"
    );
    assert!(source.contains("fmt::Result"), "{source}");
    assert!(
        !source.contains("=u32"),
        "a type spelt once is not worth its alias"
    );
    assert_eq!(
        compile_and_run(&source, &[], &[]),
        "[0, 2, 4, 6, 4] 7 [[1], [2, 3]]"
    );
}
