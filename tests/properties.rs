//! Invariants, checked by property tests over random games and random text.

mod random_games;

use proptest::prelude::*;
use random_games::random_move;
use twixt::protocol::TurnReader;
use twixt::rng::FastRng;
use twixt::search::tactics;
use twixt::{Cell, Move, Player, Position};
use twixt_reference::RefGame;

/// A random game of up to `plies` moves, played on both rule books.
fn random_game(seed: u64, plies: usize) -> (Position, RefGame) {
    let mut rng = FastRng::new(seed);
    let (mut fast, mut slow) = (Position::new(), RefGame::new());
    for _ in 0..plies {
        match random_move(&slow, &mut rng) {
            Some(mv) => {
                fast.play(mv).unwrap();
                slow.play(mv).unwrap();
            }
            None => break,
        }
    }
    (fast, slow)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn counters_rebuilt_from_scratch_equal_the_incremental_ones(seed in any::<u64>(), plies in 0usize..140) {
        let (fast, _) = random_game(seed, plies);
        prop_assert_eq!(fast.board().counters(), &fast.board().counters_from_scratch());
    }

    #[test]
    fn union_find_agrees_with_a_search_over_links(seed in any::<u64>(), plies in 0usize..140) {
        let (fast, slow) = random_game(seed, plies);
        for p in Player::BOTH {
            let pegs = slow.pegs(p);
            for &a in pegs.iter().take(6) {
                let near = slow.reachable(p, a);
                for &b in &pegs {
                    prop_assert_eq!(fast.board().joined(a, b), near.contains(&b), "{} {}", a, b);
                }
            }
        }
    }

    #[test]
    fn a_link_exists_only_where_no_opposing_link_crosses(seed in any::<u64>(), plies in 0usize..140) {
        let (fast, _) = random_game(seed, plies);
        for p in Player::BOTH {
            for b in fast.board().links(p) {
                prop_assert_eq!(fast.board().blocked(p, b), 0);
                for x in b.crossings() {
                    prop_assert!(!fast.board().has_link(p.other(), x), "{} crosses {}", b, x);
                }
            }
        }
    }

    #[test]
    fn hole_names_round_trip_and_parsing_never_panics(text in "\\PC{0,6}", x in 0i32..12, y in 0i32..12) {
        let _ = text.parse::<Cell>();
        let _ = text.parse::<Move>();
        if let Some(c) = Cell::new(x, y) {
            prop_assert_eq!(c.to_string().parse::<Cell>(), Ok(c));
            prop_assert_eq!(c.to_string().to_lowercase().parse::<Cell>(), Ok(c));
        }
    }

    #[test]
    fn the_turn_reader_never_panics_on_garbage(lines in proptest::collection::vec("[A-Z0-9 \\r]{0,8}", 0..30)) {
        let text = lines.join("\n");
        let mut reader = TurnReader::new(text.as_bytes());
        while let Some(first) = reader.first_line() {
            let turn = reader.rest_of_turn(first);
            for e in &turn.errors {
                prop_assert!(e.line >= 1 && e.line <= lines.len() + 1, "{}", e);
            }
            if turn.pegs_known {
                let me = turn.input.infer_side();
                let _ = turn.input.setup(me).build();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn wins_at_agrees_with_placing_the_peg(seed in any::<u64>(), plies in 0usize..120) {
        let (fast, _) = random_game(seed, plies);
        let pos = fast;
        prop_assume!(pos.outcome().is_none());
        let p = pos.to_move();
        let mut wins = Vec::new();
        for c in pos.legal_holes().iter() {
            let mut next = pos.clone();
            let placed = next.place_and_check(c);
            prop_assert_eq!(pos.board().wins_at(p, c), placed, "{} at {}", p, c);
            if placed {
                wins.push(c);
                prop_assert!(pos.board().win_candidates(p).has(c), "{} at {}", p, c);
            }
        }
        // The look for a win in one, which asks only the candidates, finds every one.
        prop_assert_eq!(tactics::winning_holes(&pos), wins.clone());
        prop_assert_eq!(tactics::can_win_now(&pos), !wins.is_empty());
    }
}
