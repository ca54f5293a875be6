//! The README and the guides stay true: the README short, its layout section naming what the
//! tree holds and every binary of the workspace named; the defaults the bot's guide quotes
//! equal to the code's; every link between the docs leading to a file that is there.

use std::path::Path;
use twixt::bot::args::{CLOCK_MS, FIRST_CLOCK_MS, FIRST_THINK_MS, THINK_MS};
use twixt::search::params::Params;

/// The longest the README may grow: it opens the project and points to the guides.
const MAX_LINES: usize = 150;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    read("README.md")
}

/// The text of a file of the repository.
fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The guide to the bot, which quotes its options' defaults.
fn bot_guide() -> String {
    read("docs/BOT.md")
}

/// The text from `heading` to the next `## ` heading.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text.find(heading).unwrap_or_else(|| panic!("no {heading}"));
    let rest = &text[start + heading.len()..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

/// The names of the entries of `dir` (relative to the root), but build output.
fn entries(dir: &str) -> Vec<String> {
    // What a clone never holds: git's own folder and the root's ignored paths (`/target`).
    let gitignore = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    let ignored: Vec<String> = gitignore
        .lines()
        .filter_map(|l| l.strip_prefix('/'))
        .map(|l| format!("./{l}"))
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".git" && !ignored.contains(&format!("{dir}/{n}")))
        .collect();
    names.sort();
    names
}

/// The workspace's members, as its Cargo.toml lists them.
fn members() -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("members"))
        .expect("a members list");
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The words of a text as names: split at whitespace and `/`, outer punctuation dropped.
fn words(text: &str) -> std::collections::BTreeSet<&str> {
    text.split(|c: char| c.is_whitespace() || c == '/')
        .map(|w| w.trim_matches(|c: char| "`,;:()'\"".contains(c)))
        .collect()
}

#[test]
fn the_readme_is_short_and_names_every_binary() {
    let text = readme();
    let lines = text.lines().count();
    assert!(lines <= MAX_LINES, "README.md has {lines} lines");
    for member in members() {
        let manifest = std::fs::read_to_string(root().join(member).join("Cargo.toml")).unwrap();
        let bins = manifest.split("[[bin]]").skip(1);
        for bin in bins.map(|b| b.lines().find(|l| l.starts_with("name")).unwrap()) {
            let name = bin.split('"').nth(1).unwrap();
            assert!(text.contains(&format!("`{name}`")), "{name} is not named");
        }
    }
    let two = section(&text, "## Two commands");
    assert!(two.contains("\n    cargo test\n"), "{two}");
    assert!(two.contains("twixt-referee game"), "{two}");
}

#[test]
fn the_layout_names_what_the_tree_holds() {
    let text = readme();
    let layout = words(section(&text, "## Layout"));
    let mut missing = Vec::new();
    for member in members().iter().filter(|m| *m != ".") {
        if !layout.contains(member.as_str()) {
            missing.push(member.clone());
        }
    }
    let dirs = [
        ".",
        ".ci",
        "src",
        "src/search",
        "src/knowledge",
        "src/bot",
        "tests",
        "docs",
        "scripts",
    ];
    for dir in dirs {
        for name in entries(dir) {
            if !layout.contains(name.as_str()) {
                missing.push(format!("{dir}/{name}"));
            }
        }
    }
    assert!(missing.is_empty(), "not in the layout: {missing:?}");
}

#[test]
fn the_defaults_quoted_are_the_code_s() {
    let text = bot_guide();
    let row = |flags: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("| {flags} |")))
            .unwrap_or_else(|| panic!("no row for {flags}"))
    };
    let think = row("`--think-ms N`, `--first-think-ms N`");
    for ms in [THINK_MS, FIRST_THINK_MS] {
        assert!(think.contains(&format!("(default {ms} ms)")), "{think}");
    }
    let clock = row("`--clock-ms N`, `--first-clock-ms N`");
    assert!(
        clock.contains(&format!("{CLOCK_MS} and {FIRST_CLOCK_MS} ms")),
        "{clock}"
    );
}

/// The search's weights the bot's guide quotes as "`name`, 0.40" (two decimals) are the
/// defaults'.
#[test]
fn the_mixes_quoted_are_the_defaults() {
    let text = bot_guide().split_whitespace().collect::<Vec<_>>().join(" ");
    let defaults = Params::default();
    for (name, value) in [
        ("value_mix", defaults.value_mix),
        ("minimax", defaults.minimax),
    ] {
        let key = format!("`{name}`, ");
        let at = text
            .find(&key)
            .unwrap_or_else(|| panic!("docs/BOT.md quotes no {key}"));
        let quoted: String = text[at + key.len()..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        assert_eq!(quoted, format!("{value:.2}"), "{name}");
    }
}

/// The targets of a Markdown text's inline links (`[text](target)`), without their anchors.
fn link_targets(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|t| t.split('#').next().unwrap_or(t))
        .collect()
}

/// Every link of the README and of `docs/*.md` to a file of the repository leads to one that
/// is there: a guide merged into another or renamed leaves no dead link behind.
#[test]
fn every_link_between_the_docs_resolves() {
    let mut pages = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().map_or(false, |e| e == "md") {
            pages.push(path);
        }
    }
    let mut dead = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        for target in link_targets(&text) {
            let outside = target.contains("://") || target.starts_with("mailto:");
            if !outside && !target.is_empty() && !dir.join(target).exists() {
                dead.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(pages.len() > 5, "{pages:?}");
    assert!(dead.is_empty(), "links to no file: {dead:?}");
}
