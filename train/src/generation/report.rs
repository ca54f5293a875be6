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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generation::config::Config;
    use crate::generation::ledger::Record;
    use crate::generation::run::Done;

    fn generation() -> Generation {
        let toml =
            "name = \"t\"\n[selfplay]\ngames = 1\niterations = 1\nseed = 1\n[net]\ninit = \"v\"\n\
                    epochs = 1\nrow_bits = 7\n[fit]\n[gate]\ngames = 1\nsprt = [\"elo0=0\"]\n";
        let config = Config::parse(toml).unwrap();
        let mut gen =
            Generation::new(config, "no-such-dir".into(), "t".into(), "r".into()).unwrap();
        let record = Record {
            seconds: 2.5,
            figures: "positions: 9".into(),
            ..Record::default()
        };
        gen.done.push(Done {
            stage: "fit".into(),
            record,
            skipped: true,
        });
        gen
    }

    #[test]
    fn the_report_shows_each_stage_and_the_verdict() {
        let text = text(&generation(), Some(Verdict::H0));
        assert!(
            text.contains("| fit | skipped (done in 2.5 s; sums match) |"),
            "{text}"
        );
        assert!(text.contains("## fit\n\n```\npositions: 9\n```"), "{text}");
        assert!(text.contains("The gate says H0: not promoted."), "{text}");
        let stopped = super::text(&generation(), None);
        assert!(
            stopped.contains("Stopped before the gate: not promoted."),
            "{stopped}"
        );
    }

    /// Without H1 nothing is copied: the candidate's files are not even looked for.
    #[test]
    fn only_h1_promotes() {
        for verdict in [None, Some(Verdict::H0), Some(Verdict::Inconclusive)] {
            promote(&generation(), verdict).unwrap();
        }
        assert!(promote(&generation(), Some(Verdict::H1)).is_err());
    }
}
