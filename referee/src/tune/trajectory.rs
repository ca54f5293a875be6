//! A tune's file: a CSV whose first line (a `#` comment, which CSV readers skip with
//! `comment='#'`) holds the run's settings as JSON, then a header, then one row per iteration
//! (row 0 is the start): the iteration, the games of `θ+` against `θ−` (wins, draws, losses
//! and each pair's points), and every `θ` after it. Rows are appended whole, so a run stopped
//! at any time resumes from its last row. Beside it, an SVG plot of the trajectories.

use super::spsa::{Axis, Schedule};
use crate::clocks::Clocks;
use crate::report::plots::{Chart, Span};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

/// Everything that makes two runs the same run: a resume must match it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The bot's command (`{seed}` kept), before the `--set` of each version.
    pub cmd: String,
    /// The tuned parameters.
    pub axes: Vec<Axis>,
    /// The gains.
    pub schedule: Schedule,
    /// Game pairs per iteration.
    pub pairs: usize,
    /// The run's seed: probes, game seeds and openings.
    pub seed: u64,
    /// Random pegs before the bots take over.
    pub random_openings: usize,
    /// Both versions' clocks.
    pub clocks: Clocks,
}

/// One iteration's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// 0 for the start, then from 1.
    pub iteration: usize,
    /// Games `θ+` won, drew, lost.
    pub wdl: [u64; 3],
    /// `θ+`'s points in each pair (0 to 2).
    pub pairs: Vec<f64>,
    /// `θ` after the iteration.
    pub theta: Vec<f64>,
}

const MARK: &str = "# twixt-referee tune ";

fn header(s: &Settings) -> String {
    let names: Vec<&str> = s.axes.iter().map(|a| a.name.as_str()).collect();
    format!("iteration,wins,draws,losses,pairs,{}", names.join(","))
}

fn line(r: &Row) -> String {
    let pairs: Vec<String> = r.pairs.iter().map(|p| p.to_string()).collect();
    let theta: Vec<String> = r.theta.iter().map(|t| format!("{t:.6}")).collect();
    let [w, d, l] = r.wdl;
    format!(
        "{},{w},{d},{l},{},{}",
        r.iteration,
        pairs.join(" "),
        theta.join(",")
    )
}

/// Starts a run's file: settings, header and the start row, which it returns.
pub fn create(path: &Path, s: &Settings, start: &[f64]) -> Result<Row> {
    let json = serde_json::to_string(s).expect("settings serialise");
    let row = Row {
        iteration: 0,
        wdl: [0; 3],
        pairs: Vec::new(),
        theta: start.to_vec(),
    };
    let text = format!("{MARK}{json}\n{}\n{}\n", header(s), line(&row));
    std::fs::write(path, text).with_context(|| path.display().to_string())?;
    Ok(row)
}

/// Appends a row in one write.
pub fn append(path: &Path, row: &Row) -> Result<()> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(format!("{}\n", line(row)).as_bytes()))
        .with_context(|| path.display().to_string())
}

/// The settings and rows of a run's file. A last line cut short (the run killed while writing
/// it) is dropped from the file; any other line that is not a row is an error naming it.
pub fn read(path: &Path) -> Result<(Settings, Vec<Row>)> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let at = |n: usize| format!("{}:{n}", path.display());
    let mut lines = text.lines();
    let settings: Settings = lines
        .next()
        .and_then(|l| l.strip_prefix(MARK))
        .and_then(|json| serde_json::from_str(json).ok())
        .with_context(|| format!("{}: not a tune's file (no settings line)", at(1)))?;
    if lines.next() != Some(header(&settings).as_str()) {
        bail!("{}: the header does not name the tuned parameters", at(2));
    }
    let mut rows = Vec::new();
    let body: Vec<&str> = lines.collect();
    for (i, l) in body.iter().enumerate() {
        match parse_row(l, settings.axes.len()) {
            Some(r) if r.iteration == rows.len() => rows.push(r),
            _ if i + 1 == body.len() && !text.ends_with('\n') => {
                let keep = text.len() - l.len();
                let file = OpenOptions::new().write(true).open(path);
                file.and_then(|f| f.set_len(keep as u64))
                    .with_context(|| path.display().to_string())?;
            }
            _ => bail!("{}: not row {} of this tune", at(i + 3), rows.len()),
        }
    }
    if rows.is_empty() {
        bail!("{}: the start row is missing", at(3));
    }
    Ok((settings, rows))
}

fn parse_row(text: &str, params: usize) -> Option<Row> {
    let fields: Vec<&str> = text.split(',').collect();
    if fields.len() != 5 + params {
        return None;
    }
    let number = |s: &str| s.parse::<u64>().ok();
    let pairs = fields[4].split_whitespace().map(|p| p.parse().ok());
    let theta = fields[5..].iter().map(|t| t.parse::<f64>().ok());
    Some(Row {
        iteration: fields[0].parse().ok()?,
        wdl: [number(fields[1])?, number(fields[2])?, number(fields[3])?],
        pairs: pairs.collect::<Option<_>>()?,
        theta: theta.collect::<Option<_>>()?,
    })
}

/// Colours of the trajectories, in turn.
const PALETTE: [&str; 8] = [
    "#d1495b", "#2e86ab", "#edae49", "#00798c", "#6a4c93", "#66a182", "#8d6a9f", "#30343f",
];

/// The trajectories: each `θ` as a share of its range, over the iterations.
pub fn svg(s: &Settings, rows: &[Row]) -> String {
    let x = Span::new(0.0, s.schedule.iterations as f64);
    let mut chart = Chart::new(x, Span::new(0.0, 100.0));
    let mut legend = Vec::new();
    for (i, a) in s.axes.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let share = |t: f64| 100.0 * (t - a.min) / (a.max - a.min);
        let points: Vec<(f64, f64)> = rows
            .iter()
            .map(|r| (r.iteration as f64, share(r.theta[i])))
            .collect();
        chart.line(&points, colour);
        let last = rows.last().map_or(0.0, |r| r.theta[i]);
        legend.push((
            format!("{} {last:.4} ({}..{})", a.name, a.min, a.max),
            colour,
        ));
    }
    chart.legend(&legend);
    let title = format!(
        "SPSA: θ over {} iterations of {} pairs",
        s.schedule.iterations, s.pairs
    );
    chart.finish(&title, "iteration", "% of range")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        let axis = |name: &str, integer| Axis {
            name: name.into(),
            min: 0.0,
            max: 10.0,
            integer,
            c_end: 1.0,
        };
        Settings {
            cmd: "bot --seed {seed}".into(),
            axes: vec![axis("a", false), axis("b", true)],
            schedule: Schedule {
                iterations: 4,
                a_ratio: 0.1,
                alpha: 0.602,
                gamma: 0.101,
                r_end: 0.002,
            },
            pairs: 2,
            seed: 1,
            random_openings: 2,
            clocks: Clocks::CODINGAME,
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("twixt-tune-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("tune.csv")
    }

    #[test]
    fn a_run_reads_back_as_written_and_a_torn_row_is_cut() {
        let path = scratch("roundtrip");
        let s = settings();
        create(&path, &s, &[5.0, 3.0]).unwrap();
        let row = Row {
            iteration: 1,
            wdl: [2, 1, 1],
            pairs: vec![1.5, 1.0],
            theta: vec![5.25, 2.5],
        };
        append(&path, &row).unwrap();
        let (back, rows) = read(&path).unwrap();
        assert_eq!((back, rows.len()), (s.clone(), 2));
        assert_eq!(rows[1], row);
        let whole = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{whole}2,1,0")).unwrap();
        assert_eq!(read(&path).unwrap().1.len(), 2);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            whole,
            "the torn row is cut"
        );
        std::fs::write(&path, whole.replace("1,2,1,1", "7,2,1,1")).unwrap();
        let err = read(&path).unwrap_err().to_string();
        assert!(err.ends_with("tune.csv:4: not row 1 of this tune"), "{err}");
        std::fs::write(&path, "iteration\n").unwrap();
        assert!(read(&path)
            .unwrap_err()
            .to_string()
            .contains("not a tune's file"));
    }

    #[test]
    fn the_plot_draws_one_trajectory_per_parameter() {
        let s = settings();
        let rows = vec![
            Row {
                iteration: 0,
                wdl: [0; 3],
                pairs: vec![],
                theta: vec![5.0, 3.0],
            },
            Row {
                iteration: 1,
                wdl: [2, 0, 2],
                pairs: vec![1.0, 1.0],
                theta: vec![6.0, 3.0],
            },
        ];
        let svg = svg(&s, &rows);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("a 6.0000 (0..10)") && svg.contains("b 3.0000"));
    }
}
