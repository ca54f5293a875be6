//! The bot the person plays: by default the engine itself, run in this process exactly as
//! `twixt-bot` runs (its opening table, its swap, its clock), told its clock and its side, fed
//! turn inputs on a thread; with `--bot CMD`, any command that speaks the protocol, through the
//! referee's process handling. Either way an answer is awaited with a deadline: a bot that
//! hangs, crashes or answers nonsense is a fault with its reason, never a hung page. The
//! engine's trees are reserved from the server's [`memory`](crate::memory) budget for as long
//! as its thread keeps them.

use crate::memory::{Allowance, Budget, Leaving};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};
use twixt::bot::options::Options;
use twixt::bot::Bot;
use twixt::cell::Player;
use twixt::position::{last_pegs, LastPegs, Move};
use twixt::search::Searcher;
use twixt_referee::clocks::{Clocks, LATE_GRACE};
use twixt_referee::game::judge_reply;
use twixt_referee::process::{BotProcess, Reply};
use twixt_referee::record::Reason;

/// Which bot plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The engine in this process.
    Engine,
    /// A command that speaks the protocol.
    Command(String),
}

impl Kind {
    /// The name a record gives the bot.
    pub fn name(&self) -> String {
        match self {
            Kind::Engine => "twixt-bot (in twixt-board)".to_string(),
            Kind::Command(cmd) => cmd.clone(),
        }
    }
}

/// The bot's clock: CodinGame's ([`Clocks::CODINGAME`]) or a set time a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// CodinGame's clocks.
    CodinGame,
    /// This many milliseconds every turn.
    Ms(u64),
}

impl Clock {
    /// The shortest and longest set time a request may ask for, in ms.
    pub const RANGE: (u64, u64) = (100, 10_000);

    /// The referee's clocks for it (a record keeps them).
    pub fn clocks(self) -> Clocks {
        match self {
            Clock::CodinGame => Clocks::CODINGAME,
            Clock::Ms(ms) => Clocks {
                first_ms: ms,
                turn_ms: ms,
                margin_ms: 0,
            },
        }
    }

    /// The time allowed for a turn.
    pub fn allowed(self, first_turn: bool) -> Duration {
        Duration::from_millis(self.clocks().allowed_ms(first_turn))
    }

    /// The engine's options for this clock: told the clock, whose hard deadline the search keeps to
    /// ([`twixt::bot::reserve`]); its own think times under CodinGame's, else a sixth of the
    /// time kept as margin, 50 ms at least (as the defaults keep under 300 ms).
    fn engine_options(self) -> Options {
        let clocks = self.clocks();
        let mut opts = Options {
            quiet: true,
            clock_ms: clocks.allowed_ms(false),
            first_clock_ms: clocks.allowed_ms(true),
            ..Options::default()
        };
        if let Clock::Ms(ms) = self {
            opts.think_ms = ms - (ms / 6).max(50);
            opts.first_think_ms = opts.think_ms;
        }
        opts
    }
}

/// A legal-looking answer: the move, the milliseconds it took, the bot's message.
pub type Answered = (Move, u64, Option<String>);

/// A fault: the reason and the words after "player N".
pub type Failed = (Reason, String);

/// One running bot for one game.
pub struct Opponent {
    bot: Running,
    clock: Clock,
    answered: usize,
    /// The game's moves up to its last answer, once it has answered.
    line: Option<Vec<Move>>,
    /// The bytes of the budget its trees hold (0 for a command).
    kept: usize,
}

enum Running {
    Engine(EngineThread),
    Process(BotProcess),
}

impl Opponent {
    /// Starts the bot to play `side` in a game whose moves so far are `moves`, the engine's
    /// trees reserved from `memory`; an error says why it could not be started.
    pub fn start(
        kind: &Kind,
        clock: Clock,
        side: Player,
        moves: &[Move],
        memory: &Arc<Budget>,
    ) -> Result<Opponent, String> {
        let mut kept = 0;
        let bot = match kind {
            Kind::Engine => {
                let allowance = memory
                    .allow(Searcher::MOST_TREES, "the bot")
                    .map_err(|e| e.message)?;
                kept = allowance.reservation.bytes();
                // The engine is told the last pegs as they were after its own last move: the
                // opponent's last one comes with the turn, as in a game it played.
                let own = last_pegs(&moves[..moves.len().saturating_sub(1)]);
                let opts = clock.engine_options();
                Running::Engine(EngineThread::start(opts, side, own, allowance))
            }
            Kind::Command(cmd) => Running::Process(
                BotProcess::spawn(cmd, None).map_err(|e| format!("cannot start the bot: {e:#}"))?,
            ),
        };
        Ok(Opponent {
            bot,
            clock,
            answered: 0,
            line: None,
            kept,
        })
    }

    /// Whether the bot can answer after `moves`: it has not answered yet, or they are the line
    /// of its last answer and one move more. A bot whose line was changed under it (a
    /// take-back, a move at an earlier ply) would remember a last move that is not the game's.
    pub fn follows(&self, moves: &[Move]) -> bool {
        self.line
            .as_ref()
            .is_none_or(|line| moves.len() == line.len() + 1 && moves.starts_with(line))
    }

    /// Records that its answer was played: `moves` are the game's, up to that answer.
    pub fn played(&mut self, moves: Vec<Move>) {
        self.line = Some(moves);
    }

    /// The bytes of the budget its trees hold (0 for a command, which is not counted).
    pub fn kept_bytes(&self) -> usize {
        self.kept
    }

    /// How many turns it has answered.
    pub fn answered(&self) -> usize {
        self.answered
    }

    /// Whether the bot, to join a game under way, must first be sent its first turn of the
    /// game: a command learns its side only from the turns it reads (the engine is told it).
    pub fn needs_first_turn(&self) -> bool {
        matches!(self.bot, Running::Process(_)) && self.answered == 0
    }

    /// Sends the bot its first turn of the game, which it missed, for it to learn its side.
    /// Its answer is not played: only that it came in time counts, as the next answer must not
    /// be a late one. An error says why the bot cannot join.
    pub fn send_first_turn(&mut self, input: String) -> Result<(), String> {
        let clock = self.clock.allowed(true);
        let reply = self.reply(input, clock);
        let (_, detail) = match judge_reply(reply, clock) {
            Ok(_) => return Ok(()),
            Err(failed) => failed,
        };
        Err(format!(
            "the bot cannot join the game: sent its first turn of the game (to learn its side), \
             it {detail}"
        ))
    }

    /// Sends one turn input and waits for the answer under the clock (the first turn's for
    /// the bot's first answer); the move is parsed, not yet judged by the rules.
    pub fn ask(&mut self, input: String) -> Result<Answered, Failed> {
        let clock = self.clock.allowed(self.answered == 0);
        let reply = self.reply(input, clock);
        let (answer, ms) = judge_reply(reply, clock)?;
        let mv = answer.to_move().map_err(|why| (Reason::Illegal, why))?;
        Ok((mv, ms, answer.message))
    }

    /// The bot's reply to `input`, awaited `clock` and the grace after it.
    fn reply(&mut self, input: String, clock: Duration) -> Reply {
        self.answered += 1;
        match &mut self.bot {
            Running::Engine(e) => e.ask(input, clock + LATE_GRACE),
            Running::Process(p) => p.ask(input, clock, LATE_GRACE),
        }
    }
}

/// The engine's bot on a thread of its own, reading turn inputs from a channel and writing
/// its answer lines to another, as the process would on stdin and stdout.
struct EngineThread {
    input: Sender<String>,
    lines: Receiver<(String, Instant)>,
    /// Says its trees' memory is on its way back once it is dropped (its thread then ends).
    leaving: Leaving,
}

impl Drop for EngineThread {
    fn drop(&mut self) {
        self.leaving.mark();
    }
}

impl EngineThread {
    /// Starts it as `side`, told the game's last pegs after its own last move (`own`), with
    /// its trees within `memory`, which it gives back once they are dropped.
    fn start(mut opts: Options, side: Player, own: LastPegs, memory: Allowance) -> EngineThread {
        opts.params.max_nodes = memory.max_nodes;
        let leaving = memory.reservation.leaving();
        let (input, turns) = mpsc::channel::<String>();
        let (out, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let reader = BufReader::new(ChannelReader {
                turns,
                text: Vec::new(),
                at: 0,
            });
            let mut writer = LineWriter {
                out,
                line: Vec::new(),
            };
            Bot::joining(opts, side, own).run(reader, &mut writer, &mut std::io::sink());
            drop(memory);
        });
        EngineThread {
            input,
            lines,
            leaving,
        }
    }

    /// The reply to `text` within `wait`.
    fn ask(&mut self, text: String, wait: Duration) -> Reply {
        let sent = Instant::now();
        if self.input.send(text).is_err() {
            return Reply::InputClosed;
        }
        match self.lines.recv_timeout(wait) {
            Ok((line, at)) => Reply::Line(line, at.saturating_duration_since(sent)),
            Err(RecvTimeoutError::Timeout) => Reply::Silent,
            Err(RecvTimeoutError::Disconnected) => Reply::Closed,
        }
    }
}

/// The engine's stdin: the turn inputs sent to it, as one stream; its end when the sender
/// is dropped.
struct ChannelReader {
    turns: Receiver<String>,
    text: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.text.len() {
            match self.turns.recv() {
                Ok(text) => {
                    self.text = text.into_bytes();
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The engine's stdout: each line sent on as it is completed, with when.
struct LineWriter {
    out: Sender<(String, Instant)>,
    line: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let text = String::from_utf8_lossy(&self.line).trim_end().to_string();
                self.line.clear();
                self.out
                    .send((text, Instant::now()))
                    .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
            } else {
                self.line.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twixt::bot::reserve::hard_deadline;
    use twixt_reference::{turn_input, RefGame};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn budget() -> Arc<Budget> {
        Budget::new(1 << 30, 2)
    }

    #[test]
    fn the_engine_answers_legal_moves_under_a_set_clock_and_knows_its_side_after_a_swap() {
        let mut bot =
            Opponent::start(&Kind::Engine, Clock::Ms(200), Player::Zero, &[], &budget()).unwrap();
        assert!(!bot.needs_first_turn(), "the engine is told its side");
        let mut game = RefGame::new();
        game.play("C5".parse().unwrap()).unwrap();
        game.play(Move::Swap).unwrap();
        for _ in 0..3 {
            // The engine is player 0 here, told SWAP first: it must keep to rows.
            let (mv, ms, _) = bot.ask(turn_input(&game)).unwrap();
            assert!(ms <= 200, "{ms} ms");
            game.play(mv).unwrap();
            let reply = game.legal_moves()[0];
            game.play(reply).unwrap();
        }
        assert_eq!(bot.answered(), 3);
    }

    #[test]
    fn a_bot_follows_only_the_line_of_its_last_answer() {
        let line = |text: &str| -> Vec<Move> {
            text.split_whitespace()
                .map(|m| m.parse().unwrap())
                .collect()
        };
        let mut bot =
            Opponent::start(&Kind::Engine, Clock::Ms(200), Player::One, &[], &budget()).unwrap();
        assert!(
            bot.follows(&line("E5")),
            "a bot that has not answered joins anywhere"
        );
        bot.played(line("E5 F7"));
        assert!(bot.follows(&line("E5 F7 D4")));
        assert!(!bot.follows(&line("E5")), "its answer taken back");
        assert!(!bot.follows(&line("C5 F7 D4")), "another line");
        assert!(
            !bot.follows(&line("E5 F7 D4 G8 C3")),
            "moves it did not answer"
        );
    }

    #[test]
    fn a_silent_or_dead_command_is_a_fault_in_time() {
        let mut silent = Opponent::start(
            &Kind::Command("sleep 5".into()),
            Clock::Ms(200),
            Player::One,
            &[],
            &budget(),
        )
        .unwrap();
        assert!(
            silent.needs_first_turn(),
            "a command learns its side from its turns"
        );
        let start = Instant::now();
        let (reason, detail) = silent.ask(turn_input(&RefGame::new())).unwrap_err();
        assert_eq!(reason, Reason::Timeout);
        assert_eq!(detail, "gave no answer within 200 ms");
        assert!(start.elapsed() < Duration::from_secs(2));
        let mut dead = Opponent::start(
            &Kind::Command("true".into()),
            Clock::CodinGame,
            Player::One,
            &[],
            &budget(),
        )
        .unwrap();
        let (reason, _) = dead.ask(turn_input(&RefGame::new())).unwrap_err();
        assert_eq!(reason, Reason::Crash);
        let mut chatty = Opponent::start(
            &Kind::Command("echo hello".into()),
            Clock::CodinGame,
            Player::One,
            &[],
            &budget(),
        )
        .unwrap();
        let (reason, detail) = chatty.ask(turn_input(&RefGame::new())).unwrap_err();
        assert_eq!(reason, Reason::Illegal);
        assert!(detail.contains("hello"), "{detail}");
        let nowhere = Kind::Command("/no/such/bot".into());
        let started = Opponent::start(&nowhere, Clock::CodinGame, Player::One, &[], &budget());
        assert!(started.is_err());
    }

    #[test]
    fn the_engine_is_told_the_clock_it_plays_at() {
        let codingame = Clock::CodinGame.engine_options();
        let quiet = Options {
            quiet: true,
            ..Options::default()
        };
        assert_eq!(codingame, quiet, "its own defaults are CodinGame's");
        for ms in [Clock::RANGE.0, 250, 1000, Clock::RANGE.1] {
            let opts = Clock::Ms(ms).engine_options();
            assert_eq!((opts.clock_ms, opts.first_clock_ms), (ms, ms));
            assert!(opts.think_ms < ms && opts.first_think_ms < ms, "{opts:?}");
        }
        for clock in [Clock::CodinGame, Clock::Ms(Clock::RANGE.0)] {
            let opts = clock.engine_options();
            // A stalled search answers by its hard deadline: inside the time allowed.
            for (think, clock_ms, first) in [
                (opts.first_think_ms, opts.first_clock_ms, true),
                (opts.think_ms, opts.clock_ms, false),
            ] {
                let hard = hard_deadline(ms(think), ms(clock_ms));
                assert!(hard < clock.allowed(first), "{clock:?}: {hard:?}");
            }
        }
    }
}
