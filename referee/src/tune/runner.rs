//! An SPSA iteration's pairs spread over machines: each slice of the pairs is one `match
//! --shard I/J` command line, and a runner (GNU parallel over ssh, `srun` in a Slurm
//! allocation, or any program that runs the lines of its stdin as shell commands and writes
//! their output whole, one job after another) runs them all. A job prints its games' records
//! only once its match is over, so a job that dies prints nothing; its pairs are replayed,
//! never half counted. Each pair keeps its seeds and opening, so the iteration is the
//! one-machine run's, game for game.

use crate::clocks::Clocks;
use crate::record::GameRecord;
use crate::shard::{whole_pairs, Shard};
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};

/// How many times the slices that came back short are run again before the tune stops.
const RETRIES: usize = 3;

/// One iteration's match, as each slice's command line repeats it.
pub struct Slices<'a> {
    /// The referee that runs a slice on its machine.
    pub referee: &'a str,
    /// Engine A's command (`θ+`) and engine B's (`θ−`).
    pub cmds: [&'a str; 2],
    /// The clock of both.
    pub clocks: Clocks,
    /// Pairs of the iteration.
    pub pairs: usize,
    /// Random pegs at the start of each pair.
    pub random_openings: usize,
    /// The iteration's match seed.
    pub seed: u64,
    /// How many slices (jobs) the pairs are cut into.
    pub jobs: usize,
}

impl Slices<'_> {
    /// The shell command line of slice `shard`: its match, whose records go to stdout once it
    /// is over (its own output goes to stderr).
    pub fn line(&self, shard: Shard) -> Result<String> {
        let q = |s: &str| {
            shlex::try_quote(s)
                .map(|q| q.into_owned())
                .with_context(|| format!("cannot quote {s:?} for a shell"))
        };
        let c = self.clocks;
        Ok(format!(
            "f=$(mktemp) || exit 1; {} match {} {} --games {} --shard {shard} --random-openings {} \
             --seed {} --first-ms {} --turn-ms {} --margin {} --results \"$f\" >&2; s=$?; \
             [ $s -eq 0 ] && cat \"$f\"; rm -f \"$f\"; exit $s",
            q(self.referee)?,
            q(self.cmds[0])?,
            q(self.cmds[1])?,
            2 * self.pairs,
            self.random_openings,
            self.seed,
            c.first_ms,
            c.turn_ms,
            c.margin_ms
        ))
    }

    /// The slice that holds pair `pair`, as `match --shard` deals them.
    fn slice_of(&self, pair: usize) -> Shard {
        Shard::holding(pair, self.jobs)
    }

    /// The slices that hold any pair.
    fn all(&self) -> BTreeSet<Shard> {
        (0..self.pairs).map(|p| self.slice_of(p)).collect()
    }
}

/// Runs every slice through `runner` (again for those whose pairs did not all come back) and
/// returns the games of every pair, in the order of pairs and games.
pub fn run(runner: &str, slices: &Slices) -> Result<Vec<GameRecord>> {
    let mut games: Vec<GameRecord> = Vec::new();
    let mut todo = slices.all();
    for attempt in 0..=RETRIES {
        let lines = todo
            .iter()
            .map(|&s| slices.line(s))
            .collect::<Result<Vec<_>>>()?;
        let (records, status) = run_lines(runner, &lines)?;
        let (whole, _) = whole_pairs(records);
        let had = pairs_of(&games);
        let fresh = |r: &GameRecord| {
            r.slot.is_some_and(|s| {
                s.pair < slices.pairs
                    && !had.contains(&s.pair)
                    && todo.contains(&slices.slice_of(s.pair))
            })
        };
        games.extend(whole.into_iter().filter(fresh));
        let have = pairs_of(&games);
        todo = (0..slices.pairs)
            .filter(|p| !have.contains(p))
            .map(|p| slices.slice_of(p))
            .collect();
        if todo.is_empty() {
            games.sort_by_key(|r| r.slot.map(|s| (s.pair, s.game)));
            return Ok(games);
        }
        let short: Vec<String> = todo.iter().map(Shard::to_string).collect();
        eprintln!(
            "twixt-referee: the runner ({status}) left slice(s) {} short; {}",
            short.join(", "),
            match attempt < RETRIES {
                true => "running them again",
                false => "giving up",
            }
        );
    }
    bail!("`{runner}` did not bring every pair back after {RETRIES} retries")
}

fn pairs_of(games: &[GameRecord]) -> BTreeSet<usize> {
    games
        .iter()
        .filter_map(|r| r.slot)
        .map(|s| s.pair)
        .collect()
}

/// Runs `lines` through `runner` (their shell command lines on its stdin) and reads the
/// records of its stdout; a line that is not a record (a job cut off mid-line) is left out.
fn run_lines(runner: &str, lines: &[String]) -> Result<(Vec<GameRecord>, String)> {
    let words = shlex::split(runner).with_context(|| format!("cannot split {runner:?}"))?;
    let (program, args) = words.split_first().context("--runner is empty")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start the runner {runner:?}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().context("waiting for the runner")?;
    let _ = writer.join();
    let text = String::from_utf8_lossy(&out.stdout);
    let records = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str::<GameRecord>(l).ok())
        .collect();
    Ok((records, out.status.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slices(jobs: usize) -> Slices<'static> {
        Slices {
            referee: "/opt/twixt referee",
            cmds: ["bot --set x=0.5", "bot --set x='1'"],
            clocks: Clocks::CODINGAME,
            pairs: 4,
            random_openings: 2,
            seed: 77,
            jobs,
        }
    }

    #[test]
    fn a_slice_is_a_match_command_that_prints_its_records_when_it_is_over() {
        let line = slices(2).line("2/2".parse().unwrap()).unwrap();
        assert!(
            line.starts_with("f=$(mktemp) || exit 1; '/opt/twixt referee' match"),
            "{line}"
        );
        assert!(
            line.contains("'bot --set x=0.5' \"bot --set x='1'\" --games 8 --shard 2/2"),
            "{line}"
        );
        assert!(
            line.contains("--random-openings 2 --seed 77 --first-ms 1000 --turn-ms 300"),
            "{line}"
        );
        assert!(
            line.ends_with("[ $s -eq 0 ] && cat \"$f\"; rm -f \"$f\"; exit $s"),
            "{line}"
        );
    }

    #[test]
    fn every_slice_with_a_pair_is_run_and_no_other() {
        let all = |jobs: usize| -> Vec<String> {
            slices(jobs).all().iter().map(|s| s.to_string()).collect()
        };
        assert_eq!(all(3), ["1/3", "2/3", "3/3"]);
        assert_eq!(
            all(6),
            ["1/6", "2/6", "3/6", "4/6"],
            "4 pairs fill 4 of 6 slices"
        );
    }
}
