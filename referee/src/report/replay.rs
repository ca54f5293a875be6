//! A recorded game as the replay viewer steps through it: every peg and link with the plies
//! during which it stands, worked out move by move by the reference rules, so that the
//! browser only shows and hides what the referee already judged.

use crate::record::GameRecord;
use anyhow::{anyhow, Result};
use serde::Serialize;
use std::collections::HashSet;
use twixt::cell::{Cell, Player};
use twixt::position::Move;
use twixt_reference::RefGame;

/// A hole as the viewer places it: column and row from 0 (row 0 is row 1).
pub type At = [i32; 2];

fn at(c: Cell) -> At {
    [c.x(), c.y()]
}

/// One move of the list.
#[derive(Debug, Serialize)]
pub struct Step {
    /// The move as the bot wrote it (`E5`, `SWAP`).
    pub mv: String,
    /// The player who made it.
    pub player: u8,
    /// Milliseconds the answer took; `None` for an opening's move.
    pub ms: Option<u64>,
    /// What the bot wrote after its move, if anything.
    pub msg: Option<String>,
    /// The hole to ring once the move is made (after a swap, the swapped peg).
    pub ring: At,
}

/// A peg and the plies it stands on the board: from ply `from` (after `from` moves) until
/// ply `to`, when a swap takes it away.
#[derive(Debug, Serialize)]
pub struct PegSpan {
    /// The hole's name.
    pub cell: String,
    /// Where it is.
    pub at: At,
    /// Whose peg it is.
    pub p: u8,
    /// The first ply it stands at.
    pub from: usize,
    /// The first ply it no longer stands at, if any.
    pub to: Option<usize>,
}

/// A link and the ply from which it stands (links are never taken away, but by a swap, which
/// comes before any link).
#[derive(Debug, Serialize)]
pub struct LinkSpan {
    /// One end.
    pub a: At,
    /// The other end.
    pub b: At,
    /// Whose link it is.
    pub p: u8,
    /// The first ply it stands at.
    pub ply: usize,
}

/// Everything the viewer needs of one game.
#[derive(Debug, Serialize)]
pub struct Replay {
    /// The viewer's heading for the game (set by the page that shows it).
    pub title: String,
    /// The moves in order.
    pub steps: Vec<Step>,
    /// How many of them came from the opening.
    pub opening: usize,
    /// Every peg that ever stood.
    pub pegs: Vec<PegSpan>,
    /// Every link, in the order they were made.
    pub links: Vec<LinkSpan>,
    /// The links of one chain that joined the winner's borders (empty without one).
    pub chain: Vec<[At; 2]>,
    /// The commands of player 0 and player 1.
    pub players: [String; 2],
    /// Why the game ended, in words.
    pub end: String,
}

/// The replay of `record`, judged by the reference rules; an error names the first move they
/// refuse.
pub fn replay(record: &GameRecord) -> Result<Replay> {
    let moves = record.parsed_moves()?;
    let mut game = RefGame::new();
    let mut pegs: Vec<PegSpan> = Vec::new();
    let mut links = Vec::new();
    let mut seen = HashSet::new();
    let mut steps = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        game.play(mv)
            .map_err(|e| anyhow!("record move {}: {e}", i + 1))?;
        let (ply, player) = (i + 1, (i % 2) as u8);
        let placed = match mv {
            Move::Peg(c) => c,
            Move::Swap => {
                for peg in pegs.iter_mut().filter(|p| p.to.is_none()) {
                    peg.to = Some(ply);
                }
                *game
                    .pegs(Player::One)
                    .first()
                    .ok_or_else(|| anyhow!("record move {ply}: a swap with no peg to swap"))?
            }
        };
        pegs.push(PegSpan {
            cell: placed.to_string(),
            at: at(placed),
            p: player,
            from: ply,
            to: None,
        });
        for p in Player::BOTH {
            for (a, b) in game.links(p) {
                if seen.insert((p, a, b)) {
                    links.push(LinkSpan {
                        a: at(a),
                        b: at(b),
                        p: p.index() as u8,
                        ply,
                    });
                }
            }
        }
        steps.push(Step {
            mv: record.moves[i].clone(),
            player,
            ms: record.ms.get(i).copied().flatten(),
            msg: record.messages.get(i).cloned().flatten(),
            ring: at(placed),
        });
    }
    let chain = game
        .winner()
        .and_then(|p| game.winning_chain(p))
        .unwrap_or_default();
    Ok(Replay {
        title: String::new(),
        steps,
        opening: record.opening,
        pegs,
        links,
        chain: chain.into_iter().map(|(a, b)| [at(a), at(b)]).collect(),
        players: [record.cmd0.clone(), record.cmd1.clone()],
        end: ending(record),
    })
}

/// `Player 1 wins (connected): player 1 joined columns A and L`, or the draw's words.
pub fn ending(record: &GameRecord) -> String {
    let how = match record.winner {
        Some(w) => format!("Player {w} wins ({})", record.reason.name()),
        None => "Draw".to_string(),
    };
    if record.detail.is_empty() {
        how
    } else {
        format!("{how}: {}", record.detail)
    }
}

/// The pegs standing after `ply` moves, as `(hole, player)` sorted by hole name: what the
/// viewer must show there.
pub fn pegs_at(replay: &Replay, ply: usize) -> Vec<(String, u8)> {
    let mut out: Vec<(String, u8)> = replay
        .pegs
        .iter()
        .filter(|p| p.from <= ply && p.to.is_none_or(|to| ply < to))
        .map(|p| (p.cell.clone(), p.p))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::record;
    use crate::record::Reason;

    /// Checks the replay of `moves` against the reference rules at every ply.
    fn holds_to_the_rules(moves: &str) -> Replay {
        let r = record(moves, None, Reason::Draw);
        let replay = replay(&r).unwrap();
        let moves = r.parsed_moves().unwrap();
        for ply in 0..=moves.len() {
            let game = RefGame::from_moves(&moves[..ply]).unwrap();
            let mut expected: Vec<(String, u8)> = Vec::new();
            for p in Player::BOTH {
                let pegs = game.pegs(p).into_iter();
                expected.extend(pegs.map(|c| (c.to_string(), p.index() as u8)));
            }
            expected.sort();
            assert_eq!(pegs_at(&replay, ply), expected, "ply {ply}");
            let links = replay.links.iter().filter(|l| l.ply <= ply).count();
            let by_rules = game.links(Player::Zero).len() + game.links(Player::One).len();
            assert_eq!(links, by_rules, "links at ply {ply}");
        }
        replay
    }

    #[test]
    fn the_pegs_and_links_at_each_ply_are_those_the_rules_give() {
        let won = holds_to_the_rules("E2 A5 E3 C6 E4 E5 E10 G6 E11 I5 F11 K6 G11 L8");
        // A5 C6 E5 G6 I5 K6 L8: six links from column A to column L.
        assert_eq!(won.chain.len(), 6);
        assert_eq!(won.steps[13].ring, [11, 7]);
        let swapped = holds_to_the_rules("E2 SWAP E3 C6 D4 D7 F4 E5");
        // The swap took E2 away and put B5 down for player 1, ringed.
        assert_eq!(swapped.pegs[0].to, Some(2));
        assert_eq!(
            (swapped.pegs[1].cell.as_str(), swapped.pegs[1].p),
            ("B5", 1)
        );
        assert_eq!(swapped.steps[1].ring, [1, 4]);
        assert!(swapped.chain.is_empty());
    }

    #[test]
    fn a_move_the_rules_refuse_is_named() {
        let r = record("E5 E5", None, Reason::Draw);
        let err = replay(&r).unwrap_err().to_string();
        assert!(err.starts_with("record move 2:"), "{err}");
    }
}
