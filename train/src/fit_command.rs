//! `twixt-train fit`: examples from data files, a held-out tenth, the fit, and its scores.

use crate::data;
use crate::examples::{self, Example};
use crate::fit::{self, Scores, Settings};
use crate::model;
use anyhow::{anyhow, bail, Result};
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

/// Games whose index is a multiple of this are held out for scoring.
pub const HOLD_OUT_EVERY: u32 = 10;

/// Splits positions into those held out for scoring (from games 0, 10, 20, ...) and those to
/// fit, by `game`, each position's game index; an error when either part is empty.
pub fn hold_out<T>(all: Vec<T>, game: impl Fn(&T) -> u32) -> Result<(Vec<T>, Vec<T>)> {
    let (held, train): (Vec<T>, Vec<T>) = all
        .into_iter()
        .partition(|t| game(t).is_multiple_of(HOLD_OUT_EVERY));
    if train.is_empty() || held.is_empty() {
        bail!(
            "too few games to fit and score: {} positions to fit, {} held out",
            train.len(),
            held.len()
        );
    }
    println!(
        "positions: {} to fit, {} held out (games 0, 10, 20, ...)",
        train.len(),
        held.len()
    );
    Ok((held, train))
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
        line("uniform", &fit::score(&Policy::uniform(), &held))
    );
    let shipped =
        Policy::shipped().map_err(|e| anyhow!("the shipped policy does not decode: {e}"))?;
    println!("{}", line("shipped", &fit::score(&shipped, &held)));
    let settings = Settings {
        epochs: options.epochs,
        rate: options.rate,
        l2: options.l2,
    };
    let policy = fit::fit(&train, settings, |_| {})?;
    println!("{}", line("fit", &fit::score(&policy, &train)));
    println!("{}", line("held out", &fit::score(&policy, &held)));
    model::write(&options.out, &policy)?;
    println!(
        "{}: written, {:.1} s",
        options.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
