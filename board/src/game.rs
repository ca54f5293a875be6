//! A game on the board: the tree of moves from the empty board ([`tree`](crate::tree)), judged
//! by the reference rules (as the referee judges), the line shown and the ply shown on it.
//! Stepping moves the ply along the line; a move played at an earlier ply starts a variation
//! (the line played before stays), or steps into the move already played there. A fault of the
//! bot (late, illegal, crashed) ends its line as the referee would end the game.

use crate::drawn::Drawn;
use crate::tree::{Branch, Node, TreeView, MAX_NODES};
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

/// A game's tree of moves, the line shown (a path from the start to the end of a line), and
/// the ply shown on it.
#[derive(Clone, Debug, Default)]
pub struct Game {
    root: Branch,
    /// The line shown: a node's path ([`tree`](crate::tree)) followed to its line's end.
    line: Vec<usize>,
    /// The moves of `line`.
    moves: Vec<Played>,
    ply: usize,
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
        let mut root = Branch::default();
        for played in moves.into_iter().rev() {
            let mut node = Node::leaf(played);
            node.after = root;
            root = Branch {
                fault: None,
                next: vec![node],
            };
        }
        Ok(Game::of_tree(root, players))
    }

    /// A game of the tree `root` (its moves checked by the rules), shown at its start on its
    /// main line.
    pub fn of_tree(root: Branch, players: Players) -> Game {
        let mut game = Game {
            root,
            players,
            ..Game::default()
        };
        game.show(Vec::new());
        game
    }

    /// Shows the node at `path` (which must be in the tree) on the line that follows it.
    fn show(&mut self, path: Vec<usize>) {
        self.ply = path.len();
        self.line = self.root.extended(path);
        self.moves = self.root.moves_along(&self.line);
    }

    /// The number of moves of the line shown.
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

    /// The moves of the line shown.
    pub fn moves(&self) -> &[Played] {
        &self.moves
    }

    /// The tree of moves.
    pub fn tree(&self) -> &Branch {
        &self.root
    }

    /// The line shown, as a node's path.
    pub fn line(&self) -> &[usize] {
        &self.line
    }

    /// The fault that ended the line shown, if one did.
    pub fn fault(&self) -> Option<&Fault> {
        self.end().fault.as_ref()
    }

    /// The position at the end of the line shown.
    fn end(&self) -> &Branch {
        self.root.at(&self.line).expect("the line is in the tree")
    }

    /// Shows ply `ply` of the line shown; an error when the line is shorter.
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

    /// Shows the node at `path` on the line that follows it; an error when it is not in the
    /// tree.
    pub fn goto_node(&mut self, path: &[usize]) -> Result<(), String> {
        self.root
            .at(path)
            .ok_or_else(|| format!("{} is not a move of the tree", node_name(path)))?;
        self.show(path.to_vec());
        Ok(())
    }

    /// Makes the line through the node at `path` the main line, and shows that node.
    pub fn promote(&mut self, path: &[usize]) -> Result<(), String> {
        self.goto_node(path)?;
        for (depth, &i) in path.iter().enumerate() {
            let branch = self.root.at_mut(&vec![0; depth]).expect("the main line");
            let node = branch.next.remove(i);
            branch.next.insert(0, node);
        }
        self.show(vec![0; path.len()]);
        Ok(())
    }

    /// Deletes the move at `path` and the moves after it; the line shown moves to its parent
    /// when it went through it.
    pub fn delete(&mut self, path: &[usize]) -> Result<(), String> {
        let Some((&last, parent)) = path.split_last() else {
            return Err("the start of the game cannot be deleted".into());
        };
        self.root
            .at(path)
            .ok_or_else(|| format!("{} is not a move of the tree", node_name(path)))?;
        let mut shown = self.line[..self.ply].to_vec();
        if shown.len() >= path.len() && shown[..parent.len()] == *parent {
            let d = parent.len();
            if shown[d] == last {
                shown.truncate(d);
            } else if shown[d] > last {
                shown[d] -= 1;
            }
        }
        let branch = self.root.at_mut(parent).expect("checked above");
        branch.next.remove(last);
        self.show(shown);
        Ok(())
    }

    /// The tree as the page draws it, with the line and the move shown.
    pub fn tree_view(&self) -> TreeView {
        TreeView::of(&self.root, &self.line, self.ply)
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

    /// Plays `played` at the ply shown, if the rules allow it: the move already played there
    /// is stepped into, another starts a variation (the first move there is the main line's).
    /// An error too when the tree holds [`MAX_NODES`] moves.
    pub fn play(&mut self, played: Played) -> Result<(), String> {
        let here = self.line[..self.ply].to_vec();
        let branch = self.root.at(&here).expect("the line is in the tree");
        if let Some(f) = &branch.fault {
            return Err(format!("the game is over: player {} {}", f.loser, f.detail));
        }
        let game = self.reference();
        game.check(played.mv)
            .map_err(|e| format!("{} is not legal here: {e}", played.mv))?;
        let mut path = here;
        match branch.next.iter().position(|n| n.played.mv == played.mv) {
            Some(i) => path.push(i),
            None => {
                if self.root.size() >= MAX_NODES {
                    return Err(format!(
                        "the tree holds {MAX_NODES} moves: delete a variation first"
                    ));
                }
                let branch = self.root.at_mut(&path).expect("the line is in the tree");
                branch.next.push(Node::leaf(played));
                path.push(branch.next.len() - 1);
            }
        }
        self.show(path);
        Ok(())
    }

    /// Plays `moves` one after the other from the node at `path` (as [`Game::play`] does):
    /// a line played out as a variation. Nothing changes when one is refused: the error names
    /// it (from 1).
    pub fn play_line(&mut self, path: &[usize], moves: &[Move]) -> Result<(), String> {
        let mut game = self.clone();
        game.goto_node(path)?;
        for (i, &mv) in moves.iter().enumerate() {
            game.play(Played::plain(mv))
                .map_err(|e| format!("move {} of the line: {e}", i + 1))?;
        }
        *self = game;
        Ok(())
    }

    /// Ends the line shown at its last move with the bot's fault.
    pub fn end_by(&mut self, fault: Fault) {
        self.ply = self.moves.len();
        let end = self
            .root
            .at_mut(&self.line)
            .expect("the line is in the tree");
        end.fault = Some(fault);
    }

    /// Takes back the move after the ply shown: it and the moves after it leave the tree (the
    /// other variations there stay), and so does a fault there.
    pub fn cut(&mut self) {
        let here = self.line[..self.ply].to_vec();
        let branch = self.root.at_mut(&here).expect("the line is in the tree");
        branch.fault = None;
        if self.ply < self.line.len() {
            branch.next.remove(self.line[self.ply]);
        }
        self.show(here);
    }

    /// How the game stands at the ply shown: over on the board, over by a fault (at the last
    /// ply), or going on.
    pub fn ending(&self) -> Option<(Option<Player>, Reason, String)> {
        if self.ply == self.moves.len() {
            if let Some(f) = self.fault() {
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

    /// The main line as a record `twixt-referee show` reads. A game still going on is
    /// written as a draw whose detail says it was not finished.
    pub fn record(&self) -> GameRecord {
        let mut main = self.clone();
        main.show(Vec::new());
        main.ply = main.moves.len();
        main.line_record()
    }

    /// The line shown, to its end, as a record.
    fn line_record(&self) -> GameRecord {
        let ending = self.ending();
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

    /// The tree as text ([`tree`](crate::tree)).
    pub fn text(&self) -> String {
        self.root.write()
    }
}

/// A node's path as the page names it: `0.1.0` (the start: the empty text).
pub fn node_name(path: &[usize]) -> String {
    let names: Vec<String> = path.iter().map(usize::to_string).collect();
    names.join(".")
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

    fn mv(name: &str) -> Played {
        Played::plain(name.parse().unwrap())
    }

    #[test]
    fn a_move_at_an_earlier_ply_starts_a_variation_and_illegal_moves_are_named() {
        let mut g = game("E5 F7 G9");
        g.goto(1).unwrap();
        assert!(g.goto(4).unwrap_err().contains("past the end"));
        let err = g.play(Played::plain("E5".parse().unwrap())).unwrap_err();
        assert_eq!(err, "E5 is not legal here: E5 already has a peg");
        let err = g.play(Played::plain("E1".parse().unwrap())).unwrap_err();
        assert!(err.contains("opponent's border"), "{err}");
        g.play(Played::plain("D4".parse().unwrap())).unwrap();
        assert_eq!((g.len(), g.ply(), g.line()), (2, 2, &[0, 1][..]));
        assert_eq!(g.text(), "E5 F7 (D4) G9");
        assert_eq!(g.record().moves, ["E5", "F7", "G9"]);
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
    fn the_same_move_steps_in_and_variations_are_entered_promoted_and_deleted() {
        let mut g = game("E5 F7 G9");
        g.goto(1).unwrap();
        g.play(mv("F7")).unwrap();
        assert_eq!((g.len(), g.ply(), g.text().as_str()), (3, 2, "E5 F7 G9"));
        g.goto(1).unwrap();
        g.play(mv("D4")).unwrap();
        g.play(mv("C3")).unwrap();
        g.goto(1).unwrap();
        g.play(mv("H3")).unwrap();
        assert_eq!(g.text(), "E5 F7 (D4 C3) (H3) G9");
        let (up, down) = (g.tree_view().up, g.tree_view().down);
        assert_eq!((up, down), (Some(vec![0, 1]), None));
        g.goto_node(&[0, 1, 0]).unwrap();
        assert_eq!((g.ply(), g.history()[0]), (3, Some("C3".parse().unwrap())));
        let v = g.tree_view();
        assert_eq!((v.up, v.down), (Some(vec![0, 0]), Some(vec![0, 2])));
        assert_eq!((v.node.as_str(), v.line_node.as_str()), ("0.1.0", "0.1.0"));
        assert!(g
            .goto_node(&[0, 3])
            .unwrap_err()
            .contains("0.3 is not a move"));
        g.promote(&[0, 1, 0]).unwrap();
        assert_eq!(g.text(), "E5 D4 (F7 G9) (H3) C3");
        assert_eq!((g.line(), g.ply()), (&[0, 0, 0][..], 3));
        assert_eq!(g.record().moves, ["E5", "D4", "C3"]);
        g.goto_node(&[0, 2]).unwrap();
        g.delete(&[0, 1]).unwrap();
        assert_eq!(
            (g.text().as_str(), g.line()),
            ("E5 D4 (H3) C3", &[0, 1][..])
        );
        g.delete(&[0, 1]).unwrap();
        assert_eq!(
            (g.text().as_str(), g.line(), g.ply()),
            ("E5 D4 C3", &[0, 0, 0][..], 1)
        );
        assert!(g.delete(&[]).is_err() && g.delete(&[1]).is_err());
    }

    #[test]
    fn take_back_and_a_fault_inside_a_variation_leave_the_main_line() {
        let mut g = game("E5 F7 G9");
        g.play_line(&[0], &["D4".parse().unwrap(), "C3".parse().unwrap()])
            .unwrap();
        assert_eq!((g.text().as_str(), g.ply()), ("E5 F7 (D4 C3) G9", 3));
        let bad = g.play_line(&[0], &["D4".parse().unwrap(), "D4".parse().unwrap()]);
        assert!(bad
            .unwrap_err()
            .starts_with("move 2 of the line: D4 is not legal"));
        g.end_by(Fault {
            loser: Player::One,
            reason: Reason::Crash,
            detail: "crashed".into(),
        });
        assert!(g.ending().is_some() && g.play(mv("B2")).is_err());
        assert_eq!(g.record().reason, Reason::Draw);
        g.goto(2).unwrap();
        g.cut();
        assert_eq!((g.text().as_str(), g.len()), ("E5 F7 (D4) G9", 2));
        g.goto(1).unwrap();
        g.cut();
        assert_eq!((g.text().as_str(), g.line()), ("E5 F7 G9", &[0, 0, 0][..]));
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
