//! One rule for the last pegs the learned prior reads ([`twixt::position::last_pegs_after`]):
//! on every ply of the recorded games of `fixtures/losses`, the bot that played the game,
//! `twixt-bot analyze --moves` and the board's live analysis give the search the same ones,
//! and a bot started on a turn (a fixture's turn input) gives what `analyze FILE` gives.

use std::path::Path;
use twixt::bot::analyze;
use twixt::bot::options::Options;
use twixt::bot::Bot;
use twixt::position::{last_pegs, Move};
use twixt::protocol::{TurnInput, TurnReader};
use twixt_board::game::{Game, Played, Players};

/// The moves of every fixture game: those before its turn, then what was played there.
fn fixture_games() -> Vec<(String, Vec<Move>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/losses");
    let mut games = Vec::new();
    for set in ["balanced", "t1j"] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(set))
            .unwrap_or_else(|e| panic!("{}: {e}", root.join(set).display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "moves"))
            .collect();
        names.sort();
        for path in names {
            let text = std::fs::read_to_string(&path).unwrap();
            let field = |name: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
                    .unwrap_or_else(|| panic!("{}: no {name}", path.display()))
                    .trim()
                    .to_string()
            };
            let words = format!("{} {}", field("moves"), field("played"));
            let moves = words
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            games.push((path.display().to_string(), moves));
        }
    }
    assert!(
        games.len() >= 30,
        "the fixtures are missing: {}",
        games.len()
    );
    games
}

fn turn(text: &str) -> TurnInput {
    let mut reader = TurnReader::new(text.as_bytes());
    let first = reader.first_line().expect("a turn");
    let parsed = reader.rest_of_turn(first);
    assert!(parsed.errors.is_empty(), "{text}: {:?}", parsed.errors);
    parsed.input
}

#[test]
fn the_bot_analyze_and_the_board_give_the_prior_the_same_last_pegs() {
    for (name, moves) in fixture_games() {
        let played = moves.iter().map(|&m| Played::plain(m)).collect();
        let mut game = Game::from_moves(played, Players::default()).unwrap();
        // One bot a seat, each told only its own turns and answering the game's moves.
        let mut bots = [0, 1].map(|_| Bot::new(Options::default()));
        for ply in 0..moves.len() {
            game.goto(ply).unwrap();
            let board = game.history();
            let input = turn(&game.turn_input_at(ply));
            let bot = &mut bots[ply % 2];
            assert_eq!(
                bot.last_pegs_for(&input),
                board,
                "{name} ply {ply}: the bot"
            );
            let analysed = analyze::played(&moves[..ply], &mut std::io::sink()).unwrap();
            assert_eq!(analysed.last_pegs, board, "{name} ply {ply}: analyze");
            assert_eq!(last_pegs(&moves[..ply]), board, "{name} ply {ply}");
            bot.remember(&input, moves[ply]);
        }
    }
}

#[test]
fn a_bot_started_on_a_turn_knows_what_analyze_of_its_input_knows() {
    for (name, moves) in fixture_games() {
        let txt = name.replace(".moves", ".txt");
        let input = turn(&std::fs::read_to_string(&txt).unwrap());
        let fresh = Bot::new(Options::default()).last_pegs_for(&input);
        let before = moves.len().checked_sub(2).map(|i| moves[i]);
        let known = [before.and_then(Move::peg), None];
        assert_eq!(fresh, known, "{txt}");
        assert_eq!(
            analyze::read_position(Some(&txt), &mut std::io::sink())
                .unwrap()
                .last_pegs,
            known,
            "{txt}"
        );
    }
}
