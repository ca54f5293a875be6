//! A results file's lost games for one side, each with the move that lost it: the collapse
//! that `twixt-referee losses` finds, by its own code ([`twixt_referee::losses`]: one home
//! for the rule), so that the page goes to the ply before it and analyses there.

use crate::library::Library;
use crate::ApiError;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::Path;
use twixt_referee::losses::{our_seat, Loss};

/// How many sides (bot commands) are offered at most: a match has two.
pub const MOST_SIDES: usize = 16;

/// One lost game as the page lists it.
#[derive(Debug, Serialize)]
pub struct LossView {
    /// The game's number in the list, from 1 (to open it).
    pub game: usize,
    /// Its line in the file.
    pub line: usize,
    /// The side's player index in it.
    pub seat: u8,
    /// The ply of the collapse move: the position it was played in.
    pub ply: usize,
    /// The collapse move.
    pub mv: String,
    /// The side's value after it and before it, where its messages gave them.
    pub value: Option<f64>,
    /// Its last value before.
    pub before: Option<f64>,
    /// What the collapse is, in `twixt-referee losses`'s words.
    pub kind: &'static str,
    /// The phase it falls in.
    pub phase: &'static str,
}

/// What the page lists: the sides to choose from and the chosen side's lost games.
#[derive(Debug, Default, Serialize)]
pub struct LossesView {
    /// The bot commands of the file's games, in order (at most [`MOST_SIDES`]).
    pub sides: Vec<String>,
    /// The games the chosen side played, won and drew.
    pub games: usize,
    /// Of them, won.
    pub won: usize,
    /// Of them, drawn.
    pub drawn: usize,
    /// Its lost games, in file order.
    pub losses: Vec<LossView>,
}

/// The sides of `lib`'s games, and the lost games of `ours` (a command, as `twixt-referee
/// losses --ours` takes it) when one is chosen; a 409 for pasted moves, which name no sides.
pub fn losses(lib: &Library, ours: Option<&str>) -> Result<LossesView, ApiError> {
    let records = (1..=lib.len()).filter_map(|n| Some((n, lib.record(n)?)));
    let mut sides = BTreeSet::new();
    let mut out = LossesView::default();
    let mut any = false;
    for (n, record) in records {
        any = true;
        if sides.len() < MOST_SIDES {
            sides.extend([record.cmd0.clone(), record.cmd1.clone()]);
        }
        let Some(seat) = ours.and_then(|o| our_seat(&record, o).ok()) else {
            continue;
        };
        out.games += 1;
        match record.winner {
            None => out.drawn += 1,
            Some(w) if w == seat => out.won += 1,
            Some(_) => out.losses.push(view(n, lib, record, seat)),
        }
    }
    if !any {
        return Err(ApiError::conflict(
            "no results file is open: its lost games are listed once one is",
        ));
    }
    out.sides = sides.into_iter().take(MOST_SIDES).collect();
    Ok(out)
}

fn view(n: usize, lib: &Library, record: twixt_referee::record::GameRecord, seat: u8) -> LossView {
    let line = lib.summaries().nth(n - 1).map_or(0, |s| s.line);
    let loss = Loss::new(Path::new("the file"), line, record, seat);
    let c = loss.collapse;
    LossView {
        game: n,
        line,
        seat,
        ply: c.ply,
        mv: loss.record.moves.get(c.ply).cloned().unwrap_or_default(),
        value: c.value,
        before: c.before,
        kind: c.kind.describe(),
        phase: loss.phase.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::read;

    fn record(winner: u8, cmd0: &str, cmd1: &str, messages: &str) -> String {
        let moves = ["F6", "E8", "G8", "D6", "H5", "C5"];
        let messages: Vec<&str> = messages.split(' ').collect();
        serde_json::json!({ "moves": moves, "ms": [null, null, null, null, null, null],
            "messages": messages, "winner": winner, "reason": "connected", "detail": "",
            "cmd0": cmd0, "cmd1": cmd1, "seed": 1 })
        .to_string()
    }

    #[test]
    fn a_sides_losses_carry_the_referees_collapse() {
        let text = [
            record(1, "bot-a", "bot-b", "60% 50% 55% 50% 30% 90%"),
            record(0, "bot-b", "bot-a", "60% 50% 55% 50% 30% 90%"),
            record(1, "bot-b", "bot-a", "60% 50% 55% 50% 30% 90%"),
        ]
        .join("\n");
        let lib = read(&text).unwrap();
        let none = losses(&lib, None).unwrap();
        assert_eq!(none.sides, ["bot-a", "bot-b"]);
        assert!(none.losses.is_empty());
        let a = losses(&lib, Some("bot-a")).unwrap();
        assert_eq!((a.games, a.won), (3, 1));
        // Game 1: bot-a is player 0, its values 60% 55% 30%: it fell at ply 4 (H5).
        // Game 2: bot-a is player 1, 50% 50% 90%: never below half; its last move, ply 5.
        let got: Vec<(usize, usize, &str)> =
            a.losses.iter().map(|l| (l.game, l.ply, l.kind)).collect();
        assert_eq!(
            got,
            [
                (1, 4, "collapse"),
                (2, 5, "never below half; our last move")
            ]
        );
        assert_eq!(
            (a.losses[0].mv.as_str(), a.losses[0].before),
            ("H5", Some(0.55))
        );
        let pasted = crate::library::Library::pasted(crate::library::move_list("F6").unwrap());
        assert_eq!(losses(&pasted, None).unwrap_err().status.as_u16(), 409);
    }
}
