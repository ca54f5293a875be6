//! What the bundler refuses: anything a single pasted file compiled on CodinGame cannot carry,
//! files it cannot find, and a bundle over CodinGame's 100,000 characters.

mod support;

use support::{bundle_compact, bundle_crate, bundle_error, mini_with};

/// The miniature crate with `extra` appended to a shipped module (search/tree.rs).
fn with_shipped(extra: &str) -> tempfile::TempDir {
    let tree = std::fs::read_to_string(support::mini_dir().join("src/search/tree.rs")).unwrap();
    mini_with(&[("src/search/tree.rs", &format!("{tree}\n{extra}\n"))])
}

#[test]
fn rejects_extern_crates_other_than_std_and_rand() {
    let error = bundle_error(with_shipped("extern crate itertools;").path());
    assert!(error.contains("module twixt::search"), "{error}");
    assert!(error.contains("`extern crate itertools`"), "{error}");
    for allowed in ["std", "core", "alloc", "rand"] {
        let dir = with_shipped(&format!("extern crate {allowed};"));
        assert!(bundle_crate(dir.path()).is_ok(), "extern crate {allowed}");
    }
}

#[test]
fn rejects_paths_into_dependencies_codingame_lacks() {
    for code in [
        "use clap::Parser;",
        "fn f() -> clap::Command { todo!() }",
        "fn f() { let _ = proptest::num::u8::ANY; }",
        "fn f() { let _ = ::anything::X; }",
    ] {
        let error = bundle_error(with_shipped(code).path());
        assert!(
            error.contains("which CodinGame does not ship"),
            "{code}: {error}"
        );
    }
    assert!(bundle_crate(with_shipped("use rand::Rng;").path()).is_ok());
}

#[test]
fn rejects_macros_that_read_the_host() {
    for name in [
        "include_str",
        "include_bytes",
        "env",
        "option_env",
        "include",
    ] {
        let code = format!("const X: &str = concat!(\"a\", {name}!(\"FILE\"));");
        let error = bundle_error(with_shipped(&code).path());
        assert!(error.contains(&format!("`{name}!`")), "{name}: {error}");
    }
}

#[test]
fn rejects_cfg_codingame_in_expressions_which_is_always_false() {
    for code in [
        "pub fn f() -> bool { cfg!(codingame) }",
        "pub fn f() -> bool { cfg!(not(codingame)) }",
        "pub fn f() { println!(\"{}\", cfg!(all(unix, codingame))); }",
    ] {
        let error = bundle_error(with_shipped(code).path());
        assert!(error.contains("`cfg!(codingame)`"), "{code}: {error}");
    }
    assert!(bundle_crate(with_shipped("pub fn f() -> bool { cfg!(unix) }").path()).is_ok());
}

#[test]
fn rejects_derives_from_outside_std() {
    let error = bundle_error(with_shipped("#[derive(Clone, Serialize)] struct S;").path());
    assert!(error.contains("`#[derive(Serialize)]`"), "{error}");
    let error = bundle_error(with_shipped("#[derive(Debug, serde::Deserialize)] struct S;").path());
    assert!(error.contains("`#[derive(Deserialize)]`"), "{error}");
}

#[test]
fn rejects_path_attributes_on_modules() {
    let dir = with_shipped("#[path = \"params.rs\"] mod other;");
    let error = bundle_error(dir.path());
    assert!(error.contains("`#[path]` on module `other`"), "{error}");
}

#[test]
fn rejects_a_module_whose_file_is_missing() {
    let error = bundle_error(with_shipped("mod missing;").path());
    assert!(
        error.contains("cannot find the file of module `missing`"),
        "{error}"
    );
    assert!(
        error.contains("missing.rs") && error.contains("missing/mod.rs"),
        "{error}"
    );
}

#[test]
fn rejects_a_module_with_two_files() {
    let dir = mini_with(&[("src/cell/mod.rs", "pub struct Cell(pub u8);")]);
    let error = bundle_error(dir.path());
    assert!(error.contains("module `cell` is ambiguous"), "{error}");
}

#[test]
fn rejects_a_bundle_over_the_limit() {
    let big = format!("pub const BIG: &str = \"{}\";", "é".repeat(100_000));
    let mini = mini_with(&[(
        "src/search/params.rs",
        &format!("pub const BONUS: u8 = 1;\n{big}"),
    )]);
    let error = match bundle_compact(mini.path()) {
        Ok(_) => panic!("a compact bundle over the limit was written"),
        Err(e) => format!("{e:#}"),
    };
    assert!(
        error.contains("over CodinGame's limit of 100000"),
        "{error}"
    );
    // The readable print is for tracing compile errors, never submitted: it is written.
    assert!(bundle_crate(mini.path()).unwrap().chars() > 100_000);
}

#[test]
fn rejects_a_compact_bundle_whose_modules_cannot_be_made_one() {
    // protocol.rs defines `answer` too; the refusal names it as the crate does, not as the
    // compact print renamed it.
    for (code, reason) in [
        ("pub fn answer() -> u8 { 0 }", "two modules define `answer`"),
        (
            "pub fn twice(x: u8) -> u8 { let answer = x; answer * 2 }",
            "variables are named like the items `answer` (",
        ),
    ] {
        let dir = with_shipped(code);
        let error = match bundle_compact(dir.path()) {
            Ok(_) => panic!("{code}: the compact bundle was written with its modules nested"),
            Err(e) => format!("{e:#}"),
        };
        let expected =
            format!("the library's modules cannot be made one in the compact bundle: {reason}");
        assert!(error.starts_with(&expected), "{code}: {error}");
        // Nested, as the readable print keeps it, the crate is fine.
        assert!(bundle_crate(dir.path()).is_ok(), "{code}");
    }
}

#[test]
fn lists_every_problem_at_once() {
    let error =
        bundle_error(with_shipped("use clap::Parser;\nconst X: &str = env!(\"HOME\");").path());
    assert!(
        error.contains("clap") && error.contains("`env!`"),
        "{error}"
    );
}

#[test]
fn accepts_anything_in_modules_that_do_not_ship() {
    // The miniature's `reference` (clap) and `unused` (include_str!) are never reached.
    assert!(bundle_crate(&support::mini_dir()).is_ok());
    let dir = mini_with(&[(
        "src/unused.rs",
        "extern crate serde; use clap::Parser; mod missing;",
    )]);
    assert!(bundle_crate(dir.path()).is_ok());
}

#[test]
fn accepts_host_macros_in_doc_attributes_which_are_stripped() {
    let dir = with_shipped("#[doc = include_str!(\"../../README.md\")]\npub struct Documented;");
    let bundle = bundle_crate(dir.path()).unwrap();
    assert!(bundle.source.contains("pub struct Documented;"));
    assert!(!bundle.source.contains("include_str"));
}
