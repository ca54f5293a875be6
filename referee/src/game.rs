//! One game between two commands, judged by the reference rules ([`RefGame`]), never by the
//! bot's fast board.

use super::clocks::{by_player, Clocks, LATE_GRACE};
use super::engines::Engines;
use super::openings::start;
use super::process::{BotProcess, Reply};
use super::record::{EngineId, GameRecord, MatchSlot, Reason};
use super::turn::{shorten, Answer};
use anyhow::Result;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use twixt::cell::Player;
use twixt::position::{Move, Outcome};
use twixt_reference::{turn_input, RefGame};

/// How long a bot may take to leave after its stdin is closed at the end of a game.
const EXIT_GRACE: Duration = Duration::from_millis(100);

/// Everything one game needs.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The command of player 0 and of player 1 (`{seed}` is replaced by the seed).
    pub cmds: [String; 2],
    /// The clocks of player 0 and of player 1.
    pub clocks: [Clocks; 2],
    /// Moves played before the bots take over.
    pub opening: Vec<Move>,
    /// The game's seed.
    pub seed: u64,
    /// Where to keep each bot's stderr, if anywhere.
    pub stderr_dir: Option<PathBuf>,
    /// The game's place in a match.
    pub slot: Option<MatchSlot>,
    /// What plays player 0 and player 1, when `test` knows it (kept in the record).
    pub ids: [Option<EngineId>; 2],
}

/// One bot answer that was a legal move.
struct Played {
    mv: Move,
    ms: u64,
    message: Option<String>,
}

/// How a game ended.
struct Ending {
    winner: Option<Player>,
    reason: Reason,
    detail: String,
}

impl Ending {
    fn fault(loser: Player, reason: Reason, detail: String) -> Ending {
        Ending {
            winner: Some(loser.other()),
            reason,
            detail: format!("player {loser} {detail}"),
        }
    }
}

impl GameSetup {
    /// The game of engines A and B with A as player `a_player` (0 or 1) and B in the other
    /// seat, each with its own clocks, from `opening`, with `seed`; `slot` places it in a match.
    pub fn new(
        engines: &Engines,
        a_player: usize,
        opening: Vec<Move>,
        seed: u64,
        slot: Option<MatchSlot>,
    ) -> GameSetup {
        debug_assert!(slot.is_none_or(|s| usize::from(s.a_player) == a_player));
        GameSetup {
            cmds: by_player(engines.cmds.clone(), a_player),
            clocks: by_player(engines.clocks, a_player),
            opening,
            seed,
            stderr_dir: engines.stderr_dir.clone(),
            slot,
            ids: by_player(engines.ids.clone(), a_player),
        }
    }

    /// The command of player `p`, with `{seed}` replaced by the seed.
    pub fn command(&self, p: Player) -> String {
        self.cmds[p.index()].replace("{seed}", &self.seed.to_string())
    }

    fn stderr_path(&self, p: Player) -> Option<PathBuf> {
        let dir = self.stderr_dir.as_ref()?;
        let name = match self.slot {
            Some(s) => format!("pair{}-game{}-player{}.stderr", s.pair, s.game, p),
            None => format!("seed{}-player{}.stderr", self.seed, p),
        };
        Some(dir.join(name))
    }
}

/// Plays one game. `Err` only for the referee's own problems (a bad opening, a command that
/// cannot be started, an unwritable stderr directory); everything a bot does is a result.
pub fn play_game(setup: &GameSetup) -> Result<GameRecord> {
    let mut game = start(&setup.opening)?;
    let mut bots = Vec::with_capacity(2);
    for p in Player::BOTH {
        bots.push(BotProcess::spawn(
            &setup.command(p),
            setup.stderr_path(p).as_deref(),
        )?);
    }
    let mut played = Vec::new();
    let ending = run_turns(setup, &mut game, &mut bots, &mut played);
    // A bot that lost by a fault is dead already; the others are told, then killed too.
    bots.iter_mut().for_each(BotProcess::close_input);
    let until = Instant::now() + EXIT_GRACE;
    bots.iter_mut().for_each(|b| b.finish_by(until));
    Ok(make_record(setup, &game, played, ending))
}

fn run_turns(
    setup: &GameSetup,
    game: &mut RefGame,
    bots: &mut [BotProcess],
    played: &mut Vec<Played>,
) -> Ending {
    let mut turns = [0usize; 2];
    loop {
        if let Some(outcome) = game.outcome() {
            return board_ending(game, outcome);
        }
        let p = game.to_move();
        let first = turns[p.index()] == 0;
        turns[p.index()] += 1;
        match play_turn(setup.clocks[p.index()], game, &mut bots[p.index()], first) {
            Ok(turn) => played.push(turn),
            Err((reason, detail)) => {
                bots[p.index()].kill();
                return Ending::fault(p, reason, detail);
            }
        }
    }
}

/// Asks the player to move for its move and plays it, or says how it failed.
fn play_turn(
    clocks: Clocks,
    game: &mut RefGame,
    bot: &mut BotProcess,
    first: bool,
) -> Result<Played, (Reason, String)> {
    let clock = Duration::from_millis(clocks.allowed_ms(first));
    let (answer, ms) = judge_reply(bot.ask(turn_input(game), clock, LATE_GRACE), clock)?;
    let mv = answer
        .to_move()
        .and_then(|m| check(game, m))
        .map_err(|why| (Reason::Illegal, why))?;
    game.play(mv).expect("checked just before");
    Ok(Played {
        mv,
        ms,
        message: answer.message,
    })
}

fn check(game: &RefGame, mv: Move) -> Result<Move, String> {
    game.check(mv)
        .map(|_| mv)
        .map_err(|e| format!("played {mv}: {e}"))
}

/// The answer and its milliseconds, or the fault (reason and words after "player N"): the
/// one judgement of a reply under a clock, for the referee's games and the board's.
pub fn judge_reply(reply: Reply, clock: Duration) -> Result<(Answer, u64), (Reason, String)> {
    let clock_ms = clock.as_millis();
    match reply {
        Reply::Line(line, took) if took <= clock => {
            Ok((Answer::parse(&line), took.as_millis() as u64))
        }
        Reply::Line(_, took) => {
            let ms = took.as_millis();
            Err((
                Reason::Timeout,
                format!(
                    "answered after {ms} ms, {} ms over its {clock_ms} ms clock",
                    ms.saturating_sub(clock_ms).max(1)
                ),
            ))
        }
        Reply::Silent => Err((
            Reason::Timeout,
            format!("gave no answer within {clock_ms} ms"),
        )),
        Reply::Closed => Err((Reason::Crash, "closed its output".to_string())),
        Reply::InputClosed => Err((Reason::Crash, "closed its input".to_string())),
        Reply::Exited(status) => Err((
            Reason::Crash,
            format!("exited ({status}) without answering"),
        )),
    }
}

fn board_ending(game: &RefGame, outcome: Outcome) -> Ending {
    match outcome {
        Outcome::Win(p) => Ending {
            winner: Some(p),
            reason: Reason::Connected,
            detail: match p {
                Player::Zero => "player 0 joined rows 1 and 12".to_string(),
                Player::One => "player 1 joined columns A and L".to_string(),
            },
        },
        Outcome::Draw => Ending {
            winner: None,
            reason: Reason::Draw,
            detail: format!("player {} has no legal hole", game.to_move()),
        },
    }
}

fn make_record(
    setup: &GameSetup,
    game: &RefGame,
    played: Vec<Played>,
    ending: Ending,
) -> GameRecord {
    let opening = setup.opening.len();
    let moves = game.moves().iter().map(|m| m.to_string()).collect();
    let mut ms: Vec<Option<u64>> = vec![None; opening];
    ms.extend(played.iter().map(|p| Some(p.ms)));
    debug_assert!(played
        .iter()
        .zip(&game.moves()[opening..])
        .all(|(p, m)| p.mv == *m));
    let messages = if played.iter().any(|p| p.message.is_some()) {
        let mut v = vec![None; opening];
        v.extend(played.into_iter().map(|p| p.message.map(|m| shorten(&m))));
        v
    } else {
        Vec::new()
    };
    GameRecord {
        moves,
        ms,
        messages,
        opening,
        winner: ending.winner.map(|p| p.index() as u8),
        reason: ending.reason,
        detail: ending.detail,
        cmd0: setup.command(Player::Zero),
        cmd1: setup.command(Player::One),
        seed: setup.seed,
        clocks: Some(setup.clocks),
        slot: setup.slot,
        engine0: setup.ids[0].clone(),
        engine1: setup.ids[1].clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_and_silent_answers_are_timeouts_with_figures() {
        let clock = Duration::from_millis(300);
        let late = judge_reply(Reply::Line("E5".into(), Duration::from_millis(345)), clock);
        assert_eq!(
            late.unwrap_err(),
            (
                Reason::Timeout,
                "answered after 345 ms, 45 ms over its 300 ms clock".to_string()
            )
        );
        let silent = judge_reply(Reply::Silent, clock).unwrap_err();
        assert_eq!(silent.0, Reason::Timeout);
        assert!(silent.1.contains("no answer within 300 ms"));
        let ok = judge_reply(
            Reply::Line("E5 x".into(), Duration::from_millis(300)),
            clock,
        );
        assert_eq!(ok.unwrap().1, 300);
        assert_eq!(
            judge_reply(Reply::Closed, clock).unwrap_err().0,
            Reason::Crash
        );
    }
}
