//! The book: a move for each of some positions of the first plies, decided offline by
//! searches far longer than a turn (`twixt-train book`, `docs/OPENINGS.md` "The book").
//!
//! A position is known by its pegs alone where every two pegs of a player a knight's move
//! apart are linked (then no link was blocked, so the links follow from the pegs, and the
//! player to move from the counts); the book keys no other. The board's two mirror
//! symmetries, which keep each player's borders, make four frames of a position. Its key is the least of its four spellings,
//! `F6G8/E8` (player 0's pegs in cell order, then player 1's); the book holds `KEY=MOVE`
//! entries, the move in the key's frame, separated by spaces.

#[cfg(test)]
use super::book_moves::BOOK;
use crate::bridge::{Bridge, NEIGHBORS, NO_BRIDGE};
use crate::cell::{Cell, Player, SIZE};
use crate::position::{Move, Position};

/// Most pegs a position of the book has.
pub const BOOK_PEGS: usize = 8;

/// `c` in frame `frame`: bit 0 mirrors the columns, bit 1 the rows.
fn mirrored(c: Cell, frame: u8) -> Cell {
    let last = SIZE as i32 - 1;
    let x = if frame & 1 == 1 { last - c.x() } else { c.x() };
    let y = if frame & 2 == 2 { last - c.y() } else { c.y() };
    Cell::new(x, y).expect("a mirrored hole is a hole")
}

/// The spelling of `pos`'s pegs in `frame`.
fn spelt(pos: &Position, frame: u8) -> String {
    let mut out = String::new();
    for p in Player::BOTH {
        let mut cells: Vec<Cell> = pos
            .board()
            .pegs(p)
            .iter()
            .map(|c| mirrored(c, frame))
            .collect();
        cells.sort_by_key(|c| c.index());
        for c in cells {
            out.push_str(&c.to_string());
        }
        if p == Player::Zero {
            out.push('/');
        }
    }
    out
}

/// Whether two pegs of a player a knight's move apart stand unlinked (a crossing blocked the
/// link, so the pegs alone do not tell the position).
fn has_blocked_pair(pos: &Position) -> bool {
    let board = pos.board();
    Player::BOTH.iter().any(|&p| {
        board.pegs(p).iter().any(|c| {
            NEIGHBORS[c.index()].iter().any(|nb| {
                nb.bridge != NO_BRIDGE
                    && Cell::from_index(nb.cell as usize)
                        .map_or(false, |o| board.owner(o) == Some(p))
                    && Bridge::from_index(nb.bridge as usize)
                        .map_or(false, |b| !board.has_link(p, b))
            })
        })
    })
}

/// The key of `pos` and the frame that spells it: `None` for a position of more than
/// [`BOOK_PEGS`] pegs or with a blocked pair.
pub fn position_key(pos: &Position) -> Option<(String, u8)> {
    if pos.board().occupied().count() as usize > BOOK_PEGS || has_blocked_pair(pos) {
        return None;
    }
    (0..4).map(|f| (spelt(pos, f), f)).min()
}

/// The book's move for `pos` in `book` (entries as `book_moves::BOOK` holds them, a peg or
/// `SWAP`), brought back to the position's frame; `None` when the book does not know the
/// position or its move is not legal there.
pub fn lookup_in(book: &str, pos: &Position) -> Option<Move> {
    let (key, frame) = position_key(pos)?;
    let entry = book
        .split(' ')
        .find_map(|e| e.strip_prefix(key.as_str())?.strip_prefix('='))?;
    match entry.parse().ok()? {
        Move::Peg(c) => {
            let c = mirrored(c, frame);
            pos.legal_holes().has(c).then_some(Move::Peg(c))
        }
        Move::Swap => pos.swap_allowed().then_some(Move::Swap),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::FastRng;

    /// `pos` with every peg mirrored into `frame` (the links follow where no pair is blocked,
    /// as in every position the book keys).
    fn mirror(pos: &Position, frame: u8) -> Position {
        let mut board = crate::board::Board::new();
        for p in Player::BOTH {
            for c in pos.board().pegs(p).iter() {
                board.place(p, mirrored(c, frame));
            }
        }
        Position::from_parts(board, pos.to_move())
    }

    #[test]
    fn a_position_and_its_mirrors_share_one_key() {
        let mut rng = FastRng::new(50);
        let mut keyed = 0;
        for _ in 0..300 {
            let mut pos = Position::new();
            let mut moves = Vec::new();
            for _ in 0..1 + rng.below(BOOK_PEGS as u32) {
                let legal = pos.legal_moves();
                let mv = legal[rng.below(legal.len() as u32) as usize];
                pos.play(mv).unwrap();
                moves.push(mv.to_string());
            }
            let line = moves.join(" ");
            let keys: Vec<Option<String>> = (0..4)
                .map(|f| position_key(&mirror(&pos, f)).map(|k| k.0))
                .collect();
            assert!(keys.iter().all(|k| *k == keys[0]), "{line}: {keys:?}");
            keyed += usize::from(keys[0].is_some());
        }
        assert!(keyed > 200, "{keyed} of 300 random positions keyed");
    }

    #[test]
    fn the_book_s_move_comes_back_in_each_mirror_s_frame() {
        // Player 0 opened F6, player 1 answered G9: the book says D4 in the key's frame.
        let pos = Position::after("F6 G9").unwrap();
        let (key, frame) = position_key(&pos).unwrap();
        let move_in_key = mirrored("D4".parse().unwrap(), frame);
        let book = format!("A2B3/C5=E5 {key}={move_in_key}");
        for f in 0..4 {
            let seen = mirror(&pos, f);
            let expected = mirrored("D4".parse().unwrap(), f);
            assert_eq!(
                lookup_in(&book, &seen),
                Some(Move::Peg(expected)),
                "frame {f}"
            );
        }
        assert_eq!(lookup_in(&book, &Position::after("F6 G8").unwrap()), None);
    }

    #[test]
    fn a_move_the_position_forbids_is_not_played() {
        let pos = Position::after("F6 G9").unwrap();
        let (key, frame) = position_key(&pos).unwrap();
        let taken = mirrored("F6".parse().unwrap(), frame);
        assert_eq!(lookup_in(&format!("{key}={taken}"), &pos), None);
        assert_eq!(lookup_in(&format!("{key}=Z9"), &pos), None);
        assert_eq!(lookup_in(&format!("{key}=SWAP"), &pos), None);
    }

    #[test]
    fn the_book_may_swap_a_first_peg() {
        let pos = Position::after("B5").unwrap();
        let (key, _) = position_key(&pos).unwrap();
        assert_eq!(lookup_in(&format!("{key}=SWAP"), &pos), Some(Move::Swap));
    }

    #[test]
    fn every_entry_of_the_shipped_book_is_a_key_and_a_legal_move_in_its_frame() {
        for entry in BOOK.split(' ').filter(|e| !e.is_empty()) {
            let (written, mv) = entry.split_once('=').expect("KEY=MOVE");
            let (p0, p1) = written.split_once('/').expect("P0/P1");
            let pegs = |text: &str| -> Vec<Cell> {
                let starts: Vec<usize> = text
                    .char_indices()
                    .filter(|(_, ch)| ch.is_ascii_uppercase())
                    .map(|(i, _)| i)
                    .collect();
                let ends = starts.iter().skip(1).copied().chain([text.len()]);
                starts
                    .iter()
                    .zip(ends)
                    .map(|(&a, b)| text[a..b].parse().unwrap())
                    .collect()
            };
            let mut board = crate::board::Board::new();
            for (p, cells) in [(Player::Zero, pegs(p0)), (Player::One, pegs(p1))] {
                for c in cells {
                    board.place(p, c);
                }
            }
            let (n0, n1) = (
                board.pegs(Player::Zero).count(),
                board.pegs(Player::One).count(),
            );
            let to_move = if n0 > n1 { Player::One } else { Player::Zero };
            let pos = Position::from_parts(board, to_move);
            assert_eq!(
                position_key(&pos).map(|k| k.0).as_deref(),
                Some(written),
                "{entry}"
            );
            let legal = match mv.parse::<Move>().expect("a move") {
                Move::Peg(c) => pos.legal_holes().has(c),
                Move::Swap => pos.swap_allowed(),
            };
            assert!(legal, "{entry}: {mv} is not legal");
        }
    }
}
