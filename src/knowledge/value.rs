//! A value: the chance that the player to move wins, read from how far each player is from
//! joining its borders. A player's distance is the fewest pegs it still needs along a chain
//! of knight steps that no opposing link crosses, through its own pegs (free) and the holes
//! it may play (one peg each): the evaluation of alpha-beta Twixt programs, which see the
//! bridges and cuts that random playouts misjudge. `twixt-train value` fits its two weights
//! on self-play results; the search mixes it with the playouts by `value_mix`.

use crate::board::Board;
use crate::bridge::{NEIGHBORS, NO_BRIDGE};
use crate::cell::{Player, CELLS, SIZE};
use crate::position::Position;

/// The distance of a player who cannot join its borders at all.
pub const FAR: u8 = 24;

/// The 0-1 breadth-first search's queue: a ring of cell indices. Each cell is expanded once
/// and each expansion queues at most its eight neighbours, so at most `CELLS * 9` entries
/// are ever queued and a ring of this size never overruns.
const RING: usize = 2048;
const _: () = assert!(CELLS * 9 <= RING && RING.is_power_of_two());

/// How far `p` is from joining its borders (see the module's text): 0 once joined, [`FAR`]
/// when no chain can be made.
pub fn distance(board: &Board, p: Player) -> u8 {
    let own = board.pegs(p);
    let open = board.legal_holes(p);
    let line = |i: usize| match p {
        Player::Zero => i / SIZE,
        Player::One => i % SIZE,
    };
    let mut dist = [FAR; CELLS];
    let mut done = [false; CELLS];
    let mut ring = [0u8; RING];
    let (mut head, mut tail) = (0usize, 0usize);
    for (i, d) in dist.iter_mut().enumerate() {
        if line(i) == 0 && (own.has_index(i) || open.has_index(i)) {
            let cost = u8::from(!own.has_index(i));
            *d = cost;
            // Free cells first, so the queue stays sorted by distance.
            if cost == 0 {
                head = head.wrapping_sub(1);
                ring[head % RING] = i as u8;
            } else {
                ring[tail % RING] = i as u8;
                tail = tail.wrapping_add(1);
            }
        }
    }
    while head != tail {
        let i = ring[head % RING] as usize;
        head = head.wrapping_add(1);
        if done[i] {
            continue;
        }
        done[i] = true;
        if line(i) == SIZE - 1 {
            return dist[i];
        }
        for n in &NEIGHBORS[i] {
            let j = n.cell as usize;
            if n.bridge == NO_BRIDGE || board.blocked_index(p, n.bridge as usize) > 0 {
                continue;
            }
            let free = own.has_index(j);
            if !free && !open.has_index(j) {
                continue;
            }
            let d = dist[i] + u8::from(!free);
            if d < dist[j] {
                dist[j] = d;
                if free {
                    head = head.wrapping_sub(1);
                    ring[head % RING] = j as u8;
                } else {
                    ring[tail % RING] = j as u8;
                    tail = tail.wrapping_add(1);
                }
            }
        }
    }
    FAR
}

/// The chance that the player to move in `pos` wins: `sigmoid(bias + scale * (d_opp - d_own))`
/// over the two players' [`distance`]s.
pub fn value(pos: &Position, bias: f32, scale: f32) -> f32 {
    let me = pos.to_move();
    let gap = f32::from(distance(pos.board(), me.other())) - f32::from(distance(pos.board(), me));
    1.0 / (1.0 + (-(bias + scale * gap)).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::position;

    #[test]
    fn the_empty_board_is_seven_pegs_from_each_border_pair() {
        // Rows (or columns) 0, 2, 4, 6, 8, 10, 11: a knight step crosses at most two.
        let pos = Position::new();
        for p in Player::BOTH {
            assert_eq!(distance(pos.board(), p), 7);
        }
    }

    #[test]
    fn own_pegs_on_a_chain_cost_nothing() {
        assert_eq!(distance(position("F6 B2").board(), Player::Zero), 6);
        assert_eq!(distance(position("F6 B2 G8 B4").board(), Player::Zero), 5);
        // B2 and B4 are not a knight apart: only one of them can be on a chain.
        assert_eq!(distance(position("F6 B2 G8 B4").board(), Player::One), 6);
    }

    #[test]
    fn equal_distances_give_the_bias_alone() {
        let v = value(&Position::new(), 0.3, 2.0);
        assert!((v - 1.0 / (1.0 + (-0.3f32).exp())).abs() < 1e-6);
        let nearer = value(&position("F6 B2 G8"), 0.0, 1.0);
        assert!(
            nearer < 0.5,
            "player 1 to move is one peg further: {nearer}"
        );
    }
}
