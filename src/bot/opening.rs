//! The first peg, the swap decision and player 1's first reply. Our first peg is the centre
//! ([`FIRST_PEG`], chosen by matches); the book answers an opponent's first peg as deep
//! searches of the position after it do. The tables built by self-play (`docs/TRAINING.md`,
//! `scripts/opening-table`: for each hole, player 1's reply that scored best, and player 0's
//! score after its first peg there and that reply) answer where the book is off (`--no-book`).

use crate::cell::{Cell, CELLS, SIZE};

/// Player 0's score in percent when its first peg stands on a hole of the quarter board
/// (rows 1-6 down, columns B-F across) and player 1 answers with the hole's [`REPLY`]. The
/// other quarters follow by the board's two mirror symmetries, which keep each player's
/// borders.
///
/// Measured by the fourth tune's bot (signature 1408795) against itself at CodinGame's clocks,
/// without swaps, in `docs/openings/tune4.jsonl`: from every hole, and from every hole with
/// the replies that had scored best, at least 8 games a line. A line's score is drawn towards
/// half by two games won and two lost. Checked against the games by
/// `scripts/opening-table --check`, which `referee/tests/opening_script.rs` runs
/// (`docs/TRAINING.md`).
const P0_SCORE: [[u8; 5]; 6] = [
    // B   C   D   E   F
    [14, 13, 17, 12, 10], // row 1
    [14, 6, 16, 8, 7],    // row 2
    [15, 38, 14, 17, 17], // row 3
    [42, 17, 25, 17, 17], // row 4
    [41, 33, 58, 25, 17], // row 5
    [24, 17, 75, 75, 42], // row 6
];

/// Player 1's reply to a first peg on each hole of [`P0_SCORE`], in the same quarter's frame:
/// of the replies played at least 8 times from there, the one after which player 0 scored
/// least. Self-play's own replies include blunders (after B6 the search played D7 in 43
/// games of 70 and lost 41), which a first peg's score alone hides.
const REPLY: [[&str; 5]; 6] = [
    ["G9", "F9", "F9", "E9", "F5"], // row 1
    ["F9", "G9", "G9", "G9", "G9"], // row 2
    ["F9", "F9", "F9", "F9", "F9"], // row 3
    ["E6", "F9", "G9", "F9", "F9"], // row 4
    ["F8", "F8", "F8", "F9", "G9"], // row 5
    ["E8", "D4", "D9", "E8", "F8"], // row 6
];

/// Player 0's score after a first peg on `c` and the table's reply, or `None` where player 0
/// may not play.
pub fn score(c: Cell) -> Option<u8> {
    let (x, y) = quarter(c)?;
    Some(P0_SCORE[y][x - 1])
}

/// The hole of the quarter board that `c` is or mirrors, as (column, row) from 0; `None` in
/// columns A and L, where player 0 may not play.
fn quarter(c: Cell) -> Option<(usize, usize)> {
    let last = SIZE as i32 - 1;
    let (x, y) = (c.x().min(last - c.x()), c.y().min(last - c.y()));
    (x > 0).then_some((x as usize, y as usize))
}

/// Whether player 1 should swap player 0's first peg on `first`: it does when player 0 scores
/// more than half from there, so that player 1 is left with the larger share either way.
pub fn should_swap(first: Cell) -> bool {
    score(first).map_or(false, |s| s > 50)
}

/// The table's reply as player 1 to a first peg on `first`, mirrored as `first` mirrors its
/// quarter hole; `None` where player 0 may not play.
pub fn table_reply(first: Cell) -> Option<Cell> {
    let (x, y) = quarter(first)?;
    let r: Cell = REPLY[y][x - 1].parse().ok()?;
    Some(r.mirrored(frame_of(first)))
}

/// The mirror flips that take `c` into the quarter board.
fn frame_of(c: Cell) -> u8 {
    let last = SIZE as i32 - 1;
    u8::from(c.x() > last - c.x()) | u8::from(c.y() > last - c.y()) << 1
}

/// How much farther from half, in points, than the hole nearest half a hole's score may be for
/// it to be one of our first pegs. The measured scores are good to ±10 points at best (±30
/// on a line of 8 games), so holes so close cannot be told apart; playing all of them gives
/// an opponent's book more to prepare for.
#[cfg(not(codingame))]
pub const FIRST_PEG_BAND: u8 = 3;

/// The table's first pegs for player 0: of the holes that score at most half, those within
/// [`FIRST_PEG_BAND`] of the one nearest half. A score is the least of a hole's measured
/// lines, so it errs low: a hole scored above half is likely worth more still to an opponent
/// that swaps it (D5, scored 58, gave us 10 games of 50 once swapped by 39e8738), and one
/// scored below half is the safer side of the pie. (The bot opens on [`first_pegs`].)
#[cfg(not(codingame))]
pub fn table_first_pegs() -> Vec<Cell> {
    let below_half = |c: Cell| score(c).filter(|&s| s <= 50).map(|s| 50 - s);
    let holes = || (0..CELLS).filter_map(Cell::from_index);
    let nearest = holes().filter_map(below_half).min().unwrap_or(0);
    let near = |c: &Cell| below_half(*c).map_or(false, |d| d <= nearest + FIRST_PEG_BAND);
    holes().filter(near).collect()
}

/// Our first peg as player 0, as a hole of the quarter board (the bot opens on its mirror images
/// too): the centre, by the matches (`docs/BOT.md`, "The first plies"). Against d003f5e, which
/// answers F8, player 0 wins nine games in ten, and against T1j, which swaps it, 80/80
/// (`docs/STRENGTH.md` rows 169-170). A swapper of our own strength takes 63% from it (row 174);
/// C5, the hole whose deep search leaves player 1 least, fared worse against the same swapper (row
/// 177), so no first peg yet measured holds half against our own swap.
pub const FIRST_PEG: &str = "F6";

/// The holes for our first peg as player 0: [`FIRST_PEG`] and its mirror images.
pub fn first_pegs() -> Vec<Cell> {
    let q = FIRST_PEG.parse().ok().and_then(quarter);
    let holes = (0..CELLS).filter_map(Cell::from_index);
    holes.filter(|&c| q.is_some() && quarter(c) == q).collect()
}

/// Our first peg as player 0: one of [`first_pegs`], chosen by `pick` (a random number), so
/// that an opponent cannot prepare for one hole.
pub fn first_peg(pick: u64) -> Cell {
    let holes = first_pegs();
    holes[(pick % holes.len() as u64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Player;
    use crate::testing::cell;

    #[test]
    fn scores_follow_the_mirror_symmetries_and_skip_the_barred_columns() {
        for c in Cell::all() {
            let mirrors = [
                Cell::new(11 - c.x(), c.y()),
                Cell::new(c.x(), 11 - c.y()),
                Cell::new(11 - c.x(), 11 - c.y()),
            ];
            for m in mirrors.iter().flatten() {
                assert_eq!(score(c), score(*m), "{c} and {m}");
            }
            assert_eq!(score(c).is_some(), c.allowed_for(Player::Zero), "{c}");
        }
    }

    #[test]
    fn every_reply_is_a_hole_of_player_1_and_mirrors_with_the_first_peg() {
        for c in Cell::all() {
            let r = match table_reply(c) {
                Some(r) => r,
                None => {
                    assert!(!c.allowed_for(Player::Zero), "{c} has no reply");
                    continue;
                }
            };
            assert!(r.allowed_for(Player::One) && r != c, "{c}: {r}");
            let flips = [(true, false), (false, true), (true, true)];
            for (fx, fy) in flips {
                let flip = |d: Cell| {
                    let x = if fx { 11 - d.x() } else { d.x() };
                    Cell::new(x, if fy { 11 - d.y() } else { d.y() }).unwrap()
                };
                assert_eq!(table_reply(flip(c)), Some(flip(r)), "{c} flipped {fx} {fy}");
            }
        }
        assert_eq!(table_reply(cell("B6")), Some(cell("E8")));
        assert_eq!(table_reply(cell("K7")), Some(cell("H5")));
        assert_eq!(table_reply(cell("B4")), Some(cell("E6")));
        assert_eq!(table_reply(cell("K9")), Some(cell("H7")));
    }

    #[test]
    fn swaps_what_scores_above_half_and_opens_on_the_first_peg_s_mirror_images() {
        for c in ["E6", "D6", "D5", "H6", "I7", "D8"] {
            assert!(should_swap(cell(c)), "{c}");
        }
        for c in [
            "F6", "G7", "B4", "B6", "C3", "E1", "K9", "A5", "C2", "D3", "H11",
        ] {
            assert!(!should_swap(cell(c)), "{c}");
        }
        let names = |holes: Vec<Cell>| {
            let mut names: Vec<String> = holes.iter().map(|c| c.to_string()).collect();
            names.sort();
            names
        };
        let mut expected = [
            "B4", "K4", "B9", "K9", "B5", "K5", "B8", "K8", "F6", "G6", "F7", "G7",
        ];
        expected.sort_unstable();
        assert_eq!(names(table_first_pegs()), expected);
        assert_eq!(names(first_pegs()), ["F6", "F7", "G6", "G7"]);
        let picked: std::collections::HashSet<Cell> = (0..64).map(first_peg).collect();
        assert_eq!(picked.len(), 4);
    }
}
