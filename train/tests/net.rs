//! The value network's training side: mirrored inputs are the inputs of the mirrored board,
//! the gradient is the loss's slope, the trainer's integer arithmetic is the engine's, and
//! the model file round-trips and names its damage.

use twixt::board::Board;
use twixt::bridge::Bridge;
use twixt::knowledge::inputs;
use twixt::knowledge::network::Network;
use twixt::knowledge::Policy;
use twixt::position::last_pegs;
use twixt::rng::FastRng;
use twixt::search::RootMove;
use twixt::{Cell, Move, Player, Position};
use twixt_train::data::Search;
use twixt_train::data::{Game, Ply};
use twixt_train::net::model::{Layout, Model};
use twixt_train::net::samples::{Mirrors, Samples, Targets};
use twixt_train::net::{file, quantized};

/// A random game to its end, with its winner.
fn random_game(seed: u64) -> Game {
    let mut rng = FastRng::new(seed);
    let mut pos = Position::new();
    let mut plies = Vec::new();
    while pos.outcome().is_none() {
        let moves = pos.legal_moves();
        let mv = moves[rng.below(moves.len() as u32) as usize];
        pos.play(mv).unwrap();
        plies.push(Ply { mv, search: None });
    }
    let winner = match pos.outcome() {
        Some(twixt::Outcome::Win(p)) => Some(p),
        _ => None,
    };
    Game {
        index: seed as u32,
        winner,
        opening: 0,
        plies,
    }
}

fn position_after(game: &Game, n: usize) -> Position {
    let mut pos = Position::new();
    for ply in &game.plies[..n] {
        pos.play_unchecked(ply.mv);
    }
    pos
}

fn flip(k: usize, c: Cell) -> Cell {
    let x = if k & 1 == 1 { 11 - c.x() } else { c.x() };
    let y = if k & 2 == 2 { 11 - c.y() } else { c.y() };
    Cell::new(x, y).unwrap()
}

#[test]
fn mirrored_inputs_are_the_mirrored_board_s() {
    let mirrors = Mirrors::new();
    for seed in 0..10 {
        let game = random_game(seed);
        let board = position_after(&game, game.plies.len()).board().clone();
        for k in 0..4 {
            let mut mirrored = Board::new();
            for p in Player::BOTH {
                for c in board.pegs(p).iter() {
                    mirrored.put_peg(p, flip(k, c));
                }
                for b in board.links(p) {
                    let (lo, up) = b.ends();
                    mirrored.put_link(p, Bridge::between(flip(k, lo), flip(k, up)).unwrap());
                }
            }
            for viewer in Player::BOTH {
                let perm = mirrors.of(k, viewer);
                let mut moved: Vec<usize> = inputs::active(&board, viewer)
                    .iter()
                    .map(|&i| perm[i] as usize)
                    .collect();
                let mut direct = inputs::active(&mirrored, viewer);
                moved.sort_unstable();
                direct.sort_unstable();
                assert_eq!(moved, direct, "game {seed}, mirror {k}, {viewer:?}");
            }
        }
    }
}

/// The two shapes tried: the shipped value network's, and a smaller one with a policy head.
const LAYOUTS: [Layout; 2] = [
    Layout {
        hidden: 32,
        policy: false,
    },
    Layout {
        hidden: 16,
        policy: true,
    },
];

/// A random game to its end whose plies from the third carry a made-up full search over the
/// legal moves (visits from 0 to 9, and the move played 20).
fn searched_game(seed: u64) -> Game {
    let mut game = random_game(seed);
    let mut rng = FastRng::new(seed + 50);
    let mut pos = Position::new();
    for (i, ply) in game.plies.iter_mut().enumerate() {
        if i >= 2 {
            let root: Vec<RootMove> = pos
                .legal_moves()
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    visits: if mv == ply.mv { 20 } else { rng.below(10) },
                    value: rng.below(101) as f32 / 100.0,
                })
                .collect();
            ply.search = Some(Search::of_root(0.5, &root));
        }
        pos.play(ply.mv).unwrap();
    }
    game
}

#[test]
fn the_gradient_is_the_slope_of_the_loss_for_both_heads() {
    let games = [searched_game(3)];
    let shipped = Policy::shipped().unwrap();
    let plain = Samples::of_games(&games);
    // The head's logits added to the feature policy's, as `--base-policy` fits them.
    let based = Samples::with_base(&games, Targets::default(), Some(&shipped));
    let cases = [
        (&plain, LAYOUTS[0]),
        (&plain, LAYOUTS[1]),
        (&based, LAYOUTS[1]),
    ];
    for (samples, layout) in cases {
        let s = samples.get(samples.len() / 2);
        assert!(s.policy.is_some());
        let mut model = Model::new(9, layout);
        let n = layout.params();
        let mut grad = vec![0.0; n];
        let weight = 3.0;
        model.backward(&s, weight, &mut grad);
        // The parameters with a gradient: some of each kind.
        let touched: Vec<usize> = (0..n).filter(|&i| grad[i] != 0.0).collect();
        assert!(touched.len() > 40, "{}", touched.len());
        let loss = |m: &Model| {
            let mut g = vec![0.0; n];
            let l = m.backward(&s, weight, &mut g);
            f64::from(l.value) + f64::from(weight) * f64::from(l.policy)
        };
        // Every parameter with a gradient, by central differences: but for an input weight or
        // hidden bias whose unit lies within a step of its clip, where a step gives another
        // slope.
        let f = model.forward(s.views);
        let h = layout.hidden;
        let kinked = |i: usize| {
            let (unit, input) = (i % h, i / h);
            let near = |v: f32| v.abs() < 0.03 || (v - 1.0).abs() < 0.03;
            (0..2).any(|half| {
                let reads = i >= layout.bias() || s.views[half].contains(&(input as u16));
                i < layout.out() && reads && near(f.units[half][unit])
            })
        };
        let last = [layout.out_bias(), n - 1, layout.policy() + 3];
        let mut missed = Vec::new();
        let checked: Vec<usize> = touched
            .iter()
            .chain(&last)
            .copied()
            .filter(|&i| i < n && !kinked(i))
            .collect();
        for &i in &checked {
            let h = 1e-2;
            let w = model.params[i];
            model.params[i] = w + h;
            let up = loss(&model);
            model.params[i] = w - h;
            let down = loss(&model);
            model.params[i] = w;
            let slope = (up - down) / (2.0 * h as f64);
            if (slope - grad[i] as f64).abs() > 2e-3 + 0.02 * slope.abs() {
                missed.push((i, slope, grad[i]));
            }
        }
        assert!(checked.len() * 10 > touched.len() * 9, "{}", checked.len());
        assert!(
            missed.is_empty(),
            "{layout:?}, base logits {}: {} of {} parameters off their slope, first {:?}",
            !s.policy.unwrap().base.is_empty(),
            missed.len(),
            checked.len(),
            missed.first()
        );
    }
}

/// A model whose hidden units leave [0, 1] both ways on real positions (input weights up to
/// ±0.4, hidden biases spread over [-0.5, 1.5]), so that the clipping is part of what the
/// engine and the trainer must agree on.
fn clipping_model(seed: u64, layout: Layout) -> Model {
    let mut model = Model::new(seed, layout);
    let mut rng = FastRng::new(seed + 100);
    for w in &mut model.params[..layout.bias()] {
        *w *= 8.0;
    }
    for w in &mut model.params[layout.bias()..layout.out()] {
        *w = rng.below(2001) as f32 / 1000.0 - 0.5;
    }
    model
}

#[test]
fn the_trainer_s_integer_arithmetic_is_the_engine_s_for_both_heads() {
    for (layout, bits) in LAYOUTS.into_iter().zip([8, 7]) {
        let net = clipping_model(5, layout).quantize(bits, bits).unwrap();
        let (mut below, mut above, mut logits) = (0, 0, 0);
        for seed in 0..6 {
            let game = searched_game(seed);
            let samples = Samples::of_games(std::slice::from_ref(&game));
            for i in 0..samples.len() {
                let pos = position_after(&game, i);
                let s = samples.get(i);
                for view in s.views {
                    for j in 0..net.hidden {
                        let unit = i32::from(net.bias[j])
                            + view
                                .iter()
                                .map(|&k| i32::from(net.rows[k as usize][j]))
                                .sum::<i32>();
                        below += usize::from(unit < 0);
                        above += usize::from(unit > net.qa);
                    }
                }
                let acc = net.accumulate(pos.board());
                let engine = net.value(&acc, pos.to_move());
                let trainer = quantized::value(&net, &s);
                assert_eq!(engine.to_bits(), trainer.to_bits(), "game {seed} ply {i}");
                // The policy: the engine's logits of the root moves are the trainer's of
                // their holes, to the bit.
                let search = game.plies[i].search.as_ref().filter(|_| layout.policy);
                if let (Some(p), Some(search)) = (s.policy, search) {
                    let moves: Vec<Move> = search.visits.iter().map(|v| v.0).collect();
                    let mut engine = Vec::new();
                    let played: Vec<Move> = game.plies[..i].iter().map(|p| p.mv).collect();
                    let last = last_pegs(&played);
                    net.policy_logits(&acc, &pos, last, &moves, &mut engine)
                        .unwrap();
                    let trainer = quantized::logits(&net, &s, p.holes).unwrap();
                    let bits = |v: &[f32]| v.iter().map(|l| l.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&engine), bits(&trainer), "game {seed} ply {i}");
                    logits += engine.len();
                }
            }
        }
        // Both clips were exercised, many times over, and the policy where there was one.
        assert!(
            below > 1000 && above > 1000,
            "{below} below 0, {above} above qa"
        );
        assert_eq!(logits > 1000, layout.policy, "{logits} logits");
    }
}

#[test]
fn the_quantized_network_is_near_the_model_for_both_heads() {
    for layout in LAYOUTS {
        let model = Model::new(2, layout);
        let net: Network = model.quantize(8, 8).unwrap();
        let samples = Samples::of_games(&[searched_game(1), searched_game(2)]);
        for i in 0..samples.len() {
            let s = samples.get(i);
            let (f, q) = (model.predict(&s), quantized::value(&net, &s));
            assert!((f - q).abs() < 0.02, "sample {i}: {f} {q}");
            if let (Some(p), true) = (s.policy, layout.policy) {
                let exact = model.logits(&model.forward(s.views), &s.surroundings(), p.holes);
                let shipped = quantized::logits(&net, &s, p.holes).unwrap();
                for (a, b) in exact.iter().zip(&shipped) {
                    assert!((a - b).abs() < 0.02, "sample {i}: {a} {b}");
                }
            }
        }
    }
}

#[test]
fn a_model_file_round_trips_and_names_its_damage() {
    for layout in LAYOUTS {
        let model = Model::new(4, layout);
        assert!(file::parse(&file::to_text(&model)).unwrap() == model);
    }
    let model = Model::new(4, LAYOUTS[0]);
    let text = file::to_text(&model);
    let error = |t: &str| format!("{:#}", file::parse(t).unwrap_err());
    let cut = &text[..text.len() / 2];
    let cut = &cut[..cut.rfind('\n').unwrap() + 1];
    assert!(error(cut).contains("the file ends early"), "{}", error(cut));
    let changed = text.replacen("\n0.", "\n1.", 1);
    assert!(
        error(&changed).contains("where the weights give"),
        "{}",
        error(&changed)
    );
    let word = text.replacen("hidden 32", "hidden 65", 1);
    assert_eq!(
        error(&word),
        "line 3 (offset 25): 'hidden 65' where 'hidden H' belongs, H from 1 to 64"
    );
    // A model of 32 units read as one of 48 reads its checksum as a weight.
    let wider = text.replacen("hidden 32", "hidden 48", 1);
    assert!(error(&wider).contains("'crc32"), "{}", error(&wider));
}

#[test]
fn samples_hold_every_position_of_decided_games_from_the_mover_s_side() {
    let games: Vec<Game> = (0..5).map(random_game).collect();
    let samples = Samples::of_games(&games);
    let decided: usize = games
        .iter()
        .filter(|g| g.winner.is_some())
        .map(|g| g.plies.len())
        .sum();
    assert_eq!(samples.len(), decided);
    let mut i = 0;
    for g in games.iter().filter(|g| g.winner.is_some()) {
        for n in 0..g.plies.len() {
            let pos = position_after(g, n);
            let s = samples.get(i);
            assert_eq!(s.mover, pos.to_move());
            assert_eq!(s.won, f32::from(u8::from(g.winner == Some(s.mover))));
            let mut own: Vec<usize> = s.views[0].iter().map(|&v| v as usize).collect();
            own.sort_unstable();
            let mut want = inputs::active(pos.board(), s.mover);
            want.sort_unstable();
            assert_eq!(own, want);
            i += 1;
        }
        assert!(matches!(g.plies[0].mv, Move::Peg(_)));
    }
}

/// The options of a small fit from `seed`: two epochs of batches of 16, a value alone.
fn net_options(seed: u64) -> twixt_train::net::fit::NetOptions {
    twixt_train::net::fit::NetOptions {
        data: Vec::new(),
        out: "unused".into(),
        epochs: 2,
        rate: 0.01,
        batch: 16,
        l2: 1e-4,
        games: None,
        seed,
        init: None,
        hidden: 32,
        policy: false,
        value_mix: 0.0,
        children: 0,
        child_mix: None,
        base_policy: false,
        freeze_value: false,
        policy_weight: 1.0,
        row_bits: 8,
        policy_bits: 8,
    }
}

#[test]
fn a_fit_is_the_same_for_the_same_seed() {
    let games: Vec<Game> = (0..8).map(random_game).collect();
    let samples = Samples::of_games(&games);
    let options = net_options;
    let fit = |seed| {
        twixt_train::net::fit::fit(
            &samples,
            Model::new(seed, LAYOUTS[0]),
            &options(seed),
            |_, _, _| {},
        )
        .unwrap()
    };
    let once = fit(3);
    assert!(once == fit(3), "a second fit with the same seed differs");
    assert!(once != fit(4), "another seed gives another fit");
    assert!(
        once != Model::new(3, LAYOUTS[0]),
        "the fit moved the weights"
    );
    let start = Model::new(9, LAYOUTS[0]);
    let on =
        twixt_train::net::fit::fit(&samples, start.clone(), &options(3), |_, _, _| {}).unwrap();
    assert!(on != once, "the fit did not start from the model given");
    let mut none = options(3);
    none.epochs = 0;
    let kept = twixt_train::net::fit::fit(&samples, start.clone(), &none, |_, _, _| {}).unwrap();
    assert!(kept == start, "no epoch changed the weights");
}

#[test]
fn probe_reads_results_files_and_names_a_bad_line() {
    use twixt_train::net::probe::{self, ProbeOptions};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.jsonl");
    let mut text = String::new();
    for seed in 0..3 {
        let game = random_game(seed);
        let Some(winner) = game.winner else { continue };
        let moves: Vec<String> = game.plies.iter().map(|p| format!("\"{}\"", p.mv)).collect();
        text.push_str(&format!(
            "{{\"moves\":[{}],\"winner\":{}}}\n",
            moves.join(","),
            winner.index()
        ));
    }
    std::fs::write(&path, &text).unwrap();
    let options = ProbeOptions {
        results: vec![path.clone()],
        model: None,
    };
    probe::run(&options).unwrap();
    std::fs::write(
        &path,
        format!("{text}{{\"moves\":[\"Z9\"],\"winner\":0}}\n"),
    )
    .unwrap();
    let error = format!("{:#}", probe::run(&options).unwrap_err());
    let bad = format!(
        "results.jsonl: line {}: 'Z9' is not a move",
        text.lines().count() + 1
    );
    assert!(error.contains(&bad), "{error}");
    std::fs::write(&path, "{\"moves\":[").unwrap();
    let error = format!("{:#}", probe::run(&options).unwrap_err());
    assert!(error.contains("results.jsonl: line 1"), "{error}");
}

#[test]
fn child_positions_join_the_samples_with_mixed_targets() {
    let game = searched_game(6);
    let winner = game.winner.expect("a decided game");
    let plain = Samples::of_games(std::slice::from_ref(&game));
    // The children's own mix, so that a target mixed by the wrong one fails.
    let t = Targets {
        mix: 0.25,
        children: 3,
        child_mix: 0.875,
    };
    let mixed = Samples::with_targets(std::slice::from_ref(&game), t);
    // Each searched position is followed by its three most visited other moves' positions.
    let mut i = 0;
    let mut pos = Position::new();
    let mut children = 0;
    for ply in &game.plies {
        let s = mixed.get(i);
        assert_eq!(s.views[0], plain.get(i - children).views[0]);
        let result = f32::from(u8::from(winner == pos.to_move()));
        i += 1;
        if let Some(search) = &ply.search {
            assert!((s.won - (0.25 * search.value + 0.75 * result)).abs() < 1e-6);
            let mut others: Vec<(u32, Move, f32)> = search
                .visits
                .iter()
                .zip(&search.values)
                .filter(|(v, _)| v.0 != ply.mv && v.1 > 0)
                .map(|(&(mv, n), v)| (n, mv, v.unwrap()))
                .collect();
            others.sort_by_key(|&(n, mv, _)| (std::cmp::Reverse(n), mv.peg().map(|c| c.index())));
            for &(_, mv, v) in others.iter().take(3) {
                let mut after = pos.clone();
                after.play(mv).unwrap();
                if after.outcome().is_some() {
                    continue;
                }
                let child = mixed.get(i);
                let mut want = inputs::active(after.board(), after.to_move());
                let mut got: Vec<usize> = child.views[0].iter().map(|&x| x as usize).collect();
                want.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, want);
                let result = f32::from(u8::from(winner == after.to_move()));
                assert!((child.won - (0.875 * (1.0 - v) + 0.125 * result)).abs() < 1e-6);
                assert!(child.policy.is_none());
                i += 1;
                children += 1;
            }
        } else {
            assert_eq!(s.won, result);
        }
        pos.play(ply.mv).unwrap();
    }
    assert_eq!(i, mixed.len());
    assert!(children > 30, "{children}");
}

#[test]
fn base_logits_are_the_shipped_policy_s_for_each_searched_move() {
    let shipped = Policy::shipped().unwrap();
    let games = [searched_game(4), searched_game(7)];
    let plain = Samples::of_games(&games);
    let based = Samples::with_base(&games, Targets::default(), Some(&shipped));
    assert_eq!(plain.len(), based.len());
    // The features' examples of the same searches, made by the policy fit's own reader.
    let mut examples = games
        .iter()
        .flat_map(twixt_train::policy::examples::of_game);
    let mut searched = 0;
    for i in 0..based.len() {
        let (p, b) = (plain.get(i).policy, based.get(i).policy);
        assert_eq!(p.is_some(), b.is_some(), "sample {i}");
        let (Some(p), Some(b)) = (p, b) else { continue };
        assert!(
            p.base.is_empty(),
            "sample {i}: base logits without a base policy"
        );
        assert_eq!((p.holes, p.targets), (b.holes, b.targets), "sample {i}");
        let example = examples
            .next()
            .expect("an example for each searched sample");
        let want: Vec<f32> = example.moves.iter().map(|a| shipped.logit(a)).collect();
        assert_eq!(b.base, &want[..], "sample {i}");
        searched += 1;
    }
    assert!(examples.next().is_none());
    assert!(searched > 20, "{searched}");
    // A head of zeros adds nothing: the scores are the features' own, by the policy fit's
    // scorer, and so is the loss the fit descends.
    let mut zero = Model::new(1, LAYOUTS[1]);
    let head = zero.layout.policy();
    zero.params[head..].fill(0.0);
    let net = twixt_train::net::score::network_policy(&zero, &based);
    let features = twixt_train::net::score::features_policy(&games).unwrap();
    assert_eq!(net.positions, features.positions);
    assert_eq!((net.top1, net.top5), (features.top1, features.top5));
    assert!((net.cross_entropy - features.log_loss).abs() < 1e-4);
    let mut losses = 0.0;
    for i in 0..based.len() {
        let mut grad = vec![0.0; zero.params.len()];
        losses += f64::from(zero.backward(&based.get(i), 1.0, &mut grad).policy);
    }
    let mean = losses / features.positions as f64;
    assert!((mean - features.log_loss).abs() < 1e-4, "{mean}");
}

#[test]
fn a_frozen_value_fit_moves_the_policy_head_alone() {
    let layout = Layout {
        hidden: 16,
        policy: false,
    };
    let value = Model::new(3, layout);
    let start = value.clone().with_policy_head(5);
    let cut = start.layout.policy();
    assert!(start.layout.policy && start.params.len() > cut);
    assert_eq!(
        start.params[..cut],
        value.params[..],
        "the value's weights kept"
    );
    let games: Vec<Game> = (0..4).map(searched_game).collect();
    let shipped = Policy::shipped().unwrap();
    let samples = Samples::with_base(&games, Targets::default(), Some(&shipped)).searched();
    assert!((0..samples.len()).all(|i| samples.get(i).policy.is_some()));
    let fit = |freeze_value| {
        let o = twixt_train::net::fit::NetOptions {
            freeze_value,
            ..net_options(3)
        };
        twixt_train::net::fit::fit(&samples, start.clone(), &o, |_, _, _| {}).unwrap()
    };
    let (frozen, free) = (fit(true), fit(false));
    let moved =
        |m: &Model, part: std::ops::Range<usize>| m.params[part.clone()] != start.params[part];
    let (value, head) = (0..cut, cut..start.params.len());
    assert!(!moved(&frozen, value.clone()), "a frozen value moved");
    assert!(moved(&frozen, head), "the head did not move");
    assert!(moved(&free, value), "an unfrozen fit moves the value");
}
