//! `twixt-train book search`: each position of a positions file searched by the engine's
//! own `Searcher` at a fixed number of iterations (the same answer for the same seed), one
//! JSON line a position in the file's order, resumable.

use super::lines::{self, Line};
use super::replay;
use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Instant;
use twixt::knowledge::network::Network;
use twixt::knowledge::Policy;
use twixt::position::last_pegs;
use twixt::search::params::Params;
use twixt::search::{Limits, Report, RootMove, Searcher};
use twixt::{Move, Position};
use twixt_host::progress;

/// The most visited root moves a searched line keeps.
pub const TOP: usize = 5;

/// The options of `twixt-train book search`.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchOptions {
    /// The positions file (`twixt-train book lines`).
    pub positions: PathBuf,
    /// The JSON lines file to write; an existing one is resumed (its keys are not searched
    /// again).
    #[arg(long, short)]
    pub out: PathBuf,
    /// MCTS iterations of each search, exactly. The tree holds `max_nodes` nodes (4,000,000
    /// by default, 24 bytes each), and stops growing when full: a deep search wants
    /// `--set max_nodes=16000000` (384 MB a thread) or more (1,280,000 iterations filled
    /// 32,000,000 nodes at ply 1).
    #[arg(long)]
    pub iterations: u64,
    /// The seed of every search (the same seed, iterations and parameters give the same
    /// answers).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions searched at once, one search each.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A search parameter (repeatable), as `twixt-bot --set`.
    #[arg(long, value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

impl SearchOptions {
    /// The search's parameters: the bot's defaults with each `--set` applied as the bot does.
    pub fn params(&self) -> Result<Params> {
        let mut params = Params::default();
        for pair in &self.set {
            twixt::bot::args::set_param(&mut params, Some(pair.clone()))
                .map_err(anyhow::Error::msg)?;
        }
        Ok(params)
    }
}

/// A searched line as its JSON line holds it (what `export` and a resumed search read).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The position's book key.
    pub key: String,
    /// The moves that reach it, in the game's frame.
    pub moves: Vec<String>,
    /// Games that reached it (the positions file's count).
    pub count: u32,
    /// Iterations of the search.
    pub iterations: u64,
    /// Its seed.
    pub seed: u64,
    /// The search's move, in the game's frame.
    pub best: String,
    /// The move's visits over the iterations (1 for a move the tactics found).
    pub share: f64,
}

/// Rounds `x` to 4 decimals, for the file.
fn rounded(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The position `line` reaches, refused where the book would never look it up: one that is
/// over. (A position where player 1 may swap is searched with the swap among its moves.)
pub fn position(line: &Line) -> Result<Position> {
    let pos = replay(&line.moves).map_err(|e| anyhow!("position {}: {e}", line.key))?;
    if pos.outcome().is_some() {
        bail!(
            "position {} ({}): the game is over",
            line.key,
            line.moves.join(" ")
        );
    }
    Ok(pos)
}

/// Searches `line`'s position with a new `Searcher` of `params` and `seed` at exactly
/// `iterations`, the last two pegs of its moves as the search's history (as the bot has
/// them): its JSON line, and whether the tree filled up.
pub fn search(line: &Line, params: &Params, iterations: u64, seed: u64) -> Result<(String, bool)> {
    let pos = position(line)?;
    let moves: Vec<Move> = line
        .moves
        .iter()
        .map(|m| m.parse().expect("replayed"))
        .collect();
    let mut searcher = Searcher::new(params.clone(), seed);
    searcher.set_history(last_pegs(&moves));
    let limits = Limits {
        soft_deadline: None,
        hard_deadline: None,
        iterations: Some(iterations),
    };
    let report = searcher
        .choose(&pos, &limits)
        .expect("the game is not over");
    let filled = report.nodes + 256 > params.max_nodes;
    Ok((json_line(line, &report, iterations, seed), filled))
}

/// The JSON line of `line` searched at `iterations` and `seed` with `report`, its fields in
/// the order `key`, `moves`, `count`, `iterations`, `seed`, `best`, `value`, `share`, `top`.
fn json_line(line: &Line, report: &Report, iterations: u64, seed: u64) -> String {
    let mut top: Vec<RootMove> = report.root.clone();
    top.sort_by_key(|r| std::cmp::Reverse(r.visits));
    top.truncate(TOP);
    // The best move's own visits (the report's count includes the prior's virtual visits);
    // a move the tactics found has no search behind it, and is sure.
    let share = match report.root.iter().find(|r| r.mv == report.best) {
        Some(r) => f64::from(r.visits) / iterations as f64,
        None => 1.0,
    };
    let top: Vec<Value> = top
        .iter()
        .map(|r| json!([r.mv.to_string(), r.visits, rounded(f64::from(r.value))]))
        .collect();
    let fields: [(&str, Value); 9] = [
        ("key", json!(line.key)),
        ("moves", json!(line.moves)),
        ("count", json!(line.count)),
        ("iterations", json!(iterations)),
        ("seed", json!(seed)),
        ("best", json!(report.best.to_string())),
        ("value", json!(rounded(f64::from(report.value)))),
        ("share", json!(rounded(share))),
        ("top", json!(top)),
    ];
    // Written field by field: serde_json's maps sort their keys.
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
    format!("{{{}}}", body.join(","))
}

/// Reads one JSON line of a searched file.
pub fn parse_record(row: &str) -> Result<Record, String> {
    let v: Value = serde_json::from_str(row).map_err(|e| format!("not a JSON line: {e}"))?;
    let text = |name: &str| {
        v.get(name)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or(format!("no \"{name}\" string"))
    };
    let number = |name: &str| {
        v.get(name)
            .and_then(Value::as_u64)
            .ok_or(format!("no \"{name}\" count"))
    };
    let moves = v
        .get("moves")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(|m| m.as_str().map(str::to_string)).collect())
        .ok_or("no \"moves\" list of strings")?;
    Ok(Record {
        key: text("key")?,
        moves,
        count: number("count")?
            .try_into()
            .map_err(|_| "\"count\" is not a count of games")?,
        iterations: number("iterations")?,
        seed: number("seed")?,
        best: text("best")?,
        share: v
            .get("share")
            .and_then(Value::as_f64)
            .ok_or("no \"share\" number")?,
    })
}

/// The lines of a searched file with their line numbers; a bad line is an error naming the
/// file and line.
pub fn read_searched(path: &Path) -> Result<Vec<(usize, Record)>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    searched_lines(&text, path)
}

/// The lines of `text`, the searched file `path` holds, with their line numbers.
fn searched_lines(text: &str, path: &Path) -> Result<Vec<(usize, Record)>> {
    let mut out = Vec::new();
    for (i, row) in text.lines().enumerate() {
        if row.trim().is_empty() {
            continue;
        }
        let record =
            parse_record(row).map_err(|e| anyhow!("{}: line {}: {e}", path.display(), i + 1))?;
        out.push((i + 1, record));
    }
    Ok(out)
}

/// The keys an existing searched file holds, each searched at `iterations` and `seed`; a
/// torn last line (no newline) is cut, any other bad line is an error naming file and line.
fn done(path: &Path, iterations: u64, seed: u64) -> Result<HashSet<String>> {
    if !path.exists() {
        return Ok(HashSet::new());
    }
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        eprintln!("{}: cutting a torn last line", path.display());
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(whole as u64)
            .with_context(|| path.display().to_string())?;
    }
    let mut keys = HashSet::new();
    for (line, r) in searched_lines(&text[..whole], path)? {
        if (r.iterations, r.seed) != (iterations, seed) {
            bail!(
                "{}: line {line}: searched at {} iterations, seed {}, not {iterations}, seed \
                 {seed} (write another file)",
                path.display(),
                r.iterations,
                r.seed
            );
        }
        keys.insert(r.key);
    }
    Ok(keys)
}

/// Runs `book search`: searches the positions the output lacks and appends their lines in
/// the positions file's order, whatever order the threads end them in.
pub fn run(options: &SearchOptions) -> Result<()> {
    if options.iterations == 0 {
        bail!("--iterations 0: a search needs at least one iteration");
    }
    let params = options.params()?;
    crate::selfplay::teacher_knowledge(
        &params,
        Policy::shipped().map(drop),
        Network::shipped().map(drop),
    )?;
    let max_nodes = params.max_nodes;
    let (todo, total) = todo(options)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&options.out)
        .with_context(|| options.out.display().to_string())?;
    let bar = progress::bar(total, total - todo.len() as u64, "positions");
    let (tx, rx) = mpsc::channel();
    let workers = spawn(options, params, todo.clone(), tx);
    let start = Instant::now();
    let full = write_in_order(rx, &mut file, options, |written| {
        let rate = (written as u64 * options.iterations) as f64 / start.elapsed().as_secs_f64();
        progress::note(&bar, &format!("{rate:.0} iterations/s"));
        bar.inc(1);
    })?;
    workers
        .into_iter()
        .for_each(|w| w.join().expect("a search thread"));
    bar.finish();
    if full > 0 {
        eprintln!(
            "{full} of {} searches filled their tree (max_nodes {max_nodes}): the tree stopped \
             growing; a larger --set max_nodes (at most 40000000, 24 bytes a node) lets it grow",
            todo.len()
        );
    }
    Ok(())
}

/// The positions of `options.positions` that the output lacks, each checked searchable,
/// and how many the positions file holds.
fn todo(options: &SearchOptions) -> Result<(Vec<Line>, u64)> {
    let all = lines::read(&options.positions)?;
    let done = done(&options.out, options.iterations, options.seed)?;
    let todo: Vec<Line> = all
        .iter()
        .filter(|l| !done.contains(&l.key))
        .cloned()
        .collect();
    for line in &todo {
        position(line).with_context(|| options.positions.display().to_string())?;
    }
    Ok((todo, all.len() as u64))
}

/// Writes the searches' lines to `file` in the order of their indices as they come, telling
/// `written` how many are written after each; how many searches filled their tree.
fn write_in_order(
    rx: mpsc::Receiver<(usize, Found)>,
    file: &mut std::fs::File,
    options: &SearchOptions,
    mut written: impl FnMut(usize),
) -> Result<usize> {
    let (mut next, mut waiting) = (0, BTreeMap::new());
    let mut full = 0;
    for (i, found) in rx {
        waiting.insert(i, found);
        while let Some(found) = waiting.remove(&next) {
            let (line, filled) = found?;
            full += usize::from(filled);
            writeln!(file, "{line}").with_context(|| options.out.display().to_string())?;
            next += 1;
            written(next);
        }
    }
    Ok(full)
}

type Found = Result<(String, bool)>;

fn spawn(
    options: &SearchOptions,
    params: Params,
    todo: Vec<Line>,
    tx: mpsc::Sender<(usize, Found)>,
) -> Vec<thread::JoinHandle<()>> {
    let todo = Arc::new(todo);
    let next = Arc::new(AtomicUsize::new(0));
    let (iterations, seed) = (options.iterations, options.seed);
    (0..options.threads.max(1))
        .map(|_| {
            let (todo, next, tx, params) = (todo.clone(), next.clone(), tx.clone(), params.clone());
            thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(line) = todo.get(i) else { return };
                if tx
                    .send((i, search(line, &params, iterations, seed)))
                    .is_err()
                {
                    return;
                }
            })
        })
        .collect()
}
