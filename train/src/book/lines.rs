//! `twixt-train book lines`: the positions that recorded games reach in their first plies,
//! counted by their book key (`twixt::bot::book::position_key`: a position and its mirror
//! images are one), and the positions file that `book search` reads.

use super::{play_text, replay};
use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use twixt::bot::book::position_key;
use twixt::Position;

/// The options of `twixt-train book lines`.
#[derive(clap::Args, Clone, Debug)]
pub struct LinesOptions {
    /// Results files of twixt-referee (JSON lines: `match --results`, `game --record`).
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// The last ply counted: the positions after 1 to PLIES moves.
    #[arg(long, default_value_t = 6)]
    pub plies: usize,
    /// Fewest games that must reach a position for it to be written.
    #[arg(long, default_value_t = 2)]
    pub min_count: u32,
    /// Count the games that began with an opening (random or book moves the referee played)
    /// too; by default only those the bots played from the empty board.
    #[arg(long)]
    pub with_openings: bool,
    /// The positions file to write: `COUNT KEY MOVES...` a line.
    #[arg(long, short)]
    pub out: PathBuf,
}

/// One position of a positions file: how many games reached it, its key, and the moves by
/// which the first of them did (in that game's frame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Games that reached the position.
    pub count: u32,
    /// Its book key.
    pub key: String,
    /// The first game's moves up to it.
    pub moves: Vec<String>,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.count, self.key, self.moves.join(" "))
    }
}

/// What the records held: every position counted (most frequent first, ties by key), the
/// games counted and those left out for their opening.
#[derive(Debug, Default)]
pub struct Counted {
    /// The positions, with any count.
    pub lines: Vec<Line>,
    /// Games counted.
    pub games: usize,
    /// Games left out because they began with an opening.
    pub left_out: usize,
}

/// Counts, over the games of `records`, the positions after 1 to `plies` moves that are not
/// over (their mover had to choose), by key; a game with an opening only `with_openings`.
pub fn count(records: &[PathBuf], plies: usize, with_openings: bool) -> Result<Counted> {
    let mut found: HashMap<String, Line> = HashMap::new();
    let mut counted = Counted::default();
    for path in records {
        let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
        for (i, row) in text.lines().enumerate() {
            if row.trim().is_empty() {
                continue;
            }
            let at = |e: String| anyhow!("{}: line {}: {e}", path.display(), i + 1);
            let Some(moves) = game_moves(row, with_openings).map_err(at)? else {
                counted.left_out += 1;
                continue;
            };
            counted.games += 1;
            for (key, k) in keys(&moves, plies).map_err(at)? {
                let first = || Line {
                    count: 0,
                    key: key.clone(),
                    moves: moves[..k].to_vec(),
                };
                found.entry(key.clone()).or_insert_with(first).count += 1;
            }
        }
    }
    counted.lines = found.into_values().collect();
    counted
        .lines
        .sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.key.cmp(&b.key)));
    Ok(counted)
}

/// The moves of the game recorded on `row`, or `None` for a game that began with an opening
/// when those are left out.
fn game_moves(row: &str, with_openings: bool) -> Result<Option<Vec<String>>, String> {
    let game: Value =
        serde_json::from_str(row).map_err(|e| format!("not a JSON game record: {e}"))?;
    if !with_openings {
        let opening = game
            .get("opening")
            .ok_or("no \"opening\" count (--with-openings takes every game)")?;
        match opening.as_u64() {
            Some(0) => {}
            Some(_) => return Ok(None),
            None => return Err(format!("\"opening\" is {opening}, not a count")),
        }
    }
    let moves = game
        .get("moves")
        .and_then(Value::as_array)
        .ok_or("no \"moves\" list")?;
    moves
        .iter()
        .map(|m| m.as_str().map(str::to_string))
        .collect::<Option<Vec<_>>>()
        .map(Some)
        .ok_or_else(|| "a move of \"moves\" is not a string".to_string())
}

/// The keys of the positions after 1 to `plies` of `moves` that are not over, each with its
/// ply; an illegal move among them is named by its ply.
fn keys(moves: &[String], plies: usize) -> Result<Vec<(String, usize)>, String> {
    let mut pos = Position::new();
    let mut out = Vec::new();
    for (i, text) in moves.iter().take(plies).enumerate() {
        play_text(&mut pos, text).map_err(|e| format!("ply {}: {e}", i + 1))?;
        let k = i + 1;
        if pos.outcome().is_some() {
            continue;
        }
        if let Some((key, _)) = position_key(&pos) {
            out.push((key, k));
        }
    }
    Ok(out)
}

/// Runs `book lines`: writes the positions reached by at least `--min-count` games.
pub fn run(options: &LinesOptions) -> Result<()> {
    if options.plies < 1 {
        bail!(
            "--plies {}: the book's positions start at ply 1",
            options.plies
        );
    }
    let counted = count(&options.records, options.plies, options.with_openings)?;
    let kept: Vec<&Line> = counted
        .lines
        .iter()
        .filter(|l| l.count >= options.min_count)
        .collect();
    let text: String = kept.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&options.out, text).with_context(|| options.out.display().to_string())?;
    println!(
        "{}: {} positions of {} reached by at least {} games ({} games counted, {} with an \
         opening left out)",
        options.out.display(),
        kept.len(),
        counted.lines.len(),
        options.min_count,
        counted.games,
        counted.left_out
    );
    Ok(())
}

/// Reads a positions file: every line `COUNT KEY MOVES...` whose moves reach a position of
/// that key; a bad line or a key given twice is an error naming the file and line.
pub fn read(path: &Path) -> Result<Vec<Line>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, row) in text.lines().enumerate() {
        if row.trim().is_empty() {
            continue;
        }
        let line = parse(row).map_err(|e| anyhow!("{}: line {}: {e}", path.display(), i + 1))?;
        if let Some(first) = seen.insert(line.key.clone(), i + 1) {
            bail!(
                "{}: line {}: key {} is on line {first} too",
                path.display(),
                i + 1,
                line.key
            );
        }
        out.push(line);
    }
    Ok(out)
}

/// One line of a positions file, checked: its moves are legal and reach its key. A line of a
/// searched file (`book search`'s JSON) gives its count, key and moves, so the positions of
/// one search can be searched again at other settings.
fn parse(row: &str) -> Result<Line, String> {
    if row.trim_start().starts_with('{') {
        return parse_searched(row);
    }
    let mut words = row.split_whitespace();
    let count = words.next().unwrap_or_default();
    let count: u32 = count
        .parse()
        .map_err(|_| format!("'{count}' is not a count (a line is COUNT KEY MOVES...)"))?;
    let key = words
        .next()
        .ok_or("no key (a line is COUNT KEY MOVES...)")?;
    let moves: Vec<String> = words.map(str::to_string).collect();
    checked(count, key, moves)
}

/// A searched file's line as a position: its `count`, `key` and `moves`.
fn parse_searched(row: &str) -> Result<Line, String> {
    let r = super::search::parse_record(row)?;
    checked(r.count, &r.key, r.moves)
}

/// The line of `count`, `key` and `moves`, where the moves are legal and reach that key.
fn checked(count: u32, key: &str, moves: Vec<String>) -> Result<Line, String> {
    let pos = replay(&moves)?;
    match position_key(&pos) {
        Some((k, _)) if k == key => Ok(Line {
            count,
            key: key.to_string(),
            moves,
        }),
        Some((k, _)) => Err(format!("the moves reach key {k}, not {key}")),
        None => Err(format!(
            "the moves reach a position the book cannot key, not {key}"
        )),
    }
}
