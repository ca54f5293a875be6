//! A data file as a command names it: the whole file, or its first games (`FILE:N`). A model
//! fitted on part of a run's file names the games it took this way, so its recipe reads the
//! committed file itself rather than a byte prefix of it.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A data file and how many of its games to read: all of them, or the first `N` of `FILE:N`
/// (in the file's order, which is the order of the games' indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The data file, packed or not.
    pub path: PathBuf,
    /// Read only this many games from the start of the file; all of them when `None`.
    pub first: Option<usize>,
}

/// Why a `FILE:N` names no games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceError {
    /// `FILE:0`: a source of no games is a mistake, not a smaller data set.
    NoGames,
    /// `N` does not fit in a `usize`.
    TooMany,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            SourceError::NoGames => "FILE:0 names no games (FILE:N reads the first N, N >= 1)",
            SourceError::TooMany => "FILE:N: N is too large",
        })
    }
}

impl std::error::Error for SourceError {}

impl FromStr for Source {
    type Err = SourceError;

    /// `FILE:N` when what follows the last `:` is all digits, `FILE` otherwise.
    fn from_str(s: &str) -> Result<Source, SourceError> {
        let counted = s.rsplit_once(':').filter(|(path, n)| {
            !path.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        });
        let Some((path, n)) = counted else {
            return Ok(Source::from(PathBuf::from(s)));
        };
        match n.parse::<usize>() {
            Ok(0) => Err(SourceError::NoGames),
            Ok(first) => Ok(Source {
                path: PathBuf::from(path),
                first: Some(first),
            }),
            Err(_) => Err(SourceError::TooMany),
        }
    }
}

impl From<PathBuf> for Source {
    fn from(path: PathBuf) -> Source {
        Source { path, first: None }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        match self.first {
            Some(n) => write!(f, ":{n}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Source, SourceError> {
        s.parse()
    }

    #[test]
    fn a_count_after_the_last_colon_names_the_first_games() {
        let first = |path: &str, n| Source {
            path: path.into(),
            first: n,
        };
        assert_eq!(
            parse("d/shard1.zst:17926"),
            Ok(first("d/shard1.zst", Some(17926)))
        );
        assert_eq!(parse("a:b/c.bin:3"), Ok(first("a:b/c.bin", Some(3))));
        for whole in ["d/shard1.zst", "a:b", "x:", ":7", "x:1e3", "x:-1", "x: 2"] {
            assert_eq!(parse(whole), Ok(first(whole, None)), "{whole}");
        }
        assert_eq!(parse("x:0"), Err(SourceError::NoGames));
        assert_eq!(
            parse("x:99999999999999999999999"),
            Err(SourceError::TooMany)
        );
        for s in ["d/shard1.zst:17926", "d/shard1.zst"] {
            assert_eq!(parse(s).unwrap().to_string(), s);
        }
    }
}
