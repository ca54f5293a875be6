//! `twixt-train fit`, the policy's command: examples from data files, a held-out tenth, the
//! fit ([`super::fit`], or [`super::hidden`] with `--hidden`), its scores, and the model file
//! ([`super::file`]).

use super::examples::{self, Example};
use super::fit::{self, Scores, Settings};
use super::{file, hidden};
use crate::data::{self, Game, Source};
use crate::held_out::{hold_out, HOLD_OUT_EVERY};
use anyhow::Result;
use std::path::PathBuf;
use std::time::Instant;
use twixt::knowledge::Policy;

/// The options of `twixt-train fit`.
#[derive(clap::Args, Clone, Debug)]
pub struct FitOptions {
    /// Data files written by `selfplay`, packed or not; `FILE:N` reads the file's first N
    /// games.
    #[arg(required = true)]
    pub data: Vec<Source>,
    /// Where to write the model.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Passes over the training set.
    #[arg(long, default_value_t = Settings::default().epochs)]
    pub epochs: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = Settings::default().rate)]
    pub rate: f32,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = Settings::default().l2)]
    pub l2: f32,
    /// Fit a hidden layer beside the linear logit (`twixt::knowledge::hidden`) by minibatch
    /// Adam: set `--epochs` to a few and `--rate` to about 0.003.
    #[arg(long)]
    pub hidden: bool,
    /// With `--hidden`: the linear policy to start from (a `fit` model file; a hidden layer of
    /// its is not kept: the fit makes its own); when left out, linear weights of zero.
    #[arg(long, requires = "hidden", conflicts_with = "init")]
    pub base: Option<PathBuf>,
    /// With `--hidden`: a model with a hidden layer to go on from, its linear weights and its
    /// layer both (a warm start, such as from the shipped `train/models/policy.txt`).
    #[arg(long, requires = "hidden")]
    pub init: Option<PathBuf>,
    /// With `--hidden`: positions a step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// With `--hidden`: threads that share each step.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// With `--hidden`: seeds the first rows and the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Policy target pruning for the exploration constant C (the teacher's `exploration`):
    /// the training positions' targets keep only the visits each move's value earned
    /// ([`examples::pruned`]); the held-out ones stay whole, so scores compare.
    #[arg(long, value_name = "C")]
    pub prune: Option<f32>,
    /// With `--hidden`: the width of the layer's integers, each weight one over
    /// `2^(bits - 2)` (the epochs are scored rounded, as the model keeps them).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(2..=8))]
    pub bits: u32,
}

/// Reads the examples of every file, held out and to fit (pruned with `prune`); a torn file
/// is an error, not a smaller data set.
fn load(sources: &[Source], prune: Option<f32>) -> Result<(Vec<Example>, Vec<Example>)> {
    let games = data::read_complete(sources)?;
    let held = |g: &Game| g.index.is_multiple_of(HOLD_OUT_EVERY);
    if let Some(c) = prune {
        let (mut all, mut kept) = (0u64, 0u64);
        for search in games.iter().filter(|g| !held(g)).flat_map(|g| &g.plies) {
            if let Some(search) = &search.search {
                all += search
                    .visits
                    .iter()
                    .map(|&(_, n)| u64::from(n))
                    .sum::<u64>();
                let pruned = examples::pruned(&search.visits, &search.values, c);
                kept += pruned.iter().map(|&n| u64::from(n)).sum::<u64>();
            }
        }
        println!(
            "pruned (c = {c}): {:.1}% of the training targets' visits removed",
            100.0 * (all - kept) as f64 / all.max(1) as f64
        );
    }
    let examples = games
        .iter()
        .flat_map(|g| examples::of_game_pruned(g, prune.filter(|_| !held(g))))
        .collect();
    hold_out(examples, |e: &Example| e.game)
}

fn line(name: &str, s: &Scores) -> String {
    format!(
        "{name:<10} top-1 {:5.1}%  top-5 {:5.1}%  log-loss {:.4}  ({} positions)",
        100.0 * s.top1,
        100.0 * s.top5,
        s.log_loss,
        s.positions
    )
}

/// Runs `fit`.
pub fn run(options: &FitOptions) -> Result<()> {
    let start = Instant::now();
    let (held, train) = load(&options.data, options.prune)?;
    println!(
        "{}",
        line("uniform", &fit::score(&Policy::uniform(), &held))
    );
    // A change of the features leaves the shipped weights stale until the fit is exported.
    match Policy::shipped() {
        Ok(shipped) => println!("{}", line("shipped", &fit::score(&shipped, &held))),
        Err(e) => println!("shipped    not scored: its weights do not decode ({e})"),
    }
    if options.hidden {
        return fit_hidden(options, &held, &train, start);
    }
    let settings = Settings {
        epochs: options.epochs,
        rate: options.rate,
        l2: options.l2,
    };
    let policy = fit::fit(&train, settings, |_| {})?;
    println!("{}", line("fit", &fit::score(&policy, &train)));
    println!("{}", line("held out", &fit::score(&policy, &held)));
    file::write(&options.out, &policy)?;
    println!(
        "{}: written, {:.1} s",
        options.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `fit --hidden`: a hidden layer beside a linear policy, scored held out after each pass.
fn fit_hidden(
    options: &FitOptions,
    held: &[Example],
    train: &[Example],
    start: Instant,
) -> Result<()> {
    let base = match (&options.init, &options.base) {
        (Some(path), _) => {
            let model = file::read(path)?;
            anyhow::ensure!(
                model.hidden.is_some(),
                "{}: --init takes a model with a hidden layer (--base starts from a linear one)",
                path.display()
            );
            model
        }
        (None, Some(path)) => Policy {
            hidden: None,
            ..file::read(path)?
        },
        (None, None) => Policy::uniform(),
    };
    println!("{}", line("base", &fit::score(&base, held)));
    let settings = hidden::Settings {
        epochs: options.epochs,
        rate: options.rate,
        batch: options.batch,
        l2: options.l2,
        threads: options.threads,
        seed: options.seed,
    };
    let bits = options.bits;
    let w = hidden::fit(&base, train, settings, |epoch, loss, w| {
        let s = fit::score(&hidden::rounded(w, bits), held);
        println!(
            "{} (training {loss:.4}, {:.0} s)",
            line(&format!("epoch {epoch}"), &s),
            start.elapsed().as_secs_f64()
        );
    })?;
    file::write(&options.out, &hidden::rounded(&w, bits))?;
    println!("{}: written", options.out.display());
    Ok(())
}
