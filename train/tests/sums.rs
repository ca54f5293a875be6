//! The committed data sets and models are the bytes their recipes made (`docs/DATA.md`):
//! `SHA256SUMS`, at the repository's root in `sha256sum`'s format, lists every one with its
//! sha256, and this test names each file whose bytes differ from its sum, each listed file
//! that is missing, and each data file that is not listed, so new data cannot slip in
//! unchecked. `sha256sum -c SHA256SUMS` checks the sums without a build.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use twixt_host::sum::sha256_file;

/// The sums file, at the repository's root.
const SUMS: &str = "SHA256SUMS";

/// The folders whose files are data: every file under them but those whose names end in
/// [`NOT_DATA`]. [`UPDATE`] lists the same files.
const FOLDERS: [&str; 6] = [
    "train/data",
    "train/models",
    "docs/openings",
    "docs/tuning",
    "docs/matches",
    "fixtures/losses",
];

/// Prose beside the data (`README.md`) and the hand-written index of the matches
/// (`docs/matches/index.toml`).
const NOT_DATA: [&str; 2] = [".md", ".toml"];

/// The command, run at the repository's root, that writes `SHA256SUMS` from the files as they
/// are.
const UPDATE: &str = "find train/data train/models docs/openings docs/tuning docs/matches \
    fixtures/losses -type f ! -name '*.md' ! -name '*.toml' | LC_ALL=C sort | xargs sha256sum \
    > SHA256SUMS";

/// Every data file under `dir` (a path from `root`), as a path from `root` with `/` between
/// names.
fn data_files(root: &Path, dir: &str, out: &mut BTreeSet<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(root.join(dir))? {
        let entry = entry?;
        let name = format!("{dir}/{}", entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            data_files(root, &name, out)?;
        } else if !NOT_DATA.iter().any(|end| name.ends_with(end)) {
            out.insert(name);
        }
    }
    Ok(())
}

/// The entries of a sums file, path to sum; each line that is not `SHA256  PATH`, or lists a
/// path again, is a problem.
fn entries(text: &str, problems: &mut Vec<String>) -> BTreeMap<String, String> {
    let mut sums = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let entry = line.split_once("  ").filter(|(sum, path)| {
            sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit()) && !path.is_empty()
        });
        let Some((sum, path)) = entry else {
            problems.push(format!(
                "{SUMS} line {}: not `SHA256  PATH`: {line:?}",
                i + 1
            ));
            continue;
        };
        if sums
            .insert(path.to_string(), sum.to_ascii_lowercase())
            .is_some()
        {
            problems.push(format!("{SUMS} line {}: {path} is listed again", i + 1));
        }
    }
    sums
}

/// What is wrong with the data under `root` against its sums file, one line a file.
fn problems(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let text = match std::fs::read_to_string(root.join(SUMS)) {
        Ok(text) => text,
        Err(e) => return vec![format!("{SUMS}: {e}")],
    };
    let sums = entries(&text, &mut problems);
    let mut files = BTreeSet::new();
    for dir in FOLDERS {
        if let Err(e) = data_files(root, dir, &mut files) {
            problems.push(format!("{dir}: {e}"));
        }
    }
    let unlisted = files.iter().filter(|f| !sums.contains_key(*f));
    problems.extend(unlisted.map(|f| format!("{f}: data, but not listed in {SUMS}")));
    for (path, sum) in &sums {
        let file = root.join(path);
        if !file.exists() {
            problems.push(format!("{path}: listed in {SUMS}, but missing"));
        } else if !files.contains(path) {
            problems.push(format!(
                "{path}: listed in {SUMS}, but not a data file (not in {FOLDERS:?}, or a {NOT_DATA:?})"
            ));
        } else {
            match sha256_file(&file) {
                Err(e) => problems.push(format!("{path}: {e:#}")),
                Ok(actual) if actual != *sum => {
                    problems.push(format!("{path}: its sha256 is {actual}, {SUMS} says {sum}"))
                }
                Ok(_) => {}
            }
        }
    }
    problems
}

#[test]
fn every_committed_data_file_has_the_sum_listed_for_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let problems = problems(&root);
    assert!(
        problems.is_empty(),
        "{} problems with the data against {SUMS}:\n  {}\nWhere the data was changed on \
         purpose (new or remade, docs/DATA.md), write the sums again at the repository's \
         root:\n  {UPDATE}",
        problems.len(),
        problems.join("\n  ")
    );
}

/// The check itself, on a small tree: a flipped byte, a missing file, an unlisted one and a
/// bad line are each named; prose and the index are not data.
#[test]
fn a_flipped_byte_a_missing_file_and_unlisted_data_are_each_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for folder in FOLDERS {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    let write = |path: &str, bytes: &[u8]| std::fs::write(root.join(path), bytes).unwrap();
    write("train/models/value.txt", b"weights\n");
    write("docs/matches/a.jsonl", b"{}\n");
    write("docs/matches/index.toml", b"[[match]]\n");
    write("fixtures/losses/README.md", b"# losses\n");
    let sum = |path: &str| sha256_file(&root.join(path)).unwrap();
    let listing = format!(
        "{}  docs/matches/a.jsonl\n{}  train/models/value.txt\n",
        sum("docs/matches/a.jsonl"),
        sum("train/models/value.txt")
    );
    write(SUMS, listing.as_bytes());
    assert_eq!(problems(root), Vec::<String>::new());

    write("train/models/value.txt", b"weighus\n");
    std::fs::remove_file(root.join("docs/matches/a.jsonl")).unwrap();
    write("train/data/new.zst", b"games");
    write(SUMS, format!("{listing}not a sum\n").as_bytes());
    let found = problems(root);
    let expected = [
        "SHA256SUMS line 3: not `SHA256  PATH`: \"not a sum\"",
        "train/data/new.zst: data, but not listed in SHA256SUMS",
        "docs/matches/a.jsonl: listed in SHA256SUMS, but missing",
        "train/models/value.txt: its sha256 is ",
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (line, start) in found.iter().zip(expected) {
        assert!(line.starts_with(start), "{line:?} for {start:?}");
    }
}
