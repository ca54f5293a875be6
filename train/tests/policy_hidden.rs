//! The policy's hidden layer fitted: it learns what no linear policy can (a move good for one
//! of two features and bad for both), and the rounded layer keeps it.

use twixt::knowledge::features::{Active, MAX_ACTIVE};
use twixt::knowledge::Policy;
use twixt_train::policy::examples::Example;
use twixt_train::policy::fit::{self, score};
use twixt_train::policy::hidden::{self, rounded, Settings};

/// A move with features 5 and 9 each counted 4 times (as knight neighbours are), or not,
/// as `a` and `b` say.
fn features(a: bool, b: bool) -> Active {
    let mut active = Active {
        pairs: [(0, 0); MAX_ACTIVE],
        len: 0,
    };
    for (on, index) in [(a, 5), (b, 9)] {
        if on {
            active.pairs[active.len] = (index, 4);
            active.len += 1;
        }
    }
    active
}

/// Positions of four moves, the search's visits split between the two that have exactly
/// one of the two features: exclusive or, which a sum of weights cannot rank.
fn exclusive_or() -> Vec<Example> {
    (0..400)
        .map(|game| Example {
            moves: [(false, false), (true, false), (false, true), (true, true)]
                .iter()
                .map(|&(a, b)| features(a, b))
                .collect(),
            target: vec![0.0, 0.5, 0.5, 0.0],
            game,
        })
        .collect()
}

#[test]
fn the_hidden_layer_learns_what_the_linear_policy_cannot() {
    let examples = exclusive_or();
    let linear = fit::fit(&examples, fit::Settings::default(), |_| {}).unwrap();
    let linear = score(&linear, &examples);
    let settings = Settings {
        epochs: 100,
        rate: 0.03,
        batch: 16,
        l2: 0.0,
        threads: 2,
        seed: 3,
    };
    let w = hidden::fit(&Policy::uniform(), &examples, settings, |_, _, _| {}).unwrap();
    let policy = rounded(&w, 7);
    let net = score(&policy, &examples);
    // The best any policy does is ln 2 (an even split of the two moves), which the linear
    // one cannot come near: to rank both single features above both others it would need
    // each weight above zero and their sum below each.
    let best = std::f64::consts::LN_2;
    assert!(linear.log_loss > best + 0.2, "linear {linear:?}");
    assert!(
        net.log_loss < best + 0.05,
        "hidden {net:?}, linear {linear:?}"
    );
    // Both good moves above both others (top-1 alone would hang on how the even split's tie
    // is broken).
    let logit = |a, b| policy.logit(&features(a, b));
    let good = logit(true, false).min(logit(false, true));
    let bad = logit(false, false).max(logit(true, true));
    assert!(good > bad + 3.0, "good {good}, bad {bad}");
}

#[test]
fn the_fit_is_the_same_for_the_same_seed_whatever_the_threads() {
    let examples = exclusive_or();
    let settings = |threads, seed| Settings {
        epochs: 3,
        rate: 0.01,
        batch: 16,
        l2: 0.0,
        threads,
        seed,
    };
    let fit = |threads, seed| {
        hidden::fit(
            &Policy::uniform(),
            &examples,
            settings(threads, seed),
            |_, _, _| {},
        )
        .unwrap()
    };
    assert_eq!(fit(1, 3), fit(1, 3));
    assert_ne!(fit(1, 3), fit(1, 4));
    assert_eq!(fit(1, 3), fit(2, 3));
    assert_eq!(fit(1, 3), fit(3, 3));
}

#[test]
fn a_fit_goes_on_from_a_model_s_own_layer() {
    let examples = exclusive_or();
    let settings = |epochs| Settings {
        epochs,
        rate: 0.03,
        batch: 16,
        l2: 0.0,
        threads: 1,
        seed: 3,
    };
    let fit = |from: &Policy, epochs| {
        let w = hidden::fit(from, &examples, settings(epochs), |_, _, _| {}).unwrap();
        rounded(&w, 7)
    };
    let first = fit(&Policy::uniform(), 1);
    // No pass: the weights it starts from are the model's, integers and all.
    assert_eq!(fit(&first, 0), first);
    // A pass from there goes on from the model: a fresh start of one pass, the same seed, is
    // the model itself.
    assert_ne!(fit(&first, 1), first);
}
