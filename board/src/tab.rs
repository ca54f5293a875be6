//! One browser tab's board: a game (or a position arranged in the editor), the person's seat
//! against the bot, the bot, the analysis and the games brought as text.
//!
//! One search at a time: while the bot thinks, nothing that changes the position is taken
//! (the answer arrives within its clock); the analysis stops whenever the position changes.
//! The bot's turn takes one of the server's [`Slots`], as an analysis does: the one the tab's
//! last analysis holds (it stops for the new search), or a free one; with none, the request
//! that would start it is refused, nothing changed. Both reserve their trees from the server's
//! [`memory`](crate::memory) budget; an idle bot's kept trees may be given up for another
//! tab's search ([`Tab::forget_bot`]).

use crate::editor::Arrangement;
use crate::evaluation::Evaluation;
use crate::game::{Fault, Game, Played, Players};
use crate::library::Library;
use crate::live::{Analysis, Job};
use crate::memory::Budget;
use crate::opponent::{Answered, Clock, Failed, Kind, Opponent};
use crate::slots::{Slot, Slots};
use crate::ApiError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use twixt::cell::{Cell, Player};
use twixt::position::Move;
use twixt_referee::record::Reason;

mod variations;
mod view;

pub use view::View;

/// A tab's board shared between its requests and the bot's thread.
pub type Shared = Arc<Mutex<Tab>>;

/// One tab's board.
pub struct Tab {
    game: Game,
    arrangement: Option<Arrangement>,
    seat: Option<Player>,
    clock: Clock,
    kind: Kind,
    opponent: Option<Opponent>,
    thinking: bool,
    bot_note: Option<String>,
    analysis: Option<Analysis>,
    /// The last analysis stopped by a change of position: to the end of its slice it holds
    /// its slot, which the tab's next search takes over.
    stopped: Option<Analysis>,
    /// The evaluation graph of the game, dropped (and so stopped) when the board leaves it.
    evaluation: Option<Evaluation>,
    library: Library,
    version: u64,
    memory: Arc<Budget>,
    /// When a request last touched it.
    pub touched: Instant,
}

/// What came of a bot's turn.
enum BotTurn {
    /// Its answer, not yet judged by the rules.
    Answered(Answered),
    /// Its fault: late, crashed, or not a move.
    Failed(Failed),
    /// It could not join the game under way: why.
    NotJoined(String),
}

impl Tab {
    /// An empty board whose bot is `kind`, its searches' trees within `memory`; the person
    /// plays both sides until a seat is chosen.
    pub fn new(kind: Kind, memory: Arc<Budget>) -> Tab {
        Tab {
            game: Game::default(),
            arrangement: None,
            seat: None,
            clock: Clock::CodinGame,
            kind,
            opponent: None,
            thinking: false,
            bot_note: None,
            analysis: None,
            stopped: None,
            evaluation: None,
            library: Library::default(),
            version: 0,
            memory,
            touched: Instant::now(),
        }
    }

    /// Whether the bot is thinking now.
    pub fn busy(&self) -> bool {
        self.thinking
    }

    /// The bytes of the budget the bot keeps while it waits for its next turn (0 while it
    /// thinks, or when it keeps none).
    pub fn kept_bytes(&self) -> usize {
        match (&self.opponent, self.thinking) {
            (Some(o), false) => o.kept_bytes(),
            _ => 0,
        }
    }

    /// Gives up the idle bot and its kept trees for another search; it starts again at its
    /// next turn (reading the game's first turn first). The bytes on their way back.
    pub fn forget_bot(&mut self) -> usize {
        let bytes = self.kept_bytes();
        if bytes > 0 {
            self.opponent = None;
        }
        bytes
    }

    fn not_thinking(&self) -> Result<(), ApiError> {
        if self.thinking {
            return Err(ApiError::conflict(
                "the bot is thinking: wait for its answer (it comes within its clock)",
            ));
        }
        Ok(())
    }

    /// The position changed: the analysis of the old one stops, the page redraws.
    fn changed(&mut self) {
        self.version += 1;
        self.retire_analysis();
    }

    /// A new game from the empty board: the person in `seat` (the bot in the other; `None`:
    /// no bot), the bot under `clock`. A bot to move first is asked at once (a 429, nothing
    /// changed, when no search slot is free for it).
    pub fn new_game(
        &mut self,
        me: &Shared,
        seat: Option<Player>,
        clock: Clock,
        slots: &Arc<Slots>,
    ) -> Result<(), ApiError> {
        self.not_thinking()?;
        let bot = self.kind.name();
        let names = match seat {
            Some(Player::Zero) => ["you (twixt-board)".to_string(), bot],
            Some(Player::One) => [bot, "you (twixt-board)".to_string()],
            None => [
                "player 0 (twixt-board)".into(),
                "player 1 (twixt-board)".into(),
            ],
        };
        let mut game = Game::default();
        game.players = Players {
            names,
            seed: 0,
            clocks: seat.map(|_| [clock.clocks(); 2]),
        };
        let slot = self.bot_slot_for(seat, &game, slots)?;
        self.changed();
        self.evaluation = None;
        self.opponent = None;
        self.bot_note = None;
        self.seat = seat;
        self.clock = clock;
        self.arrangement = None;
        self.game = game;
        self.bot_turn(me, slot);
        Ok(())
    }

    /// The person's move at the ply shown; then the bot's turn, if it has one (a 429, the
    /// move not played, when no search slot is free for it).
    pub fn play(&mut self, me: &Shared, mv: Move, slots: &Arc<Slots>) -> Result<(), ApiError> {
        self.not_thinking()?;
        if self.arrangement.is_some() {
            return Err(ApiError::conflict(
                "a set-up position is for analysis: start a game or open one to play moves",
            ));
        }
        let to_move = self.game.reference().to_move();
        if self.seat.is_some_and(|s| s != to_move) && self.game.ending().is_none() {
            return Err(ApiError::conflict(
                "it is the bot's turn: ask it to move, or take back",
            ));
        }
        let mut game = self.game.clone();
        game.play(Played::plain(mv)).map_err(ApiError::bad)?;
        let slot = self.bot_slot_for(self.seat, &game, slots)?;
        self.game = game;
        self.changed();
        self.bot_turn(me, slot);
        Ok(())
    }

    /// Takes back to the person's previous turn (against the bot), or one move.
    pub fn take_back(&mut self) -> Result<(), ApiError> {
        self.not_thinking()?;
        if self.arrangement.is_some() || self.game.ply() == 0 {
            return Err(ApiError::conflict("there is no move to take back"));
        }
        let mut ply = self.game.ply() - 1;
        if let Some(seat) = self.seat {
            while ply > 0 && Player::BOTH[ply % 2] != seat {
                ply -= 1;
            }
            if Player::BOTH[ply % 2] != seat {
                return Err(ApiError::conflict("there is no move of yours to take back"));
            }
        }
        self.game.goto(ply).map_err(ApiError::bad)?;
        self.game.cut();
        // A bot that faulted is gone; one that answered is started afresh at its next turn
        // (`Opponent::follows`): it would remember a move taken back.
        self.changed();
        Ok(())
    }

    /// Shows ply `ply` of the game.
    pub fn goto(&mut self, ply: usize) -> Result<(), ApiError> {
        self.not_thinking()?;
        if self.arrangement.take().is_some() {
            self.changed();
        }
        self.game.goto(ply).map_err(ApiError::bad)?;
        self.changed();
        Ok(())
    }

    /// Asks the bot to move in the position shown (also where the person would move); a 429,
    /// nothing changed, when no search slot is free for it.
    pub fn ask_bot(&mut self, me: &Shared, slots: &Arc<Slots>) -> Result<(), ApiError> {
        self.not_thinking()?;
        if self.arrangement.is_some() {
            return Err(ApiError::conflict(
                "the bot plays games, not set-up positions",
            ));
        }
        if self.game.ending().is_some() {
            return Err(ApiError::conflict("the game is over"));
        }
        // The bot plays the side to move from now on; one that played the other side is
        // replaced (a bot keeps the side it learned on its first turn).
        let seat = self.game.reference().to_move().other();
        let slot = self.bot_slot_for(Some(seat), &self.game, slots)?;
        if self.seat != Some(seat) {
            self.seat = Some(seat);
            self.opponent = None;
        }
        self.bot_turn(me, slot);
        Ok(())
    }

    /// The game's moves up to the ply shown.
    fn moves_shown(&self) -> Vec<Move> {
        let shown = &self.game.moves()[..self.game.ply()];
        shown.iter().map(|p| p.mv).collect()
    }

    /// Whether the bot moves next in `game` with the person in `seat`.
    fn bot_moves(seat: Option<Player>, game: &Game) -> bool {
        seat.is_some_and(|s| game.reference().to_move() != s) && game.ending().is_none()
    }

    /// Stops the analysis; it stays as the stopped one until its slot is taken over.
    fn retire_analysis(&mut self) {
        if let Some(a) = self.analysis.take() {
            a.stop();
            self.stopped = Some(a);
        }
    }

    /// A search slot for `what`: the one this tab's last analysis holds (it stops for the new
    /// search), or a free one, or the 429 that says why there is none.
    fn search_slot(&self, slots: &Arc<Slots>, what: &str) -> Result<Slot, ApiError> {
        let analyses = [&self.analysis, &self.stopped];
        let own = analyses.into_iter().flatten().find_map(Analysis::hand_over);
        own.map_or_else(|| slots.take_for(what), Ok)
    }

    /// The search slot for the bot's turn in `game` with the person in `seat`, or none when
    /// the bot does not move next.
    fn bot_slot_for(
        &self,
        seat: Option<Player>,
        game: &Game,
        slots: &Arc<Slots>,
    ) -> Result<Option<Slot>, ApiError> {
        if !Tab::bot_moves(seat, game) {
            return Ok(None);
        }
        self.search_slot(slots, "the bot's turn").map(Some)
    }

    /// Starts the bot's answer on a thread, holding `slot` until it comes, when it is the
    /// bot's turn.
    fn bot_turn(&mut self, me: &Shared, slot: Option<Slot>) {
        let (Some(seat), Some(slot)) = (self.seat, slot) else {
            return;
        };
        if !Tab::bot_moves(Some(seat), &self.game) {
            return;
        }
        let moves = self.moves_shown();
        // A bot whose line was changed under it starts afresh, told the game's last pegs.
        let kept = self.opponent.take().filter(|o| o.follows(&moves));
        let mut opponent = match kept {
            Some(o) => o,
            None => {
                match Opponent::start(&self.kind, self.clock, seat.other(), &moves, &self.memory) {
                    Ok(o) => o,
                    Err(why) => {
                        self.bot_note = Some(why);
                        return;
                    }
                }
            }
        };
        // A command started mid-game first reads its first turn of the game, as it did then:
        // it learns its side from it (after a swap, counting pegs would mislead it). The
        // engine is told its side.
        let first_ply = seat.other().index();
        let first = (opponent.needs_first_turn() && self.game.ply() > first_ply)
            .then(|| self.game.turn_input_at(first_ply));
        let input = self.game.turn_input();
        self.retire_analysis();
        let version = self.version;
        self.thinking = true;
        self.bot_note = None;
        let me = me.clone();
        std::thread::spawn(move || {
            let turn = match first.map_or(Ok(()), |f| opponent.send_first_turn(f)) {
                Err(note) => BotTurn::NotJoined(note),
                Ok(()) => match opponent.ask(input) {
                    Ok(answer) => BotTurn::Answered(answer),
                    Err(fault) => BotTurn::Failed(fault),
                },
            };
            // Free before the tab says the bot is done: a request that follows finds it.
            drop(slot);
            let mut board = me.lock().unwrap_or_else(|e| e.into_inner());
            board.thinking = false;
            if board.version == version {
                board.take_turn(seat.other(), opponent, turn);
            }
        });
    }

    /// Plays the answer of the bot (`bot`'s side), or ends the game by its fault. A bot that
    /// could not join the game leaves it as it was: the note says why, and the bot is dropped.
    fn take_turn(&mut self, bot: Player, opponent: Opponent, turn: BotTurn) {
        let fault = |reason, detail| Fault {
            loser: bot,
            reason,
            detail,
        };
        match turn {
            BotTurn::NotJoined(note) => self.bot_note = Some(note),
            BotTurn::Answered((mv, ms, msg)) => {
                let played = Played {
                    mv,
                    ms: Some(ms),
                    msg,
                };
                match self.game.play(played) {
                    Ok(()) => {
                        let mut opponent = opponent;
                        opponent.played(self.moves_shown());
                        self.opponent = Some(opponent);
                    }
                    Err(why) => self.game.end_by(fault(
                        Reason::Illegal,
                        format!("played an illegal move: {why}"),
                    )),
                }
            }
            BotTurn::Failed((reason, detail)) => self.game.end_by(fault(reason, detail)),
        }
        self.changed();
    }

    /// Sets a position up from `placed` pegs (in order) with `to_move` to move.
    pub fn set_up(&mut self, placed: Vec<(Cell, Player)>, to_move: Player) -> Result<(), ApiError> {
        self.not_thinking()?;
        let arrangement = Arrangement::new(placed, to_move).map_err(ApiError::bad)?;
        self.arrangement = Some(arrangement);
        self.evaluation = None;
        self.changed();
        Ok(())
    }

    /// Opens a pasted move list or an uploaded file: its first game is shown at its start.
    pub fn load(&mut self, lib: Library) -> Result<(), ApiError> {
        self.not_thinking()?;
        self.library = lib;
        self.open(1)
    }

    /// Shows game `n` (from 1) of what was loaded, at its start, with no bot.
    pub fn open(&mut self, n: usize) -> Result<(), ApiError> {
        self.not_thinking()?;
        let count = self.library.len();
        let game = self
            .library
            .game(n)
            .ok_or_else(|| ApiError::not_found(format!("there is no game {n}: {count} loaded")))?;
        self.game = game;
        self.evaluation = None;
        self.arrangement = None;
        self.seat = None;
        self.opponent = None;
        self.bot_note = None;
        self.changed();
        Ok(())
    }

    /// The games loaded and the lines left out.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// Starts analysing the position shown for at most `limit`; a 429 when no search slot is
    /// free for it, or no memory for its tree.
    pub fn analyse(&mut self, limit: Duration, slots: &Arc<Slots>) -> Result<(), ApiError> {
        self.not_thinking()?;
        let (position, history) = match &self.arrangement {
            Some(s) => (s.position(), s.history()),
            None => {
                if self.game.ending().is_some() {
                    return Err(ApiError::conflict(
                        "the game is over: there is nothing to analyse",
                    ));
                }
                (self.game.position(), self.game.history())
            }
        };
        let slot = self.search_slot(slots, "the analysis")?;
        let memory = self.memory.allow(1, "the analysis")?;
        self.retire_analysis();
        let job = Job {
            position,
            history,
            limit,
        };
        self.analysis = Some(Analysis::of(job, slot, memory));
        Ok(())
    }

    /// Starts the evaluation graph of the game's moves at `playouts` a ply; a 429 when no
    /// search slot is free for it, or no memory for its tree.
    pub fn evaluate(&mut self, playouts: u64, slots: &Arc<Slots>) -> Result<(), ApiError> {
        if self.arrangement.is_some() {
            return Err(ApiError::conflict(
                "a set-up position is not a game: there is no graph to draw",
            ));
        }
        let slot = slots.take_for("the evaluation graph")?;
        let memory = self.memory.allow(1, "the evaluation graph")?;
        let moves = self.game.moves().iter().map(|p| p.mv).collect();
        self.evaluation = Some(Evaluation::of(moves, playouts, slot, memory));
        Ok(())
    }

    /// Stops the evaluation graph (what it drew stays).
    pub fn stop_evaluation(&mut self) {
        if let Some(e) = &self.evaluation {
            e.stop();
        }
    }

    /// Stops the analysis (its last view stays).
    pub fn stop_analysis(&mut self) {
        if let Some(a) = &self.analysis {
            a.stop();
        }
    }

    /// The turn input of the position shown.
    pub fn turn_input(&self) -> String {
        match &self.arrangement {
            Some(s) => s.turn_input(),
            None => self.game.turn_input(),
        }
    }

    /// The game as a record line; an error for a set-up position.
    pub fn record(&self) -> Result<String, ApiError> {
        if self.arrangement.is_some() {
            return Err(ApiError::conflict(
                "a set-up position is not a game: export it as a turn input",
            ));
        }
        Ok(self.game.record().to_json() + "\n")
    }
}
