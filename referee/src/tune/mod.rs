//! `twixt-referee tune`: SPSA over a bot's parameters, as OpenBench runs it. Each iteration
//! plays seat-swapped pairs between the bot with `θ+cΔ` and the bot with `θ−cΔ` (through
//! `--set`), then steps `θ` towards the winner; [`spsa`] has the method, [`listing`] the
//! parameters, [`trajectory`] the file a run keeps and resumes from.

pub mod listing;
pub mod runner;
pub mod spsa;
pub mod trajectory;

use crate::clocks::Clocks;
use crate::engines::{EngineOptions, Engines};
use crate::matches::{run_match, MatchConfig, MatchOptions};
use crate::tally::Tally;
use anyhow::{bail, Context, Result};
use listing::{choose, parse_listing, Choice};
use spsa::{probe, update, Axis, Probe, Schedule};
use std::path::{Path, PathBuf};
use std::process::Command;
use trajectory::{Row, Settings};
use twixt_host::progress;

/// What `--help` says of the method.
pub const HELP: &str = "\
SPSA (simultaneous perturbation stochastic approximation) as OpenBench and fishtest run it.

Each iteration k draws a random sign d = +1 or -1 for every tuned parameter, and plays
--pairs seat-swapped pairs, from random openings, between CMD --set p=theta+c_k*d and
CMD --set p=theta-c_k*d. Then theta += a_k / c_k * (wins - losses of the plus side) * d,
clamped to the parameter's range. Whole-number parameters are rounded at random.

The gains are set by their end values, with N = --iterations and A = --a-ratio * N:
  c_k = c_end * N^gamma / (k+1)^gamma        (c_end: the bot's step, or --c-end)
  a_k = r_end * c_end^2 * (A+N)^alpha / (A+k+1)^alpha
so the last perturbation is c_end and the last a_k / c_k^2 is --r-end.

The parameters, their values, ranges and steps come from `PROGRAM params` (the first word of
CMD), e.g. `twixt-bot params`, or from --params-cmd. --out keeps one CSV row per iteration
(a '# ' line with the run's settings first) and an SVG plot beside it (OUT with .svg).
Ctrl-C stops the run; the same command with --resume goes on from the last row.

With --runner, each iteration's pairs are cut into --jobs slices, each one `match --shard I/J`
command line, and the runner runs them on many machines (GNU parallel over ssh, or srun in a
Slurm allocation): an iteration takes the time of its longest slice. A slice that fails is run
again; the run is the one-machine run's for the same seed.";

/// The options of `tune`.
#[derive(clap::Args, Clone, Debug)]
pub struct TuneOptions {
    /// The bot's command (`{seed}` is replaced by each game's seed).
    pub cmd: String,
    /// The parameters to tune, comma-separated (default: every one the bot lists).
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// A narrower range for a parameter: NAME=MIN:MAX (repeatable).
    #[arg(long, value_name = "NAME=MIN:MAX")]
    pub range: Vec<String>,
    /// The last perturbation of a parameter instead of its step: NAME=VALUE (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub c_end: Vec<String>,
    /// The command that lists the tunables [default: the first word of CMD, then `params`].
    #[arg(long)]
    pub params_cmd: Option<String>,
    /// SPSA iterations.
    #[arg(long)]
    pub iterations: usize,
    /// Seat-swapped game pairs per iteration.
    #[arg(long, default_value_t = 1)]
    pub pairs: usize,
    /// The run's CSV file.
    #[arg(long)]
    pub out: PathBuf,
    /// Go on with the run in --out.
    #[arg(long)]
    pub resume: bool,
    /// Also keep every game's record here (JSON lines, as `match --results`; engine A is θ+).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Play each iteration's pairs through this runner instead: a program that runs the
    /// shell command lines of its stdin (one `match --shard I/J` a slice) and writes their
    /// output whole, e.g. "parallel --sshloginfile machines.txt" or, in a Slurm allocation,
    /// "parallel -j 8 srun -N1 -n1 --exclusive sh -c {}".
    #[arg(long)]
    pub runner: Option<String>,
    /// With --runner: the slices an iteration's pairs are cut into [default: --pairs].
    #[arg(long, requires = "runner")]
    pub jobs: Option<usize>,
    /// With --runner: the referee the slices run on their machines [default: this one's
    /// path, the same on every machine].
    #[arg(long, requires = "runner")]
    pub referee: Option<String>,
    /// The run's seed: signs, game seeds and openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random pegs at the start of each pair.
    #[arg(long, default_value_t = 2)]
    pub random_openings: usize,
    /// The last a_k / c_k^2.
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// A as a share of the iterations.
    #[arg(long, default_value_t = 0.1)]
    pub a_ratio: f64,
    /// The decay of a_k.
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    /// The decay of c_k.
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
}

/// The one clock of both versions; the `-b` clocks belong to matches of two engines.
fn clocks(e: &EngineOptions) -> Result<Clocks> {
    if e.first_ms_b.is_some() || e.turn_ms_b.is_some() || e.margin_b.is_some() {
        bail!("tune plays one bot against itself: one clock, no --first-ms-b, --turn-ms-b or --margin-b");
    }
    Ok(Clocks {
        first_ms: e.first_ms,
        turn_ms: e.turn_ms,
        margin_ms: e.margin,
    })
}

/// The bot's list of tunables, from `--params-cmd` or `PROGRAM params`.
fn listing_of(o: &TuneOptions) -> Result<String> {
    let cmd = match &o.params_cmd {
        Some(c) => c.clone(),
        None => format!(
            "{} params",
            o.cmd.split_whitespace().next().unwrap_or_default()
        ),
    };
    let words = shlex::split(&cmd).with_context(|| format!("cannot split {cmd:?}"))?;
    let (program, args) = words
        .split_first()
        .context("no command to list the parameters")?;
    let out = Command::new(program)
        .args(args)
        .output()
        .with_context(|| format!("running {cmd:?}"))?;
    if !out.status.success() {
        bail!(
            "{cmd:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8(out.stdout).with_context(|| format!("{cmd:?} wrote no text"))
}

/// The run's settings, checked: the parameters exist and their ranges hold.
fn settings(o: &TuneOptions, engines: &EngineOptions) -> Result<(Settings, Vec<f64>)> {
    if o.iterations == 0 || o.pairs == 0 {
        bail!("--iterations and --pairs must be at least 1");
    }
    let listed = parse_listing(&listing_of(o)?)?;
    let choice = Choice {
        names: o.params.clone(),
        ranges: o.range.clone(),
        c_ends: o.c_end.clone(),
    };
    let (axes, start) = choose(&listed, &choice)?;
    let schedule = Schedule {
        iterations: o.iterations,
        a_ratio: o.a_ratio,
        alpha: o.alpha,
        gamma: o.gamma,
        r_end: o.r_end,
    };
    let s = Settings {
        cmd: o.cmd.clone(),
        axes,
        schedule,
        pairs: o.pairs,
        seed: o.seed,
        random_openings: o.random_openings,
        clocks: clocks(engines)?,
    };
    Ok((s, start))
}

/// The rows so far: the file's with `--resume` (an error if its run is another), else a new file
/// holding the start.
fn starting_rows(o: &TuneOptions, s: &Settings, start: &[f64]) -> Result<Vec<Row>> {
    if o.resume && o.out.exists() {
        let (theirs, rows) = trajectory::read(&o.out)?;
        if theirs != *s {
            let json = |x: &Settings| serde_json::to_string(x).unwrap_or_default();
            bail!(
                "{} holds another run; its settings:\n  {}\nthis command's:\n  {}",
                o.out.display(),
                json(&theirs),
                json(s)
            );
        }
        return Ok(rows);
    }
    if o.out.exists() {
        bail!(
            "{} exists: --resume to go on with it, or another --out",
            o.out.display()
        );
    }
    Ok(vec![trajectory::create(&o.out, s, start)?])
}

/// `cmd --set name=value ...` for one version.
fn with_values(cmd: &str, axes: &[Axis], values: &[f64]) -> String {
    let sets: Vec<String> = axes
        .iter()
        .zip(values)
        .map(|(a, v)| match a.integer {
            true => format!(" --set {}={}", a.name, v.round() as i64),
            false => format!(" --set {}={v:.6}", a.name),
        })
        .collect();
    format!("{cmd}{}", sets.concat())
}

/// Plays iteration `k`'s pairs: `θ+` is engine A. Returns A's wins, draws, losses and points
/// per pair.
fn play(o: &TuneOptions, s: &Settings, p: &Probe, k: usize) -> Result<([u64; 3], Vec<f64>)> {
    let engines = Engines {
        cmds: [
            with_values(&s.cmd, &s.axes, &p.plus),
            with_values(&s.cmd, &s.axes, &p.minus),
        ],
        clocks: [s.clocks; 2],
        stderr_dir: None,
        ids: [None, None],
    };
    let options = MatchOptions {
        games: 2 * s.pairs,
        concurrency: o.concurrency,
        openings: None,
        random_openings: Some(s.random_openings),
        seed: s.seed.wrapping_mul(1_000_003).wrapping_add(4096 * k as u64),
        sprt: None,
        results: o.results.clone(),
        resume: false,
        report_every: usize::MAX,
        shard: None,
    };
    let tally = match &o.runner {
        None => {
            let cfg = MatchConfig {
                quiet: true,
                ..MatchConfig::new(engines, options)?
            };
            run_match(&cfg)?.1
        }
        Some(runner) => {
            let referee = match &o.referee {
                Some(r) => r.clone(),
                None => std::env::current_exe()
                    .context("this referee's path")?
                    .display()
                    .to_string(),
            };
            let slices = runner::Slices {
                referee: &referee,
                cmds: [&engines.cmds[0], &engines.cmds[1]],
                clocks: s.clocks,
                pairs: s.pairs,
                random_openings: s.random_openings,
                seed: options.seed,
                jobs: o.jobs.unwrap_or(s.pairs).max(1),
            };
            let games = runner::run(runner, &slices)?;
            let mut tally = Tally::default();
            for r in &games {
                if let Some(path) = &o.results {
                    r.append_to(path)?;
                }
                tally.add(r);
            }
            tally
        }
    };
    let w = &tally.wdl;
    let pairs = (0..5)
        .flat_map(|c| std::iter::repeat_n(c as f64 / 2.0, tally.penta.0[c] as usize))
        .collect();
    Ok(([w.wins, w.draws, w.losses], pairs))
}

/// Runs or resumes a tune; prints the final values as `--set` options.
pub fn run(o: &TuneOptions, engines: &EngineOptions) -> Result<i32> {
    let (s, start) = settings(o, engines)?;
    let mut rows = starting_rows(o, &s, &start)?;
    let svg_path = o.out.with_extension("svg");
    let done = rows.len() - 1;
    let bar = progress::bar(s.schedule.iterations as u64, done as u64, "iterations");
    for k in done..s.schedule.iterations {
        let theta = rows.last().expect("the start row").theta.clone();
        let p = probe(&s.schedule, &s.axes, &theta, s.seed, k);
        let (wdl, pairs) = play(o, &s, &p, k)?;
        let net = wdl[0] as f64 - wdl[2] as f64;
        let row = Row {
            iteration: k + 1,
            wdl,
            pairs,
            theta: update(&s.schedule, &s.axes, &theta, &p, k, net),
        };
        trajectory::append(&o.out, &row)?;
        progress::note(&bar, &values_line(&s.axes, &row.theta));
        bar.inc(1);
        rows.push(row);
        write_svg(&svg_path, &s, &rows)?;
    }
    bar.finish_and_clear();
    write_svg(&svg_path, &s, &rows)?;
    let last = &rows.last().expect("the start row").theta;
    println!("{}", summary(&s, &rows));
    println!("tuned: {}", with_values("", &s.axes, last).trim());
    Ok(0)
}

fn write_svg(path: &Path, s: &Settings, rows: &[Row]) -> Result<()> {
    std::fs::write(path, trajectory::svg(s, rows)).with_context(|| path.display().to_string())
}

fn values_line(axes: &[Axis], theta: &[f64]) -> String {
    let parts: Vec<String> = axes
        .iter()
        .zip(theta)
        .map(|(a, t)| format!("{} {t:.4}", a.name))
        .collect();
    parts.join(", ")
}

/// The games played in all and the plus side's score, over the run.
fn summary(s: &Settings, rows: &[Row]) -> String {
    let [w, d, l] = rows.iter().fold([0; 3], |acc, r| {
        [acc[0] + r.wdl[0], acc[1] + r.wdl[1], acc[2] + r.wdl[2]]
    });
    format!(
        "{} iterations of {} pairs: {} games, the plus side {w} wins, {d} draws, {l} losses",
        rows.len() - 1,
        s.pairs,
        w + d + l
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_version_gets_its_values_through_set() {
        let axes = [
            Axis {
                name: "x".into(),
                min: 0.0,
                max: 1.0,
                integer: false,
                c_end: 0.1,
            },
            Axis {
                name: "n".into(),
                min: 1.0,
                max: 9.0,
                integer: true,
                c_end: 1.0,
            },
        ];
        assert_eq!(
            with_values("bot --seed {seed}", &axes, &[0.25, 3.0]),
            "bot --seed {seed} --set x=0.250000 --set n=3"
        );
        // The tuned value of a whole-number parameter is rounded, not cut.
        assert!(with_values("", &axes, &[0.25, 24.53]).ends_with("n=25"));
    }
}
