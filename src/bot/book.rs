//! The book: a move for each of some positions of the first plies, decided offline by
//! searches far longer than a turn (`twixt-train book`, `docs/TRAINING.md` "The book").
//!
//! A position is known by its pegs alone where every two pegs of a player a knight's move
//! apart are linked (then no link was blocked, so the links follow from the pegs, and the
//! player to move from the counts); the book keys no other. The board's two mirror
//! symmetries, which keep each player's borders, make four frames of a position: its key is
//! its pegs in the least of them (player 0's cell indices in order, then player 1's). The
//! counts tell the player to move, except after a swap, where player 1 moves with as many
//! pegs as player 0 (as player 0 does without one): such a key ends with a mark of its own. Host
//! tools write a key as `F6G8/E8` (after a swap, `B4/F3/1`); the shipped book writes each
//! entry as characters from U+3400 on, which the bundle counts with the weights
//! (`BOOK_CODE`): the key's cells, the split between the players (and the mark), `GIVES`,
//! the move in the key's frame, then `NEXT`.

/// The shipped book (host tools read it; the bot reaches it through its own field).
#[cfg(not(codingame))]
pub use super::book_moves::BOOK;
use crate::bridge::{Bridge, NEIGHBORS, NO_BRIDGE};
use crate::cell::{Cell, Player, CELLS};
use crate::position::{Move, Position};

/// Most pegs a position of the book has.
#[cfg(not(codingame))]
pub const BOOK_PEGS: usize = 8;

/// The first character of the shipped book's alphabet: cell `i` is `BOOK_CODE + i`.
const BOOK_CODE: u32 = 0x3400;
/// SWAP as a book move.
const SWAP_CODE: u32 = BOOK_CODE + CELLS as u32;
/// Between player 0's pegs and player 1's in a key.
const SPLIT: u32 = SWAP_CODE + 1;
/// Between a key and its move.
const GIVES: u32 = SPLIT + 1;
/// After each entry.
const NEXT: u32 = GIVES + 1;
/// After player 1's pegs where player 1 moves with as many pegs as player 0 (after a swap).
const ONE_TO_MOVE: u32 = NEXT + 1;

/// The shipped book's character for `code` (a cell index from [`BOOK_CODE`], or a mark).
fn book_char(code: u32) -> char {
    char::from_u32(code).expect("the book's alphabet is in the BMP")
}

/// `pos`'s pegs in `frame` as the shipped book writes a key: player 0's in cell order,
/// [`SPLIT`], player 1's, and [`ONE_TO_MOVE`] where player 1 moves with as many pegs as
/// player 0.
fn coded_in(pos: &Position, frame: u8) -> String {
    let mut key = String::new();
    for p in Player::BOTH {
        let mut codes: Vec<u32> = pos
            .board()
            .pegs(p)
            .iter()
            .map(|c| BOOK_CODE + c.mirrored(frame).index() as u32)
            .collect();
        codes.sort_unstable();
        key.extend(codes.into_iter().map(book_char));
        if p == Player::Zero {
            key.push(book_char(SPLIT));
        }
    }
    let board = pos.board();
    let even = board.pegs(Player::Zero).count() == board.pegs(Player::One).count();
    if even && pos.to_move() == Player::One {
        key.push(book_char(ONE_TO_MOVE));
    }
    key
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

/// The key of `pos` as the shipped book writes it (the least of its four frames' spellings:
/// the counts are the same in all, so the least spells the least cell indices), and that
/// frame; `None` for a position with a blocked pair. (Only host tools refuse more than
/// [`BOOK_PEGS`] pegs: the book has no such entry to find.)
fn coded_key(pos: &Position) -> Option<(String, u8)> {
    if has_blocked_pair(pos) {
        return None;
    }
    (0..4).map(|f| (coded_in(pos, f), f)).min()
}

/// [`coded_key`] where the host tools key a position: none of more than [`BOOK_PEGS`] pegs.
#[cfg(not(codingame))]
fn host_key(pos: &Position) -> Option<(String, u8)> {
    if pos.board().occupied().count() as usize > BOOK_PEGS {
        return None;
    }
    coded_key(pos)
}

/// The key of `pos` as host tools write it (`F6G8/E8`), and the frame it is written in.
#[cfg(not(codingame))]
pub fn position_key(pos: &Position) -> Option<(String, u8)> {
    let (key, frame) = host_key(pos)?;
    let mut written = key;
    written.push(book_char(NEXT));
    let key = readable(&written).ok()?.pop()?;
    Some((key, frame))
}

/// The shipped book's entry that gives `mv` (a move in `pos`'s own frame) in `pos`; `None`
/// where the book cannot key `pos`.
#[cfg(not(codingame))]
pub fn entry(pos: &Position, mv: Move) -> Option<String> {
    let (mut text, frame) = host_key(pos)?;
    text.push(book_char(GIVES));
    text.push(book_char(match mv {
        Move::Peg(c) => BOOK_CODE + c.mirrored(frame).index() as u32,
        Move::Swap => SWAP_CODE,
    }));
    text.push(book_char(NEXT));
    Some(text)
}

/// The entries of a shipped book written as host tools write them (`F6G8/E8=D6`), or the
/// first character that is not in its alphabet.
#[cfg(not(codingame))]
pub fn readable(book: &str) -> Result<Vec<String>, char> {
    let mut out = Vec::new();
    let mut entry = String::new();
    for ch in book.chars() {
        let code = ch as u32;
        match code {
            _ if code == NEXT => out.push(std::mem::take(&mut entry)),
            _ if code == SPLIT => entry.push('/'),
            _ if code == GIVES => entry.push('='),
            _ if code == SWAP_CODE => entry.push_str("SWAP"),
            _ if code == ONE_TO_MOVE => entry.push_str("/1"),
            _ => match code
                .checked_sub(BOOK_CODE)
                .and_then(|i| Cell::from_index(i as usize))
            {
                Some(c) => entry.push_str(&c.to_string()),
                None => return Err(ch),
            },
        }
    }
    Ok(out)
}

/// The book's move for `pos` in `book` (entries as `book_moves::BOOK` holds them: a peg or
/// SWAP), brought back to the position's frame; `None` when the book does not know the
/// position or its move is not legal there.
pub fn lookup_in(book: &str, pos: &Position) -> Option<Move> {
    let (mut key, frame) = coded_key(pos)?;
    key.push(book_char(GIVES));
    let entry = book
        .split(book_char(NEXT))
        .find_map(|e| e.strip_prefix(key.as_str()))?;
    let code = entry.chars().next()? as u32;
    if code == SWAP_CODE {
        return pos.swap_allowed().then_some(Move::Swap);
    }
    let c = Cell::from_index(code.checked_sub(BOOK_CODE)? as usize)?.mirrored(frame);
    pos.legal_holes().has(c).then_some(Move::Peg(c))
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
                board.place(p, c.mirrored(frame));
            }
        }
        Position::from_parts(board, pos.to_move())
    }

    fn peg(name: &str) -> Move {
        Move::Peg(name.parse().unwrap())
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
            let keys: Vec<Option<String>> = (0..4)
                .map(|f| position_key(&mirror(&pos, f)).map(|k| k.0))
                .collect();
            assert!(keys.iter().all(|k| *k == keys[0]), "{moves:?}: {keys:?}");
            let coded: Vec<Option<String>> = (0..4)
                .map(|f| coded_key(&mirror(&pos, f)).map(|k| k.0))
                .collect();
            assert!(coded.iter().all(|k| *k == coded[0]), "{moves:?}");
            keyed += usize::from(keys[0].is_some());
        }
        assert!(keyed > 200, "{keyed} of 300 random positions keyed");
    }

    #[test]
    fn the_book_s_move_comes_back_in_each_mirror_s_frame() {
        // Player 0 opened F6, player 1 answered G9: the book says D4.
        let pos = Position::after("F6 G9").unwrap();
        let other = Position::after("E5 H8 D9").unwrap();
        let book = entry(&other, peg("G5")).unwrap() + &entry(&pos, peg("D4")).unwrap();
        for f in 0..4 {
            let expected = Move::Peg("D4".parse::<Cell>().unwrap().mirrored(f));
            assert_eq!(
                lookup_in(&book, &mirror(&pos, f)),
                Some(expected),
                "frame {f}"
            );
        }
        assert_eq!(lookup_in(&book, &Position::after("F6 G8").unwrap()), None);
        assert_eq!(lookup_in(&book, &other), Some(peg("G5")));
        let (key, frame) = position_key(&pos).unwrap();
        let d4_in_key = "D4".parse::<Cell>().unwrap().mirrored(frame);
        let written = readable(&book).unwrap();
        assert!(
            written.contains(&format!("{key}={d4_in_key}")),
            "{written:?}"
        );
    }

    #[test]
    fn a_move_the_position_forbids_is_not_played() {
        let pos = Position::after("F6 G9").unwrap();
        assert_eq!(lookup_in(&entry(&pos, peg("F6")).unwrap(), &pos), None);
        assert_eq!(lookup_in(&entry(&pos, Move::Swap).unwrap(), &pos), None);
        assert_eq!(readable("F6"), Err('F'), "not the book's alphabet");
    }

    #[test]
    fn a_position_after_a_swap_is_not_the_one_with_the_other_player_to_move() {
        // K4 answered by G3, player 0 to move; C7 swapped (G3) and K4, player 1 to move.
        let plain = Position::after("K4 G3").unwrap();
        let swapped = Position::after("C7 SWAP K4").unwrap();
        assert_eq!(plain.board().occupied(), swapped.board().occupied());
        assert_eq!(position_key(&plain).unwrap().0, "B4/F3");
        assert_eq!(position_key(&swapped).unwrap().0, "B4/F3/1");
        assert_eq!(position_of_key("B4/F3/1").to_move(), Player::One);
        let book = entry(&swapped, peg("G7")).unwrap();
        assert_eq!(lookup_in(&book, &swapped), Some(peg("G7")));
        assert_eq!(lookup_in(&book, &plain), None);
    }

    #[test]
    fn the_book_may_swap_a_first_peg() {
        let pos = Position::after("B5").unwrap();
        assert_eq!(
            lookup_in(&entry(&pos, Move::Swap).unwrap(), &pos),
            Some(Move::Swap)
        );
    }

    /// The position a host key (`F6G8/E8`, after a swap `B4/F3/1`) names, in the key's frame.
    fn position_of_key(key: &str) -> Position {
        let (key, one_to_move) = match key.strip_suffix("/1") {
            Some(k) => (k, true),
            None => (key, false),
        };
        let (p0, p1) = key.split_once('/').expect("P0/P1");
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
        let to_move = if n0 > n1 || one_to_move {
            Player::One
        } else {
            Player::Zero
        };
        Position::from_parts(board, to_move)
    }

    #[test]
    fn every_entry_of_the_shipped_book_is_a_key_and_its_legal_move() {
        for written in readable(BOOK).expect("the book's alphabet") {
            let (key, mv) = written.split_once('=').expect("KEY=MOVE");
            let pos = position_of_key(key);
            let (found, frame) = position_key(&pos).expect("a key the book can hold");
            assert_eq!((found.as_str(), frame), (key, 0), "{written}");
            let mv: Move = mv.parse().expect("a move");
            assert_eq!(lookup_in(BOOK, &pos), Some(mv), "{written}");
        }
    }
}
