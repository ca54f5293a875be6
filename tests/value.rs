//! The value's distances, held to a slow Bellman-Ford on the reference rules in positions of
//! random games.

mod random_games;

use random_games::random_move;
use std::collections::HashMap;
use twixt::knowledge::value::{distance, FAR};
use twixt::rng::FastRng;
use twixt::{Cell, Player, Position};
use twixt_reference::{RefGame, KNIGHT_MOVES};

/// Sign of the cross product of `o->a` and `o->b`.
fn side(o: (i32, i32), a: (i32, i32), b: (i32, i32)) -> i32 {
    ((a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)).signum()
}

/// Whether segments `p` and `q` cross inside both.
fn cross(p: ((i32, i32), (i32, i32)), q: ((i32, i32), (i32, i32))) -> bool {
    side(p.0, p.1, q.0) * side(p.0, p.1, q.1) < 0 && side(q.0, q.1, p.0) * side(q.0, q.1, p.1) < 0
}

fn xy(c: Cell) -> (i32, i32) {
    (c.x(), c.y())
}

/// `p`'s distance by relaxing every knight step until nothing changes: a cell costs 0 with
/// `p`'s peg, 1 when `p` may play it, and may not be used otherwise; a step may not cross an
/// opposing link.
fn slow_distance(g: &RefGame, p: Player) -> u8 {
    let line = |c: Cell| if p == Player::Zero { c.y() } else { c.x() };
    let holes = g.legal_holes(p);
    let cost = |c: Cell| match g.owner(c) {
        Some(o) if o == p => Some(0u8),
        Some(_) => None,
        None => holes.contains(&c).then_some(1),
    };
    let opposing = g.links(p.other());
    let mut dist: HashMap<Cell, u8> = Cell::all()
        .filter(|&c| line(c) == 0)
        .filter_map(|c| cost(c).map(|k| (c, k)))
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (a, k) in dist.clone() {
            for (dx, dy) in KNIGHT_MOVES {
                let Some(b) = Cell::new(a.x() + dx, a.y() + dy) else {
                    continue;
                };
                let blocked = opposing
                    .iter()
                    .any(|&(u, v)| cross((xy(a), xy(b)), (xy(u), xy(v))));
                let Some(c) = cost(b).filter(|_| !blocked) else {
                    continue;
                };
                if dist.get(&b).map_or(true, |&old| k + c < old) {
                    dist.insert(b, k + c);
                    changed = true;
                }
            }
        }
    }
    dist.iter()
        .filter(|&(&c, _)| line(c) == 11)
        .map(|(_, &k)| k)
        .min()
        .unwrap_or(FAR)
}

#[test]
fn distances_agree_with_a_slow_relaxation_in_random_games() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let mut rng = FastRng::new(1000 + seed);
        let (mut fast, mut slow) = (Position::new(), RefGame::new());
        // Some games run long, so that cut-off players (FAR) show up too.
        let plies = 10 + rng.below(90) as usize;
        for ply in 0..=plies {
            if ply % 3 == 0 || ply == plies || slow.outcome().is_some() {
                for p in Player::BOTH {
                    let d = distance(fast.board(), p);
                    let moves = slow.moves();
                    assert_eq!(
                        d,
                        slow_distance(&slow, p),
                        "seed {seed}, {p:?} after {moves:?}"
                    );
                    seen.insert(d);
                }
            }
            let Some(mv) = random_move(&slow, &mut rng).filter(|_| ply < plies) else {
                break;
            };
            fast.play(mv).unwrap();
            slow.play(mv).unwrap();
        }
    }
    assert!(
        seen.contains(&7) && seen.len() > 5,
        "distances seen: {seen:?}"
    );
}
