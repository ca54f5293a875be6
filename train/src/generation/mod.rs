//! `twixt-train generation`: the next generation by one command, from the shipped bot to a
//! gated candidate. Its stages (self-play, pack, the network's fit, the policy's fit, export
//! into a candidate tree, bundle and compile, gate) each write into the generation's folder and
//! record their outputs' sums in [`ledger`]; a stage done with the same inputs is skipped, so
//! an interrupted run resumes where it stopped. [`report`] writes `report.md` and, with
//! `--promote`, copies a candidate the gate accepted into the working tree (never a commit).
//! The stages call this build's own commands and `twixt-referee` beside it: no copy of them.

pub mod config;
pub mod ledger;
pub mod report;
pub mod run;
pub mod stages;

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

/// `twixt-train generation`'s options.
#[derive(Args, Debug)]
pub struct GenerationOptions {
    /// The generation's config (TOML; docs/TRAINING.md, "A generation by one command").
    #[arg(long)]
    pub config: PathBuf,
    /// The folder of its stages' outputs, `stages.json` and `report.md` (made if missing).
    #[arg(long)]
    pub dir: PathBuf,
    /// When the gate says H1, copy the candidate's models and modules into the working tree.
    #[arg(long)]
    pub promote: bool,
    /// Stop after this stage (selfplay, pack, net, fit, export, bundle or gate).
    #[arg(long)]
    pub until: Option<String>,
    /// `twixt-referee` (default: beside this program).
    #[arg(long)]
    pub referee: Option<PathBuf>,
}

/// Runs (or resumes) a generation in the repository the command runs in.
pub fn run(options: &GenerationOptions) -> Result<()> {
    let config = config::Config::read(&options.config)?;
    std::fs::create_dir_all(options.dir.join("logs"))
        .with_context(|| options.dir.display().to_string())?;
    let exe = std::env::current_exe().context("this program's path")?;
    let referee = match &options.referee {
        Some(path) => path.clone(),
        None => exe.with_file_name(format!("twixt-referee{}", std::env::consts::EXE_SUFFIX)),
    };
    anyhow::ensure!(
        referee.is_file(),
        "{}: no twixt-referee there (build it, or give --referee)",
        referee.display()
    );
    let mut gen = run::Generation::new(config, options.dir.clone(), exe, referee)?;
    let verdict = stages::all(&mut gen, options.until.as_deref())?;
    report::write(&gen, verdict)?;
    if options.promote {
        report::promote(&gen, verdict)?;
    }
    Ok(())
}
