//! `twixt-train book export`: the engine module that ships the book
//! (`src/bot/book_moves.rs`), from searched positions, each entry checked by the engine's own
//! lookup before anything is written.

use super::replay;
use super::search::{read_searched, Record};
use anyhow::{anyhow, bail, Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use twixt::bot::book::{entry as book_entry, lookup_in, position_key, readable};
use twixt::{Move, Position};

/// Where the engine keeps the book's entries, under the workspace root.
pub const MODULE: &str = "src/bot/book_moves.rs";

/// The options of `twixt-train book export`.
#[derive(clap::Args, Clone, Debug)]
pub struct ExportOptions {
    /// Searched files (`twixt-train book search`), newest first: a key searched in several
    /// is the first one's.
    #[arg(required = true)]
    pub searched: Vec<PathBuf>,
    /// Leave out the positions whose best move has less than this share of the search's
    /// iterations (in [0, 1]).
    #[arg(long, default_value_t = 0.0)]
    pub min_share: f64,
    /// The module to write.
    #[arg(long, short, default_value = MODULE)]
    pub out: PathBuf,
}

/// One entry of the book with where it came from.
pub(super) struct Entry {
    /// The position its moves reach.
    pos: Position,
    /// The searched move, in the game's frame.
    best: Move,
    /// The move in the key's frame (a swap is one in every frame).
    pub(super) mv: Move,
    /// The searched record.
    record: Record,
    /// `FILE: line N`.
    at: String,
}

/// The entry a record gives: its move brought into its key's frame.
pub(super) fn entry(record: Record, at: String) -> Result<Entry, String> {
    let pos = replay(&record.moves)?;
    let (key, frame) =
        position_key(&pos).ok_or("the moves reach a position the book cannot key")?;
    if key != record.key {
        return Err(format!("the moves reach key {key}, not {}", record.key));
    }
    let best = record
        .best
        .parse::<Move>()
        .map_err(|_| format!("best move '{}' is not a move", record.best))?;
    Ok(Entry {
        pos,
        best,
        mv: best.mirrored(frame),
        record,
        at,
    })
}

/// The entries of `files` (relative ones under `root`) whose best move's share is at least
/// `min_share`, by key. A key searched in several files is the first file's: newer searches
/// are listed first and replace older ones, a low share included (the key then leaves the
/// book). A bad line, or a key that one file gives two moves, is an error naming the lines.
fn entries(files: &[PathBuf], root: &Path, min_share: f64) -> Result<BTreeMap<String, Entry>> {
    let mut book: BTreeMap<String, Entry> = BTreeMap::new();
    // The file that decides each key seen so far.
    let mut decided: BTreeMap<String, usize> = BTreeMap::new();
    for (file, path) in files.iter().map(|f| root.join(f)).enumerate() {
        for (line, record) in read_searched(&path)? {
            let at = format!("{}: line {line}", path.display());
            if *decided.entry(record.key.clone()).or_insert(file) != file {
                continue;
            }
            if record.share < min_share {
                continue;
            }
            let e = entry(record, at.clone()).map_err(|e| anyhow!("{at}: {e}"))?;
            if let Some(old) = book.get(&e.record.key) {
                if old.mv != e.mv {
                    bail!(
                        "{at}: key {} has move {} in its frame, {} has {}",
                        e.record.key,
                        e.mv,
                        old.at,
                        old.mv
                    );
                }
                continue;
            }
            book.insert(e.record.key.clone(), e);
        }
    }
    Ok(book)
}

/// The `BOOK` string of `book`: its entries sorted by key, as the engine writes them
/// (`twixt::bot::book::entry`).
fn book_text(book: &BTreeMap<String, Entry>) -> Result<String> {
    let mut text = String::new();
    for e in book.values() {
        let written = book_entry(&e.pos, e.best).ok_or_else(|| anyhow!("{}: no key", e.at))?;
        text.push_str(&written);
    }
    Ok(text)
}

/// Checks that the engine's lookup finds each entry's searched move in `text`.
fn check(text: &str, book: &BTreeMap<String, Entry>) -> Result<()> {
    for e in book.values() {
        let expected = e.best;
        let found = lookup_in(text, &e.pos);
        if found != Some(expected) {
            let found = found.map_or("nothing".to_string(), |m| m.to_string());
            bail!(
                "{}: the engine's lookup of {} gives {found}, not the searched {expected}",
                e.at,
                e.record.key
            );
        }
    }
    Ok(())
}

/// The text of the module holding `text`, made by `command`, its entries as `summary`
/// says; a comment lists them as host tools write them (`F6G8/E8=D6`), eight a line.
pub fn module(text: &str, command: &str, summary: &str) -> String {
    let written = readable(text).expect("the engine's own entries");
    let lines: Vec<String> = written
        .chunks(8)
        .map(|row| format!("// {}\n", row.join(" ")))
        .collect();
    format!(
        "//! The book's entries (`super::book`): {summary}.\n\
         //! Generated by `{command}`: do not edit.\n\
         \n\
         // The entries, each `KEY=MOVE` in the key's frame:\n\
         {}\n\
         /// The entries in the book's alphabet (`super::book`).\n\
         pub const BOOK: &str = \"{text}\";\n",
        lines.concat()
    )
}

/// The command line that `options` spell, for the module's header.
fn command(options: &ExportOptions) -> String {
    let mut words = vec!["twixt-train book export".to_string()];
    words.extend(options.searched.iter().map(|p| p.display().to_string()));
    if options.min_share > 0.0 {
        words.push(format!("--min-share {}", options.min_share));
    }
    words.join(" ")
}

/// The book that `options` ask for, every entry checked by the engine's lookup.
pub struct Exported {
    /// The module's text.
    pub module: String,
    /// Its entries.
    pub entries: usize,
    /// The `BOOK` string's length in UTF-16 units, as CodinGame counts.
    pub units: usize,
}

/// The book module of `options`' searched files, relative ones read under `root` (named in
/// the module's header as given, as `book export` run from `root` writes them).
pub fn export(options: &ExportOptions, root: &Path) -> Result<Exported> {
    if !(0.0..=1.0).contains(&options.min_share) {
        bail!("--min-share {} is not in [0, 1]", options.min_share);
    }
    let book = entries(&options.searched, root, options.min_share)?;
    let text = book_text(&book)?;
    check(&text, &book)?;
    let counts: BTreeSet<u64> = book.values().map(|e| e.record.iterations).collect();
    let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
    let summary = match book.len() {
        0 => "no position".to_string(),
        1 => format!("1 position searched at {} iterations", counts.join(", ")),
        n => format!("{n} positions searched at {} iterations", counts.join(", ")),
    };
    Ok(Exported {
        module: module(&text, &command(options), &summary),
        entries: book.len(),
        units: text.encode_utf16().count(),
    })
}

/// Runs `book export`: writes the module if every entry checks.
pub fn run(options: &ExportOptions) -> Result<()> {
    let book = export(options, Path::new(""))?;
    let out = &options.out;
    std::fs::write(out, &book.module).with_context(|| out.display().to_string())?;
    println!(
        "{}: {} entries, BOOK {} UTF-16 units",
        out.display(),
        book.entries,
        book.units
    );
    Ok(())
}
