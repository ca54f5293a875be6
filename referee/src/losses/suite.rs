//! `twixt-referee suite`: the collapse positions of [`super::fixture`] as a regression suite. A
//! bot command answers each one (its `.txt`, as the referee gave it); the answer is held to the
//! move that lost (`played`) and to the move a reference search chose (a key such as `deep`,
//! written by an earlier run with `--record KEY`), so that a faster or better bot can be checked
//! on the positions the last one lost without playing the games again.

use crate::process::{BotProcess, Reply};
use anyhow::{anyhow, bail, Context, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use twixt::position::Move;
use twixt::Player;
use twixt_reference::RefGame;

/// What the report and a recorded `.moves` file say of an [`Answer::SideUnknown`].
const NOT_ASKED: &str = "not asked: the input does not tell the side";

/// The options of `twixt-referee suite`.
#[derive(Clone, Debug, clap::Args)]
pub struct SuiteArgs {
    /// The folder of fixtures (`NAME.txt` and `NAME.moves`, as `losses --fixtures` writes them).
    pub dir: PathBuf,
    /// The bot's command; `{seed}` becomes the fixture's seed.
    pub cmd: String,
    /// The key of the reference move to hold the answers to.
    #[arg(long, default_value = "deep")]
    pub expect: String,
    /// Write each answer into its `.moves` file under this key (`KEY: MOVE`, `KEY-value: V`,
    /// `KEY-by: CMD`), replacing what the key held: to keep a reference search's moves.
    #[arg(long, value_name = "KEY")]
    pub record: Option<String>,
    /// How long the bot may think on each position, ms.
    #[arg(long, default_value_t = 30_000)]
    pub clock_ms: u64,
}

/// One fixture: its name, turn input and `key: value` lines, in file order.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// `NAME`, the stem both files share.
    pub name: String,
    /// The `.moves` file.
    pub path: PathBuf,
    /// The turn input (`NAME.txt`).
    pub input: String,
    /// The `.moves` lines.
    pub keys: Vec<(String, String)>,
}

impl Fixture {
    /// The value of `key`, if the file has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The position: the game of its `moves` under the reference rules.
    pub fn game(&self) -> Result<RefGame> {
        let moves = self
            .get("moves")
            .ok_or_else(|| anyhow!("{}: no `moves:` line", self.path.display()))?;
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| m.parse::<Move>().map_err(|e| anyhow!("{m:?}: {e}")))
            .collect::<Result<_>>()
            .with_context(|| format!("{}: moves", self.path.display()))?;
        RefGame::from_moves(&moves)
            .map_err(|(i, e)| anyhow!("{}: move {}: {e}", self.path.display(), i + 1))
    }
}

/// Reads every fixture of `dir`, by name; a `.moves` file without its `.txt`, or a line that
/// is not `key: value`, is an error naming the file and line.
pub fn read_dir(dir: &Path) -> Result<Vec<Fixture>> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| dir.display().to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "moves"))
        .collect();
    names.sort();
    if names.is_empty() {
        bail!("{}: no .moves files", dir.display());
    }
    names.iter().map(|p| read_fixture(p)).collect()
}

fn read_fixture(path: &Path) -> Result<Fixture> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let mut keys = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match line.split_once(": ") {
            Some((k, v)) if !k.is_empty() && !k.contains(' ') => {
                keys.push((k.to_string(), v.to_string()))
            }
            _ if line.trim().is_empty() => {}
            _ => bail!("{}:{}: not `key: value`: {line:?}", path.display(), i + 1),
        }
    }
    let txt = path.with_extension("txt");
    let input = std::fs::read_to_string(&txt).with_context(|| txt.display().to_string())?;
    let name = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    Ok(Fixture {
        name,
        path: path.to_path_buf(),
        input,
        keys,
    })
}

/// A bot's answer to one fixture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A legal move, and the value the bot gave with it (`62%`), if any.
    Move(Move, Option<String>),
    /// No legal move: what came instead.
    Failed(String),
    /// Not asked: a process that starts at this turn would take itself for the other player
    /// (SPEC, "Side": after a swap with no peg on a border to tell, it assumes none).
    SideUnknown,
}

/// The player a process that starts at `game`'s turn takes itself for: the bot's own rule
/// ([`twixt::protocol::infer_side`]) on what the turn input lists.
pub fn inferred_side(game: &RefGame) -> Player {
    let first_or_swap = matches!(game.moves().last(), None | Some(Move::Swap));
    let me = game.to_move();
    twixt::protocol::infer_side(first_or_swap, &game.pegs(me), &game.pegs(me.other()))
}

/// Reads an answer line: the move, then optionally the value; the move must be legal in `game`.
pub fn parse_answer(line: &str, game: &RefGame) -> Answer {
    let mut words = line.split_whitespace();
    let word = match words.next() {
        Some(w) => w,
        None => return Answer::Failed("an empty line".into()),
    };
    let mv = match word.parse::<Move>() {
        Ok(mv) => mv,
        Err(e) => return Answer::Failed(format!("{word:?} is not a move: {e}")),
    };
    if !game.legal_moves().contains(&mv) {
        return Answer::Failed(format!("{mv} is not legal there"));
    }
    let value = words
        .next()
        .filter(|v| v.ends_with('%'))
        .map(str::to_string);
    Answer::Move(mv, value)
}

/// Runs `cmd` on `fixture`'s turn input and reads its answer.
pub fn ask(cmd: &str, fixture: &Fixture, clock: Duration) -> Result<Answer> {
    let game = fixture.game()?;
    if inferred_side(&game) != game.to_move() {
        return Ok(Answer::SideUnknown);
    }
    let seed = fixture.get("seed").unwrap_or("0");
    let mut bot = BotProcess::spawn(&cmd.replace("{seed}", seed), None)?;
    let reply = bot.ask(fixture.input.clone(), clock, Duration::from_millis(500));
    bot.kill();
    Ok(match reply {
        Reply::Line(line, _) => parse_answer(&line, &game),
        Reply::Silent => Answer::Failed(format!("no answer in {} ms", clock.as_millis())),
        Reply::Closed | Reply::InputClosed => Answer::Failed("closed its pipes".into()),
        Reply::Exited(status) => Answer::Failed(format!("exited ({status})")),
    })
}

/// `fixture`'s `.moves` text with `key` holding `answer` by `cmd` (its lines replaced, or
/// appended), every other line as it was.
pub fn with_recorded(fixture: &Fixture, key: &str, answer: &Answer, cmd: &str) -> String {
    let ours = [key.to_string(), format!("{key}-value"), format!("{key}-by")];
    let mut out = String::new();
    for (k, v) in fixture.keys.iter().filter(|(k, _)| !ours.contains(k)) {
        writeln!(out, "{k}: {v}").expect("writing to a String");
    }
    let (mv, value) = match answer {
        Answer::Move(mv, value) => (mv.to_string(), value.clone().unwrap_or_else(|| "-".into())),
        Answer::Failed(why) => ("-".into(), why.clone()),
        Answer::SideUnknown => ("-".into(), NOT_ASKED.into()),
    };
    for (k, v) in ours.iter().zip([mv, value, cmd.to_string()]) {
        writeln!(out, "{k}: {v}").expect("writing to a String");
    }
    out
}

/// How the answers compare, over the suite.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Fixtures asked.
    pub asked: usize,
    /// Those that hold the reference key.
    pub with_reference: usize,
    /// Answers equal to the reference move.
    pub reference: usize,
    /// Answers equal to the move that lost.
    pub played: usize,
    /// No legal move.
    pub failed: usize,
    /// Not asked ([`Answer::SideUnknown`]).
    pub unasked: usize,
}

/// One fixture's line of the report, counted into `tally`.
pub fn verdict(fixture: &Fixture, answer: &Answer, expect: &str, tally: &mut Tally) -> String {
    tally.asked += 1;
    let phase = fixture.get("phase").unwrap_or("-");
    let played = fixture.get("played").unwrap_or("-");
    let reference = fixture.get(expect).filter(|m| *m != "-");
    tally.with_reference += reference.is_some() as usize;
    let (now, notes) = match answer {
        Answer::SideUnknown => {
            tally.unasked += 1;
            ("-".to_string(), NOT_ASKED.to_string())
        }
        Answer::Failed(why) => {
            tally.failed += 1;
            ("-".to_string(), format!("failed: {why}"))
        }
        Answer::Move(mv, value) => {
            let text = mv.to_string();
            let mut notes = Vec::new();
            if reference == Some(text.as_str()) {
                tally.reference += 1;
                notes.push(format!("= {expect}"));
            }
            if played == text {
                tally.played += 1;
                notes.push("= the move that lost".to_string());
            }
            let value = value.as_deref().map_or(String::new(), |v| format!(" {v}"));
            (format!("{text}{value}"), notes.join(", "))
        }
    };
    format!(
        "{:<34} {:<12} lost with {:<4} {expect} {:<4} now {:<9} {notes}",
        fixture.name,
        phase,
        played,
        reference.unwrap_or("-"),
        now
    )
}

/// The summary line of `tally`.
pub fn summary(tally: &Tally, expect: &str) -> String {
    let share = |n: usize, of: usize| {
        if of == 0 {
            "-".to_string()
        } else {
            format!("{:.0}%", 100.0 * n as f64 / of as f64)
        }
    };
    format!(
        "{} positions: the {expect} move {} of {} ({}), the move that lost {} of {} ({}), \
         no legal move {}, not asked (side unknown) {}",
        tally.asked,
        tally.reference,
        tally.with_reference,
        share(tally.reference, tally.with_reference),
        tally.played,
        tally.asked - tally.unasked,
        share(tally.played, tally.asked - tally.unasked),
        tally.failed,
        tally.unasked
    )
}

/// Runs the suite: a line a fixture and the summary; with `--record`, each answer written.
pub fn run(args: &SuiteArgs) -> Result<i32> {
    let fixtures = read_dir(&args.dir)?;
    let clock = Duration::from_millis(args.clock_ms);
    let mut tally = Tally::default();
    for fixture in &fixtures {
        let answer = ask(&args.cmd, fixture, clock)?;
        println!("{}", verdict(fixture, &answer, &args.expect, &mut tally));
        if let Some(key) = &args.record {
            let text = with_recorded(fixture, key, &answer, &args.cmd);
            let tmp = fixture.path.with_extension("moves.tmp");
            std::fs::write(&tmp, text).with_context(|| tmp.display().to_string())?;
            std::fs::rename(&tmp, &fixture.path)
                .with_context(|| fixture.path.display().to_string())?;
        }
    }
    println!("{}", summary(&tally, &args.expect));
    Ok(0)
}
