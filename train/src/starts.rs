//! Starts: boards that self-play begins from instead of the empty one, cut from real games (a
//! referee's records). From two random pegs, player 0 wins most self-play games and half of them
//! are over by ply 23, so the network meets few of the long, contested boards that matches
//! reach, and `probe` finds it far worse than the distance value there. Games continued from
//! boards of real games give it such boards.
//!
//! A starts file is text, one start a line: its moves as the referee's openings files write
//! them (`F6 G8 E8`), `#` comments and blank lines skipped; a name ending in `.zst` holds that
//! text compressed by zstd (for committing). `twixt-train starts` cuts one from records;
//! `selfplay --starts` begins game i from its line i mod N.

use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use twixt::rng::FastRng;
use twixt::{Move, Player, Position};

/// A decided game of a results file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    pub moves: Vec<Move>,
    pub winner: Player,
    /// How many of the moves were the match's opening, not the bots' (0: the empty board).
    pub opening: usize,
    /// The commands of player 0 and player 1 (empty when the record names none).
    pub engines: [String; 2],
}

/// Every decided game of a results file of `twixt-referee` (JSON lines), its moves replayed
/// here: a move the rules refuse is an error naming the line.
pub fn decided_games(path: &Path) -> Result<Vec<Recorded>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let mut out = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = || format!("{}: line {}", path.display(), n + 1);
        let record: serde_json::Value = serde_json::from_str(line).with_context(at)?;
        let Some(winner) = record["winner"].as_u64() else {
            continue;
        };
        let moves = record["moves"]
            .as_array()
            .with_context(|| format!("{}: no moves", at()))?;
        let moves: Result<Vec<Move>> = moves
            .iter()
            .map(|m| {
                let text = m.as_str().unwrap_or_default();
                text.parse()
                    .map_err(|_| anyhow!("{}: '{text}' is not a move", at()))
            })
            .collect();
        let winner = Player::from_index(winner as usize).with_context(at)?;
        let moves = moves?;
        replay(&moves).map_err(|e| anyhow!("{}: {e}", at()))?;
        let opening = record["opening"].as_u64().unwrap_or(0) as usize;
        let engine = |key: &str| record[key].as_str().unwrap_or_default().to_string();
        out.push(Recorded {
            moves,
            winner,
            opening,
            engines: [engine("cmd0"), engine("cmd1")],
        });
    }
    Ok(out)
}

/// The position after `moves`, or which ply the rules refuse and why.
pub(crate) fn replay(moves: &[Move]) -> Result<Position> {
    let mut pos = Position::new();
    for (ply, &mv) in moves.iter().enumerate() {
        pos.play(mv)
            .map_err(|e| anyhow!("ply {ply}: {mv} is illegal: {e}"))?;
    }
    Ok(pos)
}

/// The longest start a data file can mark as not searched (its games' `opening` is a byte,
/// and random pegs may follow the start).
pub const LONGEST: usize = 200;

/// Reads a starts file: each line's moves legal, the game still open after them, at most
/// [`LONGEST`] of them. An error names the file and the line.
pub fn read(path: &Path) -> Result<Vec<Vec<Move>>> {
    let bytes = std::fs::read(path).with_context(|| path.display().to_string())?;
    let bytes = match compressed(path) {
        true => zstd::decode_all(&bytes[..])
            .with_context(|| format!("{}: not a zstd frame", path.display()))?,
        false => bytes,
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow!(
            "{}: byte {}: not UTF-8",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), n + 1);
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves = line
            .split_whitespace()
            .map(|w| w.parse::<Move>().map_err(|e| anyhow!("{}: {e}", at())))
            .collect::<Result<Vec<Move>>>()?;
        if moves.len() > LONGEST {
            bail!("{}: {} moves, at most {LONGEST} a start", at(), moves.len());
        }
        let pos = replay(&moves).map_err(|e| anyhow!("{}: {e}", at()))?;
        if pos.outcome().is_some() {
            bail!("{}: the game is over after these moves", at());
        }
        out.push(moves);
    }
    if out.is_empty() {
        bail!("{}: no start in the file", path.display());
    }
    Ok(out)
}

fn compressed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "zst")
}

/// A fingerprint of a list of starts, kept in a data file's header so that `--resume` and a
/// merge refuse another file's games: FNV-1a over the moves, folded to 16 bits, never 0 (0
/// is a run without starts).
pub fn fingerprint(starts: &[Vec<Move>]) -> u16 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for start in starts {
        for &mv in start.iter().chain([Move::Swap].iter()) {
            h ^= u64::from(crate::data::move_byte(mv));
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A line's end, so that "A B" + "C" differs from "A" + "B C".
        h ^= 0x1ff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let folded = (h ^ (h >> 16) ^ (h >> 32) ^ (h >> 48)) as u16;
    folded.max(1)
}

/// The options of `twixt-train starts`.
#[derive(clap::Args, Clone, Debug)]
pub struct StartsOptions {
    /// Results files of `twixt-referee` (JSON lines); their decided games are cut.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// The starts file to write (compressed by zstd when its name ends in `.zst`).
    #[arg(long, short)]
    pub out: PathBuf,
    /// The fewest moves a start keeps.
    #[arg(long, default_value_t = 10)]
    pub from: usize,
    /// The most moves a start keeps.
    #[arg(long, default_value_t = 40)]
    pub to: usize,
    /// Moves of the recorded game that must follow the cut: a start leaves a game to play.
    #[arg(long, default_value_t = 4)]
    pub left: usize,
    /// Seed of the plies drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// An openings file (the referee's format; repeatable): a game that begins with one of its
    /// lines gives no start, so that a test from those openings meets no board the network
    /// was fitted on.
    #[arg(long, value_name = "FILE")]
    pub exclude: Vec<PathBuf>,
    /// A results file (repeatable) whose games' openings are excluded as `--exclude`'s lines
    /// are: a test from random pegs records its openings only in its games.
    #[arg(long, value_name = "RESULTS")]
    pub exclude_openings_of: Vec<PathBuf>,
    /// Also no start from games played from the empty board, for the same reason.
    #[arg(long)]
    pub exclude_empty: bool,
}

/// The openings a match's games began from (the moves the referee placed), each once.
pub fn openings_of(games: &[Recorded]) -> Vec<Vec<Move>> {
    let mut seen = HashSet::new();
    games
        .iter()
        .filter(|g| g.opening > 0)
        .map(|g| g.moves[..g.opening.min(g.moves.len())].to_vec())
        .filter(|o| seen.insert(o.clone()))
        .collect()
}

/// One start from each decided game long enough and not excluded: its first k moves, k drawn
/// uniformly from `from..=to` and at most the game's length less `left`; each board once, in
/// the order of the games. A game is excluded when it begins with one of `excluded` (or, with
/// `exclude_empty`, when it was played from the empty board).
pub fn cut(games: &[Recorded], excluded: &[Vec<Move>], options: &StartsOptions) -> Vec<Vec<Move>> {
    let mut rng = FastRng::new(options.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for Recorded { moves, opening, .. } in games {
        if (options.exclude_empty && *opening == 0) || excluded.iter().any(|e| moves.starts_with(e))
        {
            continue;
        }
        let last = options.to.min(moves.len().saturating_sub(options.left));
        if last < options.from {
            continue;
        }
        let k = options.from + rng.below((last - options.from + 1) as u32) as usize;
        if seen.insert(moves[..k].to_vec()) {
            out.push(moves[..k].to_vec());
        }
    }
    out
}

/// Runs `starts`: reads the records, cuts them and writes the file with a header saying how
/// it was made.
pub fn run(options: &StartsOptions) -> Result<()> {
    if options.from > options.to || options.to > LONGEST {
        bail!(
            "--from {} --to {}: need from <= to <= {LONGEST}",
            options.from,
            options.to
        );
    }
    let mut games = Vec::new();
    for path in &options.results {
        games.extend(decided_games(path)?);
    }
    let mut excluded = Vec::new();
    for path in &options.exclude {
        excluded.extend(read(path)?);
    }
    for path in &options.exclude_openings_of {
        excluded.extend(openings_of(&decided_games(path)?));
    }
    let starts = cut(&games, &excluded, options);
    if starts.is_empty() {
        bail!(
            "no decided game of the {} files is longer than {} moves",
            options.results.len(),
            options.from + options.left - 1
        );
    }
    let mut text = format!(
        "# Starts for self-play: {} boards cut from {} decided games of {} results files, after\n\
         # {} to {} moves and at least {} before the game's end (seed {}).\n",
        starts.len(),
        games.len(),
        options.results.len(),
        options.from,
        options.to,
        options.left,
        options.seed
    );
    for path in options.exclude.iter().chain(&options.exclude_openings_of) {
        let _ = writeln!(
            text,
            "# No game that began with an opening of {}.",
            path.display()
        );
    }
    if options.exclude_empty {
        let _ = writeln!(text, "# No game from the empty board.");
    }
    text += "# Made by `twixt-train starts` (docs/TRAINING.md, \"Starts from real games\").\n";
    for start in &starts {
        let line: Vec<String> = start.iter().map(Move::to_string).collect();
        let _ = writeln!(text, "{}", line.join(" "));
    }
    let bytes = match compressed(&options.out) {
        true => zstd::encode_all(text.as_bytes(), 19)?,
        false => text.into_bytes(),
    };
    std::fs::write(&options.out, bytes).with_context(|| options.out.display().to_string())?;
    eprintln!(
        "{}: {} starts from {} decided games",
        options.out.display(),
        starts.len(),
        games.len()
    );
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The moves a text names (test data, known to parse).
    pub(crate) fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    fn options(from: usize, to: usize, left: usize) -> StartsOptions {
        StartsOptions {
            results: Vec::new(),
            out: PathBuf::new(),
            from,
            to,
            left,
            seed: 3,
            exclude: Vec::new(),
            exclude_openings_of: Vec::new(),
            exclude_empty: false,
        }
    }

    fn recorded(moves: Vec<Move>, opening: usize) -> Recorded {
        Recorded {
            moves,
            winner: Player::Zero,
            opening,
            engines: Default::default(),
        }
    }

    #[test]
    fn a_cut_keeps_from_to_moves_and_leaves_the_end_to_play() {
        let game = moves("F6 G8 E8 D6 H5 I7 C4 J9 B3 K10");
        let games: Vec<_> = (0..50).map(|_| recorded(game.clone(), 2)).collect();
        let starts = cut(&games, &[], &options(3, 9, 4));
        // Ten moves less four: the cuts are of 3 to 6 moves, each board once.
        assert_eq!(starts.len(), 4);
        for start in &starts {
            assert!((3..=6).contains(&start.len()), "{start:?}");
            assert_eq!(start[..], game[..start.len()]);
        }
        assert!(cut(&games, &[], &options(7, 9, 4)).is_empty());
    }

    #[test]
    fn games_from_excluded_openings_give_no_start() {
        let (a, b) = (
            moves("F6 G8 E8 D6 H5 I7 C4 J9"),
            moves("C3 J10 E8 D6 H5 I7 C4 J9"),
        );
        let games = [recorded(a.clone(), 2), recorded(b.clone(), 0)];
        let cuts = |excluded: &[Vec<Move>], empty: bool| -> Vec<Move> {
            let options = StartsOptions {
                exclude_empty: empty,
                ..options(3, 3, 1)
            };
            cut(&games, excluded, &options).concat()
        };
        assert_eq!(cuts(&[], false), [&a[..3], &b[..3]].concat());
        assert_eq!(cuts(&[moves("F6 G8")], false), b[..3]);
        assert_eq!(cuts(&[moves("F6 E8")], false).len(), 6);
        assert_eq!(cuts(&[], true), a[..3]);
        // A match's openings, as its records give them, exclude the same way.
        let test = [
            recorded(moves("F6 G8 C4 J9"), 2),
            recorded(moves("F6 G8 H5"), 2),
        ];
        assert_eq!(openings_of(&test), [moves("F6 G8")]);
        assert_eq!(cuts(&openings_of(&test), false), b[..3]);
        assert!(openings_of(&[recorded(a.clone(), 0)]).is_empty());
    }

    #[test]
    fn a_starts_file_names_the_line_it_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("starts.txt");
        let error = |text: &str| {
            std::fs::write(&path, text).unwrap();
            format!("{:#}", read(&path).unwrap_err())
        };
        let at = path.display().to_string();
        assert_eq!(
            error("# two\nF6 G8\nF6 F6\n"),
            format!("{at}:3: ply 1: F6 is illegal: F6 already has a peg")
        );
        assert!(error("F6 zz").starts_with(&format!("{at}:1: 'zz'")));
        assert_eq!(error("# none\n\n"), format!("{at}: no start in the file"));
        std::fs::write(&path, "F6 G8 # a comment\n\nE5\n").unwrap();
        assert_eq!(read(&path).unwrap(), vec![moves("F6 G8"), moves("E5")]);
        let packed = dir.path().join("starts.zst");
        let text = zstd::encode_all(&b"F6 G8\nE5\n"[..], 19).unwrap();
        std::fs::write(&packed, &text).unwrap();
        assert_eq!(read(&packed).unwrap(), vec![moves("F6 G8"), moves("E5")]);
        std::fs::write(&packed, "F6 G8\n").unwrap();
        let at = packed.display().to_string();
        assert_eq!(
            format!("{:#}", read(&packed).unwrap_err()),
            format!("{at}: not a zstd frame: Unknown frame descriptor")
        );
    }

    #[test]
    fn the_fingerprint_tells_lists_apart() {
        let a = vec![moves("F6 G8"), moves("E5")];
        let b = vec![moves("F6"), moves("G8 E5")];
        assert_ne!(fingerprint(&a), fingerprint(&b));
        assert_ne!(fingerprint(&a), fingerprint(&a[..1]));
        assert_eq!(fingerprint(&a), fingerprint(&a.clone()));
        assert_ne!(fingerprint(&[]), 0);
    }
}
