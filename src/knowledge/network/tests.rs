use super::*;
use crate::knowledge::encoding::Writer;
use crate::knowledge::inputs::{view, INPUTS};
use crate::position::{Move, Position};
use crate::rng::FastRng;

/// A network of pseudo-random weights: `hidden` units, rows of `bits` bits, a policy head
/// or not.
pub fn random_network(seed: u64, hidden: usize, bits: u32, policy: bool) -> Network {
    let mut rng = FastRng::new(seed);
    let top = (1 << (bits - 1)) - 1;
    let mut w = |lim: i32| (rng.below(2 * lim as u32 + 1) as i32 - lim) as i16;
    let mut row = |lim: i32| {
        let mut r = [0i16; MAX_HIDDEN];
        r[..hidden].iter_mut().for_each(|x| *x = w(lim));
        r
    };
    let rows = (0..INPUTS).map(|_| row(top)).collect();
    let (bias, out) = (row(2000), [row(300), row(300)]);
    let policy = policy.then(|| PolicyHead {
        bits,
        qp: 50,
        rows: (0..POLICY_HOLES)
            .map(|_| {
                let (a, b) = (row(top), row(top));
                let mut r = [0i16; 2 * MAX_HIDDEN];
                r[..MAX_HIDDEN].copy_from_slice(&a);
                r[MAX_HIDDEN..].copy_from_slice(&b);
                r
            })
            .collect(),
        bias: (0..POLICY_HOLES as i32).map(|k| (k - 60) * 1001).collect(),
        local: (0..local::LOCAL as i32).map(|i| (i - 40) * 77).collect(),
    });
    Network {
        hidden,
        row_bits: bits,
        qa: 100,
        qb: 64,
        rows,
        bias,
        out,
        out_bias: -3000,
        policy,
    }
}

fn random_game_positions(game: u64) -> Vec<(Position, Move)> {
    let mut rng = FastRng::new(game);
    let mut pos = Position::new();
    let mut out = Vec::new();
    while pos.outcome().is_none() {
        let moves = pos.legal_moves();
        let mv = moves[rng.below(moves.len() as u32) as usize];
        out.push((pos.clone(), mv));
        pos.play(mv).unwrap();
    }
    out
}

#[test]
fn the_accumulators_follow_random_games_exactly_for_both_heads() {
    for (hidden, bits) in [(32, 7), (64, 8), (5, 6)] {
        let net = random_network(7, hidden, bits, true);
        for game in 0..12u64 {
            let mut acc = net.accumulate(Position::new().board());
            let (mut last_opp, mut last_own) = (None, None);
            for (pos, mv) in random_game_positions(game) {
                let fresh = net.accumulate(pos.board());
                assert_eq!(acc, fresh, "game {game}");
                let moves = pos.legal_moves();
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let last = [last_opp, last_own];
                net.policy_logits(&acc, &pos, last, &moves, &mut a).unwrap();
                net.policy_logits(&fresh, &pos, last, &moves, &mut b)
                    .unwrap();
                assert_eq!(a, b);
                let mut after = pos.clone();
                after.play(mv).unwrap();
                match mv {
                    Move::Peg(c) => acc.place(&net, after.board(), pos.to_move(), c),
                    Move::Swap => acc = net.accumulate(after.board()),
                }
                (last_opp, last_own) = (mv.peg(), last_opp);
            }
        }
    }
}

#[test]
fn the_text_round_trips_with_and_without_a_policy_and_counts_its_characters() {
    for (hidden, bits, policy) in [(32, 7, false), (64, 7, true), (64, 8, true), (3, 2, true)] {
        let mut net = random_network(3, hidden, bits, policy);
        for bias in [0, 1, -1, 123_456, (1 << 27) - 1, -(1 << 27)] {
            net.out_bias = bias;
            let text = net.encode();
            assert_eq!(Network::decode(&text).unwrap(), net);
            let stream = |n: usize| (n * bits as usize).div_ceil(15);
            let mut chars = 9 + stream(INPUTS * hidden) + 3 * hidden + 2;
            if policy {
                chars += stream(POLICY_HOLES * 2 * hidden) + 2 * POLICY_HOLES + 2 * local::LOCAL;
            }
            assert_eq!(text.chars().count(), chars, "{hidden} {bits} {policy}");
        }
    }
}

#[test]
fn a_damaged_text_is_refused_by_name() {
    let net = random_network(5, 8, 7, true);
    let text = net.encode();
    let head = |at: usize, int: i32| {
        let mut chars: Vec<char> = text.chars().collect();
        let mut w = Writer::default();
        w.ints(&[int]);
        chars[at] = w.text().chars().next().unwrap();
        Network::decode(&chars.into_iter().collect::<String>())
    };
    assert_eq!(head(0, 1), Err(DecodeError::Range { at: 0, int: 1 }));
    assert_eq!(head(1, 951), Err(DecodeError::Range { at: 1, int: 951 }));
    assert_eq!(head(2, 65), Err(DecodeError::Range { at: 2, int: 65 }));
    assert_eq!(head(4, 0), Err(DecodeError::Range { at: 4, int: 0 }));
    assert_eq!(head(6, 7), Err(DecodeError::Range { at: 6, int: 7 }));
    let cut: String = text.chars().take(text.chars().count() - 1).collect();
    assert!(matches!(Network::decode(&cut), Err(DecodeError::Short(_))));
    let long = format!("{text}{}", text.chars().next().unwrap());
    assert!(matches!(Network::decode(&long), Err(DecodeError::Long(_))));
}

#[test]
fn the_value_is_the_mover_s_and_the_other_side_s_is_its_complement() {
    let mut net = random_network(11, 32, 8, false);
    net.out[1] = net.out[0].map(|w| -w);
    net.out_bias = 0;
    let pos = crate::testing::position("F6 E8 G8 D6");
    let acc = net.accumulate(pos.board());
    let (zero, one) = (net.value(&acc, Player::Zero), net.value(&acc, Player::One));
    assert!((zero + one - 1.0).abs() < 1e-6, "{zero} {one}");
    assert!(zero > 0.0 && zero < 1.0);
}

#[test]
fn the_policy_reads_each_hole_as_the_mover_sees_it() {
    assert_eq!(
        (0..crate::cell::CELLS)
            .filter_map(Cell::from_index)
            .filter_map(|c| hole_of(Player::Zero, c))
            .count(),
        POLICY_HOLES
    );
    for c in Cell::all() {
        assert_eq!(
            hole_of(Player::Zero, c).is_some(),
            c.allowed_for(Player::Zero)
        );
        assert_eq!(
            hole_of(Player::One, c).is_some(),
            c.allowed_for(Player::One)
        );
        assert_eq!(
            hole_of(Player::One, c),
            hole_of(Player::Zero, c.transposed())
        );
    }
    // A head whose only weight is hole k's bias: the logit is that bias over qa · qp.
    let mut net = random_network(2, 4, 8, true);
    let head = net.policy.as_mut().unwrap();
    head.rows.iter_mut().for_each(|r| *r = [0; 2 * MAX_HIDDEN]);
    head.local.iter_mut().for_each(|w| *w = 0);
    let pos = Position::after("F6").unwrap();
    let acc = net.accumulate(pos.board());
    let moves = pos.legal_moves();
    let mut logits = Vec::new();
    net.policy_logits(&acc, &pos, [None; 2], &moves, &mut logits)
        .unwrap();
    let scale = (net.qa * net.policy.as_ref().unwrap().qp) as f32;
    for (&mv, &l) in moves.iter().zip(&logits) {
        let k = match mv {
            Move::Peg(c) => hole_of(Player::One, c).unwrap(),
            Move::Swap => hole_of(Player::One, "F6".parse::<Cell>().unwrap().transposed()).unwrap(),
        };
        assert_eq!(l, ((k as i32 - 60) * 1001) as f32 * (1.0 / scale), "{mv}");
    }
    let mut none = Vec::new();
    net.policy = None;
    assert_eq!(
        net.policy_logits(&acc, &pos, [None; 2], &moves, &mut none),
        None
    );
}

#[test]
fn the_local_term_reads_the_cells_around_each_hole_as_the_mover_sees_them() {
    let mut net = random_network(2, 4, 8, true);
    let head = net.policy.as_mut().unwrap();
    head.rows.iter_mut().for_each(|r| *r = [0; 2 * MAX_HIDDEN]);
    head.bias.iter_mut().for_each(|b| *b = 0);
    // Player 0 played F6 then player 1 G8; player 0 to move, F6 its own last peg.
    for (moves, mover) in [("F6 G8", Player::Zero), ("F6 G8 D3", Player::One)] {
        let pos = Position::after(moves).unwrap();
        assert_eq!(pos.to_move(), mover);
        let acc = net.accumulate(pos.board());
        let played: Vec<Cell> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
        let n = played.len();
        let last = [Some(played[n - 1]), Some(played[n - 2])];
        let legal = pos.legal_moves();
        let mut logits = Vec::new();
        net.policy_logits(&acc, &pos, last, &legal, &mut logits)
            .unwrap();
        let head = net.policy.as_ref().unwrap();
        let scale = 1.0 / (net.qa * head.qp) as f32;
        for (&mv, &got) in legal.iter().zip(&logits) {
            let c = mv.peg().unwrap();
            let v = view(mover, c);
            let mut sum = 0;
            for (i, &p) in played.iter().enumerate() {
                let w = view(mover, p);
                let (dx, dy) = (w.x() - v.x(), w.y() - v.y());
                if dx.abs() > 2 || dy.abs() > 2 {
                    continue;
                }
                // Row by row from the top left, the hole itself left out.
                let box_index = ((dy + 2) * 5 + dx + 2) as usize;
                let o = box_index - usize::from(box_index > 12);
                let owner = pos.board().owner(p).unwrap();
                let mine = owner == mover;
                sum += head.local[6 * o + if mine { 0 } else { 1 }];
                if i == n - 1 {
                    sum += head.local[6 * o + 2];
                }
                if i == n - 2 {
                    sum += head.local[6 * o + 3];
                }
                // No links on these boards: every knight's move is open.
                if (dx * dy).abs() == 2 {
                    sum += head.local[6 * o + if mine { 4 } else { 5 }];
                }
            }
            assert_eq!(got, sum as f32 * scale, "{moves}: {mv}");
        }
    }
}
