//! `twixt-train fit`, the policy's command: examples from data files, a held-out tenth, the
//! fit ([`crate::policy_fit`]), its scores, and the model file ([`crate::policy_file`]).

use crate::data;
use crate::examples::{self, Example};
use crate::held_out::hold_out;
use crate::policy_file;
use crate::policy_fit::{self, Scores, Settings};
use anyhow::{anyhow, Result};
use std::path::PathBuf;
use std::time::Instant;
use twixt::knowledge::Policy;

/// The options of `twixt-train fit`.
#[derive(clap::Args, Clone, Debug)]
pub struct FitOptions {
    /// Data files written by `selfplay`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
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
}

/// Reads the examples of every file; a torn file is an error, not a smaller data set.
fn load(paths: &[PathBuf]) -> Result<Vec<Example>> {
    let games = data::read_complete(paths)?;
    Ok(games.iter().flat_map(examples::of_game).collect())
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
    let (held, train) = hold_out(load(&options.data)?, |e: &Example| e.game)?;
    println!(
        "{}",
        line("uniform", &policy_fit::score(&Policy::uniform(), &held))
    );
    let shipped =
        Policy::shipped().map_err(|e| anyhow!("the shipped policy does not decode: {e}"))?;
    println!("{}", line("shipped", &policy_fit::score(&shipped, &held)));
    let settings = Settings {
        epochs: options.epochs,
        rate: options.rate,
        l2: options.l2,
    };
    let policy = policy_fit::fit(&train, settings, |_| {})?;
    println!("{}", line("fit", &policy_fit::score(&policy, &train)));
    println!("{}", line("held out", &policy_fit::score(&policy, &held)));
    policy_file::write(&options.out, &policy)?;
    println!(
        "{}: written, {:.1} s",
        options.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
