//! One finished game as one JSON line: the record `--record` and `--results` append.

use super::clocks::Clocks;
use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use twixt::position::Move;
use twixt_reference::RefGame;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// The winner joined its borders.
    Connected,
    /// The loser did not answer within its clock.
    Timeout,
    /// The loser answered a malformed or illegal move.
    Illegal,
    /// The loser exited or closed its output.
    Crash,
    /// The player to move had no legal hole.
    Draw,
}

impl Reason {
    /// Whether the loser lost by its own fault rather than on the board.
    pub fn is_fault(self) -> bool {
        matches!(self, Reason::Timeout | Reason::Illegal | Reason::Crash)
    }

    /// The lowercase name used in records.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Connected => "connected",
            Reason::Timeout => "timeout",
            Reason::Illegal => "illegal",
            Reason::Crash => "crash",
            Reason::Draw => "draw",
        }
    }
}

/// Where a game sits in a match (absent for a single game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSlot {
    /// The pair index, from 0.
    pub pair: usize,
    /// 0 for the pair's first game, 1 for the second (seats swapped).
    pub game: usize,
    /// The player index engine A had in this game.
    pub a_player: u8,
}

impl MatchSlot {
    /// Game `game` (0 or 1) of pair `pair`: engine A is player 0 in the first, 1 in the second.
    pub fn new(pair: usize, game: usize) -> MatchSlot {
        MatchSlot {
            pair,
            game,
            a_player: game as u8,
        }
    }
}

/// A command with the game's seed put back as `{seed}`, so that one engine has one command
/// whatever the game.
pub fn template(cmd: &str, seed: u64) -> String {
    let seed = seed.to_string();
    let words: Vec<&str> = cmd
        .split(' ')
        .map(|w| if w == seed { "{seed}" } else { w })
        .collect();
    words.join(" ")
}

/// Who played a match's game, whatever the seats and seeds: engine A's and engine B's
/// commands (with `{seed}`) and clocks. The games of one match share it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The commands of engines A and B.
    pub cmds: [String; 2],
    /// Their clocks, if the records keep them.
    pub clocks: Option<[Clocks; 2]>,
}

impl std::fmt::Display for Pairing {
    /// `A: CMD [clock: ...]` and the same for B, one line each.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, name) in ["A", "B"].iter().enumerate() {
            let clock = self
                .clocks
                .map_or("not recorded".to_string(), |c| c[k].to_string());
            writeln!(f, "{name}: {} [clock: {clock}]", self.cmds[k])?;
        }
        Ok(())
    }
}

/// What played one seat of a game that `test` ran: enough to name it and to play it again.
/// `test` writes every field it has; a reader takes what is there (a record that other tools
/// wrote may leave out the label or the command).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineId {
    /// Its short name: a commit as the user gave it, or a binary's file name.
    #[serde(default)]
    pub label: String,
    /// The commit whose bundle it is (the full hash), for an engine built from a commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The SHA-256 of its binary (hex), for an engine given as a binary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Its command, `{seed}` standing for each game's seed.
    #[serde(default)]
    pub cmd: String,
}

/// One game, as written to a JSON line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Every move in order, `SWAP` included (the opening's moves first).
    pub moves: Vec<String>,
    /// Milliseconds each move took to answer; `null` for the opening's moves.
    pub ms: Vec<Option<u64>>,
    /// The message after each move, if the bot wrote one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<Option<String>>,
    /// How many of `moves` came from the opening rather than from the bots.
    #[serde(default)]
    pub opening: usize,
    /// The winning player index (0 or 1), `null` for a draw.
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: Reason,
    /// The same in words.
    pub detail: String,
    /// The command of player 0.
    pub cmd0: String,
    /// The command of player 1.
    pub cmd1: String,
    /// The game's seed (substituted for `{seed}` in the commands).
    pub seed: u64,
    /// The clocks of player 0 and of player 1 (absent from records older than per-engine
    /// clocks, which were played under one clock for both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<[Clocks; 2]>,
    /// The game's place in a match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<MatchSlot>,
    /// What played player 0, when `test` ran the game (absent from other records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine0: Option<EngineId>,
    /// What played player 1, likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine1: Option<EngineId>,
}

impl GameRecord {
    /// The record as one line of JSON (no newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serialises")
    }

    /// Appends the record as one JSON line to `path`, in one write.
    pub fn append_to(&self, path: &Path) -> Result<()> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(format!("{}\n", self.to_json()).as_bytes()))
            .with_context(|| path.display().to_string())
    }

    /// The moves, parsed; an error names the first that is not a move.
    pub fn parsed_moves(&self) -> Result<Vec<Move>> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                m.parse::<Move>()
                    .with_context(|| format!("record move {}", i + 1))
            })
            .collect()
    }

    /// The game replayed by the reference rules; an error names the first move they refuse.
    pub fn reference_game(&self) -> Result<RefGame> {
        RefGame::from_moves(&self.parsed_moves()?)
            .map_err(|(i, e)| anyhow!("record move {}: {e}", i + 1))
    }

    /// The engines of a match's game; `None` for a single game (no slot).
    pub fn pairing(&self) -> Option<Pairing> {
        let a = usize::from(self.slot?.a_player);
        let cmds = [&self.cmd0, &self.cmd1];
        Some(Pairing {
            cmds: [
                template(cmds[a], self.seed),
                template(cmds[1 - a], self.seed),
            ],
            clocks: self.clocks.map(|c| [c[a], c[1 - a]]),
        })
    }

    /// The player index of the loser, if the game was not drawn.
    pub fn loser(&self) -> Option<u8> {
        self.winner.map(|w| 1 - w)
    }
}

/// Reads every record of a JSON-lines file. Blank lines are skipped, and so is a last line
/// that is not a record (a match killed while writing it); any other line that is not a
/// record is an error naming the file and the line, and so is a missing or unreadable file.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    Ok(parse_records(&text, path)?.0)
}

/// [`read_records`] of a file that may not be there yet (the results file a match resumes,
/// which its first game creates): a missing file has no record.
pub fn read_records_if_any(path: &Path) -> Result<Vec<GameRecord>> {
    let text = read_text_if_any(path)?;
    Ok(parse_records(&text, path)?.0)
}

/// Makes a results file ready to be appended to: cuts a last line that is not a record (a match
/// killed while writing it) and ends a last record without its newline, so that the next
/// record starts a line of its own. Does nothing to a missing file.
pub fn mend_tail(path: &Path) -> Result<()> {
    let text = read_text_if_any(path)?;
    let (_, torn) = parse_records(&text, path)?;
    if torn.is_none() && (text.is_empty() || text.ends_with('\n')) {
        return Ok(());
    }
    OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| match torn {
            Some(offset) => f.set_len(offset as u64),
            None => writeln!(f),
        })
        .with_context(|| path.display().to_string())
}

/// The file's text; empty for a missing file.
fn read_text_if_any(path: &Path) -> Result<String> {
    match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        text => text.with_context(|| path.display().to_string()),
    }
}

/// The records of a JSON-lines text read from `path`, and the byte offset of its torn last
/// line if it has one (see [`read_records`]).
fn parse_records(text: &str, path: &Path) -> Result<(Vec<GameRecord>, Option<usize>)> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut records = Vec::new();
    let mut offset = 0;
    for (i, line) in lines.iter().enumerate() {
        if !line.trim().is_empty() {
            match serde_json::from_str::<GameRecord>(line.trim_end()) {
                Ok(r) => records.push(r),
                Err(_) if i + 1 == lines.len() => return Ok((records, Some(offset))),
                Err(e) => bail!(
                    "{}:{}: not a game record: {}",
                    path.display(),
                    i + 1,
                    at_column(&e)
                ),
            }
        }
        offset += line.len();
    }
    Ok((records, None))
}

/// What could be read of a results file for a report: its records with their line numbers
/// (from 1), and the lines that are not records, each with why.
#[derive(Debug, Default)]
pub struct Readable {
    /// The records, in file order, with their line numbers.
    pub records: Vec<(usize, GameRecord)>,
    /// The lines that are not records (a torn line, another program's output), with why.
    pub unreadable: Vec<(usize, String)>,
}

/// Reads every record of a JSON-lines file that can be read and names the lines that cannot,
/// wherever they are: a report shows what a damaged file still holds. A missing file is an
/// error, as for any file named on a command line.
pub fn read_readable(path: &Path) -> Result<Readable> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let mut out = Readable::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(r) => out.records.push((i + 1, r)),
            Err(e) => out.unreadable.push((i + 1, at_column(&e))),
        }
    }
    Ok(out)
}

/// serde's message with its place as a column alone (a record is one line).
fn at_column(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m);
    format!("{message} at column {}", e.column())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::record;

    #[test]
    fn a_record_round_trips_through_json() {
        let r = GameRecord {
            clocks: Some([Clocks::default(); 2]),
            ..record("E5 SWAP", None, Reason::Draw)
        };
        let text = r.to_json();
        assert!(text.contains("\"reason\":\"draw\""));
        assert!(text.contains("\"winner\":null"));
        assert_eq!(serde_json::from_str::<GameRecord>(&text).unwrap(), r);
    }

    #[test]
    fn a_match_game_names_its_engines_whatever_the_seats() {
        let game = |a_player: u8| GameRecord {
            slot: Some(MatchSlot {
                pair: 0,
                game: usize::from(a_player),
                a_player,
            }),
            seed: 242,
            cmd0: if a_player == 0 { "a --seed 242" } else { "b" }.into(),
            cmd1: if a_player == 0 { "b" } else { "a --seed 242" }.into(),
            clocks: Some([Clocks::CODINGAME, crate::fixtures::SLOW_CLOCKS]),
            ..record("E5", None, Reason::Draw)
        };
        let p = game(0).pairing().unwrap();
        assert_eq!(p.cmds, ["a --seed {seed}", "b"]);
        assert_eq!(
            p.clocks,
            Some([Clocks::CODINGAME, crate::fixtures::SLOW_CLOCKS])
        );
        let swapped = game(1).pairing().unwrap();
        assert_eq!(swapped.cmds, p.cmds);
        assert_eq!(record("E5", None, Reason::Draw).pairing(), None);
        assert_eq!(
            template("./bot-242 --seed 2420", 242),
            "./bot-242 --seed 2420"
        );
        assert!(p
            .to_string()
            .starts_with("A: a --seed {seed} [clock: 1000 ms first turn"));
    }

    #[test]
    fn engines_are_named_when_known_and_read_with_what_they_hold() {
        let id = EngineId {
            label: "251a39c".into(),
            commit: Some("251a39c374fc576c283e3c87dd7cab28becb4b65".into()),
            sha256: None,
            cmd: "bin --seed {seed}".into(),
        };
        let r = GameRecord {
            engine0: Some(id.clone()),
            ..record("E5", Some(0), Reason::Connected)
        };
        let text = r.to_json();
        assert!(text.ends_with(
            r#""engine0":{"label":"251a39c","commit":"251a39c374fc576c283e3c87dd7cab28becb4b65","cmd":"bin --seed {seed}"}}"#
        ), "{text}");
        assert_eq!(serde_json::from_str::<GameRecord>(&text).unwrap(), r);
        let partial = serde_json::from_str::<EngineId>(r#"{"sha256":"ab"}"#).unwrap();
        assert_eq!((partial.label.as_str(), partial.cmd.as_str()), ("", ""));
        assert!(!record("E5", None, Reason::Draw)
            .to_json()
            .contains("engine"));
    }

    #[test]
    fn a_record_without_clocks_still_reads() {
        let old = r#"{"moves":["E5"],"ms":[3],"winner":0,"reason":"timeout","detail":"d","cmd0":"a","cmd1":"b","seed":1}"#;
        let r = serde_json::from_str::<GameRecord>(old).unwrap();
        assert_eq!((r.clocks, r.opening, r.slot), (None, 0, None));
        let text = r#"{"first_ms":5000,"turn_ms":3000}"#;
        let c = serde_json::from_str::<Clocks>(text).unwrap();
        assert_eq!((c.first_ms, c.turn_ms, c.margin_ms), (5000, 3000, 0));
    }

    fn lines(records: &[GameRecord]) -> String {
        records.iter().map(|r| r.to_json() + "\n").collect()
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_the_records_before_it_are_kept() {
        let games = [
            record("E5", Some(0), Reason::Timeout),
            record("E5 E7", None, Reason::Draw),
        ];
        let whole = lines(&games);
        let path = Path::new("results.jsonl");
        // A blank line, then the first 20 bytes of a record.
        let torn = format!("{whole}\n{}", &games[0].to_json()[..20]);
        assert_eq!(
            parse_records(&torn, path).unwrap(),
            (games.to_vec(), Some(whole.len() + 1))
        );
        assert_eq!(parse_records(&whole, path).unwrap(), (games.to_vec(), None));
        assert_eq!(parse_records("", path).unwrap(), (vec![], None));
    }

    #[test]
    fn a_report_reads_around_bad_lines_and_names_them() {
        let good = lines(&[record("E5", Some(0), Reason::Timeout)]);
        let dir = std::env::temp_dir().join(format!("twixt-readable-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        std::fs::write(&path, format!("{good}not json\n\n{good}{{\"moves\":")).unwrap();
        let r = read_readable(&path).unwrap();
        assert_eq!(
            r.records.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            [1, 4]
        );
        let bad: Vec<usize> = r.unreadable.iter().map(|(n, _)| *n).collect();
        assert_eq!(bad, [2, 5]);
        assert!(r.unreadable[0].1.contains("column"), "{:?}", r.unreadable);
        assert!(read_readable(&dir.join("missing.jsonl")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_line_before_the_last_is_an_error_naming_it() {
        let good = lines(&[record("E5", Some(0), Reason::Timeout)]);
        let text = format!("{good}\n{{\"moves\":\n{good}");
        let err = parse_records(&text, Path::new("r.jsonl"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "r.jsonl:3: not a game record: EOF while parsing a value at column 9"
        );
    }
}
