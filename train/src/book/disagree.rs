//! `twixt-train book disagree`: the positions where the book's deep search and a turn's
//! search of the same position choose different moves, written as a referee openings file.
//! A match of the bot against itself with `--no-book` from them, seats swapped, plays each
//! such entry once by the book and once by the search: the book is worth shipping where it
//! wins that match at the real clock. Where the two agree the book changes nothing.

use super::export;
use super::lines::Line;
use super::search::{read_searched, Record};
use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use twixt::Move;

/// The options of `twixt-train book disagree`.
#[derive(clap::Args, Clone, Debug)]
pub struct DisagreeOptions {
    /// The book's deep searches (`book search`).
    pub deep: PathBuf,
    /// The same positions searched at about a turn's iterations (`book search DEEP -o SHORT
    /// --iterations 20000 --seed 2`): every key of DEEP that passes `--min-share`.
    pub short: PathBuf,
    /// Only the positions whose deep move has at least this share of its search's iterations,
    /// as `export --min-share` ships them.
    #[arg(long, default_value_t = 0.0)]
    pub min_share: f64,
    /// The openings file to write (`twixt-referee match --openings`).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Also write every position where they disagree, after a swap too, as a positions file
    /// (`book search` searches them again: the book made again where a newer search changes it).
    #[arg(long)]
    pub positions: Option<PathBuf>,
}

/// What a comparison found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Disagreement {
    /// The openings file's text: one line of moves a position, its key and both moves after.
    pub openings: String,
    /// Positions compared (the deep move's share at least `--min-share`).
    pub compared: usize,
    /// Of them, where the two searches chose the same move.
    pub agree: usize,
    /// Where they disagree after a swap: the referee starts no bot after a swap.
    pub after_swap: usize,
    /// Every position where they disagree, as lines of a positions file.
    pub positions: String,
}

/// `record`'s move brought into its key's frame (as the book ships it), so that two searches
/// reached by mirrored games compare; the error names `at`.
fn in_key_frame(record: &Record, at: &str) -> Result<Move> {
    export::entry(record.clone(), at.to_string())
        .map(|e| e.mv)
        .map_err(|e| anyhow!("{at}: {e}"))
}

/// Compares the searches of `options`' two files, key by key.
pub fn compare(options: &DisagreeOptions) -> Result<Disagreement> {
    let short: HashMap<String, (usize, Record)> = read_searched(&options.short)?
        .into_iter()
        .map(|(line, r)| (r.key.clone(), (line, r)))
        .collect();
    let mut found = Disagreement::default();
    for (line, deep) in read_searched(&options.deep)? {
        if deep.share < options.min_share {
            continue;
        }
        let at = format!("{}: line {line}", options.deep.display());
        let Some((short_line, turn)) = short.get(&deep.key) else {
            bail!(
                "{at}: {} has no search of key {}",
                options.short.display(),
                deep.key
            );
        };
        let short_at = format!("{}: line {short_line}", options.short.display());
        let deep_move = in_key_frame(&deep, &at)?;
        let turn_move = in_key_frame(turn, &short_at)?;
        found.compared += 1;
        if deep_move == turn_move {
            found.agree += 1;
            continue;
        }
        let line = Line {
            count: deep.count,
            key: deep.key.clone(),
            moves: deep.moves.clone(),
        };
        let _ = writeln!(found.positions, "{line}");
        if deep.moves.iter().any(|m| m == "SWAP") {
            found.after_swap += 1;
        } else {
            let _ = writeln!(
                found.openings,
                "{}  # {}: deep {} ({:.0}%), a turn's {}",
                deep.moves.join(" "),
                deep.key,
                deep.best,
                100.0 * deep.share,
                turn.best
            );
        }
    }
    Ok(found)
}

/// Runs `book disagree`: writes the openings and says what it compared.
pub fn run(options: &DisagreeOptions) -> Result<()> {
    let found = compare(options)?;
    std::fs::write(&options.out, &found.openings)
        .with_context(|| options.out.display().to_string())?;
    if let Some(path) = &options.positions {
        std::fs::write(path, &found.positions).with_context(|| path.display().to_string())?;
        println!(
            "{}: the {} positions where they disagree",
            path.display(),
            found.positions.lines().count()
        );
    }
    println!(
        "{}: {} openings where the searches disagree, of {} positions whose deep move has at \
         least {} of its iterations ({} agree; {} disagree after a swap, left out: the referee \
         starts no bot after a swap)",
        options.out.display(),
        found.openings.lines().count(),
        found.compared,
        options.min_share,
        found.agree,
        found.after_swap
    );
    Ok(())
}
