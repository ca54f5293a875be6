//! The whole pipeline in small, as the README runs it: a few self-play games, a fit, the
//! export, the engine's decoding of it, the value's fit, and a search that uses both.

use twixt::knowledge::{encoding, Policy};
use twixt::search::params::Params;
use twixt::search::{Limits, Searcher};
use twixt::Position;
use twixt_train::selfplay::{self, SelfplayOptions};
use twixt_train::{data, examples, export, fit, model, value};

#[test]
fn selfplay_fit_export_load_and_search() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.bin");
    selfplay::run(&SelfplayOptions {
        out: games.clone(),
        games: 20,
        iterations: 200,
        opening: 2,
        seed: 3,
        threads: 2,
        resume: false,
        set: Vec::new(),
        shard: None,
    })
    .unwrap();
    let file = data::read(&games).unwrap();
    let all: Vec<_> = file.games.iter().flat_map(examples::of_game).collect();
    assert!(all.len() > 100, "{} positions", all.len());
    let settings = fit::Settings {
        epochs: 30,
        ..fit::Settings::default()
    };
    let policy = fit::fit(&all, settings, |_| {});
    let before = fit::score(&Policy::uniform(), &all);
    let after = fit::score(&policy, &all);
    assert!(after.log_loss < before.log_loss, "{before:?} -> {after:?}");

    let model_path = dir.path().join("policy.txt");
    model::write(&model_path, &policy).unwrap();
    let module = export::module(&model::read(&model_path).unwrap(), "policy.txt");
    let text = module.split('"').nth(1).expect("the weights' string");
    let decoded = encoding::decode(text, policy.weights.len()).unwrap();
    assert_eq!(
        Policy {
            weights: decoded.clone()
        },
        policy
    );

    // The value's fit: a player nearer its borders wins more often.
    let samples: Vec<_> = file.games.iter().flat_map(value::samples).collect();
    let (bias, scale) = value::fit(&samples);
    let share = samples.iter().map(|s| s.won).sum::<f64>() / samples.len() as f64;
    let fitted = value::log_loss(&samples, |s| value::sigmoid(bias + scale * s.gap));
    assert!(scale > 0.0 && fitted < value::log_loss(&samples, |_| share));

    let params = Params {
        policy_prior: true,
        value_mix: 0.2,
        value_bias: bias as f32,
        value_scale: scale as f32,
        ..Params::default()
    };
    let mut searcher = Searcher::with_policy(params, 1, Policy { weights: decoded });
    let pos = Position::after("F6 E8").unwrap();
    let limits = Limits {
        deadline: None,
        iterations: Some(2000),
    };
    let report = searcher.choose(&pos, &limits).unwrap();
    assert!(pos.legal_moves().contains(&report.best));
}
