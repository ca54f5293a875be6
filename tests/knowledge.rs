//! The learned policy's features, held to a slow re-derivation on the reference rules for
//! every legal move of positions from random games.

mod random_games;

use random_games::random_move;
use twixt::knowledge::features::{self as f, Context};
use twixt::rng::FastRng;
use twixt::{Cell, Move, Player, Position};
use twixt_reference::{RefGame, KNIGHT_MOVES};

fn distance_class(to: Option<Cell>, c: Cell) -> usize {
    to.map_or(4, |t| {
        let d = (t.x() - c.x()).abs().max((t.y() - c.y()).abs());
        (d as usize).clamp(1, 4) - 1
    })
}

/// The features of peg `c` for the player to move in `slow`, worked out from the reference
/// rules: the links a peg there makes are read off the game after playing it.
fn expected(slow: &RefGame, c: Cell, save: bool) -> Vec<(usize, u8)> {
    let me = slow.to_move();
    let made = slow.links_made(c);
    let (x, y) = if me == Player::Zero {
        (c.x(), c.y())
    } else {
        (c.y(), c.x())
    };
    let mut out = vec![(
        f::POS + 6 * y.min(11 - y) as usize + x.min(11 - x) as usize,
        1,
    )];
    let mut counts = [0u8; 10];
    let mut facing = 0;
    for (dx, dy) in KNIGHT_MOVES {
        let steep = if me == Player::Zero {
            dy.abs() == 2
        } else {
            dx.abs() == 2
        };
        let state = match Cell::new(c.x() + dx, c.y() + dy) {
            None => 0,
            Some(n) if slow.owner(n) == Some(me) && made.contains(&n) => 2,
            Some(n) if slow.owner(n) == Some(me) => 3,
            Some(n) if slow.owner(n).is_some() => {
                facing += 1;
                4
            }
            Some(_) => 1,
        };
        counts[5 * usize::from(!steep) + state] += 1;
    }
    for (i, &n) in counts.iter().enumerate() {
        if n > 0 {
            out.push((f::KNIGHT + i, n));
        }
    }
    let mut groups: Vec<Vec<Cell>> = made.iter().map(|&n| slow.reachable(me, n)).collect();
    groups.dedup();
    groups.sort();
    groups.dedup();
    out.push((f::LINKS + made.len().min(3), 1));
    out.push((f::GROUPS + groups.len().min(2), 1));
    let adjacent = |p: Player| {
        let near = (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)));
        near.filter(|&d| d != (0, 0))
            .filter_map(|(dx, dy)| Cell::new(c.x() + dx, c.y() + dy))
            .filter(|&a| slow.owner(a) == Some(p))
            .count()
            .min(2)
    };
    out.push((f::ADJ_OWN + adjacent(me), 1));
    out.push((f::ADJ_OPP + adjacent(me.other()), 1));
    let n = slow.moves().len();
    out.push((
        f::LAST_OPP + distance_class(slow.moves().last().and_then(|m| m.peg()), c),
        1,
    ));
    let own_last = n
        .checked_sub(2)
        .and_then(|i| slow.moves().get(i))
        .and_then(|m| m.peg());
    out.push((f::LAST_OWN + distance_class(own_last, c), 1));
    if save {
        out.push((f::SAVE, 1));
    }
    out.push((f::BLOCK + facing.min(3), 1));
    out.sort();
    out
}

/// Whether `c` keeps joined two of the mover's pegs that the opponent's peg on `x` cut into:
/// pegs `a` and `b` a knight's move from both `x` and `c`, linked to `c` by a peg there, and
/// not joined yet.
fn saves(slow: &RefGame, x: Cell, c: Cell) -> bool {
    let me = slow.to_move();
    let linked = slow.links_made(c);
    let knight = |a: Cell, b: Cell| {
        let (dx, dy) = ((a.x() - b.x()).abs(), (a.y() - b.y()).abs());
        dx.min(dy) == 1 && dx.max(dy) == 2
    };
    linked.iter().any(|&a| {
        linked.iter().any(|&b| {
            a < b
                && knight(a, x)
                && knight(b, x)
                && a.x() + b.x() - x.x() == c.x()
                && a.y() + b.y() - x.y() == c.y()
                && !slow.reachable(me, a).contains(&b)
        })
    })
}

#[test]
fn features_agree_with_the_reference_rules_in_random_games() {
    let (mut checked, mut saves_seen) = (0, 0);
    for seed in 0..200 {
        let mut rng = FastRng::new(seed);
        let (mut fast, mut slow) = (Position::new(), RefGame::new());
        let plies = 4 + rng.below(50) as usize;
        for _ in 0..plies {
            let Some(mv) = random_move(&slow, &mut rng) else {
                break;
            };
            fast.play(mv).unwrap();
            slow.play(mv).unwrap();
        }
        if slow.outcome().is_some() {
            continue;
        }
        let moves = slow.moves();
        let last_opp = moves.last().and_then(|m| m.peg());
        let last_own = moves
            .len()
            .checked_sub(2)
            .and_then(|i| moves.get(i))
            .and_then(|m| m.peg());
        let ctx = Context::new(&fast, last_opp, last_own);
        for mv in fast.legal_moves() {
            let Move::Peg(c) = mv else { continue };
            let active = ctx.features(mv);
            let mut got: Vec<(usize, u8)> = active.iter().map(|(i, n)| (i, n as u8)).collect();
            got.sort();
            let save = got.contains(&(f::SAVE, 1));
            if save {
                assert!(
                    saves(&slow, last_opp.unwrap(), c),
                    "seed {seed}: {c} saves nothing"
                );
                saves_seen += 1;
            }
            assert_eq!(
                got,
                expected(&slow, c, save),
                "seed {seed}, {c} after {moves:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} moves checked");
    assert!(
        saves_seen > 0,
        "no save among the {checked} moves: the check of SAVE is empty"
    );
}
