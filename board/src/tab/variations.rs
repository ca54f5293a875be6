//! The tab's tree of variations: going to a node, promoting a line to the main line, deleting
//! a variation, playing a line out as one, and the tree as text. Each is refused while the bot
//! thinks; each leaves a set-up position for the game; each moves what is shown, so the
//! analysis of the old position stops (the bot, whose line may change, is started afresh at
//! its next turn: [`Opponent::follows`](crate::opponent::Opponent::follows)).

use super::Tab;
use crate::game::Game;
use crate::ApiError;
use twixt::position::Move;

impl Tab {
    /// Shows the node at `path` on the line that follows it.
    pub fn goto_node(&mut self, path: &[usize]) -> Result<(), ApiError> {
        self.edit(|g| g.goto_node(path))
    }

    /// Makes the line through the node at `path` the main line, and shows that node.
    pub fn promote(&mut self, path: &[usize]) -> Result<(), ApiError> {
        self.edit(|g| g.promote(path))
    }

    /// Deletes the move at `path` and the moves after it.
    pub fn delete(&mut self, path: &[usize]) -> Result<(), ApiError> {
        self.edit(|g| g.delete(path))
    }

    /// Plays `moves` out from the node at `path`, as a variation where they are not the moves
    /// played there; nothing changes when one is refused. The bot does not answer them.
    pub fn play_line(&mut self, path: &[usize], moves: &[Move]) -> Result<(), ApiError> {
        self.edit(|g| g.play_line(path, moves))
    }

    /// The tree of the game as text (docs/BOARD.md, "Variations"); an error for a set-up
    /// position.
    pub fn text(&self) -> Result<String, ApiError> {
        if self.arrangement.is_some() {
            return Err(ApiError::conflict(
                "a set-up position has no moves: export it as a turn input",
            ));
        }
        Ok(self.game.text() + "\n")
    }

    /// Changes the game by `change` (on a copy: an error leaves it as it was, and is a 400).
    fn edit(
        &mut self,
        change: impl FnOnce(&mut Game) -> Result<(), String>,
    ) -> Result<(), ApiError> {
        self.not_thinking()?;
        let mut game = self.game.clone();
        change(&mut game).map_err(ApiError::bad)?;
        self.game = game;
        self.arrangement = None;
        self.changed();
        Ok(())
    }
}
