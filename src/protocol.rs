//! CodinGame's Twixt-PP turn protocol: reading a turn into a raw [`TurnInput`] (every item
//! with its line number), turning it into a [`Setup`], and formatting the [`Answer`].
//!
//! Tolerates CRLF, stray spaces, blank lines, segment ends in either order and any listing
//! order. Problems are collected with the line they were found on; only a bad count or the end
//! of the input stops the reading of a turn.

use crate::bitboard::Bitboard;
use crate::cell::{Cell, Player};
use crate::position::{last_pegs_after, LastPegs, Move};
use crate::setup::{Item, Setup, SetupError};
use std::fmt;
use std::io::BufRead;

/// Most pegs a player can have (the holes of the board), and so the largest sane peg count.
const MAX_PEGS: usize = Bitboard::HOLES.count() as usize;
/// Largest sane segment count: a peg has at most 8 links, each shared by two pegs.
const MAX_SEGMENTS: usize = MAX_PEGS * 4;

/// The first line of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastMove {
    /// `FIRST`: the very first turn of the game.
    First,
    /// `SWAP`: the opponent swapped.
    Swap,
    /// The opponent's last peg.
    Peg(Cell),
}

impl LastMove {
    /// The move it names: `None` for `FIRST`.
    pub fn played(self) -> Option<Move> {
        match self {
            LastMove::First => None,
            LastMove::Swap => Some(Move::Swap),
            LastMove::Peg(c) => Some(Move::Peg(c)),
        }
    }

    /// What a turn input after `moves` names as the last move.
    #[cfg(not(codingame))]
    pub fn after(moves: &[Move]) -> LastMove {
        match moves.last() {
            None => LastMove::First,
            Some(Move::Swap) => LastMove::Swap,
            Some(&Move::Peg(c)) => LastMove::Peg(c),
        }
    }
}

/// A value read from the input and the line it stood on (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listed<T> {
    /// Line number in the whole input stream.
    pub line: usize,
    /// What was read.
    pub value: T,
}

/// One player's part of a turn input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The pegs.
    pub pegs: Vec<Listed<Cell>>,
    /// The segments (links), as two ends.
    pub segments: Vec<Listed<(Cell, Cell)>>,
}

/// A turn as read, before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInput {
    /// Line number of the turn's first line.
    pub line: usize,
    /// The first line, if it could be read.
    pub last: Option<LastMove>,
    /// The pegs and segments of the player who is to answer.
    pub mine: Listing,
    /// The opponent's.
    pub his: Listing,
}

/// A problem in the input, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line number in the input stream.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

/// The result of reading one turn.
#[derive(Clone, Debug)]
pub struct ParsedTurn {
    /// Everything that could be read.
    pub input: TurnInput,
    /// Every problem met, in input order.
    pub errors: Vec<InputError>,
    /// Whether both peg lists were read to their end (the board is known).
    pub pegs_known: bool,
}

/// Reads turns from a line-oriented input, counting lines.
pub struct TurnReader<R> {
    input: R,
    line: usize,
    bytes: Vec<u8>,
    /// The problems of the turn being read, in input order.
    errors: Vec<InputError>,
}

/// Reading stopped: the input ended or a count was unusable.
struct Stop;

impl<R: BufRead> TurnReader<R> {
    /// A reader at the start of the input.
    pub fn new(input: R) -> Self {
        TurnReader {
            input,
            line: 0,
            bytes: Vec::new(),
            errors: Vec::new(),
        }
    }

    fn error(&mut self, line: usize, problem: String) {
        self.errors.push(InputError { line, problem });
    }

    /// The next non-blank line, trimmed, with its number; `None` at the end of the input (or
    /// on a read error, which is the end as far as the game is concerned). Bytes that are not
    /// UTF-8 are reported with their line and column and read as U+FFFD, so that the item
    /// they spoil is reported too and the rest of the input reads as usual.
    fn next_line(&mut self) -> Option<(usize, String)> {
        loop {
            self.bytes.clear();
            match self.input.read_until(b'\n', &mut self.bytes) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {
                    self.line += 1;
                    if let Some(problem) = not_utf8(&self.bytes) {
                        self.error(self.line, problem);
                    }
                    let text = String::from_utf8_lossy(&self.bytes);
                    let text = text.trim();
                    if !text.is_empty() {
                        return Some((self.line, text.to_string()));
                    }
                }
            }
        }
    }

    /// Waits for the first line of the next turn; `None` at the end of the input.
    pub fn first_line(&mut self) -> Option<(usize, String)> {
        self.next_line()
    }

    /// Reads the rest of a turn whose first line was `first`.
    pub fn rest_of_turn(&mut self, first: (usize, String)) -> ParsedTurn {
        let last = match parse_last(&first.1) {
            Ok(l) => Some(l),
            Err(problem) => {
                self.error(first.0, problem);
                None
            }
        };
        let mut mine = Listing::default();
        let mut his = Listing::default();
        let mut pegs_known = false;
        if self.read_listing(&mut mine, "your", None).is_ok() {
            // A stop inside the second listing is already recorded in `errors`.
            let _ = self.read_listing(&mut his, "his", Some(&mut pegs_known));
        }
        if let Some(LastMove::Peg(c)) = last {
            // The opponent's last peg is his even when its line was garbled or missing.
            let listed = |l: &Listing| l.pegs.iter().any(|p| p.value == c);
            if !listed(&his) && !listed(&mine) {
                his.pegs.push(Listed {
                    line: first.0,
                    value: c,
                });
            }
        }
        let mut errors = std::mem::take(&mut self.errors);
        // A byte problem of the first line was met before its parse: keep input order.
        errors.sort_by_key(|e| e.line);
        ParsedTurn {
            input: TurnInput {
                line: first.0,
                last,
                mine,
                his,
            },
            errors,
            pegs_known,
        }
    }

    /// Reads a count, that many pegs, a count and that many segments. Sets `pegs_done` once
    /// the pegs are read (used for the second listing: then every peg is known).
    fn read_listing(
        &mut self,
        out: &mut Listing,
        whose: &str,
        pegs_done: Option<&mut bool>,
    ) -> Result<(), Stop> {
        let n = self.read_count(&format!("the number of {} pegs", whose), MAX_PEGS)?;
        for _ in 0..n {
            let (line, text) = self.expect_line(&format!("{} peg", whose))?;
            match text.parse::<Cell>() {
                Ok(c) => out.pegs.push(Listed { line, value: c }),
                Err(e) => self.error(line, e.to_string()),
            }
        }
        if let Some(done) = pegs_done {
            *done = true;
        }
        let n = self.read_count(&format!("the number of {} segments", whose), MAX_SEGMENTS)?;
        for _ in 0..n {
            let (line, text) = self.expect_line(&format!("{} segment", whose))?;
            match parse_segment(&text) {
                Ok(seg) => out.segments.push(Listed { line, value: seg }),
                Err(problem) => self.error(line, problem),
            }
        }
        Ok(())
    }

    fn expect_line(&mut self, what: &str) -> Result<(usize, String), Stop> {
        match self.next_line() {
            Some(l) => Ok(l),
            None => {
                let problem = format!("the input ends where {} was expected", what);
                self.error(self.line + 1, problem);
                Err(Stop)
            }
        }
    }

    fn read_count(&mut self, what: &str, max: usize) -> Result<usize, Stop> {
        let (line, text) = self.expect_line(what)?;
        match text.parse::<usize>() {
            Ok(n) if n <= max => Ok(n),
            _ => {
                let problem = format!("'{}' is not {} (a whole number 0-{})", text, what, max);
                self.error(line, problem);
                Err(Stop)
            }
        }
    }
}

/// What is wrong with a line that is not UTF-8 text: its first bad byte and where it is.
fn not_utf8(bytes: &[u8]) -> Option<String> {
    let e = std::str::from_utf8(bytes).err()?;
    let good = e.valid_up_to();
    let column = String::from_utf8_lossy(&bytes[..good]).chars().count() + 1;
    Some(format!(
        "byte 0x{:02X} at column {} is not UTF-8 text (read as U+FFFD)",
        bytes[good], column
    ))
}

fn parse_last(text: &str) -> Result<LastMove, String> {
    if text.eq_ignore_ascii_case("FIRST") {
        return Ok(LastMove::First);
    }
    match text.parse::<Move>() {
        Ok(Move::Swap) => Ok(LastMove::Swap),
        Ok(Move::Peg(c)) => Ok(LastMove::Peg(c)),
        Err(e) => Err(format!(
            "expected FIRST, SWAP or the opponent's last peg: {}",
            e
        )),
    }
}

fn parse_segment(text: &str) -> Result<(Cell, Cell), String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.len() != 2 {
        return Err(format!("'{}' is not a segment (two hole names)", text));
    }
    let a = parts[0].parse::<Cell>().map_err(|e| e.to_string())?;
    let b = parts[1].parse::<Cell>().map_err(|e| e.to_string())?;
    Ok((a, b))
}

impl TurnInput {
    /// The unchecked position this turn describes, `me` being the player to answer.
    pub fn setup(&self, me: Player) -> Setup {
        let mut s = Setup {
            to_move: me,
            ..Setup::default()
        };
        for (p, listing) in [(me, &self.mine), (me.other(), &self.his)] {
            s.pegs[p.index()] = listing.pegs.iter().map(|l| l.value).collect();
            s.links[p.index()] = listing.segments.iter().map(|l| l.value).collect();
        }
        s
    }

    /// The line a setup problem refers to.
    pub fn line_of(&self, me: Player, e: &SetupError) -> usize {
        let listing = |p: Player| if p == me { &self.mine } else { &self.his };
        match e.item {
            Item::Peg(p, i) => listing(p).pegs.get(i).map(|l| l.line),
            Item::Link(p, i) => listing(p).segments.get(i).map(|l| l.line),
            Item::Whole => None,
        }
        .unwrap_or(self.line)
    }

    /// Which player is to answer, for a process that has not seen an earlier turn
    /// ([`infer_side`]).
    pub fn infer_side(&self) -> Player {
        let first_or_swap = matches!(self.last, Some(LastMove::First) | Some(LastMove::Swap));
        let cells = |l: &Listing| l.pegs.iter().map(|p| p.value).collect::<Vec<_>>();
        infer_side(first_or_swap, &cells(&self.mine), &cells(&self.his))
    }

    /// The last pegs at this turn, where they were `before` after our previous answer (none
    /// on a process's first turn): the opponent's last move is the input's.
    pub fn last_pegs(&self, before: LastPegs) -> LastPegs {
        match self.last.and_then(LastMove::played) {
            Some(mv) => last_pegs_after(before, mv),
            None => before,
        }
    }
}

/// Which player is to answer, for a process that has not seen an earlier turn (SPEC, "Side"),
/// from the turn's last move (`FIRST` or `SWAP`: `first_or_swap`) and the pegs it lists as
/// the mover's and the opponent's: FIRST or SWAP means player 0; one opposing peg and none of
/// ours means player 1; otherwise pegs on a border tell; otherwise assume no swap (equal
/// counts mean player 0).
pub fn infer_side(first_or_swap: bool, mine: &[Cell], his: &[Cell]) -> Player {
    if first_or_swap {
        return Player::Zero;
    }
    if mine.is_empty() && his.len() == 1 {
        return Player::One;
    }
    let any_on = |pegs: &[Cell], p: Player| pegs.iter().any(|c| c.on_border_of(p));
    let border_says_one = any_on(mine, Player::One) || any_on(his, Player::Zero);
    let border_says_zero = any_on(mine, Player::Zero) || any_on(his, Player::One);
    if border_says_one || (!border_says_zero && mine.len() != his.len()) {
        Player::One
    } else {
        Player::Zero
    }
}

/// What the bot prints: a move and an optional message (at most 20 characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move.
    pub mv: Move,
    /// Shown in the viewer; cut to 20 characters when printed.
    pub message: String,
}

/// Longest message CodinGame shows.
pub const MAX_MESSAGE: usize = 20;

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        let msg: String = self
            .message
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_MESSAGE)
            .collect();
        let msg = msg.trim();
        if !msg.is_empty() {
            write!(f, " {}", msg)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cell;

    fn read(text: &str) -> ParsedTurn {
        read_bytes(text.as_bytes())
    }

    fn read_bytes(bytes: &[u8]) -> ParsedTurn {
        let mut r = TurnReader::new(bytes);
        let first = r.first_line().unwrap();
        r.rest_of_turn(first)
    }

    #[test]
    fn reads_a_turn_with_crlf_spaces_and_reversed_segments() {
        let t = read("E5\r\n 2 \r\nD4\r\nF5\r\n1\r\nF5   D4\r\n1\r\nE5\r\n0\r\n");
        assert!(t.errors.is_empty(), "{:?}", t.errors);
        assert!(t.pegs_known);
        assert_eq!(t.input.last, Some(LastMove::Peg(cell("E5"))));
        assert_eq!(t.input.mine.pegs.len(), 2);
        assert_eq!(t.input.mine.segments[0].line, 6);
        assert_eq!(t.input.his.pegs[0].line, 8);
    }

    #[test]
    fn problems_name_their_line() {
        let t = read("FIRST\n1\nZ9\n0\n0\n0\n");
        assert_eq!(t.errors.len(), 1);
        assert_eq!(t.errors[0].line, 3);
        assert!(t.errors[0].to_string().starts_with("line 3: 'Z9'"));
        assert!(t.pegs_known);

        let t = read("FIRST\nx\n");
        assert_eq!(t.errors[0].line, 2);
        assert!(!t.pegs_known);

        let t = read("D6\n0\n0\n1\n");
        assert!(t.errors[0].problem.contains("ends where his peg"));
        assert_eq!(t.errors[0].line, 5);
        assert!(!t.pegs_known);

        let t = read("D6\n0\n0\n1\nD6\n1\nD6\n");
        assert!(t.pegs_known, "pegs were all read before the input ended");
        assert!(t.errors[0].problem.contains("not a segment"));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_named_and_the_rest_is_read() {
        // A stray byte on the first line: the line is named, the pegs still read.
        let t = read_bytes(b"E\xff5\n1\nD4\n0\n1\nE5\n0\n");
        assert_eq!(
            t.errors[0].to_string(),
            "line 1: byte 0xFF at column 2 is not UTF-8 text (read as U+FFFD)"
        );
        assert!(
            t.errors[1].problem.starts_with("expected FIRST, SWAP"),
            "{:?}",
            t.errors
        );
        assert!(t.pegs_known);
        assert_eq!(t.input.his.pegs.len(), 1);
        // On a later line: that peg is lost, the listing and the next one are read.
        let t = read_bytes(b"E5\n2\nD4\nF\xc35\n0\n1\nE5\n0\n");
        assert_eq!(t.errors.len(), 2, "{:?}", t.errors);
        assert_eq!((t.errors[0].line, t.errors[1].line), (4, 4));
        assert!(t.errors[0].problem.contains("byte 0xC3 at column 2"));
        assert!(t.pegs_known);
        assert_eq!((t.input.mine.pegs.len(), t.input.his.pegs.len()), (1, 1));
    }

    #[test]
    fn the_last_peg_counts_as_his_when_its_line_is_garbled() {
        let t = read("E6\n1\nE5\n0\n1\nE6 7\n0\n");
        assert_eq!(t.errors[0].line, 6);
        let his: Vec<Cell> = t.input.his.pegs.iter().map(|l| l.value).collect();
        assert_eq!(his, vec![cell("E6")]);
        assert_eq!(t.input.infer_side(), Player::Zero);
        // Listed once, it is not added twice.
        let t = read("E6\n1\nE5\n0\n1\nE6\n0\n");
        assert_eq!(t.input.his.pegs.len(), 1);
    }

    #[test]
    fn the_answer_message_is_cut_to_twenty_characters() {
        let a = Answer {
            mv: Move::Peg(cell("E5")),
            message: "a message that is far too long".to_string(),
        };
        assert_eq!(a.to_string(), "E5 a message that is fa");
        let a = Answer {
            mv: Move::Swap,
            message: String::new(),
        };
        assert_eq!(a.to_string(), "SWAP");
    }

    #[test]
    fn side_is_inferred_as_spec_says() {
        assert_eq!(read("FIRST\n0\n0\n0\n0\n").input.infer_side(), Player::Zero);
        assert_eq!(
            read("SWAP\n0\n0\n1\nE3\n0\n").input.infer_side(),
            Player::Zero
        );
        assert_eq!(read("C5\n0\n0\n1\nC5\n0\n").input.infer_side(), Player::One);
        // Player 1 owns column A: a peg of mine there means I am player 1.
        let t = read("E5\n1\nA4\n0\n2\nE5\nF8\n0\n");
        assert_eq!(t.input.infer_side(), Player::One);
        let t = read("E5\n1\nD4\n0\n1\nE5\n0\n");
        assert_eq!(t.input.infer_side(), Player::Zero);
    }
}
