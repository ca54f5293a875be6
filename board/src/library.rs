//! Games brought to the board as text: a pasted move list (`E5 F7 SWAP ...`), or a file the
//! browser sends (a results file of `twixt-referee match`, a `--record` file: JSON lines of
//! game records). What can be read is kept; of the lines that cannot, the first few are named
//! with why and the rest counted, so that a file of millions of bad lines costs what one of a
//! few does. A text with no game that can be opened is an error saying why.
//!
//! A file's games are kept as their lines of its text, decoded again when one is opened: a
//! decoded game takes several times its line, and a file at the upload limit holds twenty
//! thousand of them. So a loaded file costs about its own size.

use crate::game::{Game, Played, Players};
use crate::tree;
use serde::Serialize;
use std::fmt;
use std::ops::Range;
use twixt::position::Move;
use twixt_referee::record::GameRecord;
use twixt_referee::report::replay::ending;
use twixt_referee::turn::shorten;

/// At most this many games are kept of one file.
pub const MAX_GAMES: usize = 20_000;

/// One game of a text, and how the page lists it.
#[derive(Clone, Debug)]
struct Entry {
    /// Where the game is.
    game: Kept,
    /// The list's line for it.
    summary: Summary,
}

/// A game as a library keeps it.
#[derive(Clone, Debug)]
enum Kept {
    /// Decoded (a pasted move list).
    Game(Box<Game>),
    /// A record line of the library's text, checked when it was read.
    Line(Range<usize>),
}

/// A game as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Its number in the list, from 1.
    pub n: usize,
    /// Its line in the file (1 for a move list).
    pub line: usize,
    /// Who played, and its place in a match.
    pub title: String,
    /// How it ended (the record's words).
    pub end: String,
    /// How many moves.
    pub moves: usize,
}

/// How many lines left out are named; the rest are counted.
pub const NAMED: usize = 5;

/// The lines of a text left out: the first [`NAMED`] with why, then how many more.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LeftOut {
    /// The first lines left out, each with why.
    pub named: Vec<String>,
    /// How many more were left out.
    pub more: usize,
}

impl LeftOut {
    /// One more line left out; `why` is asked only while lines are still named.
    pub fn add(&mut self, why: impl FnOnce() -> String) {
        if self.named.len() < NAMED {
            self.named.push(why());
        } else {
            self.more += 1;
        }
    }

    /// Whether no line was left out.
    pub fn is_empty(&self) -> bool {
        self.named.is_empty()
    }
}

impl fmt::Display for LeftOut {
    /// `line 2: why; line 5: why`, then `; and 7 more lines left out` if there are more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.named.join("; "))?;
        if self.more > 0 {
            write!(f, "; and {} more lines left out", self.more)?;
        }
        Ok(())
    }
}

/// What a text held: the games that can be opened, and the lines left out.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// The text the games' lines are in (empty for a move list).
    text: String,
    entries: Vec<Entry>,
    /// The lines left out.
    pub left_out: LeftOut,
}

impl Library {
    /// A library of one game, pasted as moves.
    pub fn pasted(game: Game) -> Library {
        let summary = Summary {
            n: 1,
            line: 1,
            title: "pasted moves".to_string(),
            end: String::new(),
            moves: game.len(),
        };
        Library {
            entries: vec![Entry {
                game: Kept::Game(Box::new(game)),
                summary,
            }],
            ..Library::default()
        }
    }

    /// How many games can be opened.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none can.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The games as the page lists them.
    pub fn summaries(&self) -> impl Iterator<Item = &Summary> {
        self.entries.iter().map(|e| &e.summary)
    }

    /// Game `n` (from 1), shown at its start, or `None` when there is no such game.
    pub fn game(&self, n: usize) -> Option<Game> {
        let entry = self.entries.get(n.checked_sub(1)?)?;
        match &entry.game {
            Kept::Game(game) => Some(Game::clone(game)),
            Kept::Line(_) => self.record(n).and_then(|r| game_of(&r).ok()),
        }
    }

    /// The record of game `n` (from 1) of a file, or `None` when there is no such game or it
    /// was pasted as moves.
    pub fn record(&self, n: usize) -> Option<GameRecord> {
        match &self.entries.get(n.checked_sub(1)?)?.game {
            Kept::Game(_) => None,
            // Read and checked when the text was: it reads again.
            Kept::Line(at) => serde_json::from_str(self.text.get(at.clone())?).ok(),
        }
    }
}

/// The games of a file's bytes, which must be UTF-8 text (see [`read`]); the library keeps
/// them, not a copy. It may take a while for a file of megabytes: call it off the async
/// workers.
pub fn read_file(bytes: Vec<u8>) -> Result<Library, String> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to() + 1;
        format!("the file is not UTF-8 text (byte {at})")
    })?;
    read_owned(text)
}

/// The games of `text`: JSON lines of game records when a line starts with `{` (a damaged
/// file may have others), else one move list. An error says why nothing can be opened.
pub fn read(text: &str) -> Result<Library, String> {
    read_owned(text.to_string())
}

fn read_owned(text: String) -> Result<Library, String> {
    if text.trim().is_empty() {
        return Err(
            "the text is empty: paste moves like `E5 F7 SWAP` or open a results file".into(),
        );
    }
    if text.lines().any(|l| l.trim_start().starts_with('{')) {
        return records(text);
    }
    move_list(&text).map(Library::pasted)
}

/// A move list: names separated by spaces, commas or new lines, or a tree of variations as
/// [`tree::read`] reads it (when a word has a parenthesis); an error names the first word that
/// is not a move or the first move the rules refuse.
pub fn move_list(text: &str) -> Result<Game, String> {
    let mut moves = Vec::new();
    for (i, word) in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        if word.contains(['(', ')']) {
            return tree::read(text).map(|t| Game::of_tree(t, Players::default()));
        }
        let mv: Move = word
            .parse()
            .map_err(|e| format!("move {} {:?} is not a move: {e}", i + 1, shorten(word)))?;
        moves.push(Played::plain(mv));
        if moves.len() > 140 {
            return Err("more than 140 moves: no game is that long".into());
        }
    }
    if moves.is_empty() {
        return Err("no move in the text".into());
    }
    Game::from_moves(moves, Players::default())
}

/// Every game record of a JSON-lines text that the rules accept, and the lines left out.
fn records(text: String) -> Result<Library, String> {
    let mut lib = Library::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if lib.entries.len() == MAX_GAMES {
            lib.left_out
                .add(|| format!("line {} on: more than {MAX_GAMES} games", i + 1));
            break;
        }
        let not_a_record = |e: serde_json::Error| format!("line {}: not a game record: {e}", i + 1);
        if !line.trim_start().starts_with('{') {
            // No JSON object: only a line still named is parsed, for the parser's words.
            let why = || not_a_record(serde_json::from_str::<GameRecord>(line).unwrap_err());
            lib.left_out.add(why);
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(r) => match game_of(&r) {
                Ok(_) => {
                    let summary = summary(lib.entries.len() + 1, i + 1, &r);
                    let start = line.as_ptr() as usize - text.as_ptr() as usize;
                    let game = Kept::Line(start..start + line.len());
                    lib.entries.push(Entry { game, summary });
                }
                Err(why) => lib.left_out.add(|| format!("line {}: {why}", i + 1)),
            },
            Err(e) => lib.left_out.add(|| not_a_record(e)),
        }
    }
    if lib.entries.is_empty() {
        return Err(format!("no game can be opened: {}", lib.left_out));
    }
    lib.text = text;
    Ok(lib)
}

/// The game of a record, with its times, messages and players.
fn game_of(r: &GameRecord) -> Result<Game, String> {
    let mut moves = Vec::with_capacity(r.moves.len());
    for (i, m) in r.moves.iter().enumerate() {
        let mv: Move = m
            .parse()
            .map_err(|e| format!("move {} {:?} is not a move: {e}", i + 1, shorten(m)))?;
        moves.push(Played {
            mv,
            ms: r.ms.get(i).copied().flatten(),
            msg: r.messages.get(i).cloned().flatten().map(|m| shorten(&m)),
        });
    }
    let players = Players {
        names: [r.cmd0.clone(), r.cmd1.clone()],
        seed: r.seed,
        clocks: r.clocks,
    };
    Game::from_moves(moves, players)
}

fn summary(n: usize, line: usize, r: &GameRecord) -> Summary {
    let who = format!("{} vs {}", shorten(&r.cmd0), shorten(&r.cmd1));
    let title = match r.slot {
        Some(s) => format!(
            "pair {}, game {} (A is player {}): {who}",
            s.pair + 1,
            s.game + 1,
            s.a_player
        ),
        None => format!("seed {}: {who}", r.seed),
    };
    Summary {
        n,
        line,
        title,
        end: ending(r),
        moves: r.moves.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = r#"{"moves":["E5","SWAP","F7"],"ms":[900,12,250],"messages":["opening","swap",null],"winner":null,"reason":"draw","detail":"d","cmd0":"a","cmd1":"b","seed":7}"#;

    #[test]
    fn a_move_list_reads_with_spaces_or_commas_and_bad_words_are_named() {
        let g = move_list("E5, F7\nSWAP").unwrap_err();
        assert!(g.starts_with("move 3 (SWAP)"), "{g}");
        assert_eq!(move_list(" e5 F7,g9 ").unwrap().len(), 3);
        let err = move_list("E5 Z9").unwrap_err();
        assert!(err.starts_with("move 2 \"Z9\" is not a move"), "{err}");
        assert_eq!(move_list("  ").unwrap_err(), "no move in the text");
        assert!(read("").unwrap_err().contains("empty"));
    }

    #[test]
    fn records_keep_their_times_and_bad_lines_are_left_out_and_named() {
        let text = format!(
            "{RECORD}\nnot json\n\n{}\n{{\"moves\":",
            RECORD.replace("\"F7\"", "\"E5\"")
        );
        let lib = read(&text).unwrap();
        assert_eq!(lib.len(), 1);
        let g = &lib.game(1).unwrap();
        assert_eq!(g.moves()[1].ms, Some(12));
        assert_eq!(g.moves()[0].msg.as_deref(), Some("opening"));
        assert_eq!(g.players.names, ["a".to_string(), "b".to_string()]);
        assert_eq!(lib.summaries().next().unwrap().title, "seed 7: a vs b");
        assert!(lib.game(2).is_none() && lib.game(0).is_none());
        let named = &lib.left_out.named;
        assert_eq!((named.len(), lib.left_out.more), (3, 0), "{named:?}");
        assert!(named[0].starts_with("line 2: not a game record"));
        assert!(named[1].starts_with("line 4: move 3 (E5)"), "{named:?}");
        assert!(named[2].starts_with("line 5: not a game record"));
        let err = read("{\"moves\":[]}\n{oops").unwrap_err();
        assert!(
            err.starts_with("no game can be opened: line 1: not a game record"),
            "{err}"
        );
    }

    #[test]
    fn past_the_first_few_bad_lines_are_counted_not_named() {
        let text = format!("{RECORD}\n{}", "junk\n".repeat(1000));
        let lib = read(&text).unwrap();
        assert_eq!(lib.left_out.named.len(), NAMED);
        assert_eq!(lib.left_out.more, 1000 - NAMED);
        assert!(lib.left_out.named[4].starts_with("line 6: not a game record"));
        let err = read(&format!("{{\n{}", "x\n".repeat(1000))).unwrap_err();
        assert!(err.starts_with("no game can be opened: line 1: not a game record"));
        assert!(err.contains("; line 5: not a game record"), "{err}");
        assert!(err.ends_with("; and 996 more lines left out"), "{err}");
        let err = read_file(vec![b'{', 0xff]).unwrap_err();
        assert_eq!(err, "the file is not UTF-8 text (byte 2)");
    }

    #[test]
    fn a_record_written_by_the_board_reads_back() {
        let mut g = move_list("E5 F7 G9").unwrap();
        g.goto(3).unwrap();
        let text = g.record().to_json();
        let lib = read(&text).unwrap();
        assert_eq!(lib.game(1).unwrap().moves(), g.moves());
    }
}
