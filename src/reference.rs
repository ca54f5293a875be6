//! A slow, obviously correct implementation of the Twixt-PP rules, sharing no logic with the
//! fast board: a grid of pegs, a plain list of links, crossing by orientation tests and the win
//! by breadth-first search. The tests hold the fast board to it, and the referee judges with it.
//! It never ships to CodinGame.

use crate::cell::{Cell, Player};
use crate::position::{IllegalMove, Move, Outcome};
use std::collections::VecDeque;

const N: i32 = 12;

/// A point of the board as plain coordinates.
type Pt = (i32, i32);

/// One link: its owner and its two ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link {
    owner: Player,
    a: Pt,
    b: Pt,
}

/// A game under the reference rules, kept as the full history.
#[derive(Clone, Debug)]
pub struct RefGame {
    grid: [[Option<Player>; 12]; 12],
    links: Vec<Link>,
    to_move: Player,
    moves: Vec<Move>,
}

impl Default for RefGame {
    fn default() -> Self {
        RefGame::new()
    }
}

fn pt(c: Cell) -> Pt {
    (c.x(), c.y())
}

fn cell(p: Pt) -> Cell {
    Cell::new(p.0, p.1).expect("reference points are holes")
}

fn on_board(p: Pt) -> bool {
    let corner = (p.0 == 0 || p.0 == N - 1) && (p.1 == 0 || p.1 == N - 1);
    (0..N).contains(&p.0) && (0..N).contains(&p.1) && !corner
}

/// Whether `p` lies on one of `player`'s two borders.
fn on_border(player: Player, p: Pt) -> bool {
    let v = if player == Player::Zero { p.1 } else { p.0 };
    v == 0 || v == N - 1
}

/// Cross product sign of `o->a` and `o->b`.
fn side(o: Pt, a: Pt, b: Pt) -> i64 {
    let v = (a.0 - o.0) as i64 * (b.1 - o.1) as i64 - (a.1 - o.1) as i64 * (b.0 - o.0) as i64;
    v.signum()
}

/// Whether two segments cross at a point inside both (touching at an end does not count).
fn crosses(p1: Pt, p2: Pt, q1: Pt, q2: Pt) -> bool {
    side(p1, p2, q1) * side(p1, p2, q2) < 0 && side(q1, q2, p1) * side(q1, q2, p2) < 0
}

impl RefGame {
    /// The empty board, player 0 to move.
    pub fn new() -> RefGame {
        RefGame {
            grid: [[None; 12]; 12],
            links: Vec::new(),
            to_move: Player::Zero,
            moves: Vec::new(),
        }
    }

    /// Replays moves from the empty board, stopping at the first illegal one.
    pub fn from_moves(moves: &[Move]) -> Result<RefGame, (usize, IllegalMove)> {
        let mut g = RefGame::new();
        for (i, &m) in moves.iter().enumerate() {
            g.play(m).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The owner of the peg at `c`.
    pub fn owner(&self, c: Cell) -> Option<Player> {
        self.grid[c.y() as usize][c.x() as usize]
    }

    /// `p`'s pegs, in index order.
    pub fn pegs(&self, p: Player) -> Vec<Cell> {
        Cell::all().filter(|&c| self.owner(c) == Some(p)).collect()
    }

    /// `p`'s links as pairs of cells, each pair in index order, the list sorted.
    pub fn links(&self, p: Player) -> Vec<(Cell, Cell)> {
        let mut out: Vec<(Cell, Cell)> = self
            .links
            .iter()
            .filter(|l| l.owner == p)
            .map(|l| {
                let (a, b) = (cell(l.a), cell(l.b));
                (a.min(b), a.max(b))
            })
            .collect();
        out.sort();
        out
    }

    /// The vacant holes `p` may use, in index order.
    pub fn legal_holes(&self, p: Player) -> Vec<Cell> {
        let mut out = Vec::new();
        for y in 0..N {
            for x in 0..N {
                if on_board((x, y))
                    && !on_border(p.other(), (x, y))
                    && self.grid[y as usize][x as usize].is_none()
                {
                    out.push(cell((x, y)));
                }
            }
        }
        out
    }

    /// The same board with the other player to move: what the opponent could do if it were
    /// its turn (for finding threats in tests).
    pub fn passed(&self) -> RefGame {
        let mut g = self.clone();
        g.to_move = g.to_move.other();
        g
    }

    /// SWAP is allowed exactly as the second move of the game.
    pub fn swap_allowed(&self) -> bool {
        self.moves.len() == 1 && matches!(self.moves[0], Move::Peg(_))
    }

    /// The player whose links join its two borders, found by breadth-first search.
    pub fn winner(&self) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| self.has_path(p))
    }

    fn has_path(&self, p: Player) -> bool {
        let start_side = |q: Pt| {
            if p == Player::Zero {
                q.1 == 0
            } else {
                q.0 == 0
            }
        };
        let far_side = |q: Pt| {
            if p == Player::Zero {
                q.1 == N - 1
            } else {
                q.0 == N - 1
            }
        };
        let mut seen = [[false; 12]; 12];
        let mut queue = VecDeque::new();
        for c in self.pegs(p) {
            if start_side(pt(c)) {
                seen[c.y() as usize][c.x() as usize] = true;
                queue.push_back(pt(c));
            }
        }
        while let Some(q) = queue.pop_front() {
            if far_side(q) {
                return true;
            }
            for l in self.links.iter().filter(|l| l.owner == p) {
                let next = if l.a == q {
                    l.b
                } else if l.b == q {
                    l.a
                } else {
                    continue;
                };
                if !seen[next.1 as usize][next.0 as usize] {
                    seen[next.1 as usize][next.0 as usize] = true;
                    queue.push_back(next);
                }
            }
        }
        false
    }

    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(p) = self.winner() {
            return Some(Outcome::Win(p));
        }
        if self.legal_holes(self.to_move).is_empty() {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Checks a move of the player to move.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Swap if self.swap_allowed() => Ok(()),
            Move::Swap => Err(IllegalMove::SwapNotAllowed),
            Move::Peg(c) => {
                if self.owner(c).is_some() {
                    Err(IllegalMove::Occupied(c))
                } else if on_border(self.to_move.other(), pt(c)) {
                    Err(IllegalMove::Barred(c))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays a move of the player to move.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        match mv {
            Move::Swap => {
                let first = self.pegs(Player::Zero)[0];
                self.grid[first.y() as usize][first.x() as usize] = None;
                self.grid[first.x() as usize][first.y() as usize] = Some(Player::One);
            }
            Move::Peg(c) => self.place(pt(c)),
        }
        self.moves.push(mv);
        self.to_move = self.to_move.other();
        Ok(())
    }

    fn place(&mut self, at: Pt) {
        let me = self.to_move;
        self.grid[at.1 as usize][at.0 as usize] = Some(me);
        let knight = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        for (dx, dy) in knight {
            let other = (at.0 + dx, at.1 + dy);
            if !on_board(other) || self.grid[other.1 as usize][other.0 as usize] != Some(me) {
                continue;
            }
            let blocked = self
                .links
                .iter()
                .any(|l| l.owner != me && crosses(at, other, l.a, l.b));
            if !blocked {
                self.links.push(Link {
                    owner: me,
                    a: at,
                    b: other,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(s: &str) -> Vec<Move> {
        s.split_whitespace().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn crossing_needs_interior_points() {
        assert!(crosses((4, 4), (5, 6), (4, 6), (5, 4)));
        assert!(
            !crosses((4, 4), (5, 6), (5, 6), (7, 5)),
            "a shared end is no crossing"
        );
        assert!(!crosses((4, 4), (5, 6), (6, 4), (7, 6)));
    }

    #[test]
    fn the_first_link_wins_a_crossing() {
        // Player 0: E5, F7 (linked); player 1: E7, F5 would cross it.
        let g = RefGame::from_moves(&moves("E5 E7 F7 F5")).unwrap();
        assert_eq!(g.links(Player::Zero).len(), 1);
        assert!(g.links(Player::One).is_empty());
    }

    #[test]
    fn swap_is_the_second_move_only() {
        let mut g = RefGame::from_moves(&moves("K2")).unwrap();
        assert!(g.swap_allowed());
        g.play(Move::Swap).unwrap();
        assert_eq!(g.pegs(Player::One), vec!["B11".parse().unwrap()]);
        assert!(g.pegs(Player::Zero).is_empty());
        assert_eq!(g.to_move(), Player::Zero);
        assert_eq!(g.play(Move::Swap), Err(IllegalMove::SwapNotAllowed));
    }

    #[test]
    fn a_chain_across_wins_for_player_one() {
        let g =
            RefGame::from_moves(&moves("E2 A5 E3 C6 E4 E5 E10 G6 E11 I5 F11 K6 G11 L8")).unwrap();
        assert_eq!(g.winner(), Some(Player::One));
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::One)));
    }
}
