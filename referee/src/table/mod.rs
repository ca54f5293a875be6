//! `twixt-referee table`: `docs/STRENGTH.md` made from the [`index`] of matches and their
//! records, so that every figure there is either computed from committed games ([`figures`])
//! or kept, marked, as it was reported. [`markdown`] writes the page; `--check` says whether
//! the committed page is what the index makes (a test runs it); [`add`] puts a new match's
//! results file into the index.

pub mod add;
pub mod figures;
pub mod index;
pub mod markdown;

use anyhow::{Context, Result};
use figures::Figures;
use index::{folder_of, Index};
use markdown::Row;
use std::path::{Path, PathBuf};

/// The options of `twixt-referee table`.
#[derive(Clone, Debug, clap::Args)]
pub struct TableArgs {
    /// The index of matches, e.g. docs/matches/index.toml.
    pub index: PathBuf,
    /// The page to write.
    #[arg(short, long, default_value = "docs/STRENGTH.md")]
    pub output: PathBuf,
    /// Write nothing; exit 1 with a summary of the differences when the page is not what the
    /// index and the records make.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub add: add::AddArgs,
}

/// Runs `table`: 0 when the page was written or is up to date, 1 when `--check` found it
/// differs.
pub fn run(args: &TableArgs) -> Result<i32> {
    let path = &args.index;
    let mut text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let adding = !args.add.files.is_empty();
    if adding {
        anyhow::ensure!(
            !args.check,
            "--check writes nothing, --add writes the index"
        );
        text = add::append(&text, &Index::parse(&text, path)?, &args.add)?;
    }
    let index = Index::parse(&text, path)?;
    let page = make_page(&index, &args.output)?;
    if args.check {
        return Ok(check(path, &args.output, &page));
    }
    if adding {
        write(path, &text)?;
    }
    write(&args.output, &page)?;
    let recorded = index.entries.iter().filter(|e| !e.records.is_empty());
    println!(
        "{}: {} matches, {} of them from their records",
        args.output.display(),
        index.entries.len(),
        recorded.count()
    );
    Ok(0)
}

/// The page the index and its records make, its links relative to `output`'s folder.
pub fn make_page(index: &Index, output: &Path) -> Result<String> {
    let rows = index
        .entries
        .iter()
        .map(|entry| {
            row(index, entry)
                .with_context(|| format!("{}: match {:?}", index.path.display(), entry.id))
        })
        .collect::<Result<Vec<Row>>>()?;
    let history = match &index.history {
        Some(p) => std::fs::read_to_string(p).with_context(|| p.display().to_string())?,
        None => String::new(),
    };
    Ok(markdown::page(index, &rows, &history, folder_of(output)))
}

/// An entry with its figures, computed from its records when it names them.
fn row<'a>(index: &Index, entry: &'a index::Entry) -> Result<Row<'a>> {
    if entry.records.is_empty() {
        return Ok(Row {
            entry,
            figures: None,
        });
    }
    let files: Vec<PathBuf> = entry.records.iter().map(|r| index.record_path(r)).collect();
    let figures = Figures::of_files(&files, entry.sprt()?.as_ref())?;
    Ok(Row {
        entry,
        figures: Some(figures),
    })
}

/// Compares the page on disk with the one made; prints what differs and returns 1 if they do.
fn check(index: &Path, output: &Path, made: &str) -> i32 {
    let on_disk = std::fs::read_to_string(output).unwrap_or_default();
    match difference(&on_disk, made) {
        None => 0,
        Some(summary) => {
            eprintln!(
                "{} is not what the index and the records make: {summary}\n\
                 Write it again with `twixt-referee table {} -o {}`.",
                output.display(),
                index.display(),
                output.display()
            );
            1
        }
    }
}

/// How two texts differ, line by line: how many lines, and the first such line of each.
fn difference(old: &str, new: &str) -> Option<String> {
    if old == new {
        return None;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let differing = (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .collect::<Vec<_>>();
    let Some(&first) = differing.first() else {
        return Some("only their line endings differ".into());
    };
    let show = |l: Option<&&str>| l.map_or("(none)".to_string(), |s| clip(s));
    Some(format!(
        "{} of {} lines differ ({} in the file, {} made); the first at line {}:\n  file: {}\n  made: {}",
        differing.len(),
        a.len().max(b.len()),
        a.len(),
        b.len(),
        first + 1,
        show(a.get(first)),
        show(b.get(first))
    ))
}

/// A line cut to 160 characters for a message.
fn clip(line: &str) -> String {
    match line.char_indices().nth(160) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_names_its_first_line_and_counts_the_rest() {
        assert_eq!(difference("a\nb\n", "a\nb\n"), None);
        let d = difference("a\nb\nc\n", "a\nB\nc\nd\n").unwrap();
        assert_eq!(
            d,
            "2 of 4 lines differ (3 in the file, 4 made); the first at line 2:\n  file: b\n  made: B"
        );
        assert_eq!(
            difference("a\n", "a").unwrap(),
            "only their line endings differ"
        );
    }
}
