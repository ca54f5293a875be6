//! One run over many machines: `--shard I/N` takes the I-th of N disjoint slices of a run's
//! units (a match's pairs, self-play's games), and the slices' files together are the run.
//!
//! Unit `u` belongs to slice `u mod N` (counted from 1 on the command line), so every slice
//! gets units from the whole run, and each unit keeps the seed and opening it has in the
//! unsharded run.

use std::fmt;
use std::str::FromStr;

/// The slice `index` (from 0) of `count` slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// The slice of `count` (at least one) that holds unit `unit`: the one rule that deals
    /// units to slices.
    pub fn holding(unit: usize, count: usize) -> Shard {
        Shard {
            index: unit % count,
            count,
        }
    }

    /// Whether unit `unit` is this slice's.
    pub fn has(self, unit: usize) -> bool {
        Shard::holding(unit, self.count) == self
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with 1 <= I <= N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("expected I/N (such as 2/8), got {s:?}"))?;
        let number = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("{t:?}: {e}"));
        let (i, n) = (number(i)?, number(n)?);
        if n == 0 || i == 0 || i > n {
            return Err(format!("{s}: I/N needs 1 <= I <= N"));
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_are_disjoint_and_cover_every_pair() {
        let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        for unit in 0..30 {
            assert_eq!(
                shards.iter().filter(|s| s.has(unit)).count(),
                1,
                "unit {unit}"
            );
        }
        assert!(shards[1].has(4) && shards[1].to_string() == "2/3");
    }

    #[test]
    fn a_bad_shard_says_what_is_wrong() {
        for bad in ["3", "0/2", "3/2", "1/0", "a/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(
            "4/3".parse::<Shard>().unwrap_err(),
            "4/3: I/N needs 1 <= I <= N"
        );
    }
}
