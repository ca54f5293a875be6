//! The learned policy's features, held to a slow re-derivation on the reference rules for
//! every legal move of positions from random games.

mod random_games;

use random_games::random_move;
use twixt::knowledge::features::{self as f, Context};
use twixt::knowledge::hidden::{Hidden, HIDDEN};
use twixt::knowledge::{Policy, Scorer};
use twixt::position::last_pegs;
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
    let facing = KNIGHT_MOVES
        .iter()
        .filter_map(|&(dx, dy)| Cell::new(c.x() + dx, c.y() + dy))
        .filter(|&n| slow.owner(n) == Some(me.other()))
        .count();
    out.extend(by_direction(slow, c, &made));
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
    out.push((f::OPP_GROUPS + opponent_groups(slow, c), 1));
    let mut reached: Vec<Cell> = vec![c];
    for &n in &made {
        reached.extend(slow.reachable(me, n));
    }
    let on_border = |edge: i32| {
        reached
            .iter()
            .any(|r| if me == Player::Zero { r.y() } else { r.x() } == edge)
    };
    out.push((f::REACH + on_border(0) as usize + on_border(11) as usize, 1));
    let (held, edge) = two_ways(slow, c);
    out.push((f::TWO_WAY + held.min(2), 1));
    if edge {
        out.push((f::EDGE, 1));
    }
    out.sort();
    out
}

/// The features of peg `c` that name a direction: each knight neighbour's state, each
/// adjacent peg, the place of each last peg within 3 columns and rows; every step seen from
/// `c` in the mover's orientation, each coordinate positive towards the board's centre.
fn by_direction(slow: &RefGame, c: Cell, made: &[Cell]) -> Vec<(usize, u8)> {
    let me = slow.to_move();
    let fold = |dx: i32, dy: i32| {
        let (dx, dy, x, y) = if me == Player::Zero {
            (dx, dy, c.x(), c.y())
        } else {
            (dy, dx, c.y(), c.x())
        };
        let toward = |v: i32, d: i32| if v < 6 { d } else { -d };
        (toward(x, dx), toward(y, dy))
    };
    let mut out = vec![];
    for (dx, dy) in KNIGHT_MOVES {
        let state = match Cell::new(c.x() + dx, c.y() + dy) {
            None => 0,
            Some(n) if slow.owner(n) == Some(me) && made.contains(&n) => 1,
            Some(n) if slow.owner(n) == Some(me) => 2,
            Some(n) if slow.owner(n).is_some() => 3,
            Some(_) => continue,
        };
        let (a, b) = fold(dx, dy);
        let dir = usize::from(a > 0) + 2 * usize::from(b > 0) + 4 * usize::from(a.abs() == 2);
        out.push((f::KNIGHT + 4 * dir + state, 1));
    }
    let steps = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    for (dx, dy) in steps {
        let owner = Cell::new(c.x() + dx, c.y() + dy).and_then(|a| slow.owner(a));
        if let Some(p) = owner {
            let dir = steps.iter().position(|&s| s == fold(dx, dy)).unwrap();
            out.push((f::ADJ_DIR + 2 * dir + usize::from(p != me), 1));
        }
    }
    let moves = slow.moves();
    let peg = |back: usize| moves.len().checked_sub(back).and_then(|i| moves[i].peg());
    for (base, last) in [(f::LAST_OPP_AT, peg(1)), (f::LAST_OWN_AT, peg(2))] {
        let near = last.map(|t| fold(t.x() - c.x(), t.y() - c.y()));
        if let Some((a, b)) = near.filter(|&(a, b)| a.abs() <= 4 && b.abs() <= 4) {
            let place = (9 * (a + 4) + b + 4) as usize;
            out.push((base + place - usize::from(place > 40), 1));
        }
    }
    out
}

fn knight_apart(a: Cell, b: Cell) -> bool {
    let (dx, dy) = ((a.x() - b.x()).abs(), (a.y() - b.y()).abs());
    dx.min(dy) == 1 && dx.max(dy) == 2
}

/// How many distinct groups of the opponent a peg of its own on `c` would join (0 where the
/// hole is not the opponent's to use), at most 2.
fn opponent_groups(slow: &RefGame, c: Cell) -> usize {
    let theirs = slow.passed();
    if !theirs.legal_holes(theirs.to_move()).contains(&c) {
        return 0;
    }
    let mut groups: Vec<Vec<Cell>> = theirs
        .links_made(c)
        .iter()
        .map(|&n| theirs.reachable(theirs.to_move(), n))
        .collect();
    groups.sort();
    groups.dedup();
    groups.len().min(2)
}

/// With the mover's peg on `c`: how many of its other pegs it holds by two ways (two holes
/// it may play, each where a peg would link to both), and whether two holes of its own
/// border rows are a knight's move away with open links.
fn two_ways(slow: &RefGame, c: Cell) -> (usize, bool) {
    let me = slow.to_move();
    let mut after = slow.clone();
    after.play(Move::Peg(c)).unwrap();
    let mine = after.passed();
    let holes = mine.legal_holes(me);
    let links_to = |x: Cell, a: Cell| holes.contains(&x) && mine.links_made(x).contains(&a);
    let held = slow
        .pegs(me)
        .into_iter()
        .filter(|&b| {
            let ways = Cell::all()
                .filter(|&x| knight_apart(x, c) && knight_apart(x, b))
                .filter(|&x| links_to(x, c) && links_to(x, b))
                .count();
            ways >= 2
        })
        .count();
    let border = |l: Cell| {
        let v = if me == Player::Zero { l.y() } else { l.x() };
        v == 0 || v == 11
    };
    let edge = Cell::all()
        .filter(|&l| border(l) && knight_apart(l, c) && links_to(l, c))
        .count();
    (held, edge >= 2)
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
    let mut seen = [false; f::FEATURES];
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
        let [last_opp, last_own] = last_pegs(moves);
        let ctx = Context::new(&fast, last_opp, last_own);
        for mv in fast.legal_moves() {
            let Move::Peg(c) = mv else { continue };
            let active = ctx.features(mv);
            let mut got: Vec<(usize, u8)> = active.iter().map(|(i, n)| (i, n as u8)).collect();
            got.sort();
            for &(i, _) in &got {
                seen[i] = true;
            }
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
    // Every feature of a peg shows up, but the holes of the opponent's border columns (band
    // 0 across), which the mover may not use, "no last peg", which games of four plies or
    // more always have, and a knight neighbour off the board in directions 3 and 7 (inwards
    // in both coordinates) and 2 (one column outwards: off only from the opponent's border
    // column).
    let unseen: Vec<usize> = (0..f::FEATURES)
        .filter(|&i| !seen[i] && i != f::SWAP)
        .collect();
    let mut never: Vec<usize> = (0..6).map(|y| f::POS + 6 * y).collect();
    never.extend([2, 3, 7].map(|dir| f::KNIGHT + 4 * dir));
    never.extend([f::LAST_OPP + 4, f::LAST_OWN + 4]);
    assert_eq!(unseen, never, "the features seen in no game");
    assert!(
        saves_seen > 0,
        "no save among the {checked} moves: the check of SAVE is empty"
    );
}

/// The scorer's logits, which take a quiet hole's from a table, equal to the bit the policy's
/// sum over each move's features, for every legal move of random games, under the shipped
/// policy and two of random weights, without and with a hidden layer.
#[test]
fn the_scorer_gives_the_policy_logits_to_the_bit() {
    let mut rng = FastRng::new(41);
    let mut weight = || rng.below(2001) as f32 / 1000.0 - 1.0;
    let random = Policy::linear((0..f::FEATURES).map(|_| weight()).collect());
    let ints: Vec<i32> = (0..(f::FEATURES + 2) * HIDDEN)
        .map(|_| rng.below(127) as i32 - 63)
        .collect();
    let hidden = Hidden::from_ints(7, &ints);
    let random_hidden = Policy {
        hidden: Some(hidden),
        ..random.clone()
    };
    let mut quiet = 0;
    for policy in [Policy::shipped().unwrap(), random, random_hidden] {
        let scorer = Scorer::new(policy.clone());
        for seed in 0..40 {
            let mut rng = FastRng::new(seed);
            let mut pos = Position::new();
            let mut played = Vec::new();
            while pos.outcome().is_none() {
                let [last_opp, last_own] = last_pegs(&played);
                let ctx = Context::new(&pos, last_opp, last_own);
                for mv in pos.legal_moves() {
                    let want = policy.logit(&ctx.features(mv));
                    let got = scorer.logit(&ctx, mv);
                    assert_eq!(got.to_bits(), want.to_bits(), "seed {seed}, {mv}");
                    quiet += matches!(mv, Move::Peg(c) if ctx.is_quiet(c)) as u32;
                }
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len() as u32) as usize];
                pos.play(mv).unwrap();
                played.push(mv);
            }
        }
    }
    assert!(
        quiet > 1000,
        "only {quiet} quiet holes: the table went untested"
    );
}
