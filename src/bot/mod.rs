//! The bot process: reads turns until EOF, remembers its side, answers each turn in time.

#[cfg(not(codingame))]
pub mod analyze;
pub mod args;
pub mod book;
mod book_moves;
pub mod opening;
pub mod options;
pub mod reserve;

use crate::cell::Player;
use crate::position::{last_pegs_after, LastPegs, Move, Position};
use crate::protocol::{Answer, LastMove, ParsedTurn, TurnInput, TurnReader};
use crate::search::{Found, Limits, Report, Searcher};
use options::{help, parse_args, Command, Options, Request};
use reserve::Reserve;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// Exit status when the input cannot be understood well enough to answer.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Runs the command line `args` (without the program name) on stdin/stdout/stderr and
/// returns the exit status.
pub fn main_with_args<I: IntoIterator<Item = String>>(args: I) -> i32 {
    let stderr = std::io::stderr();
    let mut log = stderr.lock();
    match parse_args(args) {
        Err(e) => {
            let _ = writeln!(log, "twixt-bot: {}", e);
            EXIT_BAD_INPUT
        }
        Ok(Command::Help) => {
            println!("{}", help());
            0
        }
        Ok(Command::Bench(seconds)) => bench(seconds),
        Ok(Command::Analyze(request)) => analyze(&request),
        Ok(Command::Params(params)) => list_params(&params),
        Ok(Command::Play(opts)) => {
            let stdin = std::io::stdin();
            let stdout = std::io::stdout();
            Bot::new(opts).run(stdin.lock(), &mut stdout.lock(), &mut log)
        }
    }
}

/// `twixt-bot bench`: playout speed and the search signature.
#[cfg(not(codingame))]
fn bench(seconds: f64) -> i32 {
    crate::bench::run(seconds, &mut std::io::stdout().lock());
    0
}

/// The CodinGame bundle leaves the bench out to save room.
#[cfg(codingame)]
fn bench(_: f64) -> i32 {
    not_in_bundle("bench")
}

/// Says that `what` is left out of the CodinGame bundle.
#[cfg(codingame)]
fn not_in_bundle(what: &str) -> i32 {
    eprintln!(
        "twixt-bot: {} is not in the CodinGame bundle; run the cargo-built bot",
        what
    );
    EXIT_BAD_INPUT
}

/// `twixt-bot params`: the tunables, for tuners.
#[cfg(not(codingame))]
fn list_params(params: &crate::search::params::Params) -> i32 {
    print!("{}", crate::search::params::tunables(params));
    0
}

/// The CodinGame bundle has no parameter list (its declarations are host-only).
#[cfg(codingame)]
fn list_params(_: &crate::search::params::Params) -> i32 {
    not_in_bundle("params")
}

/// `twixt-bot analyze`: the search's view of one turn input.
#[cfg(not(codingame))]
fn analyze(request: &Request) -> i32 {
    analyze::run(request)
}

/// The CodinGame bundle has no analyze (its arguments are refused before this).
#[cfg(codingame)]
fn analyze(_: &Request) -> i32 {
    EXIT_BAD_INPUT
}

/// One game's bot.
pub struct Bot {
    opts: Options,
    searcher: Searcher,
    side: Option<Player>,
    turns: u32,
    /// The last pegs after our last answer ([`last_pegs_after`]): what the learned prior reads,
    /// with the opponent's move of the next turn.
    last_pegs: LastPegs,
    /// Chooses our first peg among the opening table's (the seed).
    first_pick: u64,
    /// The stalls of the last turns, which the next expects.
    reserve: Reserve,
    /// The book's entries ([`book`]): the shipped ones.
    book: &'static str,
}

impl Bot {
    /// A bot with these options.
    pub fn new(opts: Options) -> Bot {
        let seed = opts.seed.unwrap_or_else(rand::random);
        Bot {
            searcher: Searcher::new(opts.params.clone(), seed),
            opts,
            side: None,
            turns: 0,
            last_pegs: [None; 2],
            first_pick: first_pick(seed),
            reserve: Reserve::default(),
            book: book_moves::BOOK,
        }
    }

    /// A bot that joins a game under way as `side` (the board's engine, asked to move where a
    /// person played so far): the position alone does not always tell the side, since counting
    /// pegs misleads after a swap, and a turn answered only to learn it would leave that
    /// answer behind as the bot's last peg and tree.
    /// `last_pegs` are the game's after the bot's own last move (before the opponent's last).
    #[cfg(not(codingame))]
    pub fn joining(opts: Options, side: Player, last_pegs: LastPegs) -> Bot {
        Bot {
            side: Some(side),
            last_pegs,
            ..Bot::new(opts)
        }
    }

    /// Plays turns until the input ends (status 0) or is unusable (status 2).
    pub fn run<R: BufRead, W: Write, E: Write>(
        &mut self,
        input: R,
        out: &mut W,
        log: &mut E,
    ) -> i32 {
        let mut reader = TurnReader::new(input);
        while let Some(first) = reader.first_line() {
            let start = Instant::now();
            let turn = reader.rest_of_turn(first);
            for e in &turn.errors {
                let _ = writeln!(log, "twixt-bot: {}", e);
            }
            if !turn.pegs_known {
                let _ = writeln!(log, "twixt-bot: the board is unknown: no answer, exiting");
                return EXIT_BAD_INPUT;
            }
            let limits = self.limits(start);
            let (answer, said) = self.answer(&turn, &limits, log);
            // How late the answer is ready; not after the write, where the referee, woken by
            // it, may keep us from running once the answer is in.
            let ready = Instant::now();
            let late = limits
                .soft_deadline
                .map_or(Duration::default(), |d| ready.saturating_duration_since(d));
            self.remember(&turn.input, answer.mv);
            if writeln!(out, "{}", answer)
                .and_then(|_| out.flush())
                .is_err()
            {
                return 0;
            }
            self.reserve.observe(self.searcher.stall(), late);
            self.log_turn(log, ready - start, &said);
            self.turns += 1;
        }
        0
    }

    /// The last pegs the learned prior reads on the turn `input`: those after our last answer,
    /// then the input's last move (the opponent's).
    pub fn last_pegs_for(&self, input: &TurnInput) -> LastPegs {
        input.last_pegs(self.last_pegs)
    }

    /// Remembers that `mv` answered the turn `input`.
    pub fn remember(&mut self, input: &TurnInput, mv: Move) {
        self.last_pegs = last_pegs_after(self.last_pegs_for(input), mv);
    }

    /// The answer to one turn whose pegs are known, and what to log of it. Never panics: a
    /// failure inside the search falls back to any legal hole.
    fn answer<E: Write>(
        &mut self,
        turn: &ParsedTurn,
        limits: &Limits,
        log: &mut E,
    ) -> (Answer, String) {
        let input = &turn.input;
        let me = *self.side.get_or_insert_with(|| input.infer_side());
        let (pos, _) = position_of(input, me, log);
        // The book first: it answers a first peg too (swap or reply), but not with `no_swap`,
        // where the search does.
        let off = self.opts.no_book || (self.opts.no_swap && pos.swap_allowed());
        if let Some(mv) = book::lookup_in(self.book, &pos).filter(|_| !off) {
            return self.play_from_table(&pos, mv, "book", "book", limits, log);
        }
        if let Some((mv, why)) = table_move(&pos, input.last, self.opts.no_swap, self.first_pick) {
            return self.play_from_table(&pos, mv, why, "opening table", limits, log);
        }
        let swap_turn = pos.swap_allowed();
        self.searcher.set_history(self.last_pegs_for(input));
        let searcher = &mut self.searcher;
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if swap_turn {
                searcher.choose_peg(&pos, limits)
            } else {
                searcher.choose(&pos, limits)
            }
        }));
        match found {
            Ok(Some(report)) => {
                let answer = Answer {
                    mv: report.best,
                    message: match report.found {
                        Found::WinInOne => "win".to_string(),
                        Found::WinInTwo => "win in two".to_string(),
                        Found::Search => format!("{:.0}%", report.value * 100.0),
                    },
                };
                (answer, describe(&report))
            }
            Ok(None) | Err(_) => {
                let mv = fallback(&pos);
                let why = match found {
                    Err(_) => "the search panicked",
                    _ => "no search result",
                };
                let _ = writeln!(log, "twixt-bot: {}; playing {}", why, mv);
                let answer = Answer {
                    mv,
                    message: String::new(),
                };
                (answer, format!("{} ({})", mv, why))
            }
        }
    }

    /// Plays `mv`, decided by the opening table (our first peg, or SWAP) or the book
    /// (`source`), after searching the position it leads to (the opponent to move) until the
    /// turn's soft deadline, so that the next turn starts from that tree.
    fn play_from_table<E: Write>(
        &mut self,
        pos: &Position,
        mv: Move,
        message: &str,
        source: &str,
        limits: &Limits,
        log: &mut E,
    ) -> (Answer, String) {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        self.ponder(&after, limits, log);
        let answer = Answer {
            mv,
            message: message.to_string(),
        };
        (answer, format!("{} ({})", mv, source))
    }

    /// Searches `pos` (the opponent to move) until this turn's soft deadline, keeping the tree.
    fn ponder<E: Write>(&mut self, pos: &Position, limits: &Limits, log: &mut E) {
        let searcher = &mut self.searcher;
        let pondered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            searcher.ponder(pos, limits)
        }));
        if pondered.is_err() {
            // Whatever the search left behind is not to be trusted next turn.
            let _ = writeln!(log, "twixt-bot: the search failed; next turn starts afresh");
            self.searcher = Searcher::new(self.opts.params.clone(), 0);
        }
    }

    /// The turn's limits; a turn on the clock expects the stalls of the last turns.
    fn limits(&mut self, start: Instant) -> Limits {
        match self.opts.playouts {
            Some(n) => Limits {
                soft_deadline: None,
                hard_deadline: None,
                iterations: Some(n),
            },
            None => {
                let (think, clock) = if self.turns == 0 {
                    (self.opts.first_think_ms, self.opts.first_clock_ms)
                } else {
                    (self.opts.think_ms, self.opts.clock_ms)
                };
                let think = Duration::from_millis(think);
                let hard = reserve::hard_deadline(think, Duration::from_millis(clock));
                self.searcher.expect_stall(self.reserve.expected(hard));
                Limits {
                    soft_deadline: Some(start + think),
                    hard_deadline: Some(start + hard),
                    iterations: None,
                }
            }
        }
    }

    /// The turn's line: what was played, the time from reading the turn to the answer, and the
    /// search's longest stall.
    fn log_turn<E: Write>(&self, log: &mut E, took: Duration, what: &str) {
        if !self.opts.quiet {
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            let _ = writeln!(
                log,
                "turn {}: {} time {:.0} ms stall {:.1} ms",
                self.turns + 1,
                what,
                ms(took),
                ms(self.searcher.stall())
            );
        }
    }
}

/// The position `input` describes, `me` to answer, built from what is sound in it, and how
/// many problems it had, each reported on `log` with its line.
fn position_of<E: Write>(input: &TurnInput, me: Player, log: &mut E) -> (Position, usize) {
    let (pos, problems) = input.setup(me).build();
    for e in &problems {
        let _ = writeln!(log, "twixt-bot: line {}: {}", input.line_of(me, e), e);
    }
    (pos, problems.len())
}

/// The number that chooses our first peg among the table's: the seed's high bits, mixed,
/// since the seeds of a run often share their low bits.
fn first_pick(seed: u64) -> u64 {
    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32
}

/// The move the opening table decides, with the answer's message: our first peg on the
/// empty board (the table's hole that `pick` chooses), SWAP of a first peg worth swapping,
/// or the table's reply to a first peg that stays. With `no_swap` the table answers no first
/// peg (neither SWAP nor a reply): the search does, as self-play that measures openings needs.
fn table_move(
    pos: &Position,
    last: Option<LastMove>,
    no_swap: bool,
    pick: u64,
) -> Option<(Move, &'static str)> {
    if pos.to_move() == Player::Zero && pos.board().occupied().is_empty() {
        return Some((Move::Peg(opening::first_peg(pick)), "opening"));
    }
    let first = match last {
        Some(LastMove::Peg(c)) if pos.swap_allowed() && !no_swap => c,
        _ => return None,
    };
    if opening::should_swap(first) {
        return Some((Move::Swap, "swap"));
    }
    let peg = opening::table_reply(first).filter(|&r| pos.legal_holes().has(r))?;
    Some((Move::Peg(peg), "reply"))
}

fn describe(r: &Report) -> String {
    match r.found {
        Found::WinInOne => format!("{} wins at once", r.best),
        Found::WinInTwo => format!("{} wins in two", r.best),
        Found::Search => format!(
            "{} value {:.3} visits {} playouts {} nodes {} reused {}",
            r.best, r.value, r.best_visits, r.iterations, r.nodes, r.reused
        ),
    }
}

/// Any move that can be played: a legal hole of the player to move, else any vacant hole,
/// else `SWAP` (there is nothing sensible left to say).
fn fallback(pos: &Position) -> Move {
    let vacant = crate::bitboard::Bitboard::HOLES.and_not(pos.board().occupied());
    pos.legal_holes()
        .iter()
        .next()
        .or_else(|| vacant.iter().next())
        .map_or(Move::Swap, Move::Peg)
}

#[cfg(test)]
mod tests;
