//! `twixt-train net`: fits the value network to self-play results, one held-out tenth of the
//! games scoring it, and writes the model. Deterministic for a seed: one thread, the order
//! of the samples and the mirror of each drawn from the seed.

use super::file;
use super::model::{Adam, Layout, Model};
use super::samples::{Mirrors, PolicyTarget, Sample, Samples, Targets};
use super::{quantized, score};
use crate::data::{self, Game, Source};
use crate::held_out::HOLD_OUT_EVERY;
use anyhow::{anyhow, bail, Result};
use std::path::PathBuf;
use std::time::Instant;
use twixt::knowledge::network::MAX_HIDDEN;
use twixt::knowledge::Policy;
use twixt::rng::FastRng;

/// The options of `twixt-train net`.
#[derive(clap::Args, Clone, Debug)]
pub struct NetOptions {
    /// Data files written by `selfplay`, packed or not; `FILE:N` reads the file's first N
    /// games.
    #[arg(required = true)]
    pub data: Vec<Source>,
    /// Where to write the model.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Passes over the training set.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Adam's step size at the start; it falls linearly to a tenth of this by the last epoch.
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// Samples a step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Weight decay on the input rows.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f32,
    /// Fit on at most this many of the training games (the learning curve); all by default.
    #[arg(long)]
    pub games: Option<usize>,
    /// The seed of the initial weights, the order and the mirrors.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start from this model's weights instead of random ones (a generation trained on
    /// from the last); with `--epochs 0` this scores the model on the data's held-out games.
    #[arg(long, value_name = "MODEL")]
    pub init: Option<PathBuf>,
    /// Hidden units a view (for a fresh model; `--init` keeps its model's).
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Give the model a policy head (a fresh model, or an `--init` model without one),
    /// trained on the full searches' visit shares.
    #[arg(long)]
    pub policy: bool,
    /// The weight of the search's value in a searched position's value target, against the
    /// game's result (0: the result alone). Held-out positions are always scored by results.
    #[arg(long, default_value_t = 0.0)]
    pub value_mix: f32,
    /// Fit the value on the positions after each full search's most visited other root
    /// moves too, at most this many a search (format-3 data, which keeps their values).
    #[arg(long, default_value_t = 0)]
    pub children: usize,
    /// The weight of the search's value in those children's targets, against the game's
    /// result (the game did not go that way, so 1 trusts the search alone); `--value-mix`
    /// by default.
    #[arg(long)]
    pub child_mix: Option<f32>,
    /// Fit the policy head as a correction of the shipped feature softmax: its logits
    /// are added to the features' in the loss and the scores, as the engine adds them at
    /// `net_policy=1`.
    #[arg(long)]
    pub base_policy: bool,
    /// Keep the value's weights (the input rows, the hidden bias, the value's outputs) as
    /// they are and fit the policy head alone, on the positions of full searches only.
    #[arg(long)]
    pub freeze_value: bool,
    /// The weight of the policy's cross-entropy beside the value's log-loss.
    #[arg(long, default_value_t = 1.0)]
    pub policy_weight: f32,
    /// Bits of a shipped input row's weight (the held-out score of the shipped integers).
    #[arg(long, default_value_t = super::export::ROW_BITS, value_parser = clap::value_parser!(u32).range(2..=15))]
    pub row_bits: u32,
    /// Bits of a shipped policy weight.
    #[arg(long, default_value_t = super::export::POLICY_BITS, value_parser = clap::value_parser!(u32).range(2..=15))]
    pub policy_bits: u32,
}

/// Fits a model to `train`; `report` hears each epoch's number and mean training loss. A fit
/// whose loss or weights stop being finite numbers is an error naming the epoch: what it
/// would write is no network.
pub fn fit(
    train: &Samples,
    start: Model,
    o: &NetOptions,
    mut report: impl FnMut(usize, f64, &Model),
) -> Result<Model> {
    let mirrors = Mirrors::new();
    let mut model = start;
    let n = model.params.len();
    let mut adam = Adam::new(n);
    let mut grad = vec![0.0f32; n];
    let mut rng = FastRng::new(o.seed ^ 0x5eed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let (mut a, mut b, mut holes) = (Vec::new(), Vec::new(), Vec::new());
    for epoch in 1..=o.epochs {
        let done = (epoch - 1) as f32 / (o.epochs.max(2) - 1) as f32;
        let rate = o.rate * (1.0 - 0.9 * done);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let mut total = 0.0f64;
        for batch in order.chunks(o.batch.max(1)) {
            grad.fill(0.0);
            for &i in batch {
                let s = train.get(i);
                let k = rng.below(4) as usize;
                let perm = |v: &[u16], viewer, out: &mut Vec<u16>| {
                    let p = mirrors.of(k, viewer);
                    out.clear();
                    out.extend(v.iter().map(|&x| p[x as usize]));
                };
                perm(s.views[0], s.mover, &mut a);
                perm(s.views[1], s.mover.other(), &mut b);
                let policy = s.policy.map(|p| {
                    let m = mirrors.holes(k, s.mover);
                    holes.clear();
                    holes.extend(p.holes.iter().map(|&h| m[h as usize]));
                    PolicyTarget {
                        holes: &holes,
                        targets: p.targets,
                        base: p.base,
                    }
                });
                let last = s.last.map(|c| c.map(|c| mirrors.cell(k, s.mover, c)));
                let mirrored = Sample {
                    views: [&a, &b],
                    policy,
                    last,
                    ..s
                };
                let loss = model.backward(&mirrored, o.policy_weight, &mut grad);
                total += f64::from(loss.value + o.policy_weight * loss.policy);
            }
            let decay = match o.freeze_value {
                true => {
                    grad[..model.layout.policy()].fill(0.0);
                    (0.0, 0)
                }
                false => (o.l2, model.layout.bias()),
            };
            adam.step(&mut model.params, &grad, batch.len(), rate, decay);
        }
        let loss = total / train.len().max(1) as f64;
        if !loss.is_finite() {
            bail!("epoch {epoch}: the training loss is {loss}: the fit diverged (a smaller --rate may hold it); no model written");
        }
        if let Some((at, w)) = model.first_non_finite() {
            bail!("epoch {epoch}: weight {at} is {w} (training loss {loss:.4}): the fit diverged (a smaller --rate may hold it); no model written");
        }
        report(epoch, loss, &model);
    }
    Ok(model)
}

/// The games to fit and the games held out: every tenth game of each run by its index
/// ([`HOLD_OUT_EVERY`]) is held out; of the rest, the first `limit` in the order read are
/// fitted (all when `None`). Games are counted as records, so runs whose indices overlap
/// give exactly `limit` games, never more.
pub fn split_games(games: Vec<Game>, limit: Option<usize>) -> (Vec<Game>, Vec<Game>) {
    let (held, mut train): (Vec<Game>, Vec<Game>) = games
        .into_iter()
        .partition(|g| g.index.is_multiple_of(HOLD_OUT_EVERY));
    if let Some(n) = limit {
        train.truncate(n);
    }
    (train, held)
}

/// Runs `net`.
pub fn run(o: &NetOptions) -> Result<()> {
    let start = Instant::now();
    let child_mix = o.child_mix.unwrap_or(o.value_mix);
    for (flag, mix) in [("--value-mix", o.value_mix), ("--child-mix", child_mix)] {
        if !(0.0..=1.0).contains(&mix) {
            bail!("{flag} {mix}: from 0 to 1");
        }
    }
    let init = match &o.init {
        Some(path) if o.policy => file::read(path)?.with_policy_head(o.seed),
        Some(path) => file::read(path)?,
        None => {
            let hidden = o.hidden;
            if !(1..=MAX_HIDDEN).contains(&hidden) {
                bail!("--hidden {hidden}: from 1 to {MAX_HIDDEN}");
            }
            let policy = o.policy;
            Model::new(o.seed, Layout { hidden, policy })
        }
    };
    for (flag, given) in [
        ("--freeze-value", o.freeze_value),
        ("--base-policy", o.base_policy),
    ] {
        if given && !init.layout.policy {
            bail!("{flag} is for a policy head: give --policy, or an --init model with a head");
        }
    }
    let (train_games, held_games) = split_games(data::read_complete(&o.data)?, o.games);
    let targets = Targets {
        mix: o.value_mix,
        children: o.children,
        child_mix,
    };
    let base = match o.base_policy {
        true => Some(Policy::shipped().map_err(|e| anyhow!("the shipped policy: {e}"))?),
        false => None,
    };
    let (mut train, held) = (
        Samples::with_base(&train_games, targets, base.as_ref()),
        Samples::with_base(&held_games, Targets::default(), base.as_ref()),
    );
    if o.freeze_value {
        train = train.searched();
    }
    if train.is_empty() || held.is_empty() {
        bail!(
            "too few decided games to fit and score: {} positions to fit, {} held out",
            train.len(),
            held.len()
        );
    }
    println!(
        "positions: {} to fit, {} held out (games 0, 10, 20, ...), {:.1} s to read",
        train.len(),
        held.len(),
        start.elapsed().as_secs_f64()
    );
    let every: Vec<usize> = (0..held.len()).collect();
    let mean = train.won.iter().map(|&w| f64::from(w)).sum::<f64>() / train.len() as f64;
    println!(
        "held-out log-loss: constant {:.4}, distance value {:.4}",
        score::mean_loss(&held, &every, |_| mean as f32),
        score::mean_loss(&held, &every, |i| held.distance[i])
    );
    let policy = init.layout.policy;
    if policy {
        println!("{}", features_line(&held_games)?);
    }
    let model = fit(&train, init, o, |epoch, loss, m| {
        let h = score::mean_loss(&held, &every, |i| m.predict(&held.get(i)));
        let p = match policy {
            true => format!("; policy {}", score::network_policy(m, &held).line("")),
            false => String::new(),
        };
        println!(
            "epoch {epoch:>3}: training loss {loss:.4}, held-out log-loss {h:.4}{p}, {:.0} s",
            start.elapsed().as_secs_f64()
        );
    })?;
    report(&model, &held, o)?;
    file::write(&o.out, &model)?;
    println!(
        "{}: written, {:.0} s in all",
        o.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The shipped feature policy on the held-out full searches, as a report's line.
fn features_line(held_games: &[Game]) -> Result<String> {
    let f = score::features_policy(held_games)?;
    let r = score::Ranking {
        positions: f.positions,
        top1: f.top1,
        top5: f.top5,
        cross_entropy: f.log_loss,
    };
    Ok(r.line("feature policy (shipped)"))
}

/// The fitted model's held-out figures: the shipped integers' log-loss and the value on the
/// positions of full searches against the search's own.
fn report(model: &Model, held: &Samples, o: &NetOptions) -> Result<()> {
    let every: Vec<usize> = (0..held.len()).collect();
    let net = model.quantize(o.row_bits, o.policy_bits)?;
    let q = score::mean_loss(held, &every, |i| quantized::value(&net, &held.get(i)));
    println!(
        "held-out log-loss of the shipped integers ({}-bit rows): {q:.4}",
        o.row_bits
    );
    let searched: Vec<usize> = every
        .into_iter()
        .filter(|&i| !held.search[i].is_nan())
        .collect();
    if !searched.is_empty() {
        println!(
            "on the {} held-out positions of full searches: network {:.4}, distance value {:.4}, the search's own value {:.4}",
            searched.len(),
            score::mean_loss(held, &searched, |i| model.predict(&held.get(i))),
            score::mean_loss(held, &searched, |i| held.distance[i]),
            score::mean_loss(held, &searched, |i| held.search[i]),
        );
    }
    if model.layout.policy {
        println!(
            "{}",
            score::network_policy(model, held).line("network policy")
        );
        println!(
            "{}",
            score::shipped_policy(&net, held)
                .line(&format!("shipped integers ({}-bit)", o.policy_bits))
        );
    }
    Ok(())
}
