//! A game on the board: the moves from the empty board, judged by the reference rules (as the
//! referee judges), and the ply shown. Stepping moves the ply; a move played at an earlier ply
//! cuts the moves after it. A fault of the bot (late, illegal, crashed) ends the game as the
//! referee would end it.

use crate::drawn::Drawn;
use twixt::cell::{Cell, Player};
use twixt::position::{last_pegs, Move, Outcome, Position};
use twixt_referee::clocks::Clocks;
use twixt_referee::record::{GameRecord, Reason};
use twixt_reference::{turn_input, RefGame};

/// One move of the game and what is known of how it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Milliseconds the bot took to answer (none for a person's move or an opening).
    pub ms: Option<u64>,
    /// The message the bot wrote after its move.
    pub msg: Option<String>,
}

impl Played {
    /// A move without timing or message.
    pub fn plain(mv: Move) -> Played {
        Played {
            mv,
            ms: None,
            msg: None,
        }
    }
}

/// How a game that did not end on the board ended: the loser and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// Who lost by it.
    pub loser: Player,
    /// Timeout, illegal move or crash.
    pub reason: Reason,
    /// The words, e.g. `gave no answer within 300 ms`.
    pub detail: String,
}

/// Who played and under which clocks: what a record keeps besides the moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Players {
    /// The names (commands) of player 0 and player 1.
    pub names: [String; 2],
    /// The game's seed, if it came from a record.
    pub seed: u64,
    /// The clocks, if known.
    pub clocks: Option<[Clocks; 2]>,
}

impl Default for Players {
    fn default() -> Self {
        Players {
            names: ["player 0".to_string(), "player 1".to_string()],
            seed: 0,
            clocks: None,
        }
    }
}

/// A game and the ply the board shows.
#[derive(Clone, Debug, Default)]
pub struct Game {
    moves: Vec<Played>,
    ply: usize,
    fault: Option<Fault>,
    /// Who played it.
    pub players: Players,
}

impl Game {
    /// A game of `moves` (checked by the reference rules; the error names the first refused
    /// move, from 1), shown at its start.
    pub fn from_moves(moves: Vec<Played>, players: Players) -> Result<Game, String> {
        let plain: Vec<Move> = moves.iter().map(|p| p.mv).collect();
        RefGame::from_moves(&plain)
            .map_err(|(i, e)| format!("move {} ({}): {e}", i + 1, plain[i]))?;
        Ok(Game {
            moves,
            ply: 0,
            fault: None,
            players,
        })
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move was played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The ply shown.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The moves.
    pub fn moves(&self) -> &[Played] {
        &self.moves
    }

    /// The fault that ended the game, if one did.
    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_ref()
    }

    /// Shows ply `ply`; an error when the game is shorter.
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.moves.len() {
            return Err(format!(
                "ply {ply} is past the end of the game ({} moves)",
                self.moves.len()
            ));
        }
        self.ply = ply;
        Ok(())
    }

    /// The reference game at the ply shown.
    pub fn reference(&self) -> RefGame {
        self.reference_at(self.ply)
    }

    fn reference_at(&self, ply: usize) -> RefGame {
        let moves: Vec<Move> = self.moves[..ply].iter().map(|p| p.mv).collect();
        RefGame::from_moves(&moves).expect("the moves were checked when played")
    }

    /// The engine's position at the ply shown (for the search).
    pub fn position(&self) -> Position {
        let mut pos = Position::new();
        for p in &self.moves[..self.ply] {
            pos.play(p.mv).expect("the moves were checked when played");
        }
        pos
    }

    /// The last two pegs before the ply shown, as [`last_pegs`] reads them for the search's
    /// learned prior: the opponent's, then the mover's own.
    pub fn history(&self) -> [Option<Cell>; 2] {
        let moves: Vec<Move> = self.moves[..self.ply].iter().map(|p| p.mv).collect();
        last_pegs(&moves)
    }

    /// Plays `played` at the ply shown (the moves after it are cut), if the rules allow it.
    pub fn play(&mut self, played: Played) -> Result<(), String> {
        if self.ply == self.moves.len() {
            if let Some(f) = &self.fault {
                return Err(format!("the game is over: player {} {}", f.loser, f.detail));
            }
        }
        let game = self.reference();
        game.check(played.mv)
            .map_err(|e| format!("{} is not legal here: {e}", played.mv))?;
        self.moves.truncate(self.ply);
        self.fault = None;
        self.moves.push(played);
        self.ply += 1;
        Ok(())
    }

    /// Ends the game at its last move with the bot's fault.
    pub fn end_by(&mut self, fault: Fault) {
        self.ply = self.moves.len();
        self.fault = Some(fault);
    }

    /// Cuts the game at the ply shown (take back).
    pub fn cut(&mut self) {
        self.moves.truncate(self.ply);
        self.fault = None;
    }

    /// How the game stands at the ply shown: over on the board, over by a fault (at the last
    /// ply), or going on.
    pub fn ending(&self) -> Option<(Option<Player>, Reason, String)> {
        if self.ply == self.moves.len() {
            if let Some(f) = &self.fault {
                let detail = format!("player {} {}", f.loser, f.detail);
                return Some((Some(f.loser.other()), f.reason, detail));
            }
        }
        let game = self.reference();
        game.outcome().map(|o| match o {
            Outcome::Win(p) => {
                let borders = match p {
                    Player::Zero => "rows 1 and 12",
                    Player::One => "columns A and L",
                };
                (
                    Some(p),
                    Reason::Connected,
                    format!("player {p} joined {borders}"),
                )
            }
            Outcome::Draw => (
                None,
                Reason::Draw,
                format!("player {} has no legal hole", game.to_move()),
            ),
        })
    }

    /// What the board shows at the ply shown.
    pub fn drawn(&self) -> Drawn {
        let game = self.reference();
        let mut drawn = Drawn::of_reference(&game);
        drawn.last = match self.ply.checked_sub(1).map(|i| self.moves[i].mv) {
            Some(Move::Peg(c)) => Some(c),
            Some(Move::Swap) => game.pegs(Player::One).first().copied(),
            None => None,
        };
        drawn
    }

    /// The turn input the player to move reads at the ply shown (what a fixture holds).
    pub fn turn_input(&self) -> String {
        turn_input(&self.reference())
    }

    /// The turn input the player to move read at ply `ply` (at most the game's length).
    pub fn turn_input_at(&self, ply: usize) -> String {
        turn_input(&self.reference_at(ply))
    }

    /// The whole game as a record `twixt-referee show` reads. A game still going on is
    /// written as a draw whose detail says it was not finished.
    pub fn record(&self) -> GameRecord {
        let ending = self.ending_at_end();
        let (winner, reason, detail) = ending.unwrap_or_else(|| {
            (
                None,
                Reason::Draw,
                format!(
                    "not finished: {} moves, player {} to move (exported by twixt-board)",
                    self.moves.len(),
                    self.reference_at(self.moves.len()).to_move()
                ),
            )
        });
        let messages: Vec<Option<String>> = self.moves.iter().map(|p| p.msg.clone()).collect();
        GameRecord {
            moves: self.moves.iter().map(|p| p.mv.to_string()).collect(),
            ms: self.moves.iter().map(|p| p.ms).collect(),
            messages: if messages.iter().any(Option::is_some) {
                messages
            } else {
                Vec::new()
            },
            opening: 0,
            winner: winner.map(|p| p.index() as u8),
            reason,
            detail,
            cmd0: self.players.names[0].clone(),
            cmd1: self.players.names[1].clone(),
            seed: self.players.seed,
            clocks: self.players.clocks,
            slot: None,
            engine0: None,
            engine1: None,
        }
    }

    fn ending_at_end(&self) -> Option<(Option<Player>, Reason, String)> {
        let mut end = self.clone();
        end.ply = end.moves.len();
        end.ending()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Game {
        let moves = moves
            .split_whitespace()
            .map(|m| Played::plain(m.parse().unwrap()))
            .collect();
        Game::from_moves(moves, Players::default()).unwrap()
    }

    #[test]
    fn a_move_at_an_earlier_ply_cuts_the_rest_and_illegal_moves_are_named() {
        let mut g = game("E5 F7 G9");
        g.goto(1).unwrap();
        assert!(g.goto(4).unwrap_err().contains("past the end"));
        let err = g.play(Played::plain("E5".parse().unwrap())).unwrap_err();
        assert_eq!(err, "E5 is not legal here: E5 already has a peg");
        let err = g.play(Played::plain("E1".parse().unwrap())).unwrap_err();
        assert!(err.contains("opponent's border"), "{err}");
        g.play(Played::plain("D4".parse().unwrap())).unwrap();
        assert_eq!((g.len(), g.ply()), (2, 2));
        assert_eq!(
            g.history(),
            [Some("D4".parse().unwrap()), Some("E5".parse().unwrap())]
        );
        let bad = Game::from_moves(
            vec![Played::plain("E5".parse().unwrap()); 2],
            Players::default(),
        );
        assert!(bad.unwrap_err().starts_with("move 2 (E5):"));
    }

    #[test]
    fn a_won_game_ends_on_the_board_and_its_record_says_so() {
        let mut g = game("E2 A5 E3 C6 E4 E5 E10 G6 E11 I5 F11 K6 G11 L8");
        g.goto(14).unwrap();
        let (winner, reason, detail) = g.ending().unwrap();
        assert_eq!((winner, reason), (Some(Player::One), Reason::Connected));
        assert_eq!(detail, "player 1 joined columns A and L");
        assert_eq!(g.drawn().chain.len(), 6);
        let r = g.record();
        assert_eq!(
            (r.winner, r.reason, r.moves.len()),
            (Some(1), Reason::Connected, 14)
        );
        assert!(g
            .play(Played::plain("B2".parse().unwrap()))
            .unwrap_err()
            .contains("over"));
        g.goto(3).unwrap();
        assert!(g.ending().is_none());
        assert!(g.drawn().chain.is_empty());
    }

    #[test]
    fn a_fault_ends_the_game_and_an_unfinished_record_says_it_is_not_finished() {
        let mut g = game("E5");
        let r = g.record();
        assert_eq!((r.winner, r.reason), (None, Reason::Draw));
        assert!(r
            .detail
            .starts_with("not finished: 1 moves, player 1 to move"));
        g.end_by(Fault {
            loser: Player::One,
            reason: Reason::Timeout,
            detail: "gave no answer within 300 ms".into(),
        });
        let r = g.record();
        assert_eq!((r.winner, r.reason), (Some(0), Reason::Timeout));
        assert_eq!(r.detail, "player 1 gave no answer within 300 ms");
        assert!(g.play(Played::plain("F7".parse().unwrap())).is_err());
        g.goto(0).unwrap();
        g.cut();
        assert!(g.is_empty() && g.fault().is_none());
    }

    #[test]
    fn the_turn_input_is_the_reference_one_at_the_ply_shown() {
        let mut g = game("C5 SWAP");
        assert_eq!(g.turn_input(), "FIRST\n0\n0\n0\n0\n");
        g.goto(2).unwrap();
        assert_eq!(g.turn_input(), "SWAP\n0\n0\n1\nE3\n0\n");
        assert_eq!(g.drawn().last, Some("E3".parse().unwrap()));
    }
}
