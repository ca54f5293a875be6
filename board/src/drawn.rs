//! What the page draws of a position: pegs, links, the chain that won and the last move, as
//! the reference rules give them for a game, or as the engine's board holds them for a
//! position set up peg by peg.

use serde::Serialize;
use twixt::cell::{Cell, Player};
use twixt::Board;
use twixt_reference::RefGame;

/// A hole as the page places it: its name, and column and row from 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hole {
    /// `E5`.
    pub cell: String,
    /// Column and row from 0 (row 0 is row 1).
    pub at: [i32; 2],
}

impl From<Cell> for Hole {
    fn from(c: Cell) -> Hole {
        Hole {
            cell: c.to_string(),
            at: [c.x(), c.y()],
        }
    }
}

/// The pieces of one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// Every peg and its owner.
    pub pegs: Vec<(Cell, Player)>,
    /// Every link: its ends and its owner.
    pub links: Vec<(Cell, Cell, Player)>,
    /// The links of a chain that joined a player's borders (empty when none did).
    pub chain: Vec<(Cell, Cell)>,
    /// The hole of the last move (after a swap, the swapped peg), to ring.
    pub last: Option<Cell>,
}

/// [`Drawn`] as the page reads it.
#[derive(Debug, Serialize)]
pub struct DrawnView {
    pegs: Vec<PegView>,
    links: Vec<LinkView>,
    chain: Vec<[Hole; 2]>,
    last: Option<Hole>,
}

#[derive(Debug, Serialize)]
struct PegView {
    #[serde(flatten)]
    hole: Hole,
    p: u8,
}

#[derive(Debug, Serialize)]
struct LinkView {
    a: Hole,
    b: Hole,
    p: u8,
}

impl Drawn {
    /// The pieces of a game under the reference rules, with the chain of a winner.
    pub fn of_reference(game: &RefGame) -> Drawn {
        let mut d = Drawn::default();
        for p in Player::BOTH {
            d.pegs.extend(game.pegs(p).into_iter().map(|c| (c, p)));
            d.links
                .extend(game.links(p).into_iter().map(|(a, b)| (a, b, p)));
        }
        d.chain = game
            .winner()
            .and_then(|p| game.winning_chain(p))
            .unwrap_or_default();
        d
    }

    /// The pieces of the engine's board (a set-up position has no winner: none is drawn).
    pub fn of_board(board: &Board) -> Drawn {
        let mut d = Drawn::default();
        for p in Player::BOTH {
            d.pegs.extend(board.pegs(p).iter().map(|c| (c, p)));
            d.links.extend(board.links(p).map(|b| {
                let (a, c) = b.ends();
                (a, c, p)
            }));
        }
        d
    }

    /// The form the page reads.
    pub fn view(&self) -> DrawnView {
        DrawnView {
            pegs: self
                .pegs
                .iter()
                .map(|&(c, p)| PegView {
                    hole: c.into(),
                    p: p.index() as u8,
                })
                .collect(),
            links: self
                .links
                .iter()
                .map(|&(a, b, p)| LinkView {
                    a: a.into(),
                    b: b.into(),
                    p: p.index() as u8,
                })
                .collect(),
            chain: self
                .chain
                .iter()
                .map(|&(a, b)| [a.into(), b.into()])
                .collect(),
            last: self.last.map(Hole::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twixt::position::Position;

    #[test]
    fn the_engine_and_the_reference_draw_a_game_alike() {
        let moves: Vec<twixt::Move> = "E5 E7 F7 G6 D3"
            .split(' ')
            .map(|m| m.parse().unwrap())
            .collect();
        let game = RefGame::from_moves(&moves).unwrap();
        let mut pos = Position::new();
        moves.iter().for_each(|&m| pos.play(m).unwrap());
        let sorted = |mut d: Drawn| {
            d.pegs.sort_by_key(|&(c, p)| (c.index(), p.index()));
            let key = |&(a, b, _): &(Cell, Cell, Player)| {
                (a.index().min(b.index()), a.index().max(b.index()))
            };
            d.links.sort_by_key(key);
            d.links = d
                .links
                .into_iter()
                .map(|(a, b, p)| {
                    if a.index() < b.index() {
                        (a, b, p)
                    } else {
                        (b, a, p)
                    }
                })
                .collect();
            d
        };
        let (r, e) = (
            sorted(Drawn::of_reference(&game)),
            sorted(Drawn::of_board(pos.board())),
        );
        assert_eq!(r, e);
        assert_eq!(r.links.len(), 2, "G6-E7 would cross E5-F7: {:?}", r.links);
        let json = serde_json::to_string(&r.view()).unwrap();
        assert!(json.contains(r#"{"cell":"E5","at":[4,4],"p":0}"#), "{json}");
    }
}
