//! A slow, obviously correct implementation of the Twixt-PP rules, sharing no logic with the
//! fast board: a grid of pegs, a plain list of links, crossing by orientation tests and the win
//! by breadth-first search. The tests hold the fast board to it, and the referee judges with it.
//! It never ships to CodinGame.
//!
//! It borrows only the engine's vocabulary ([`Cell`], [`Player`], [`Move`], [`Outcome`],
//! [`IllegalMove`]), none of its logic. [`turn_input`] writes the turn a bot reads
//! ([`write_turn`] the same text for pegs and links from elsewhere, as the board's editor has).

mod turn;

pub use turn::{turn_input, write_turn, Side};

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use twixt::{Cell, IllegalMove, Move, Outcome, Player};

const N: i32 = 12;

/// A point of the board as plain coordinates.
pub type Pt = (i32, i32);

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

/// The coordinate that tells how far `c` is between `p`'s borders: its row for player 0, its
/// column for player 1.
fn border_coord(p: Player, c: Cell) -> i32 {
    if p == Player::Zero {
        c.y()
    } else {
        c.x()
    }
}

/// The eight knight's moves `(dx, dy)`.
pub const KNIGHT_MOVES: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

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
/// Public for the engine's own tests, which hold its compile-time tables to it (points are
/// `(x, y)`, so the engine's types need not be the reference's).
pub fn crosses(p1: Pt, p2: Pt, q1: Pt, q2: Pt) -> bool {
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

    /// Every legal move of the player to move: its legal holes in index order, then `SWAP`
    /// where allowed; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let holes = self.legal_holes(self.to_move).into_iter().map(Move::Peg);
        let swap = self.swap_allowed().then_some(Move::Swap);
        holes.chain(swap).collect()
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
        Player::BOTH
            .into_iter()
            .find(|&p| self.winning_chain(p).is_some())
    }

    /// The links of one shortest chain of `p`'s joining its two borders, from the first
    /// border (row 1 or column A) to the far one, if there is such a chain.
    pub fn winning_chain(&self, p: Player) -> Option<Vec<(Cell, Cell)>> {
        let start = self
            .pegs(p)
            .into_iter()
            .filter(|&c| border_coord(p, c) == 0);
        let parents = self.breadth_first(p, start);
        let end = parents
            .keys()
            .copied()
            .filter(|&c| border_coord(p, c) == N - 1)
            .min()?;
        let mut chain = Vec::new();
        let mut at = end;
        while let Some(&Some(prev)) = parents.get(&at) {
            chain.push((prev, at));
            at = prev;
        }
        chain.reverse();
        Some(chain)
    }

    /// The pegs joined to `from` by chains of `p`'s links (`from` included), in index order.
    pub fn reachable(&self, p: Player, from: Cell) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self
            .breadth_first(p, std::iter::once(from))
            .into_keys()
            .collect();
        cells.sort();
        cells
    }

    /// The one breadth-first search over `p`'s links: every cell reached from `start`, with
    /// the cell it was first reached from (`None` for the start cells).
    fn breadth_first(
        &self,
        p: Player,
        start: impl Iterator<Item = Cell>,
    ) -> HashMap<Cell, Option<Cell>> {
        let links = self.links(p);
        let mut parent = HashMap::new();
        let mut queue = VecDeque::new();
        for c in start {
            parent.insert(c, None);
            queue.push_back(c);
        }
        while let Some(c) = queue.pop_front() {
            for &(a, b) in &links {
                let next = match (a == c, b == c) {
                    (true, _) => b,
                    (_, true) => a,
                    _ => continue,
                };
                if let Entry::Vacant(e) = parent.entry(next) {
                    e.insert(Some(c));
                    queue.push_back(next);
                }
            }
        }
        parent
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

    /// The pegs a peg of the player to move on the vacant hole `c` would link to, found by
    /// placing it on a copy of the game.
    pub fn links_made(&self, c: Cell) -> Vec<Cell> {
        let me = self.to_move;
        let mut after = self.clone();
        after.place(pt(c));
        let before = self.links(me);
        after
            .links(me)
            .into_iter()
            .filter(|l| !before.contains(l))
            .map(|(a, b)| if a == c { b } else { a })
            .collect()
    }

    fn place(&mut self, at: Pt) {
        let me = self.to_move;
        self.grid[at.1 as usize][at.0 as usize] = Some(me);
        for (dx, dy) in KNIGHT_MOVES {
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
        // A5 C6 E5 G6 I5 K6 L8, from column A to column L.
        let chain = g.winning_chain(Player::One).unwrap();
        let cells: Vec<String> = chain.iter().map(|(a, _)| a.to_string()).collect();
        assert_eq!(cells, ["A5", "C6", "E5", "G6", "I5", "K6"]);
        assert_eq!(chain[5].1.to_string(), "L8");
        assert!(chain.windows(2).all(|w| w[0].1 == w[1].0));
        assert_eq!(g.winning_chain(Player::Zero), None);
    }

    #[test]
    fn reachable_follows_links_only() {
        // Player 0: E5-F7 linked, F7-E9 linked, H2 alone; player 1 apart.
        let g = RefGame::from_moves(&moves("E5 B5 F7 B7 E9 B9 H2")).unwrap();
        let cell = |s: &str| s.parse::<Cell>().unwrap();
        assert_eq!(
            g.reachable(Player::Zero, cell("E9")),
            vec![cell("E5"), cell("F7"), cell("E9")]
        );
        assert_eq!(g.reachable(Player::Zero, cell("H2")), vec![cell("H2")]);
    }

    #[test]
    fn legal_moves_list_holes_then_swap() {
        let g = RefGame::from_moves(&moves("F6")).unwrap();
        let legal = g.legal_moves();
        assert_eq!(legal.len(), 120);
        assert_eq!(legal.last(), Some(&Move::Swap));
        assert!(!legal.contains(&Move::Peg("F6".parse().unwrap())));
    }
}
