//! Speed: playouts per second (random, and with saves) from the empty board and from a middle
//! game, MCTS iterations per second (with and without the value network), the learned prior's
//! logits, the value network's evaluation and the shipped weights' decoding. Run with
//! `cargo bench --bench playouts`.

// Host-only: benches may use std newer than the shipped code's rustc 1.63.
#![allow(clippy::incompatible_msrv)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use twixt::bench::{self, MIDGAME};
use twixt::cell::Player;
use twixt::rng::FastRng;
use twixt::search::params::Params;
use twixt::search::playout::playout;
use twixt::search::policy::saving_playout;
use twixt::search::{Limits, Searcher};
use twixt::Position;

/// The two playouts: uniformly random, and with saves (the search's default).
fn run_playout(kind: &str, pos: &mut Position, rng: &mut FastRng) -> (Option<Player>, u32) {
    match kind {
        "random" => playout(pos, rng),
        _ => saving_playout(pos, rng, None),
    }
}

fn playouts(c: &mut Criterion) {
    for kind in ["random", "saving"] {
        let mut group = c.benchmark_group(format!("playout-{}", kind));
        group.throughput(Throughput::Elements(1));
        for (name, moves) in [("empty", ""), ("midgame", MIDGAME)] {
            let pos = Position::after(moves).expect("a legal opening");
            let mut rng = FastRng::new(1);
            group.bench_with_input(BenchmarkId::from_parameter(name), &pos, |b, pos| {
                b.iter(|| {
                    let mut p = pos.clone();
                    black_box(run_playout(kind, &mut p, &mut rng))
                })
            });
        }
        group.finish();
    }
}

fn mcts(c: &mut Criterion) {
    const ITERATIONS: u64 = 2000;
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(20);
    let limits = Limits {
        soft_deadline: None,
        hard_deadline: None,
        iterations: Some(ITERATIONS),
    };
    // The default search (the learned prior), and the same with the hand-set prior; both
    // search the middle game, where the default would play its win in two at once.
    let hand = Params {
        policy_prior: false,
        ..bench::searched()
    };
    let net = |mix: f32| Params {
        value_net: true,
        value_mix: mix,
        ..bench::searched()
    };
    let minimax = Params {
        value_net: true,
        minimax: 0.5,
        ..bench::searched()
    };
    let variants = [
        ("", bench::searched()),
        ("-hand", hand),
        ("-net-mixed", net(0.5)),
        ("-net-alone", net(1.0)),
        ("-net-minimax", minimax),
    ];
    for (prior, params) in variants {
        for (name, moves) in [("empty", ""), ("midgame", MIDGAME)] {
            let pos = Position::after(moves).expect("a legal opening");
            let id = BenchmarkId::from_parameter(format!("{name}{prior}"));
            group.bench_with_input(id, &pos, |b, pos| {
                b.iter(|| black_box(Searcher::new(params.clone(), 1).choose(pos, &limits)))
            });
        }
    }
    group.finish();
}

/// One expansion's learned logits over the legal moves of the middle game (the cost per
/// expansion the learned prior adds): as the search reads them, through the [`Scorer`]'s
/// table of quiet holes, and summed from every move's features.
fn priors(c: &mut Criterion) {
    use twixt::knowledge::features::Context;
    use twixt::knowledge::{Policy, Scorer};
    let pos = Position::after(MIDGAME).expect("a legal opening");
    let moves = pos.legal_moves();
    let scorer = Scorer::new(Policy::shipped().expect("the shipped weights decode"));
    let mut group = c.benchmark_group("prior");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("learned-logits", |b| {
        b.iter(|| {
            let ctx = Context::new(&pos, None, None);
            let sum: f32 = moves.iter().map(|&m| scorer.logit(&ctx, m)).sum();
            black_box(sum)
        })
    });
    group.bench_function("learned-logits-features", |b| {
        b.iter(|| {
            let ctx = Context::new(&pos, None, None);
            let policy = scorer.policy();
            let sum: f32 = moves.iter().map(|&m| policy.logit(&ctx.features(m))).sum();
            black_box(sum)
        })
    });
    group.finish();
}

/// Start-up cost of shipped weights: decoding 50,000 `f32`s from their text (the size of a
/// network that fills the bundle's room), which counts against the first turn's clock.
fn decode(c: &mut Criterion) {
    use twixt::knowledge::encoding;
    const N: usize = 50_000;
    let weights: Vec<f32> = (0..N).map(|i| (i as f32 * 0.37).sin()).collect();
    let text = encoding::encode(&weights);
    let mut group = c.benchmark_group("weights");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("decode-50000", |b| {
        b.iter(|| black_box(encoding::decode(black_box(&text), N).expect("decodes")))
    });
    group.finish();
}

/// The name of a bench run by `kernel`.
fn by(what: &str, kernel: twixt::knowledge::network::Kernel) -> String {
    format!("{what}-{}", kernel.name())
}

/// A peg followed (both views) and the value read on the middle game `pos`, by `net`'s kernel.
fn follow_and_value(
    group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    net: &twixt::knowledge::network::Network,
    pos: &Position,
) {
    let acc = net.accumulate(pos.board());
    let mover = pos.to_move();
    let hole = pos.legal_holes().iter().next().expect("a hole");
    let mut after = pos.clone();
    after.play(twixt::Move::Peg(hole)).expect("legal");
    group.bench_function(by("place", net.kernel), |b| {
        b.iter(|| {
            let mut a = acc.clone();
            a.place(net, after.board(), mover, hole);
            black_box(a)
        })
    });
    group.bench_function(by("value", net.kernel), |b| {
        b.iter(|| black_box(net.value(black_box(&acc), mover)))
    });
}

/// The value network on the middle game, by each kernel the processor runs: its accumulators
/// summed afresh, one peg followed (both views), the output read; and the shipped network's
/// decoding at start-up.
fn network(c: &mut Criterion) {
    use twixt::knowledge::network::{Kernel, Network};
    let shipped = Network::shipped().expect("the shipped network decodes");
    let pos = Position::after(MIDGAME).expect("a legal opening");
    let mut group = c.benchmark_group("network");
    for kernel in Kernel::available() {
        let net = Network {
            kernel,
            ..shipped.clone()
        };
        group.bench_function(by("accumulate", kernel), |b| {
            b.iter(|| black_box(net.accumulate(black_box(pos.board()))))
        });
        follow_and_value(&mut group, &net, &pos);
    }
    group.bench_function("decode-shipped", |b| {
        b.iter(|| black_box(Network::shipped().expect("decodes")))
    });
    group.finish();
}

/// A network of the policy head's size (64 units a view, 8-bit rows, a head with its local
/// term) of pseudo-random weights: the prior of a middle-game expansion from it (beside the
/// feature policy's `prior/learned-logits`), a peg followed, the value, and its decoding.
fn policy_network(c: &mut Criterion) {
    use twixt::knowledge::inputs::INPUTS;
    use twixt::knowledge::network::{
        local::LOCAL, Kernel, Network, PolicyHead, MAX_HIDDEN, POLICY_HOLES,
    };
    let mut rng = FastRng::new(3);
    let mut w = |lim: u32| (rng.below(2 * lim + 1) as i32 - lim as i32) as i16;
    let mut row = || {
        let mut r = [0i16; MAX_HIDDEN];
        r.iter_mut().for_each(|x| *x = w(127));
        r
    };
    let rows: Vec<[i16; MAX_HIDDEN]> = (0..INPUTS).map(|_| row()).collect();
    let (bias, out) = (row(), [row(), row()]);
    let head_rows = (0..POLICY_HOLES)
        .map(|_| {
            let mut r = [0i16; 2 * MAX_HIDDEN];
            r[..MAX_HIDDEN].copy_from_slice(&row());
            r[MAX_HIDDEN..].copy_from_slice(&row());
            r
        })
        .collect();
    let net = Network {
        hidden: MAX_HIDDEN,
        row_bits: 8,
        qa: 127,
        qb: 64,
        rows,
        bias,
        out,
        out_bias: 0,
        policy: Some(PolicyHead {
            bits: 8,
            qp: 64,
            rows: head_rows,
            bias: vec![100; POLICY_HOLES],
            local: (0..LOCAL as i32).collect(),
        }),
        kernel: Kernel::detected(),
    };
    let text = net.encode();
    let pos = Position::after(MIDGAME).expect("a legal opening");
    let moves = pos.legal_moves();
    let acc = net.accumulate(pos.board());
    let last = [moves.first().and_then(|m| m.peg()), None];
    let mut group = c.benchmark_group("network64");
    for kernel in Kernel::available() {
        let net = Network {
            kernel,
            ..net.clone()
        };
        group.bench_function(by("policy-logits", kernel), |b| {
            b.iter(|| {
                let pu = net.policy_units(&acc, &pos, last).expect("a head");
                let sum: f32 = moves.iter().map(|&m| net.policy_logit(&pu, m)).sum();
                black_box(sum)
            })
        });
        follow_and_value(&mut group, &net, &pos);
    }
    group.bench_function("decode", |b| {
        b.iter(|| black_box(Network::decode(black_box(&text)).expect("decodes")))
    });
    group.finish();
}

criterion_group!(
    benches,
    playouts,
    mcts,
    priors,
    decode,
    network,
    policy_network
);
criterion_main!(benches);
