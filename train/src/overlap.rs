//! Overlap: whether a test's games passed through boards that self-play began from. A network
//! fitted on games continued from a board has learnt that board's line, and a test whose games
//! reach it measures that memory rather than strength (docs/TRAINING.md, "Starts from real
//! games"). `twixt-train overlap` counts, for each results file, the decided games that reach a
//! board of a starts file, and an engine's score in those games and in the others.

use crate::starts::{decided_games, read, replay, Recorded};
use anyhow::{bail, Result};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use twixt::{Bitboard, Move, Player, Position};

/// The options of `twixt-train overlap`.
#[derive(clap::Args, Clone, Debug)]
pub struct OverlapOptions {
    /// The starts file self-play began from (as `selfplay --starts` reads it).
    #[arg(long)]
    pub starts: PathBuf,
    /// Results files of `twixt-referee` (JSON lines).
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// The engine whose score is split by overlap: a part of its command that only its seat's
    /// command holds (a commit's short hash, a binary's name).
    #[arg(long)]
    pub engine: Option<String>,
}

/// A board as the search meets it: each side's pegs and the player to move, whatever the
/// order they were placed in.
type Board = (Bitboard, Bitboard, usize);

fn board(pos: &Position) -> Board {
    let b = pos.board();
    (
        b.pegs(Player::Zero),
        b.pegs(Player::One),
        pos.to_move().index(),
    )
}

/// Every board the starts reach: each start's last one (the board a game began from).
pub fn start_boards(starts: &[Vec<Move>]) -> HashSet<Board> {
    starts
        .iter()
        .filter_map(|moves| replay(moves).ok())
        .map(|pos| board(&pos))
        .collect()
}

/// The first ply after which a game stands on one of `boards`, if any.
fn first_meeting(moves: &[Move], boards: &HashSet<Board>) -> Option<usize> {
    let mut pos = Position::new();
    for (ply, &mv) in moves.iter().enumerate() {
        pos.play(mv).ok()?;
        if boards.contains(&board(&pos)) {
            return Some(ply + 1);
        }
    }
    None
}

/// How a file's decided games met the starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlap {
    /// Decided games.
    pub games: usize,
    /// Games that passed through a start's board.
    pub met: usize,
    /// The fewest moves after which a game stood on a start's board.
    pub earliest: Option<usize>,
    /// The engine's wins in the games that met a start, and in the others.
    pub wins: Option<(usize, usize)>,
}

/// Counts the games that meet `boards`; with `engine`, its wins split the same way (its seat
/// is the command that holds `engine`: an error if both or neither do).
pub fn count(games: &[Recorded], boards: &HashSet<Board>, engine: Option<&str>) -> Result<Overlap> {
    let mut out = Overlap {
        games: games.len(),
        wins: engine.map(|_| (0, 0)),
        ..Overlap::default()
    };
    for (n, game) in games.iter().enumerate() {
        let met = first_meeting(&game.moves, boards);
        if let Some(ply) = met {
            out.met += 1;
            out.earliest = Some(out.earliest.map_or(ply, |e| e.min(ply)));
        }
        if let (Some(name), Some((in_met, elsewhere))) = (engine, out.wins.as_mut()) {
            let won = game.engines[game.winner.index()].contains(name);
            if won == game.engines[game.winner.other().index()].contains(name) {
                bail!(
                    "decided game {}: '{name}' is in {} of the two commands",
                    n + 1,
                    if won { "both" } else { "neither" }
                );
            }
            let tally = if met.is_some() { in_met } else { elsewhere };
            *tally += usize::from(won);
        }
    }
    Ok(out)
}

/// One line for a file's overlap.
pub fn describe(path: &Path, starts: &Path, o: &Overlap, engine: Option<&str>) -> String {
    let mut line = format!(
        "{}: {} decided games, {} pass through a board of {}",
        path.display(),
        o.games,
        o.met,
        starts.display()
    );
    if let Some(ply) = o.earliest {
        line += &format!(" (the earliest after {ply} moves)");
    }
    if let (Some(name), Some((in_met, elsewhere))) = (engine, o.wins) {
        line += &format!(
            "; {name} won {in_met} of those {} and {elsewhere} of the other {}",
            o.met,
            o.games - o.met
        );
    }
    line
}

/// Runs `overlap`: a line for each results file.
pub fn run(options: &OverlapOptions) -> Result<()> {
    let boards = start_boards(&read(&options.starts)?);
    let engine = options.engine.as_deref();
    for path in &options.results {
        let overlap = count(&decided_games(path)?, &boards, engine)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        println!("{}", describe(path, &options.starts, &overlap, engine));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::tests::moves;

    fn game(text: &str, winner: Player, engines: [&str; 2]) -> Recorded {
        Recorded {
            moves: moves(text),
            winner,
            opening: 2,
            engines: engines.map(String::from),
        }
    }

    #[test]
    fn a_game_meets_a_start_in_any_order_of_its_pegs() {
        let boards = start_boards(&[moves("F6 G8 E8 D6"), moves("J10 C3")]);
        let ab = ["./a --seed 1", "./b --seed 1"];
        let ba = ["./b --seed 2", "./a --seed 2"];
        let games = [
            // E8 and F6 swapped: the same board after four moves.
            game("E8 G8 F6 D6 H5 I7", Player::Zero, ab),
            game("F6 G8 E8 H5 D6 I7", Player::One, ba),
            game("C4 J10 C3 I7", Player::One, ab),
            // After the swap the pegs are the start's (C3 is player 1's, J10 player 0's), but
            // player 1 is to move: not the same board.
            game("C3 SWAP J10 B5", Player::Zero, ba),
        ];
        let o = count(&games, &boards, Some("./a")).unwrap();
        assert_eq!(
            o,
            Overlap {
                games: 4,
                met: 1,
                earliest: Some(4),
                wins: Some((1, 1)),
            }
        );
        assert_eq!(
            describe(Path::new("t.jsonl"), Path::new("s.zst"), &o, Some("./a")),
            "t.jsonl: 4 decided games, 1 pass through a board of s.zst (the earliest after 4 \
             moves); ./a won 1 of those 1 and 1 of the other 3"
        );
        let none = count(&games[2..], &boards, None).unwrap();
        assert_eq!((none.met, none.earliest, none.wins), (0, None, None));
    }

    #[test]
    fn an_engine_in_neither_or_both_commands_is_an_error() {
        let boards = start_boards(&[moves("F6 G8")]);
        let games = [game("F6 G8 E8", Player::Zero, ["./a", "./b"])];
        let error = |name| format!("{}", count(&games, &boards, Some(name)).unwrap_err());
        assert_eq!(
            error("./c"),
            "decided game 1: './c' is in neither of the two commands"
        );
        assert_eq!(
            error("./"),
            "decided game 1: './' is in both of the two commands"
        );
    }
}
