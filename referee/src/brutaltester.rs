//! cg-brutaltester's referee contract: `-p1 CMD -p2 CMD [-d seed=N] [-l FILE] [-s]`.
//!
//! The referee plays one game and prints one score per player on stdout (1 for the winner,
//! 0 for the loser, -1 for a loser by timeout, illegal move or crash, 0 and 0 for a draw),
//! then the game's parameters (`seed=N`). `-l` writes the game's JSON record (this project's
//! record, not CodinGame's replay format); `-s` (show the game in a browser) is ignored.

use super::game::{play_game, Clocks, GameSetup};
use super::record::GameRecord;
use std::path::PathBuf;

/// The parsed arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrutalArgs {
    /// Player commands in order (`-p1`, `-p2`).
    pub players: Vec<String>,
    /// The seed from `-d seed=N`.
    pub seed: Option<u64>,
    /// The log file from `-l`.
    pub log: Option<PathBuf>,
}

/// Whether the command line looks like cg-brutaltester's (it starts with `-p1`, `-d`, ...).
pub fn is_brutal(args: &[String]) -> bool {
    args.first()
        .is_some_and(|a| matches!(a.as_str(), "-p1" | "-p2" | "-d" | "-l" | "-s"))
}

/// Parses the contract's arguments.
pub fn parse(args: &[String]) -> Result<BrutalArgs, String> {
    let mut out = BrutalArgs::default();
    let mut players: Vec<(usize, String)> = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "-s" => {}
            "-l" => out.log = Some(PathBuf::from(value()?)),
            "-d" => out.seed = parse_seed(&value()?)?.or(out.seed),
            f if f.starts_with("-p") && f[2..].parse::<usize>().is_ok() => {
                players.push((f[2..].parse().expect("checked"), value()?));
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    players.sort();
    out.players = players.into_iter().map(|(_, c)| c).collect();
    if out.players.len() != 2 {
        return Err("Twixt needs exactly two players, -p1 and -p2".into());
    }
    Ok(out)
}

/// `seed=N` among `key=value` pairs separated by newlines, `!` or spaces.
fn parse_seed(props: &str) -> Result<Option<u64>, String> {
    for kv in props.split(['\n', '!', ' ']) {
        if let Some(v) = kv.trim().strip_prefix("seed=") {
            let seed = v.trim().parse::<i64>().map_err(|e| format!("seed: {e}"))?;
            return Ok(Some(seed as u64));
        }
    }
    Ok(None)
}

/// The stdout the contract asks for.
pub fn scores_text(r: &GameRecord) -> String {
    let score = |p: u8| match r.winner {
        None => 0,
        Some(w) if w == p => 1,
        Some(_) if r.reason.is_fault() => -1,
        Some(_) => 0,
    };
    format!("{}\n{}\nseed={}\n", score(0), score(1), r.seed)
}

/// Plays the game; returns the text for stdout.
pub fn run(args: &BrutalArgs) -> Result<String, String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    let setup = GameSetup {
        cmds: [args.players[0].clone(), args.players[1].clone()],
        clocks: [Clocks::default(); 2],
        opening: Vec::new(),
        seed,
        stderr_dir: None,
        slot: None,
    };
    let record = play_game(&setup)?;
    if let Some(path) = &args.log {
        std::fs::write(path, record.to_json() + "\n")
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(scores_text(&record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Reason;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_contract_parses() {
        let a = strings(&[
            "-p1", "./a 1", "-p2", "b", "-d", "seed=42", "-l", "x.json", "-s",
        ]);
        assert!(is_brutal(&a));
        let p = parse(&a).unwrap();
        assert_eq!(p.players, vec!["./a 1", "b"]);
        assert_eq!(p.seed, Some(42));
        assert_eq!(p.log, Some(PathBuf::from("x.json")));
        assert!(parse(&strings(&["-p1", "a"])).is_err());
        assert!(!is_brutal(&strings(&["game", "a", "b"])));
    }

    #[test]
    fn scores_follow_the_winner_and_the_fault() {
        let mut r = GameRecord {
            moves: vec![],
            ms: vec![],
            messages: vec![],
            opening: 0,
            winner: Some(1),
            reason: Reason::Connected,
            detail: String::new(),
            cmd0: "a".into(),
            cmd1: "b".into(),
            seed: 5,
            clocks: None,
            slot: None,
        };
        assert_eq!(scores_text(&r), "0\n1\nseed=5\n");
        r.reason = Reason::Timeout;
        assert_eq!(scores_text(&r), "-1\n1\nseed=5\n");
        r.winner = None;
        r.reason = Reason::Draw;
        assert_eq!(scores_text(&r), "0\n0\nseed=5\n");
    }
}
