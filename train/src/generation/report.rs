//! `DIR/report.md`: each stage, its time (or that it was skipped), its figures, and the gate's
//! verdict; and `--promote`, which copies a candidate the gate accepted where a commit takes it.

use super::run::Generation;
use super::stages::{Verdict, CANDIDATE, EXPORTED, MODELS};
use anyhow::{Context, Result};
use std::fmt::Write;
use std::path::Path;

/// Writes the report and prints where it is.
pub fn write(gen: &Generation, verdict: Option<Verdict>) -> Result<()> {
    let path = gen.path("report.md");
    std::fs::write(&path, text(gen, verdict)).with_context(|| path.display().to_string())?;
    println!(
        "generation: {}; the report is {}",
        said(verdict),
        path.display()
    );
    Ok(())
}

/// What the gate said, or that it did not play.
fn said(verdict: Option<Verdict>) -> String {
    match verdict {
        Some(verdict) => format!("the gate says {verdict}"),
        None => "stopped before the gate".to_string(),
    }
}

/// The report's Markdown.
pub fn text(gen: &Generation, verdict: Option<Verdict>) -> String {
    let mut out =
        String::from("# A generation\n\n| stage | time | outputs |\n| --- | --- | --- |\n");
    for done in &gen.done {
        let time = match done.skipped {
            true => format!("skipped (done in {:.1} s; sums match)", done.record.seconds),
            false => format!("{:.1} s", done.record.seconds),
        };
        let outputs: Vec<String> = done
            .record
            .outputs
            .keys()
            .map(|f| format!("`{f}`"))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            done.stage,
            time,
            outputs.join(", ")
        );
    }
    for done in &gen.done {
        let _ = write!(
            out,
            "\n## {}\n\n```\n{}\n```\n",
            done.stage, done.record.figures
        );
    }
    let promoted = match verdict {
        Some(Verdict::H1) => "promoted: `--promote` copies it into the working tree",
        _ => "not promoted",
    };
    let said = capital(&said(verdict));
    let _ = write!(out, "\n## Verdict\n\n{said}: {promoted}.\n");
    out
}

/// Copies the candidate's models into `train/models/` and its modules into `src/` when the gate
/// said H1; says why not otherwise. Never commits.
pub fn promote(gen: &Generation, verdict: Option<Verdict>) -> Result<()> {
    if verdict != Some(Verdict::H1) {
        println!("generation: not promoted: {}, not H1", said(verdict));
        return Ok(());
    }
    for model in MODELS {
        copy(&gen.path(model), &Path::new("train/models").join(model))?;
    }
    for file in EXPORTED {
        copy(&gen.path(CANDIDATE).join(file), Path::new(file))?;
    }
    println!("generation: promoted: the models and modules are in the working tree, to commit");
    Ok(())
}

/// The text with its first letter capitalised.
fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to).with_context(|| format!("{} to {}", from.display(), to.display()))?;
    Ok(())
}
