//! `table --add RESULTS --what "..."`: a new match's entry in the index, read from its
//! results files as far as they say it (the engines' labels and commits where the records name
//! them, the openings, the clocks, the match seed, the games), the rest from the options.

use super::index::{folder_of, Entry, Index};
use super::markdown::relative;
use crate::ab_test::BALANCED_BOOK;
use crate::clocks::Clocks;
use crate::openings::read_openings;
use crate::record::{read_records, GameRecord};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use toml::value::Datetime;

/// The balanced books in `docs/openings/`, each with the name a match from it is given.
const BOOKS: [(&str, &str); 4] = [
    ("balanced book (gen13)", "balanced-gen13.txt"),
    ("balanced book (gen8)", "balanced-gen8.txt"),
    ("balanced book (e3825d3)", "balanced-clock.txt"),
    ("old balanced book (balanced.txt)", "balanced.txt"),
];

/// The options of `table` that add a match.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct AddArgs {
    /// Add the match whose results are in this file (again for each file of a resumed or
    /// sharded match) to the index, then write the page.
    #[arg(long = "add", value_name = "RESULTS")]
    pub files: Vec<PathBuf>,
    /// What the match measured, in a line or two.
    #[arg(long, requires = "files")]
    pub what: Option<String>,
    /// Its id (default: the next number).
    #[arg(long, requires = "files")]
    pub id: Option<String>,
    /// Engine A's label (default: what the records name).
    #[arg(long, requires = "files")]
    pub a: Option<String>,
    /// Engine B's label (default: what the records name).
    #[arg(long, requires = "files")]
    pub b: Option<String>,
    /// Where games started (default: read from the records).
    #[arg(long, requires = "files")]
    pub openings: Option<String>,
    /// The day it was played, e.g. 2026-11-29 (default: today, UTC).
    #[arg(long, requires = "files")]
    pub date: Option<String>,
    /// The SPRT it ran under: --sprt "elo0=0 elo1=30 alpha=0.05 beta=0.05".
    #[arg(long, requires = "files")]
    pub sprt: Option<String>,
    /// One of the shipped bot's matches against its baseline, shown first.
    #[arg(long, requires = "files")]
    pub headline: bool,
}

/// What a record says of the engine in one seat (written by `twixt-referee test`; older
/// records have none).
#[derive(Clone, Debug, Default, Deserialize)]
struct Engine {
    label: Option<String>,
    commit: Option<String>,
    sha256: Option<String>,
    cmd: Option<String>,
}

/// The fields of a record that name what played, read apart from [`GameRecord`].
#[derive(Deserialize)]
struct Seats {
    engine0: Option<Engine>,
    engine1: Option<Engine>,
}

/// The index's text with the new match's entry appended; an error names what could not be
/// found in the records or the options.
pub fn append(text: &str, index: &Index, args: &AddArgs) -> Result<String> {
    let entry = entry(index, args)?;
    #[derive(Serialize)]
    struct One<'a> {
        #[serde(rename = "match")]
        matches: [&'a Entry; 1],
    }
    let toml = toml::to_string(&One { matches: [&entry] }).context("the new entry")?;
    let sep = if text.ends_with('\n') { "\n" } else { "\n\n" };
    Ok(format!("{text}{sep}{toml}"))
}

fn entry(index: &Index, args: &AddArgs) -> Result<Entry> {
    let what = args
        .what
        .clone()
        .context("--add needs --what: what the match measured")?;
    let m = read_match(index, args)?;
    let [a, b] = &m.engines;
    let command = commands(&m, args.sprt.as_deref());
    let folder = folder_of(&index.path);
    Ok(Entry {
        id: args.id.clone().unwrap_or_else(|| next_id(index)),
        date: date(args.date.as_deref())?,
        a: label(&args.a, a, "A", &args.files[0])?,
        b: label(&args.b, b, "B", &args.files[0])?,
        openings: m.openings,
        clock: m.clock,
        what,
        records: args.files.iter().map(|f| record_name(f, folder)).collect(),
        sprt: args.sprt.clone(),
        command: command.0,
        as_run: command.1,
        headline: args.headline,
        reported: None,
    })
}

/// What the results files say of a match.
struct Match {
    /// Engines A and B as the first record names them (nothing, in older records).
    engines: [Engine; 2],
    /// Their commands, with `{seed}`.
    cmds: [String; 2],
    /// The games in all the files.
    games: usize,
    /// The match seed (each game's is the match's plus `2 pair + game`).
    seed: u64,
    /// Where the games started (`--openings` if given).
    openings: String,
    /// The clocks of the first game.
    clock: String,
}

fn read_match(index: &Index, args: &AddArgs) -> Result<Match> {
    let first = &args.files[0];
    let records = read_records(first)?;
    let Some((r, slot)) = records.first().and_then(|r| Some((r, r.slot?))) else {
        bail!("{}: its first record is not a match game", first.display());
    };
    let engines = engines(first)?;
    let a_seat = usize::from(slot.a_player);
    let games = args.files.iter().map(|f| Ok(read_records(f)?.len()));
    let seed = records
        .iter()
        .filter_map(|r| {
            r.slot
                .map(|s| r.seed.saturating_sub((2 * s.pair + s.game) as u64))
        })
        .min();
    Ok(Match {
        engines: [a_seat, 1 - a_seat].map(|s| engines[s].clone()),
        cmds: r.pairing().map(|p| p.cmds).unwrap_or_default(),
        games: games.sum::<Result<usize>>()?,
        seed: seed.unwrap_or(r.seed),
        openings: match &args.openings {
            Some(o) => o.clone(),
            None => openings(&records, index)?,
        },
        clock: clock(r),
    })
}

/// An engine's label: the one given, else the records' name for it.
fn label(given: &Option<String>, e: &Engine, which: &str, file: &Path) -> Result<String> {
    given.clone().or_else(|| e.label()).with_context(|| {
        format!(
            "{}: the records do not name engine {which} (engine0/engine1): give --{}",
            file.display(),
            which.to_lowercase()
        )
    })
}

impl Engine {
    /// Its label, else its commit's short hash, else its binary's hash.
    fn label(&self) -> Option<String> {
        self.label.clone().or_else(|| {
            self.commit
                .as_deref()
                .map(|c| short(c).to_string())
                .or_else(|| {
                    self.sha256
                        .as_deref()
                        .map(|s| format!("sha256 {}", short(s)))
                })
        })
    }
}

fn short(hash: &str) -> &str {
    &hash[..hash.len().min(7)]
}

/// The engines of the first record's seats (none named in older records).
fn engines(path: &Path) -> Result<[Engine; 2]> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("{}");
    let played: Seats =
        serde_json::from_str(line).with_context(|| format!("{}:1", path.display()))?;
    Ok([
        played.engine0.unwrap_or_default(),
        played.engine1.unwrap_or_default(),
    ])
}

/// The command that repeats the match: `twixt-referee test` of the two commits when the
/// records name them, as `(Some(command), None)`; otherwise the command as run, `(None,
/// Some(as_run))`: `test` with `bin:` and a binary's path, or, where the records name no
/// engine, `match` with their commands.
fn commands(m: &Match, sprt: Option<&str>) -> (Option<String>, Option<String>) {
    let side = |e: &Engine| match (&e.commit, &e.cmd) {
        (Some(c), _) => Some(short(c).to_string()),
        (None, Some(cmd)) => Some(format!("bin:{}", cmd.split(' ').next().unwrap_or(cmd))),
        (None, None) => None,
    };
    let sprt = sprt.map_or(String::new(), |s| format!(" --sprt {s}"));
    let tail = format!("--games {} --seed {}", m.games, m.seed);
    let (engines, openings) = (&m.engines, m.openings.as_str());
    if let (Some(a), Some(b)) = (side(&engines[0]), side(&engines[1])) {
        let from = match (openings, book_file(openings)) {
            ("empty board", _) => " --openings empty".into(),
            (o, _) if o.starts_with("random pegs") => " --openings random".into(),
            (_, Some(file)) if !is_default_book(file) => {
                format!(" --openings docs/openings/{file}")
            }
            _ => String::new(),
        };
        let cmd = format!("twixt-referee test {a} {b} {tail}{from}{sprt}");
        return match engines.iter().all(|e| e.commit.is_some()) {
            true => (Some(cmd), None),
            false => (None, Some(cmd)),
        };
    }
    let from = match (openings.strip_prefix("random pegs "), book_file(openings)) {
        (Some(n), _) => format!(" --random-openings {n}"),
        (None, Some(file)) => format!(" --openings docs/openings/{file}"),
        (None, None) => String::new(),
    };
    let [a, b] = &m.cmds;
    (
        None,
        Some(format!(
            "twixt-referee match \"{a}\" \"{b}\" {tail}{from}{sprt}"
        )),
    )
}

/// Whether `file` of `docs/openings/` is the book `test` plays when given no openings.
fn is_default_book(file: &str) -> bool {
    Path::new(BALANCED_BOOK)
        .file_name()
        .is_some_and(|f| f == file)
}

/// The file of the balanced book a match's openings name.
fn book_file(openings: &str) -> Option<&'static str> {
    BOOKS
        .iter()
        .find(|(name, _)| *name == openings)
        .map(|b| b.1)
}

/// Where the records' games started: the empty board, a balanced book (every opening one of
/// its lines), or so many random pegs.
fn openings(records: &[GameRecord], index: &Index) -> Result<String> {
    let lines: Vec<&[String]> = records
        .iter()
        .map(|r| r.moves.get(..r.opening).unwrap_or(&r.moves))
        .collect();
    if lines.iter().all(|l| l.is_empty()) {
        return Ok("empty board".into());
    }
    for (name, file) in BOOKS {
        let path = folder_of(&index.path).join("../openings").join(file);
        let book: Vec<Vec<String>> = read_openings(&path)?
            .iter()
            .map(|l| l.iter().map(|m| m.to_string()).collect())
            .collect();
        if lines.iter().all(|l| book.iter().any(|b| b == l)) {
            return Ok(name.into());
        }
    }
    let lengths: Vec<usize> = lines.iter().map(|l| l.len()).collect();
    match lengths.iter().all(|&n| n == lengths[0]) {
        true => Ok(format!("random pegs {}", lengths[0])),
        false => bail!("the records' openings are neither a balanced book nor one length of random pegs: give --openings"),
    }
}

/// The clocks of the first game: CodinGame's, or each engine's.
fn clock(r: &GameRecord) -> String {
    match r.pairing().and_then(|p| p.clocks) {
        Some([a, b]) if a == Clocks::CODINGAME && b == Clocks::CODINGAME => {
            "CodinGame's (1000 / 300 ms)".into()
        }
        Some([a, b]) => format!("A {a}; B {b}"),
        None => "not recorded".into(),
    }
}

/// The next number after the index's numbered matches.
fn next_id(index: &Index) -> String {
    let last = index.entries.iter().filter_map(Entry::number).max();
    (last.unwrap_or(0) + 1).to_string()
}

/// A record file's name relative to the index's folder.
fn record_name(file: &Path, folder: &Path) -> String {
    let name = file
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let dir = folder_of(file);
    format!("{}{name}", relative(folder, dir))
}

/// The given day, or today's (UTC).
fn date(given: Option<&str>) -> Result<Datetime> {
    let text = match given {
        Some(d) => d.to_string(),
        None => today(),
    };
    text.parse::<Datetime>()
        .ok()
        .filter(|d| d.date.is_some() && d.time.is_none())
        .with_context(|| format!("--date: a day such as 2026-11-29, not {text:?}"))
}

/// Today's date in UTC, from the days since 1970 (H. Hinnant's civil-from-days).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::super::{run, TableArgs};
    use super::*;
    use crate::fixtures::record;
    use crate::record::{MatchSlot, Reason};
    use serde_json::{json, Value};

    /// A repository-like folder with `docs/matches/index.toml` (no match yet) and the balanced
    /// books: gen13's holding `D5 F7`, gen8's `E5 F7`, e3825d3's `E5 F7` and `E4 F7`, the old
    /// one `E6`.
    fn repo(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("twixt-add-{name}-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("docs/matches")).unwrap();
        std::fs::create_dir_all(dir.join("docs/openings")).unwrap();
        std::fs::write(dir.join("docs/matches/index.toml"), "# matches\n").unwrap();
        std::fs::write(dir.join("docs/openings/balanced-gen13.txt"), "D5 F7\n").unwrap();
        std::fs::write(dir.join("docs/openings/balanced-gen8.txt"), "E5 F7\n").unwrap();
        std::fs::write(
            dir.join("docs/openings/balanced-clock.txt"),
            "E5 F7\nE4 F7\n",
        )
        .unwrap();
        std::fs::write(dir.join("docs/openings/balanced.txt"), "E6       # 0.5\n").unwrap();
        dir
    }

    /// Pair 0 of a match with seed 5, A winning both games; each record names its seats'
    /// engines when `named`.
    fn results(path: &Path, moves: &str, opening: usize, named: bool) {
        let a = json!({"label": "251a39c", "commit": "251a39c0ffee", "cmd": "/cache/a"});
        let b = json!({"commit": "d003f5e0ffee", "cmd": "/cache/b"});
        let text: String = (0..2)
            .map(|g| {
                let r = GameRecord {
                    slot: Some(MatchSlot::new(0, g)),
                    seed: 5 + g as u64,
                    opening,
                    ..record(moves, Some(g as u8), Reason::Connected)
                };
                let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
                if named {
                    let seats = if g == 0 { [&a, &b] } else { [&b, &a] };
                    v["engine0"] = seats[0].clone();
                    v["engine1"] = seats[1].clone();
                }
                v.to_string() + "\n"
            })
            .collect();
        std::fs::write(path, text).unwrap();
    }

    fn args(dir: &Path, files: Vec<PathBuf>, what: &str) -> TableArgs {
        TableArgs {
            index: dir.join("docs/matches/index.toml"),
            output: dir.join("docs/STRENGTH.md"),
            check: false,
            add: AddArgs {
                files,
                what: Some(what.into()),
                date: Some("2026-11-29".into()),
                ..AddArgs::default()
            },
        }
    }

    /// Adds a match of two games whose records name their commits and start with `moves`
    /// (`opening` of them the opening) to a fresh repository; the repository and its index.
    fn added(name: &str, moves: &str, opening: usize) -> (PathBuf, String) {
        let dir = repo(name);
        let file = dir.join(format!("docs/matches/test-251a39c-vs-d003f5e-{name}.jsonl"));
        results(&file, moves, opening, true);
        assert_eq!(run(&args(&dir, vec![file], "A test.")).unwrap(), 0);
        let index = std::fs::read_to_string(dir.join("docs/matches/index.toml")).unwrap();
        (dir, index)
    }

    #[test]
    fn a_match_whose_records_name_their_commits_is_added_with_its_command() {
        let (dir, index) = added("empty", "E5 E7 F7", 0);
        for line in [
            "id = \"1\"",
            "date = 2026-11-29",
            "a = \"251a39c\"",
            "b = \"d003f5e\"",
            "openings = \"empty board\"",
            "clock = \"not recorded\"",
            "records = [\"test-251a39c-vs-d003f5e-empty.jsonl\"]",
            "command = \"twixt-referee test 251a39c d003f5e --games 2 --seed 5 --openings empty\"",
        ] {
            assert!(index.contains(line), "{line} not in\n{index}");
        }
        let page = std::fs::read_to_string(dir.join("docs/STRENGTH.md")).unwrap();
        assert!(page.contains("| 2/2 (1/1 + 1/1) |"), "{page}");
        let check = TableArgs {
            check: true,
            add: AddArgs::default(),
            ..args(&dir, vec![], "")
        };
        assert_eq!(run(&check).unwrap(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn older_records_need_the_engines_named_and_say_so() {
        let dir = repo("unnamed");
        let file = dir.join("docs/matches/old.jsonl");
        results(&file, "E5 F7 G7", 2, false);
        let err = run(&args(&dir, vec![file.clone()], "An old match.")).unwrap_err();
        assert!(err.to_string().ends_with("give --a"), "{err}");
        let named = TableArgs {
            add: AddArgs {
                a: Some("old A".into()),
                b: Some("old B".into()),
                ..args(&dir, vec![file], "An old match.").add
            },
            ..args(&dir, vec![], "")
        };
        assert_eq!(run(&named).unwrap(), 0);
        let index = std::fs::read_to_string(dir.join("docs/matches/index.toml")).unwrap();
        assert!(
            index.contains("openings = \"balanced book (gen8)\""),
            "{index}"
        );
        assert!(
            index.contains(r#"as_run = 'twixt-referee match "a" "b" --games 2 --seed 5 --openings docs/openings/balanced-gen8.txt'"#),
            "{index}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn test_plays_one_of_the_named_books_by_default() {
        assert_eq!(BOOKS.iter().filter(|b| is_default_book(b.1)).count(), 1);
    }

    /// Adds a match from a book other than the default (its games start with `moves`,
    /// `opening` of them the book's line) and checks that the entry names the book as `openings`
    /// and the command names its file.
    fn assert_named_book(name: &str, moves: &str, opening: usize, openings: &str, file: &str) {
        let (dir, index) = added(name, moves, opening);
        for line in [
            format!("openings = \"{openings}\""),
            format!("command = \"twixt-referee test 251a39c d003f5e --games 2 --seed 5 --openings docs/openings/{file}\""),
        ] {
            assert!(index.contains(&line), "{line} not in\n{index}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_match_from_gen8s_book_is_named_so_and_its_command_names_the_file() {
        let book = "balanced book (gen8)";
        assert_named_book("gen8", "E5 F7 G7", 2, book, "balanced-gen8.txt");
    }

    #[test]
    fn a_match_from_the_older_book_is_named_so_and_its_command_names_the_file() {
        assert_named_book(
            "older",
            "E4 F7 G7",
            2,
            "balanced book (e3825d3)",
            "balanced-clock.txt",
        );
    }

    #[test]
    fn a_match_from_the_old_book_of_first_pegs_names_its_file() {
        let book = "old balanced book (balanced.txt)";
        assert_named_book("first-pegs", "E6 F7 G7", 1, book, "balanced.txt");
    }

    #[test]
    fn a_test_from_the_default_book_needs_no_openings_in_its_command() {
        let (dir, index) = added("default", "D5 F7 G7", 2);
        let line = "command = \"twixt-referee test 251a39c d003f5e --games 2 --seed 5\"\n";
        assert!(index.contains(line), "{line} not in\n{index}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
