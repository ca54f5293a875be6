//! One-move tactics: immediate wins, and moves that leave the opponent no immediate win.

use crate::cell::{Cell, Player};
use crate::position::{Move, Position};

/// The position with `p` to move (a pass, for asking what `p` could do next).
fn with_turn(pos: &Position, p: Player) -> Position {
    Position::from_parts(pos.board().clone(), p)
}

/// The holes where the player to move joins its borders at once.
pub fn winning_holes(pos: &Position) -> Vec<Cell> {
    let (board, p) = (pos.board(), pos.to_move());
    pos.legal_holes()
        .and(board.win_candidates(p))
        .iter()
        .filter(|&c| board.wins_at(p, c))
        .collect()
}

/// Whether the player to move has an immediate win.
pub fn can_win_now(pos: &Position) -> bool {
    let (board, p) = (pos.board(), pos.to_move());
    pos.legal_holes()
        .and(board.win_candidates(p))
        .iter()
        .any(|c| board.wins_at(p, c))
}

/// The holes where the opponent of the player to move would win if it moved now.
pub fn threats(pos: &Position) -> Vec<Cell> {
    winning_holes(&with_turn(pos, pos.to_move().other()))
}

/// A hole where the player to move wins in two: after a peg there the opponent has no
/// immediate win, and whatever it replies the mover wins at once. `None` when there is no
/// such hole, and not asked where the mover wins at once. The opponent's pegs only take holes
/// and cross bridges, so the mover's winning holes after a reply are among those it had
/// before the reply: only those are tried again.
pub fn win_in_two(pos: &Position) -> Option<Cell> {
    let me = pos.to_move();
    pos.legal_holes().iter().find(|&c| {
        let mut next = pos.clone();
        next.play_unchecked(Move::Peg(c));
        let wins = threats(&next);
        let replies = next.legal_holes();
        !wins.is_empty()
            && !replies.is_empty()
            && !can_win_now(&next)
            && replies.iter().all(|r| {
                let mut after = next.clone();
                after.play_unchecked(Move::Peg(r));
                let board = after.board();
                wins.iter()
                    .any(|&w| board.owner(w).is_none() && board.wins_at(me, w))
            })
    })
}

/// Of `moves`, those after which the opponent has no immediate win.
pub fn safe_moves(pos: &Position, moves: &[Move]) -> Vec<Move> {
    moves
        .iter()
        .copied()
        .filter(|&mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            !can_win_now(&next)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::position as play;

    #[test]
    fn finds_wins_and_sees_an_unstoppable_double_threat() {
        // Player 0's chain E1-F3-E5-F7-E9-F11 reaches row 12 at D12 or H12.
        let pos = play("E1 B5 F3 B7 E5 C9 F7 J5 E9 J7 F11 K9");
        assert_eq!(pos.to_move(), Player::Zero);
        let wins: Vec<String> = winning_holes(&pos).iter().map(|c| c.to_string()).collect();
        assert_eq!(wins, vec!["D12", "H12"]);
        // With player 1 to move the same two holes are threats; no single peg of player 1
        // (barred from row 12) stops both.
        let pos = play(crate::bench::ENDGAME);
        assert_eq!(pos.to_move(), Player::One);
        assert_eq!(threats(&pos).len(), 2);
        let moves = pos.legal_moves();
        assert!(safe_moves(&pos, &moves).is_empty());
    }

    #[test]
    fn finds_a_win_in_two_only_where_every_reply_loses() {
        // Player 0's chain E1-F3-E5-F7-E9 is a peg from row 12's reach: F11 threatens D12
        // and H12 at once, which no peg of player 1 (barred from row 12) stops both of.
        let pos = play("E1 B5 F3 B7 E5 C9 F7 J5 E9 J7");
        assert!(winning_holes(&pos).is_empty());
        let c = win_in_two(&pos).expect("a win in two");
        let mut next = pos.clone();
        next.play_unchecked(Move::Peg(c));
        assert!(!can_win_now(&next));
        for r in next.legal_holes().iter() {
            let mut after = next.clone();
            after.play_unchecked(Move::Peg(r));
            assert!(can_win_now(&after), "{c} then {r}");
        }
        // From the empty board nothing wins in two.
        assert_eq!(win_in_two(&Position::new()), None);
    }
}
