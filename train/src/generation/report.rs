//! `DIR/report.md`: each stage, its time (or that it was skipped), its figures, and the gate's
//! verdict; and `--promote`, which copies a candidate the gate accepted where a commit takes it.

use super::run::Generation;
use super::stages::{Verdict, CANDIDATE, EXPORTED, MODELS};
use anyhow::{Context, Result};
use std::fmt::Write;
use std::path::Path;

/// Writes the report and prints where it is.
pub fn write(gen: &Generation, verdict: Verdict) -> Result<()> {
    let path = gen.path("report.md");
    std::fs::write(&path, text(gen, verdict)).with_context(|| path.display().to_string())?;
    println!(
        "generation: the gate says {verdict}; the report is {}",
        path.display()
    );
    Ok(())
}

/// The report's Markdown.
pub fn text(gen: &Generation, verdict: Verdict) -> String {
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
        Verdict::H1 => "promoted: `--promote` copies it into the working tree",
        _ => "not promoted",
    };
    let _ = write!(
        out,
        "\n## Verdict\n\nThe gate says {verdict}: {promoted}.\n"
    );
    out
}

/// Copies the candidate's models into `train/models/` and its modules into `src/` when the gate
/// said H1; says why not otherwise. Never commits.
pub fn promote(gen: &Generation, verdict: Verdict) -> Result<()> {
    if verdict != Verdict::H1 {
        println!("generation: not promoted: the gate says {verdict}, not H1");
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

fn copy(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to).with_context(|| format!("{} to {}", from.display(), to.display()))?;
    Ok(())
}
