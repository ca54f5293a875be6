//! `docs/STRENGTH.md` is what `twixt-referee table docs/matches/index.toml` makes from the index
//! of matches and their records: a match added to the index, a record or the history page
//! changed without writing the page again fails here; and `--check` says where a page differs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn referee(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("twixt-referee runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_strength_page_is_what_the_index_and_the_records_make() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out = referee(root, &["table", "docs/matches/index.toml", "--check"]);
    assert!(
        out.status.success(),
        "{}\nrun `target/release/twixt-referee table docs/matches/index.toml` and commit docs/STRENGTH.md",
        text(&out.stderr)
    );
}

/// A folder with an index of one match whose figures are as reported.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("twixt-table-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let entry = r#"[[match]]
id = "1"
date = 2026-11-21
a = "rave_k=500"
b = "plain UCT"
openings = "random pegs 2"
clock = "60 ms a turn"
what = "RAVE against plain UCT."
as_run = "twixt-referee match A B"
reported = { games = 300, elo = "+49.0 ± 36.6", verdict = "no bound" }
"#;
    std::fs::write(dir.join("index.toml"), entry).unwrap();
    dir
}

#[test]
fn a_page_that_differs_is_named_with_its_first_differing_line() {
    let dir = scratch("stale");
    let written = referee(&dir, &["table", "index.toml", "-o", "page.md"]);
    assert!(written.status.success(), "{}", text(&written.stderr));
    let fresh = referee(&dir, &["table", "index.toml", "-o", "page.md", "--check"]);
    assert_eq!(fresh.status.code(), Some(0));
    let page = std::fs::read_to_string(dir.join("page.md")).unwrap();
    std::fs::write(dir.join("page.md"), page.replace("*300*", "*301*")).unwrap();
    let stale = referee(&dir, &["table", "index.toml", "-o", "page.md", "--check"]);
    assert_eq!(stale.status.code(), Some(1));
    let err = text(&stale.stderr);
    assert!(
        err.contains("page.md is not what the index and the records make: 1 of 31 lines differ"),
        "{err}"
    );
    assert!(
        err.contains("`twixt-referee table index.toml -o page.md`"),
        "{err}"
    );
    assert!(err.contains("*301*") && err.contains("*300*"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_record_file_is_named_with_its_match() {
    let dir = scratch("missing");
    let index = std::fs::read_to_string(dir.join("index.toml")).unwrap();
    let recorded = index.replace("reported = ", "records = [\"gone.jsonl\"]\n# ");
    std::fs::write(dir.join("index.toml"), recorded).unwrap();
    let out = referee(&dir, &["table", "index.toml", "-o", "page.md"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("twixt-referee: index.toml: match \"1\": ./gone.jsonl: "),
        "{err}"
    );
    assert!(!dir.join("page.md").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
