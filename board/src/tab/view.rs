//! What the page draws of a tab: the position shown, the game's moves and tree, the bot, the
//! analysis and the evaluation graph, as one [`View`].

use super::Tab;
use crate::drawn::DrawnView;
use crate::evaluation::{Evaluation, GraphView};
use crate::live::{Analysis, AnalysisView};
use crate::opponent::Clock;
use crate::tree::TreeView;
use serde::Serialize;
use twixt::cell::Player;

/// A move of the list as the page shows it.
#[derive(Serialize)]
pub(super) struct MoveView {
    mv: String,
    player: u8,
    ms: Option<u64>,
    msg: Option<String>,
}

/// The end of a game as the page shows it.
#[derive(Serialize)]
pub(super) struct OverView {
    winner: Option<u8>,
    reason: &'static str,
    text: String,
}

/// The position shown, for [`View`].
pub(super) struct PositionView {
    drawn: crate::drawn::Drawn,
    to_move: Player,
    legal: Vec<String>,
    swap: bool,
    over: Option<OverView>,
    setup: Option<Vec<(String, u8)>>,
}

/// The whole state the page draws.
#[derive(Serialize)]
pub struct View {
    version: u64,
    mode: &'static str,
    seat: Option<u8>,
    clock_ms: Option<u64>,
    bot: String,
    thinking: bool,
    bot_note: Option<String>,
    ply: usize,
    length: usize,
    to_move: u8,
    swap_allowed: bool,
    legal: Vec<String>,
    moves: Vec<MoveView>,
    #[serde(flatten)]
    variations: TreeView,
    drawn: DrawnView,
    over: Option<OverView>,
    setup: Option<Vec<(String, u8)>>,
    analysis: Option<AnalysisView>,
    graph: Option<GraphView>,
    games: usize,
}

impl Tab {
    /// What the position shown holds: pieces, the player to move and its holes, the swap, the
    /// end; and the pegs of a set-up position.
    fn position_view(&self) -> PositionView {
        if let Some(s) = &self.arrangement {
            let placed = s
                .placed()
                .iter()
                .map(|&(c, p)| (c.to_string(), p.index() as u8));
            return PositionView {
                drawn: s.drawn(),
                to_move: s.to_move(),
                legal: s
                    .position()
                    .legal_holes()
                    .iter()
                    .map(|c| c.to_string())
                    .collect(),
                swap: false,
                over: None,
                setup: Some(placed.collect()),
            };
        }
        let game = self.game.reference();
        let over = self.game.ending().map(|(w, reason, detail)| OverView {
            winner: w.map(|p| p.index() as u8),
            reason: reason.name(),
            text: detail,
        });
        let legal = match over {
            Some(_) => Vec::new(),
            None => game
                .legal_holes(game.to_move())
                .iter()
                .map(|c| c.to_string())
                .collect(),
        };
        PositionView {
            drawn: self.game.drawn(),
            to_move: game.to_move(),
            legal,
            swap: over.is_none() && game.swap_allowed(),
            over,
            setup: None,
        }
    }

    /// Everything the page draws.
    pub fn view(&self) -> View {
        let PositionView {
            drawn,
            to_move,
            legal,
            swap,
            over,
            setup,
        } = self.position_view();
        View {
            version: self.version,
            mode: if self.arrangement.is_some() {
                "setup"
            } else {
                "game"
            },
            seat: self.seat.map(|p| p.index() as u8),
            clock_ms: match self.clock {
                Clock::CodinGame => None,
                Clock::Ms(ms) => Some(ms),
            },
            bot: self.kind.name(),
            thinking: self.thinking,
            bot_note: self.bot_note.clone(),
            ply: self.game.ply(),
            length: self.game.len(),
            to_move: to_move.index() as u8,
            swap_allowed: swap,
            legal,
            moves: self
                .game
                .moves()
                .iter()
                .enumerate()
                .map(|(i, p)| MoveView {
                    mv: p.mv.to_string(),
                    player: (i % 2) as u8,
                    ms: p.ms,
                    msg: p.msg.clone(),
                })
                .collect(),
            variations: self.game.tree_view(),
            drawn: drawn.view(),
            over,
            setup,
            analysis: self.analysis.as_ref().map(Analysis::view),
            graph: self.evaluation.as_ref().map(Evaluation::view),
            games: self.library.len(),
        }
    }
}
