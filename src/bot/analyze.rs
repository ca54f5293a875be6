//! `twixt-bot analyze`: one turn input, read as the bot reads it, searched as the bot searches
//! it, and the search's view of the root shown: its best moves with their visits, values,
//! priors and lines, and on request the position drawn with where the search looked.
//!
//! Unlike the bot, which plays on what is sound in a faulty input (a forfeit is worse than a
//! weak move), analyze takes the input exactly: any problem is named with its line and ends
//! it with status 2, since an analysis of some other position would mislead.

use super::args::{number, set_param, FIRST_THINK_MS};
use super::{position_of, table_move, EXIT_BAD_INPUT};
use crate::cell::{Cell, Player};
use crate::picture::Picture;
use crate::position::{last_pegs, LastPegs, Move, Outcome, Position};
use crate::protocol::{LastMove, ParsedTurn, TurnReader};
use crate::search::params::Params;
use crate::search::{Found, Limits, Report, RootLine, Searcher};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// The help text's section on `analyze`.
pub fn help() -> String {
    format!(
        "\
analyze [FILE]: searches one turn input (FILE, or stdin; CodinGame's format) as the bot would
and shows the root's most visited moves: visits, share of the visits, value for the side to
move, learned prior and the line the search expects. A problem in the input exits with 2.
  --moves \"E5 SWAP ..\"  the position after these moves instead of a turn input: the prior
                      then knows the mover's own last peg too, as in a game the bot plays
  --ms N              search for N ms (default {FIRST_THINK_MS}, the first turn's)
  --playouts N        search N iterations instead (the same output every run)
  --top N             show the N most visited moves (default 5)
  --svg OUT           draw the position to OUT: the root's visits as heat, the best line
                      numbered
  --seed N            seed of the random stream (default 1)
  --set NAME=VALUE    a search parameter, as for playing"
    )
}

/// How many moves of each line are shown.
const PV_PLIES: usize = 6;

/// How long the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many milliseconds.
    Ms(u64),
    /// This many iterations.
    Playouts(u64),
}

/// What `twixt-bot analyze` is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The turn input's file; stdin when absent (or `-`).
    pub file: Option<String>,
    /// The game's moves, whose position is searched instead of a turn input's.
    pub moves: Option<Vec<Move>>,
    /// How long to search.
    pub budget: Budget,
    /// How many root moves to show.
    pub top: usize,
    /// Where to draw the position, if anywhere.
    pub svg: Option<String>,
    /// Seed of the search's random stream.
    pub seed: u64,
    /// Search parameters (`--set NAME=VALUE`).
    pub params: Params,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            file: None,
            moves: None,
            budget: Budget::Ms(FIRST_THINK_MS),
            top: 5,
            svg: None,
            seed: 1,
            params: Params::default(),
        }
    }
}

/// Parses the arguments after `analyze`: the request, or `None` when they ask for the help.
pub fn parse<I: Iterator<Item = String>>(mut args: I) -> Result<Option<Request>, String> {
    let mut r = Request::default();
    let mut budget = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--ms" | "--playouts" => {
                let n = number(&arg, args.next())?.max(1);
                let b = if arg == "--ms" {
                    Budget::Ms(n)
                } else {
                    Budget::Playouts(n)
                };
                if budget.replace(b).is_some() {
                    return Err("analyze: give one of --ms and --playouts, once".to_string());
                }
            }
            "--top" => match number(&arg, args.next())? {
                0 => return Err("analyze: --top needs at least 1".to_string()),
                n => r.top = n as usize,
            },
            "--svg" => r.svg = Some(args.next().ok_or("analyze: --svg needs a file name")?),
            "--seed" => r.seed = number(&arg, args.next())?,
            "--set" => set_param(&mut r.params, args.next())?,
            "--moves" => r.moves = Some(moves_arg(args.next())?),
            a if a.starts_with('-') && a != "-" => {
                return Err(format!("analyze: unknown argument '{}' (try --help)", a))
            }
            _ if r.file.is_some() => {
                return Err(format!("analyze reads one file, and '{}' is a second", arg))
            }
            _ => r.file = Some(arg).filter(|f| f != "-"),
        }
    }
    if r.file.is_some() && r.moves.is_some() {
        return Err("analyze: give a turn input or --moves, not both".to_string());
    }
    r.budget = budget.unwrap_or(r.budget);
    Ok(Some(r))
}

/// The moves of `--moves`, separated by spaces or commas.
fn moves_arg(text: Option<String>) -> Result<Vec<Move>, String> {
    let text = text.ok_or("analyze: --moves needs the game's moves, such as \"E5 SWAP F7\"")?;
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse()
                .map_err(|e| format!("analyze: --moves: '{}' is not a move: {}", w, e))
        })
        .collect()
}

/// Runs the analysis on stdout and stderr; returns the exit status.
pub fn run(r: &Request) -> i32 {
    let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
    run_with(r, &mut stdout.lock(), &mut stderr.lock())
}

/// Runs the analysis: 0 when shown, 2 for input that cannot be read exactly, 1 when the
/// picture cannot be written.
pub fn run_with<W: Write, E: Write>(r: &Request, out: &mut W, log: &mut E) -> i32 {
    let read = match &r.moves {
        Some(moves) => played(moves, log),
        None => read_position(r.file.as_deref(), log),
    };
    let Turn {
        pos,
        last,
        last_pegs,
    } = match read {
        Some(turn) => turn,
        None => return EXIT_BAD_INPUT,
    };
    let mut searcher = Searcher::new(r.params.clone(), r.seed);
    let own = own_move(&searcher, &pos, last, r.seed);
    searcher.set_history(last_pegs);
    let start = Instant::now();
    let report = match searcher.analyse(&pos, searched_moves(&pos), &limits(r.budget, start)) {
        Some(report) => report,
        None => {
            let _ = writeln!(out, "nothing to search: {}", game_over(&pos));
            return 0;
        }
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let lines = searcher.analysis(r.top, PV_PLIES);
    let _ = write!(out, "{}", table(&pos, &report, ms, own, &lines));
    match &r.svg {
        Some(path) => draw(path, &pos, last_pegs[0], &report, &lines, log),
        None => 0,
    }
}

/// What is searched: the position, the opponent's last move and the last pegs the prior reads.
pub struct Turn {
    /// The position.
    pub pos: Position,
    /// The opponent's last move, as a turn input names it.
    pub last: Option<LastMove>,
    /// The last pegs before the position.
    pub last_pegs: LastPegs,
}

/// The position after `moves`, played by the engine's rules, with its last pegs as a bot that
/// played the game knows them; `None` when a move is illegal, reported on `log`.
pub fn played<E: Write>(moves: &[Move], log: &mut E) -> Option<Turn> {
    let mut pos = Position::new();
    for (i, &mv) in moves.iter().enumerate() {
        if let Err(e) = pos.play(mv) {
            let _ = writeln!(log, "twixt-bot: --moves: move {} ({}): {}", i + 1, mv, e);
            return None;
        }
    }
    Some(Turn {
        pos,
        last: Some(LastMove::after(moves)),
        last_pegs: last_pegs(moves),
    })
}

/// The position of the turn input in `file` (stdin when `None`) with the opponent's last
/// move, read and built as the bot does (`Bot::answer`), and the last pegs a bot started on
/// this turn knows (the opponent's alone); `None` when the input does not read exactly, each
/// problem reported on `log` with its line.
pub fn read_position<E: Write>(file: Option<&str>, log: &mut E) -> Option<Turn> {
    let turn = match read_input(file).and_then(|bytes| one_turn(&bytes)) {
        Ok(turn) => turn,
        Err(problems) => {
            for p in problems {
                let _ = writeln!(log, "twixt-bot: {}", p);
            }
            return None;
        }
    };
    let input = &turn.input;
    let (pos, problems) = position_of(input, input.infer_side(), log);
    (problems == 0).then_some(Turn {
        pos,
        last: input.last,
        last_pegs: input.last_pegs([None; 2]),
    })
}

/// The input's bytes: the file's, or stdin's.
fn read_input(file: Option<&str>) -> Result<Vec<u8>, Vec<String>> {
    let read = match file {
        Some(path) => std::fs::read(path).map_err(|e| format!("cannot read '{}': {}", path, e)),
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map(|_| bytes)
                .map_err(|e| format!("cannot read stdin: {}", e))
        }
    };
    read.map_err(|e| vec![e])
}

/// The one turn `bytes` hold, read by the bot's reader; else every problem of it, each with
/// its line (more input after the turn is one).
fn one_turn(bytes: &[u8]) -> Result<ParsedTurn, Vec<String>> {
    let mut reader = TurnReader::new(bytes);
    let first = reader
        .first_line()
        .ok_or_else(|| vec!["line 1: the input ends where a turn was expected".to_string()])?;
    let turn = reader.rest_of_turn(first);
    let mut problems: Vec<String> = turn.errors.iter().map(|e| e.to_string()).collect();
    if let (Some((line, _)), true) = (reader.first_line(), turn.pegs_known) {
        problems.push(format!(
            "line {}: more input after the turn (analyze reads one turn)",
            line
        ));
    }
    if problems.is_empty() && turn.pegs_known {
        Ok(turn)
    } else {
        Err(problems)
    }
}

/// The root's moves as the bot searches them: SWAP is left out, for the opening table
/// decides it (`Bot::answer` searches with [`Searcher::choose_peg`] on a swap turn).
fn searched_moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves();
    moves.retain(|&m| m != Move::Swap);
    moves
}

/// The move the bot plays here without weighing the search's statistics, and why: the
/// opening table's (`pick` chooses the first peg, as the bot's seed does), or the tactics'
/// win.
fn own_move(
    s: &Searcher,
    pos: &Position,
    last: Option<LastMove>,
    pick: u64,
) -> Option<(Move, &'static str)> {
    if let Some((mv, _)) = table_move(pos, last, false, pick) {
        return Some((mv, "the opening table"));
    }
    let r = s.tactical(pos)?;
    let why = match r.found {
        Found::WinInOne => "an immediate win",
        _ => "a forced win in two",
    };
    Some((r.best, why))
}

fn limits(budget: Budget, start: Instant) -> Limits {
    match budget {
        Budget::Ms(ms) => Limits {
            soft_deadline: Some(start + Duration::from_millis(ms)),
            hard_deadline: None,
            iterations: None,
        },
        Budget::Playouts(n) => Limits {
            soft_deadline: None,
            hard_deadline: None,
            iterations: Some(n),
        },
    }
}

/// Why a position has no move to search.
fn game_over(pos: &Position) -> String {
    match pos.outcome() {
        Some(Outcome::Win(p)) => format!("player {} has joined its borders", p),
        _ => format!("player {} has no legal hole (a draw)", pos.to_move()),
    }
}

/// Who `p` is: its number and the borders it joins.
fn player(p: Player) -> String {
    let borders = ["rows 1 and 12", "columns A and L"];
    format!("player {} ({})", p, borders[p.index()])
}

/// The header, the bot's own move if it differs, and one row per root move.
fn table(
    pos: &Position,
    r: &Report,
    ms: f64,
    own: Option<(Move, &str)>,
    lines: &[RootLine],
) -> String {
    let mut s = format!(
        "{} to move: {} iterations, {} nodes, {:.0} ms\n",
        player(pos.to_move()),
        r.iterations,
        r.nodes,
        ms
    );
    if let Some((mv, why)) = own.filter(|&(mv, _)| mv != r.best) {
        s += &format!("the bot itself plays {} here, from {}\n", mv, why);
    }
    s += "move  visits  share  value  prior  line\n";
    for l in lines {
        let line: Vec<String> = l.line.iter().map(|m| m.to_string()).collect();
        s += &format!(
            "{:<5} {:>6} {:>5.1}% {:>6.3} {:>6.3}  {}\n",
            l.mv.to_string(),
            l.visits,
            l.share * 100.0,
            l.value,
            l.prior,
            line.join(" ")
        );
    }
    s
}

/// Writes the picture of `pos` to `path`: status 0, or 1 when it cannot be written.
fn draw<E: Write>(
    path: &str,
    pos: &Position,
    last: Option<Cell>,
    r: &Report,
    lines: &[RootLine],
    log: &mut E,
) -> i32 {
    let best: &[Move] = lines.first().map_or(&[], |l| &l.line);
    match std::fs::write(path, picture(pos, last, r, best)) {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(log, "twixt-bot: cannot write '{}': {}", path, e);
            1
        }
    }
}

/// `pos` with a heat disc on each root move the search visited, its opacity by the move's
/// visits over the most visited move's, and the moves of `best` numbered from 1 in the
/// colour of who plays them (a SWAP in the line is counted but not drawn).
fn picture(pos: &Position, last: Option<Cell>, r: &Report, best: &[Move]) -> String {
    let board = pos.board();
    let mut p = Picture::new(true);
    p.board();
    let most = r.root.iter().map(|m| m.visits).max().unwrap_or(0).max(1);
    for m in &r.root {
        if let (Move::Peg(c), true) = (m.mv, m.visits > 0) {
            p.heat(c, m.visits as f64 / most as f64);
        }
    }
    for q in Player::BOTH {
        p.links(q, board.links(q).map(|b| b.ends()));
    }
    p.holes(Cell::all().filter(|&c| board.owner(c).is_none()));
    for q in Player::BOTH {
        p.pegs(q, board.pegs(q).iter());
    }
    if let Some(c) = last {
        p.ring(c);
    }
    let mut mover = pos.to_move();
    for (k, mv) in best.iter().enumerate() {
        if let Move::Peg(c) = *mv {
            p.number(c, k + 1, mover);
        }
        mover = mover.other();
    }
    let line: Vec<String> = best.iter().map(|m| m.to_string()).collect();
    p.caption(&format!(
        "Player {} to move; the line: {}",
        pos.to_move(),
        line.join(" ")
    ));
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_line(s: &str) -> Result<Request, String> {
        match parse(s.split_whitespace().map(String::from))? {
            Some(r) => Ok(r),
            None => panic!("{s:?} asked for the help"),
        }
    }

    #[test]
    fn arguments_are_read() {
        let r = parse_line("fixtures/midgame.txt --playouts 300 --top 3 --svg out.svg --seed 7")
            .unwrap();
        assert_eq!(r.file.as_deref(), Some("fixtures/midgame.txt"));
        assert_eq!(r.budget, Budget::Playouts(300));
        assert_eq!((r.top, r.svg.as_deref(), r.seed), (3, Some("out.svg"), 7));
        assert_eq!(parse_line("").unwrap(), Request::default());
        assert_eq!(parse_line("-").unwrap().file, None);
        assert_eq!(parse_line("--ms 50").unwrap().budget, Budget::Ms(50));
        let r = parse_line("--set exploration=0.2 x.txt").unwrap();
        assert_eq!(
            (r.params.exploration, r.file.as_deref()),
            (0.2, Some("x.txt"))
        );
        assert_eq!(parse(["--help".to_string()].into_iter()), Ok(None));
    }

    #[test]
    fn bad_arguments_are_explained() {
        let err = |s: &str| parse_line(s).unwrap_err();
        assert!(err("--ms 5 --playouts 5").contains("one of --ms and --playouts"));
        assert!(err("--top 0").contains("at least 1"));
        assert!(err("--top x").contains("'x'"));
        assert!(err("--svg").contains("file name"));
        assert!(err("--fast").contains("unknown argument '--fast'"));
        assert!(err("a.txt b.txt").contains("'b.txt' is a second"));
        assert!(err("--set nope=1").contains("unknown parameter"));
        assert!(err("--playouts").contains("needs a number"));
    }

    #[test]
    fn a_faulty_or_extra_input_names_its_line() {
        assert!(one_turn(b"FIRST\n0\n0\n0\n0\n").is_ok());
        let e = one_turn(b"FIRST\n1\nZ9\n0\n0\n0\n").unwrap_err();
        assert!(e[0].starts_with("line 3: 'Z9'"), "{e:?}");
        let e = one_turn(b"FIRST\n0\n0\n0\n0\nE5\n").unwrap_err();
        assert_eq!(
            e,
            ["line 6: more input after the turn (analyze reads one turn)"]
        );
        assert!(one_turn(b"\n\n").unwrap_err()[0].starts_with("line 1:"));
        let e = one_turn(b"FIRST\n0\n0\n2\nE5\n").unwrap_err();
        assert!(e[0].contains("line 6: the input ends"), "{e:?}");
    }

    #[test]
    fn the_bot_s_own_move_is_named_where_it_does_not_search() {
        let s = Searcher::new(Params::default(), 1);
        let empty = Position::new();
        let (mv, why) = own_move(&s, &empty, Some(LastMove::First), 3).unwrap();
        assert_eq!(
            (mv, why),
            (
                Move::Peg(super::super::opening::first_peg(3)),
                "the opening table"
            )
        );
        let mid = Position::after(crate::bench::MIDGAME).unwrap();
        assert_eq!(
            own_move(&s, &mid, None, 0).unwrap().1,
            "a forced win in two"
        );
        let quiet = Position::after("F6 E7 G8").unwrap();
        assert_eq!(own_move(&s, &quiet, None, 0), None);
    }
}
