//! A listed position (pegs and links per player, as a turn input gives them) and its
//! validation into a [`Position`]. Links are taken from the listing, never re-derived.

use crate::board::Board;
use crate::bridge::Bridge;
use crate::cell::{Cell, Player};
use crate::position::Position;
use std::fmt;

/// Pegs and links per player, unchecked. Index by [`Player::index`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// Each player's pegs.
    pub pegs: [Vec<Cell>; 2],
    /// Each player's links as the two ends, in any order.
    pub links: [Vec<(Cell, Cell)>; 2],
    /// The player to move.
    pub to_move: Player,
}

/// Which listed item a problem concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// The `i`-th peg listed for a player.
    Peg(Player, usize),
    /// The `i`-th link listed for a player.
    Link(Player, usize),
    /// The position as a whole.
    Whole,
}

/// What is wrong with a listed position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The same hole is listed twice (for either player).
    DuplicatePeg(Cell),
    /// A peg on the opponent's border.
    BarredHole(Cell),
    /// A link whose ends are not a knight's move apart.
    NotAKnightMove(Cell, Cell),
    /// A link end that is not one of the player's pegs.
    EndNotOwnPeg(Cell),
    /// The same link listed twice.
    DuplicateLink(Cell, Cell),
    /// A link crossing one of the opponent's links.
    CrossesOpponent(Bridge),
    /// Two knight-adjacent pegs of a player, no opponent link between them, and no link:
    /// the rules would have made it.
    MissingLink(Bridge),
    /// A player has already joined its borders.
    AlreadyWon(Player),
    /// The peg counts cannot belong to a game with this player to move.
    Counts { zero: usize, one: usize },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::DuplicatePeg(c) => write!(f, "hole {} is listed twice", c),
            Problem::BarredHole(c) => write!(f, "peg {} is on the opponent's border", c),
            Problem::NotAKnightMove(a, b) => write!(f, "segment {} {} is not a knight move", a, b),
            Problem::EndNotOwnPeg(c) => {
                write!(f, "segment end {} is not one of that player's pegs", c)
            }
            Problem::DuplicateLink(a, b) => write!(f, "segment {} {} is listed twice", a, b),
            Problem::CrossesOpponent(b) => write!(f, "segment {} crosses an opposing segment", b),
            Problem::MissingLink(b) => write!(
                f,
                "pegs {} and {} must be linked (no opposing segment crosses)",
                b.lower(),
                b.upper()
            ),
            Problem::AlreadyWon(p) => write!(f, "player {} has already joined its borders", p),
            Problem::Counts { zero, one } => {
                write!(
                    f,
                    "peg counts {} and {} do not fit the player to move",
                    zero, one
                )
            }
        }
    }
}

/// A problem and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The listed item at fault.
    pub item: Item,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.problem.fmt(f)
    }
}

impl std::error::Error for SetupError {}

impl Setup {
    /// The position, or the first problem found.
    #[cfg(not(codingame))]
    pub fn validate(&self) -> Result<Position, SetupError> {
        let (pos, problems) = self.build();
        match problems.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(pos),
        }
    }

    /// The best position that can be made of the listing (bad pegs and links left out: a
    /// second peg on a hole, a peg on its opponent's border, and the links they would end), and
    /// every problem found. The bot plays on this when the input is inconsistent.
    pub fn build(&self) -> (Position, Vec<SetupError>) {
        let mut problems = Vec::new();
        let mut board = Board::new();
        for p in Player::BOTH {
            self.put_pegs(p, &mut board, &mut problems);
        }
        for p in Player::BOTH {
            self.put_links(p, &mut board, &mut problems);
        }
        check_missing_links(&board, &mut problems);
        let pos = Position::from_parts(board, self.to_move);
        for p in Player::BOTH {
            if pos.board().connected(p) {
                problems.push(SetupError {
                    item: Item::Whole,
                    problem: Problem::AlreadyWon(p),
                });
            }
        }
        if !counts_fit(self.pegs[0].len(), self.pegs[1].len(), self.to_move) {
            problems.push(SetupError {
                item: Item::Whole,
                problem: Problem::Counts {
                    zero: self.pegs[0].len(),
                    one: self.pegs[1].len(),
                },
            });
        }
        (pos, problems)
    }

    fn put_pegs(&self, p: Player, board: &mut Board, problems: &mut Vec<SetupError>) {
        for (i, &c) in self.pegs[p.index()].iter().enumerate() {
            let item = Item::Peg(p, i);
            if board.owner(c).is_some() {
                problems.push(SetupError {
                    item,
                    problem: Problem::DuplicatePeg(c),
                });
                continue;
            }
            if !c.allowed_for(p) {
                // Left out: no game reaches it, and the search's knowledge (the network's
                // inputs) has no place for a peg where its owner may not play.
                problems.push(SetupError {
                    item,
                    problem: Problem::BarredHole(c),
                });
                continue;
            }
            board.put_peg(p, c);
        }
    }

    fn put_links(&self, p: Player, board: &mut Board, problems: &mut Vec<SetupError>) {
        for (i, &(a, b)) in self.links[p.index()].iter().enumerate() {
            let mut fail = |problem| {
                problems.push(SetupError {
                    item: Item::Link(p, i),
                    problem,
                })
            };
            let bridge = match Bridge::between(a, b) {
                Some(bridge) => bridge,
                None => {
                    fail(Problem::NotAKnightMove(a, b));
                    continue;
                }
            };
            if let Some(&end) = [a, b].iter().find(|&&c| board.owner(c) != Some(p)) {
                fail(Problem::EndNotOwnPeg(end));
            } else if board.has_link(p, bridge) {
                fail(Problem::DuplicateLink(a, b));
            } else if board.blocked(p, bridge) > 0 {
                fail(Problem::CrossesOpponent(bridge));
            } else {
                board.put_link(p, bridge);
            }
        }
    }
}

/// Flags knight-adjacent pegs of one colour that no opposing link separates, yet are unlinked.
fn check_missing_links(board: &Board, problems: &mut Vec<SetupError>) {
    for p in Player::BOTH {
        let pegs = board.pegs(p);
        for b in Bridge::all() {
            let (lo, up) = b.ends();
            if pegs.has(lo) && pegs.has(up) && !board.has_link(p, b) && board.blocked(p, b) == 0 {
                problems.push(SetupError {
                    item: Item::Whole,
                    problem: Problem::MissingLink(b),
                });
            }
        }
    }
}

/// Whether the peg counts fit the player to move: with no swap player 0 to move sees equal
/// counts and player 1 one fewer of its own; after a swap player 1 is one ahead.
pub fn counts_fit(zero: usize, one: usize, to_move: Player) -> bool {
    match to_move {
        Player::Zero => zero == one || zero + 1 == one,
        Player::One => zero == one + 1 || zero == one,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Move;

    fn c(s: &str) -> Cell {
        s.parse().unwrap()
    }

    fn setup_of(moves: &str) -> (Setup, Position) {
        let mut pos = Position::new();
        for m in moves.split_whitespace() {
            pos.play(m.parse::<Move>().unwrap()).unwrap();
        }
        let mut s = Setup {
            to_move: pos.to_move(),
            ..Setup::default()
        };
        for p in Player::BOTH {
            s.pegs[p.index()] = pos.board().pegs(p).iter().collect();
            s.links[p.index()] = pos
                .board()
                .links(p)
                .map(|b| (b.upper(), b.lower()))
                .collect();
        }
        (s, pos)
    }

    #[test]
    fn a_played_position_validates_to_the_same_board() {
        let (s, pos) = setup_of("E5 E7 F7 F5 G9 H6");
        let loaded = s.validate().unwrap();
        for p in Player::BOTH {
            assert_eq!(loaded.board().pegs(p), pos.board().pegs(p));
            let a: Vec<Bridge> = loaded.board().links(p).collect();
            let b: Vec<Bridge> = pos.board().links(p).collect();
            assert_eq!(a, b);
        }
        assert_eq!(loaded.to_move(), pos.to_move());
    }

    #[test]
    fn problems_are_found_and_named() {
        let (mut s, _) = setup_of("E5 E7 F7 F5");
        s.links[1].push((c("E7"), c("F5")));
        let e = s.validate().unwrap_err();
        assert_eq!(e.item, Item::Link(Player::One, 0));
        assert!(matches!(e.problem, Problem::CrossesOpponent(_)));

        let (mut s, _) = setup_of("E5 E7");
        s.links[0].push((c("E5"), c("F6")));
        assert_eq!(
            s.validate().unwrap_err().problem,
            Problem::NotAKnightMove(c("E5"), c("F6"))
        );

        let (mut s, _) = setup_of("E5 E7");
        s.links[0].push((c("E5"), c("F7")));
        assert_eq!(
            s.validate().unwrap_err().problem,
            Problem::EndNotOwnPeg(c("F7"))
        );

        let (mut s, _) = setup_of("E5 E7");
        s.pegs[1].push(c("E5"));
        assert_eq!(
            s.validate().unwrap_err().problem,
            Problem::DuplicatePeg(c("E5"))
        );

        let (mut s, _) = setup_of("E5 E7 F7");
        s.links[0].clear();
        assert!(matches!(
            s.validate().unwrap_err().problem,
            Problem::MissingLink(_)
        ));
    }

    #[test]
    fn build_keeps_what_is_sound() {
        let (mut s, _) = setup_of("E5 E7 F7 F5");
        s.links[1].push((c("E7"), c("F5")));
        s.pegs[0].push(c("A3"));
        let (pos, problems) = s.build();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert_eq!(pos.board().links(Player::One).count(), 0);
        assert_eq!(pos.board().links(Player::Zero).count(), 1);
    }
}
