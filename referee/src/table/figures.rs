//! A match's figures computed from its records by the referee's own counting ([`Tally`]),
//! estimates ([`Estimate`]) and test ([`Sprt`]): games, Elo with its interval, A's points by
//! seat, and the verdict.

use crate::record::read_records;
use crate::sprt::{Sprt, Verdict};
use crate::stats::{Estimate, Fixed2};
use crate::tally::Tally;
use anyhow::{bail, Result};
use std::path::Path;

/// What the table shows of a match played from its records.
#[derive(Clone, Debug)]
pub struct Figures {
    /// The match's counts.
    pub tally: Tally,
    /// Where the SPRT stopped, if one was given: the bound and the games then.
    pub sprt_stop: Option<(Verdict, u64)>,
    /// The SPRT's LLR over every pair, if one was given.
    pub llr: Option<f64>,
}

impl Figures {
    /// The figures of the records in `files`, counted as one match. Each file's pairs are
    /// numbered apart from the others', so that runs at other seeds (whose pairs count from
    /// 0 again) add up; a sharded match's files hold whole pairs, which stay whole.
    pub fn of_files(files: &[impl AsRef<Path>], sprt: Option<&Sprt>) -> Result<Figures> {
        let mut tally = Tally::default();
        let mut sprt_stop = None;
        let mut base = 0;
        for path in files {
            let path = path.as_ref();
            let mut last = 0;
            for (i, mut r) in read_records(path)?.into_iter().enumerate() {
                let Some(slot) = r.slot.as_mut() else {
                    bail!("{}: record {} is not a match game", path.display(), i + 1);
                };
                slot.pair += base;
                last = last.max(slot.pair + 1);
                let pairs = tally.penta.pairs();
                tally.add(&r);
                if let (Some(s), None, true) = (sprt, sprt_stop, tally.penta.pairs() > pairs) {
                    sprt_stop = stop(s, &tally);
                }
            }
            base = last.max(base);
        }
        if tally.wdl.games() == 0 {
            bail!("no game in {} record file(s)", files.len());
        }
        let llr = sprt.map(|s| s.llr(&tally.penta));
        Ok(Figures {
            tally,
            sprt_stop,
            llr,
        })
    }

    /// The games counted.
    pub fn games(&self) -> u64 {
        self.tally.wdl.games()
    }

    /// `+230.2 ± 40.3`; where the interval has no upper end (A won nearly everything), its
    /// lower end: `+760.0 (95%: above +452.1)`; `-` with no whole pair.
    pub fn elo(&self) -> String {
        let Some(e) = Estimate::from_penta(&self.tally.penta) else {
            return "-".into();
        };
        if e.elo_error.is_finite() {
            return format!("{} ± {:.1}", signed(e.elo), e.elo_error);
        }
        let (lo, hi) = e.elo_bounds();
        match (lo.is_finite(), hi.is_finite()) {
            (true, _) => format!("{} (95%: above {})", signed(e.elo), signed(lo)),
            (_, true) => format!("{} (95%: below {})", signed(e.elo), signed(hi)),
            _ => signed(e.elo),
        }
    }

    /// A's points: all of them, then as player 0 and as player 1, `316 (156.5 + 159.5)`.
    pub fn points(&self) -> String {
        // Whole points print without a decimal (316), half points with one (156.5).
        let half = |h: u64| (h as f64 / 2.0).to_string();
        let [(h0, g0), (h1, g1)] = self.tally.splits.seats;
        format!(
            "{}/{} ({}/{g0} + {}/{g1})",
            half(h0 + h1),
            g0 + g1,
            half(h0),
            half(h1)
        )
    }

    /// The SPRT's verdict (the first bound reached, in the records' order, and after how many
    /// games), or without one whether the 95% interval leaves out an even score.
    pub fn verdict(&self) -> String {
        match (self.sprt_stop, self.llr) {
            (Some((Verdict::AcceptH1, games)), _) => format!("H1 at {games} games"),
            (Some((_, games)), _) => format!("H0 at {games} games"),
            (None, Some(llr)) => format!("no bound (LLR {})", Fixed2(llr)),
            (None, None) => match Estimate::from_penta(&self.tally.penta) {
                Some(e) if e.los >= 0.975 => "A better (95%)".into(),
                Some(e) if e.los <= 0.025 => "B better (95%)".into(),
                Some(_) => "not shown at 95%".into(),
                None => "-".into(),
            },
        }
    }
}

/// The SPRT's stop after the latest pair, if it reached a bound.
fn stop(s: &Sprt, tally: &Tally) -> Option<(Verdict, u64)> {
    match s.verdict(s.llr(&tally.penta)) {
        Verdict::Continue => None,
        v => Some((v, tally.wdl.games())),
    }
}

/// An Elo figure with its sign and one decimal: `+49.0`, `-28.9`, `+inf`.
fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{:+.1}", x + 0.0)
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::record;
    use crate::record::{GameRecord, MatchSlot, Reason};
    use crate::stats::Penta;
    use std::path::PathBuf;

    /// A folder of its own for a test's files.
    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("twixt-figures-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A match game of pair `pair` (A is player `game`) that A wins or loses.
    fn game(pair: usize, game: usize, a_wins: bool) -> GameRecord {
        let a = game as u8;
        GameRecord {
            slot: Some(MatchSlot::new(pair, game)),
            ..record(
                "E5 E7 F7",
                Some(if a_wins { a } else { 1 - a }),
                Reason::Connected,
            )
        }
    }

    /// A results file of `pairs` (A's wins in game 0 and game 1 of each) from pair 0 on.
    fn results(dir: &Path, name: &str, pairs: &[(bool, bool)]) -> PathBuf {
        let text: String = pairs
            .iter()
            .enumerate()
            .flat_map(|(p, &(w0, w1))| [game(p, 0, w0), game(p, 1, w1)])
            .map(|r| r.to_json() + "\n")
            .collect();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn runs_at_other_seeds_add_up_pair_by_pair() {
        let dir = folder("runs");
        let one = results(&dir, "one.jsonl", &[(true, true), (true, false)]);
        let two = results(&dir, "two.jsonl", &[(false, false)]);
        let f = Figures::of_files(&[&one, &two], None).unwrap();
        assert_eq!(f.tally.penta, Penta([1, 0, 1, 0, 1]));
        assert_eq!(f.games(), 6);
        assert_eq!(f.points(), "3/6 (2/3 + 1/3)");
        assert_eq!(
            (f.elo(), f.verdict()),
            ("+0.0 ± 561.2".into(), "not shown at 95%".into())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_sprt_verdict_is_the_first_bound_reached_in_the_records_order() {
        let dir = folder("sprt");
        let sprt = Sprt::parse(&["elo0=0 elo1=300 alpha=0.05 beta=0.05".into()]).unwrap();
        let first_h1 = (1..)
            .find(|&k| sprt.verdict(sprt.llr(&Penta([0, 0, 0, 0, k]))) == Verdict::AcceptH1)
            .unwrap();
        let mut pairs = vec![(true, true); first_h1 as usize];
        pairs.extend([(false, false); 40]);
        let f = Figures::of_files(&[results(&dir, "r.jsonl", &pairs)], Some(&sprt)).unwrap();
        assert_eq!(f.verdict(), format!("H1 at {} games", 2 * first_h1));
        assert!(
            f.llr.unwrap() < 0.0,
            "the later losses are counted all the same"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_match_won_nearly_pair_for_pair_shows_the_low_end_of_its_interval() {
        let dir = folder("won");
        let mut pairs = vec![(true, true); 19];
        pairs.push((true, false));
        let f = Figures::of_files(&[results(&dir, "r.jsonl", &pairs)], None).unwrap();
        assert_eq!(f.points(), "39/40 (20/20 + 19/20)");
        assert!(f.elo().contains("(95%: above +"), "{}", f.elo());
        assert_eq!(f.verdict(), "A better (95%)");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_file_or_a_single_game_is_an_error_naming_the_file() {
        let dir = folder("bad");
        let missing = dir.join("missing.jsonl");
        let err = Figures::of_files(&[&missing], None)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(&missing.display().to_string()), "{err}");
        let single = dir.join("single.jsonl");
        std::fs::write(&single, record("E5", Some(0), Reason::Timeout).to_json()).unwrap();
        let err = Figures::of_files(&[&single], None).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("{}: record 1 is not a match game", single.display())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
