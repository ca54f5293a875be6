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
        kernel: Kernel::detected(),
    }
}

fn random_game_positions(game: u64) -> Vec<(Position, Move)> {
    random_game_from(Position::new(), game)
}

/// The positions of a random game from `pos` on, each with the move played there.
fn random_game_from(mut pos: Position, game: u64) -> Vec<(Position, Move)> {
    let mut rng = FastRng::new(game);
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
            let stream = |bits: u32, ints: Vec<i32>| {
                let mut w = crate::knowledge::encoding::Writer::default();
                w.stream(bits, &ints).text().chars().count()
            };
            let wide = |r: &[i16]| {
                r[..hidden]
                    .iter()
                    .map(|&w| i32::from(w))
                    .collect::<Vec<_>>()
            };
            let rows = net.rows.iter().flat_map(|r| wide(r)).collect();
            let mut chars = 9 + stream(bits, rows) + 3 * hidden + 2;
            if let Some(p) = &net.policy {
                let ints = p.rows.iter().flat_map(|r| {
                    let mut both = wide(r);
                    both.extend(wide(&r[MAX_HIDDEN..]));
                    both
                });
                chars += stream(p.bits, ints.collect()) + 2 * POLICY_HOLES + 2 * local::LOCAL;
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

/// A network of 4 units whose policy has only its local term: every logit is that term.
fn local_only(seed: u64) -> Network {
    let mut net = random_network(seed, 4, 8, true);
    let head = net.policy.as_mut().unwrap();
    head.rows.iter_mut().for_each(|r| *r = [0; 2 * MAX_HIDDEN]);
    head.bias.iter_mut().for_each(|b| *b = 0);
    net
}

#[test]
fn the_local_term_reads_the_cells_around_each_hole_as_the_mover_sees_them() {
    let net = local_only(2);
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

/// The kernels this processor runs; under CI, an x86-64 machine without AVX2 fails rather than
/// compare the scalar kernel with itself.
fn kernels() -> Vec<Kernel> {
    let all = Kernel::available();
    if cfg!(target_arch = "x86_64") && std::env::var_os("CI").is_some() {
        let names: Vec<_> = all.iter().map(|k| k.name()).collect();
        assert_eq!(names, ["scalar", "avx2"], "CI=true: no AVX2 kernel to test");
    }
    all
}

#[test]
fn every_kernel_gives_the_sums_of_wide_integers_at_the_edges_of_the_ranges() {
    let mut rng = FastRng::new(17);
    let edges = [i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX - 1, i16::MAX];
    let pick = |rng: &mut FastRng| match rng.below(3) {
        0 => edges[rng.below(edges.len() as u32) as usize],
        _ => rng.below(65536) as i32 as i16,
    };
    for round in 0..3000 {
        let h = [1, 5, 8, 15, 16, 17, 31, 32, 33, 63, 64][round % 11];
        let qa = [1, 100, 127, 16383, i16::MAX as i32][round % 5];
        let mut row = || {
            let mut r = [0i16; MAX_HIDDEN];
            r[..h].iter_mut().for_each(|w| *w = pick(&mut rng));
            r
        };
        let rows: Vec<[i16; MAX_HIDDEN]> = (0..round % 10).map(|_| row()).collect();
        let weights = row();
        let mut start = [0i32; MAX_HIDDEN];
        let big = [0, 1 << 16, i32::MAX - 40_000, i32::MIN + 40_000][round % 4];
        start[..h]
            .iter_mut()
            .for_each(|u| *u = big + pick(&mut rng) as i32);
        // The reference: sums in i64, cut to i32's range as the engine's wrap.
        let mut units = [0i32; MAX_HIDDEN];
        let mut u = [0i16; MAX_HIDDEN];
        let mut dot = 0i64;
        for j in 0..h {
            let sum = start[j] as i64 + rows.iter().map(|r| r[j] as i64).sum::<i64>();
            units[j] = sum as i32;
            u[j] = units[j].clamp(0, qa) as i16;
            dot += u[j] as i64 * weights[j] as i64;
        }
        let refs: Vec<&[i16; MAX_HIDDEN]> = rows.iter().collect();
        for k in kernels() {
            let mut got = start;
            k.add_rows(&mut got, &refs, h);
            assert_eq!(got, units, "{k:?}, round {round}, {h} units");
            let mut clipped = [0i16; MAX_HIDDEN];
            k.clip(&got, qa, h, &mut clipped);
            assert_eq!(clipped, u, "{k:?}, round {round}, {h} units");
            assert_eq!(k.dot(&u, &weights, h), dot as i32, "{k:?}, round {round}");
        }
    }
}

#[test]
fn every_kernel_follows_random_games_to_the_same_values_and_logits() {
    for (hidden, bits) in [(64, 8), (32, 7), (21, 15)] {
        let nets: Vec<Network> = kernels()
            .into_iter()
            .map(|kernel| Network {
                kernel,
                ..random_network(31, hidden, bits, true)
            })
            .collect();
        for game in 0..6u64 {
            let mut accs: Vec<Accumulator> = nets
                .iter()
                .map(|n| n.accumulate(Position::new().board()))
                .collect();
            let mut last = [None; 2];
            for (pos, mv) in random_game_positions(100 + game) {
                let moves = pos.legal_moves();
                let seen: Vec<_> = nets
                    .iter()
                    .zip(&accs)
                    .map(|(net, acc)| {
                        let mut logits = Vec::new();
                        net.policy_logits(acc, &pos, last, &moves, &mut logits);
                        let value = net.value(acc, pos.to_move()).to_bits();
                        (acc.clone(), net.accumulate(pos.board()), value, logits)
                    })
                    .collect();
                assert!(seen.iter().all(|s| *s == seen[0]), "game {game}: {mv}");
                let mut after = pos.clone();
                after.play(mv).unwrap();
                for (net, acc) in nets.iter().zip(&mut accs) {
                    match mv {
                        Move::Peg(c) => acc.place(net, after.board(), pos.to_move(), c),
                        Move::Swap => *acc = net.accumulate(after.board()),
                    }
                }
                last = [mv.peg(), last[0]];
            }
        }
    }
}

/// The local term hole by hole, each of the 24 cells around asked what it holds: the plain
/// form of what `policy_units` sums peg by peg.
fn gathered_local(net: &Network, pos: &Position, last: [Option<Cell>; 2], mv: Move) -> i32 {
    let mover = pos.to_move();
    let k = match hole_of_move(pos, mv) {
        Some(k) => k,
        None => return 0,
    };
    let v = hole_cell(k);
    let hole = view(mover, v);
    let board = pos.board();
    let holds = |w: Cell| {
        let real = view(mover, w);
        let open = |p: Player| {
            crate::bridge::Bridge::between(hole, real).map_or(false, |b| board.blocked(p, b) == 0)
        };
        let mut flags = match board.owner(real) {
            Some(p) if p == mover && open(p) => local::HOLDS_OWN | local::HOLDS_OPEN_OWN,
            Some(p) if p == mover => local::HOLDS_OWN,
            Some(p) if open(p) => local::HOLDS_OPP | local::HOLDS_OPEN_OPP,
            Some(_) => local::HOLDS_OPP,
            None => 0,
        };
        if last[0] == Some(real) {
            flags |= local::HOLDS_LAST_OPP;
        }
        if last[1] == Some(real) {
            flags |= local::HOLDS_LAST_OWN;
        }
        flags
    };
    let mut sum = 0;
    let head = net.policy.as_ref().unwrap();
    local::each(v, holds, |i| sum += head.local[i]);
    sum
}

#[test]
fn the_local_term_summed_peg_by_peg_equals_it_gathered_hole_by_hole() {
    let net = local_only(8);
    let scale = 1.0 / (net.qa * net.policy.as_ref().unwrap().qp) as f32;
    let (mut links, mut moved) = (0, 0);
    for game in 0..40u64 {
        let mut last = [None; 2];
        let mut positions = random_game_positions(500 + game);
        if game % 2 == 1 {
            // SWAP second: player 0's last peg then marks a hole the swap emptied.
            let mut pos = positions[0].0.clone();
            pos.play(positions[0].1).unwrap();
            positions.truncate(1);
            positions.push((pos.clone(), Move::Swap));
            pos.play(Move::Swap).unwrap();
            positions.extend(random_game_from(pos, 900 + game));
        }
        for (pos, mv) in positions {
            moved += last
                .iter()
                .flatten()
                .filter(|c| pos.board().owner(**c).is_none())
                .count();
            let acc = net.accumulate(pos.board());
            let moves = pos.legal_moves();
            let mut logits = Vec::new();
            net.policy_logits(&acc, &pos, last, &moves, &mut logits)
                .unwrap();
            for (&m, &got) in moves.iter().zip(&logits) {
                assert_eq!(
                    got,
                    gathered_local(&net, &pos, last, m) as f32 * scale,
                    "{m}"
                );
            }
            links += pos.board().links(Player::Zero).count();
            last = [mv.peg(), last[0]];
        }
    }
    assert!(links > 1000, "the games make links ({links})");
    assert!(moved >= 10, "last pegs SWAP moved ({moved})");
}
