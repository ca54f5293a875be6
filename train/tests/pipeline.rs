//! The whole pipeline in small, as docs/TRAINING.md runs it: a few self-play games, a fit, the
//! export, the engine's decoding of it, the distance value's fit, and a search that uses both;
//! and the same for the value network from fast self-play.

use std::path::Path;
use twixt::knowledge::hidden::Hidden;
use twixt::knowledge::network::Network;
use twixt::knowledge::{encoding, Policy};
use twixt::search::params::Params;
use twixt::search::{Limits, Searcher};
use twixt::Position;
use twixt_train::net::{self, fit::NetOptions};
use twixt_train::policy::hidden as policy_hidden;
use twixt_train::policy::{examples, export, file as policy_file, fit as policy_fit};
use twixt_train::selfplay::{self, SelfplayOptions};
use twixt_train::{data, distance};

/// A self-play run of `games` games of `iterations` a full search (and `fast` a fast move).
fn options(
    out: &Path,
    games: u32,
    iterations: u32,
    fast: Option<u32>,
    seed: u64,
) -> SelfplayOptions {
    SelfplayOptions {
        out: out.to_path_buf(),
        games,
        iterations,
        fast,
        full_share: 0.2,
        opening: 2,
        starts: None,
        seed,
        threads: 2,
        resume: false,
        set: Vec::new(),
        shard: None,
    }
}

#[test]
fn selfplay_fit_export_load_and_search() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.bin");
    selfplay::run(&options(&games, 20, 200, None, 3)).unwrap();
    let file = data::read(&games).unwrap();
    let all: Vec<_> = file.games.iter().flat_map(examples::of_game).collect();
    assert!(all.len() > 100, "{} positions", all.len());
    let settings = policy_fit::Settings {
        epochs: 30,
        ..policy_fit::Settings::default()
    };
    let policy = policy_fit::fit(&all, settings, |_| {}).unwrap();
    let before = policy_fit::score(&Policy::uniform(), &all);
    let after = policy_fit::score(&policy, &all);
    assert!(after.log_loss < before.log_loss, "{before:?} -> {after:?}");

    let model_path = dir.path().join("policy.txt");
    policy_file::write(&model_path, &policy).unwrap();
    let module = export::module(&policy_file::read(&model_path).unwrap(), "policy.txt");
    let text = module.split('"').nth(1).expect("the weights' string");
    let decoded = encoding::decode(text, policy.weights.len()).unwrap();
    assert_eq!(Policy::linear(decoded.clone()), policy);
    assert_eq!(module.split('"').nth(3), Some(""), "no hidden layer");

    // A hidden layer beside it, through its model file and the module, to the same integers.
    let settings = policy_hidden::Settings {
        epochs: 2,
        rate: 0.003,
        batch: 32,
        l2: 0.0,
        threads: 2,
        seed: 1,
    };
    let w = policy_hidden::fit(&policy, &all, settings, |_, _, _| {}).unwrap();
    let net = policy_hidden::rounded(&w, 7);
    policy_file::write(&model_path, &net).unwrap();
    let read = policy_file::read(&model_path).unwrap();
    assert_eq!(read, net);
    let module = export::module(&read, "policy.txt");
    let hidden = module.split('"').nth(3).expect("the hidden layer's string");
    assert_eq!(
        Hidden::decode(hidden).as_ref(),
        Ok(net.hidden.as_ref().unwrap())
    );

    // The distance value's fit: a player nearer its borders wins more often.
    let samples: Vec<_> = file.games.iter().flat_map(distance::samples).collect();
    let (bias, scale) = distance::fit(&samples);
    let share = samples.iter().map(|s| s.won).sum::<f64>() / samples.len() as f64;
    let fitted = distance::log_loss(&samples, |s| distance::sigmoid(bias + scale * s.gap));
    assert!(scale > 0.0 && fitted < distance::log_loss(&samples, |_| share));

    let params = Params {
        policy_prior: true,
        value_mix: 0.2,
        value_bias: bias as f32,
        value_scale: scale as f32,
        ..Params::default()
    };
    let mut searcher = Searcher::with_policy(params, 1, Policy::linear(decoded));
    let pos = Position::after("F6 E8").unwrap();
    let limits = Limits {
        soft_deadline: None,
        hard_deadline: None,
        iterations: Some(2000),
    };
    let report = searcher.choose(&pos, &limits).unwrap();
    assert!(pos.legal_moves().contains(&report.best));
}

#[test]
fn fast_selfplay_net_fit_export_load_and_search() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("fast.bin");
    selfplay::run(&options(&games, 60, 400, Some(100), 4)).unwrap();
    let model_path = dir.path().join("value.txt");
    let options = NetOptions {
        data: vec![games.into()],
        out: model_path.clone(),
        epochs: 3,
        rate: 0.002,
        batch: 64,
        l2: 1e-6,
        games: None,
        seed: 1,
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
    };
    net::fit::run(&options).unwrap();
    let model = net::file::read(&model_path).unwrap();

    // A head fitted on that value, frozen, as a correction of the shipped features: the
    // value ships to the bit as it was.
    let head_path = dir.path().join("head.txt");
    let head_options = NetOptions {
        out: head_path.clone(),
        init: Some(model_path.clone()),
        policy: true,
        base_policy: true,
        freeze_value: true,
        ..options.clone()
    };
    net::fit::run(&head_options).unwrap();
    let head = net::file::read(&head_path).unwrap();
    assert!(head.layout.policy);
    let cut = head.layout.policy();
    assert_eq!(head.params[..cut], model.params[..]);
    let (with, without) = (head.quantize(8, 8).unwrap(), model.quantize(8, 8).unwrap());
    assert!(with.policy.is_some());
    assert_eq!(
        (&with.rows, with.bias, with.out),
        (&without.rows, without.bias, without.out)
    );
    let frozen = NetOptions {
        policy: false,
        ..head_options
    };
    let error = format!("{:#}", net::fit::run(&frozen).unwrap_err());
    assert!(error.contains("--freeze-value"), "{error}");
    let module = net::export::module(&model.quantize(8, 8).unwrap(), "value.txt");
    let text = module.split('"').nth(1).expect("the integers' string");
    let network = Network::decode(text).unwrap();
    assert_eq!(network, model.quantize(8, 8).unwrap());

    // The fit learnt something: on its own games it beats a constant.
    let file = data::read(&options.data[0].path).unwrap();
    let samples = net::samples::Samples::of_games(&file.games);
    let share = samples.won.iter().sum::<f32>() / samples.len() as f32;
    let loss = |p: &dyn Fn(usize) -> f32| {
        (0..samples.len())
            .map(|i| net::model::log_loss(p(i), samples.won[i]))
            .sum::<f32>()
            / samples.len() as f32
    };
    let fitted = loss(&|i| net::quantized::value(&network, &samples.get(i)));
    assert!(fitted < loss(&|_| share), "{fitted}");

    for mix in [0.5, 1.0] {
        let params = Params {
            value_net: true,
            value_mix: mix,
            ..Params::default()
        };
        let mut searcher = Searcher::with_network(params, 1, network.clone());
        let pos = Position::after("F6 E8").unwrap();
        let limits = Limits {
            soft_deadline: None,
            hard_deadline: None,
            iterations: Some(2000),
        };
        let report = searcher.choose(&pos, &limits).unwrap();
        assert!(pos.legal_moves().contains(&report.best));
        assert!(report.value > 0.0 && report.value < 1.0);
    }
}
