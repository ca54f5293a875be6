//! Broken models and damaged data are refused, named, and never turned into a shipped
//! network: a fit that diverges stops with its epoch and loss and writes nothing; a model with
//! a weight that is not a number is refused by every command that reads it; a data file whose
//! records pass their checksum but whose games the rules refuse is refused, with the file and
//! the offset, by every command that reads data; and `net --games N` fits exactly N games.

use std::path::{Path, PathBuf};
use std::process::Command;
use twixt::rng::FastRng;
use twixt::search::RootMove;
use twixt::{Cell, Move, Outcome, Player, Position};
use twixt_train::data::{self, Game, Header, Ply, Search};
use twixt_train::net::fit::split_games;
use twixt_train::net::{file, model::Model};

/// A random game to its end, numbered `index`; with `searched`, every ply after the first two
/// carries a made-up search over a few legal moves and the one played.
fn random_game(seed: u64, index: u32, searched: bool) -> Game {
    let mut rng = FastRng::new(seed);
    let mut pos = Position::new();
    let mut plies = Vec::new();
    while pos.outcome().is_none() {
        let moves = pos.legal_moves();
        let mv = moves[rng.below(moves.len() as u32) as usize];
        let search = (searched && plies.len() >= 2).then(|| {
            let root: Vec<RootMove> = moves
                .iter()
                .map(|&m| {
                    let visits = if m == mv { 40 } else { rng.below(20) };
                    RootMove {
                        mv: m,
                        visits,
                        value: visits as f32 / 40.0,
                    }
                })
                .collect();
            Search::of_root(0.5, &root)
        });
        pos.play(mv).unwrap();
        plies.push(Ply { mv, search });
    }
    let winner = match pos.outcome() {
        Some(Outcome::Win(p)) => Some(p),
        _ => None,
    };
    Game {
        index,
        winner,
        opening: 2,
        plies,
    }
}

fn header(seed: u64) -> Header {
    Header {
        iterations: 100,
        fast: 0,
        full_share: 1000,
        starts: 0,
        opening: 2,
        seed,
        teacher: 1,
    }
}

/// Writes `games` as a data file of run `seed`.
fn write_data(path: &Path, seed: u64, games: &[Game]) {
    let mut f = data::create(path, header(seed)).unwrap();
    for g in games {
        data::append(&mut f, g).unwrap();
    }
}

/// Runs `twixt-train ARGS`: its status and stderr.
fn train(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_twixt-train"))
        .args(args)
        .output()
        .expect("twixt-train runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), stderr)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Forty searched random games in one file of a temporary folder.
fn data_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.bin");
    let games: Vec<Game> = (0..40).map(|i| random_game(i, i as u32, true)).collect();
    write_data(&path, 7, &games);
    (dir, path)
}

#[test]
fn a_diverging_fit_stops_with_its_epoch_and_loss_and_writes_no_model() {
    let (dir, data) = data_dir();
    let out = dir.path().join("m.txt");
    let (code, err) = train(&[
        "net",
        s(&data),
        "-o",
        s(&out),
        "--epochs",
        "2",
        "--rate",
        "1e30",
        "--batch",
        "16",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("epoch 1:") && err.contains("diverged"),
        "{err}"
    );
    assert!(err.contains("NaN") || err.contains("inf"), "{err}");
    assert!(!out.exists(), "a model was written");

    let (code, err) = train(&[
        "fit",
        s(&data),
        "-o",
        s(&out),
        "--epochs",
        "5",
        "--rate",
        "1e38",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("epoch ") && err.contains("diverged"), "{err}");
    assert!(!out.exists(), "a policy was written");

    // The same data at sane rates fits and writes both.
    let (code, err) = train(&["net", s(&data), "-o", s(&out), "--epochs", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(file::read(&out).is_ok());
}

#[test]
fn a_mix_outside_0_to_1_is_refused_by_its_flag_and_writes_no_model() {
    let (dir, data) = data_dir();
    let out = dir.path().join("m.txt");
    for (flag, mix) in [("--value-mix", "1.5"), ("--child-mix", "-0.25")] {
        let arg = format!("{flag}={mix}");
        let (code, err) = train(&["net", s(&data), "-o", s(&out), &arg]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&format!("{flag} {mix}: from 0 to 1")), "{err}");
        assert!(!out.exists(), "a model was written");
    }
    let (code, err) = train(&[
        "net",
        s(&data),
        "-o",
        s(&out),
        "--epochs",
        "1",
        "--children",
        "2",
        "--child-mix",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(file::read(&out).is_ok());
}

#[test]
fn a_model_with_a_weight_that_is_not_a_number_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut model = Model::new(
        1,
        twixt_train::net::model::Layout {
            hidden: 32,
            policy: false,
        },
    );
    model.params[5] = f32::NAN;
    assert!(model.quantize(8, 8).is_err(), "a NaN weight quantized");
    let path = dir.path().join("nan.txt");
    std::fs::write(&path, file::to_text(&model)).unwrap();
    // Line 9: the magic, inputs and hidden lines, then weights 0 to 5.
    let error = format!("{:#}", file::read(&path).unwrap_err());
    assert!(
        error.contains("nan.txt") && error.contains("line 9 "),
        "{error}"
    );
    assert!(error.contains("not a finite number"), "{error}");
    let module = dir.path().join("net_weights.rs");
    let golden = dir.path().join("golden.txt");
    let (code, err) = train(&[
        "export-net",
        s(&path),
        "-o",
        s(&module),
        "--golden",
        s(&golden),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nan.txt") && err.contains("line 9 "), "{err}");
    assert!(!module.exists() && !golden.exists());

    model.params[5] = f32::INFINITY;
    std::fs::write(&path, file::to_text(&model)).unwrap();
    let error = format!("{:#}", file::read(&path).unwrap_err());
    assert!(
        error.contains("line 9 ") && error.contains("'inf'"),
        "{error}"
    );

    // The policy's model file too.
    let mut policy = twixt::knowledge::Policy::uniform();
    policy.weights[3] = f32::NEG_INFINITY;
    let path = dir.path().join("policy.txt");
    std::fs::write(&path, twixt_train::policy::file::to_text(&policy)).unwrap();
    let (code, err) = train(&["export", s(&path), "-o", s(&module)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("policy.txt") && err.contains("line 6 "),
        "{err}"
    );
    assert!(!module.exists());
}

/// A hole `p` may not play: on its opponent's border.
fn barred(p: Player) -> Cell {
    Cell::all().find(|c| !c.allowed_for(p)).unwrap()
}

/// Damaged games, each with what the reader must say: all pass their checksums.
fn damaged() -> Vec<(&'static str, Game, &'static str)> {
    let good = random_game(3, 5, true);
    let with_move = |ply: usize, mv: Move| {
        let mut g = good.clone();
        g.plies[ply].mv = mv;
        g
    };
    let first = good.plies[0].mv;
    let mut after_end = good.clone();
    after_end.plies.push(Ply {
        mv: Move::Peg(Cell::all().last().unwrap()),
        search: None,
    });
    let mut cut = good.clone();
    cut.plies.truncate(6);
    let mut winner = good.clone();
    winner.winner = Some(good.winner.map_or(Player::Zero, Player::other));
    let mut child = good.clone();
    child.plies[4].search.as_mut().unwrap().visits[0].0 = good.plies[1].mv;
    let mut value = good.clone();
    value.plies[4].search.as_mut().unwrap().value = f32::NAN;
    vec![
        (
            "barred peg",
            with_move(0, Move::Peg(barred(Player::Zero))),
            "is on the opponent's border",
        ),
        ("filled hole", with_move(2, first), "already has a peg"),
        (
            "swap out of turn",
            with_move(2, Move::Swap),
            "SWAP is allowed only",
        ),
        ("move after the end", after_end, "the game is over"),
        ("game cut short", cut, "before the game is over"),
        ("wrong winner", winner, "the winner is recorded as"),
        ("illegal root move", child, "root move"),
        ("value not a number", value, "is not in [0, 1]"),
    ]
}

#[test]
fn every_command_that_reads_data_refuses_a_game_the_rules_refuse() {
    let dir = tempfile::tempdir().unwrap();
    let fine: Vec<Game> = (0..30)
        .map(|i| random_game(100 + i, i as u32, true))
        .collect();
    for (what, game, says) in damaged() {
        let path = dir.path().join(format!("{}.bin", what.replace(' ', "-")));
        let mut games = fine.clone();
        games.insert(5, Game { index: 99, ..game });
        write_data(&path, 1, &games);
        let error = match data::read(&path) {
            Ok(_) => panic!("{what}: read without an error"),
            Err(e) => format!("{e:#}"),
        };
        assert!(
            error.contains(says) && error.contains("offset "),
            "{what}: {error}"
        );
        let out = dir.path().join("out.txt");
        let p = s(&path);
        for args in [
            vec!["info", p],
            vec!["net", p, "-o", s(&out), "--epochs", "1"],
            vec!["fit", p, "-o", s(&out), "--epochs", "1"],
            vec!["value", p],
            vec!["selfplay", "-o", p, "--games", "40", "--resume"],
        ] {
            let (code, err) = train(&args);
            assert_eq!(code, 2, "{what}: {args:?}: {err}");
            assert!(
                err.contains(p) && err.contains("offset ") && err.contains(says),
                "{what}: {args:?}: {err}"
            );
            assert!(!out.exists(), "{what}: {args:?} wrote a model");
        }
    }
}

#[test]
fn a_results_file_with_an_illegal_move_is_refused_by_probe_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.jsonl");
    let bad = barred(Player::Zero);
    std::fs::write(
        &path,
        format!(
            "{{\"moves\":[\"F6\",\"G8\"],\"winner\":0}}\n{{\"moves\":[\"{bad}\"],\"winner\":1}}\n"
        ),
    )
    .unwrap();
    let (code, err) = train(&["probe", s(&path)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("results.jsonl: line 2: ply 0"), "{err}");
    assert!(err.contains("is on the opponent's border"), "{err}");
}

#[test]
fn net_games_n_fits_exactly_n_games_when_runs_share_indices() {
    // Two runs numbered 0..20 each: indices 0 and 10 of each are held out.
    let games: Vec<Game> = (0..40)
        .map(|i| random_game(i, i as u32 % 20, false))
        .collect();
    let (train, held) = split_games(games.clone(), Some(5));
    assert_eq!(train.len(), 5);
    assert_eq!(held.len(), 4);
    assert!(train.iter().all(|g| g.index % 10 != 0));
    assert_eq!(train[0], games[1], "the first games read are fitted");
    let (all, _) = split_games(games, None);
    assert_eq!(all.len(), 36);
}

#[test]
fn selfplay_refuses_a_teacher_whose_knowledge_does_not_decode() {
    use twixt::knowledge::encoding::DecodeError;
    use twixt::search::params::Params;
    use twixt_train::selfplay::teacher_knowledge;
    let broken = || Err(DecodeError::Foreign(3));
    let defaults = Params::default();
    assert!(defaults.policy_prior && defaults.value_net);
    let error = |r: anyhow::Result<()>| format!("{:#}", r.unwrap_err());
    let net = error(teacher_knowledge(&defaults, Ok(()), broken()));
    assert!(
        net.contains("value network") && net.contains("character 3"),
        "{net}"
    );
    let policy = error(teacher_knowledge(&defaults, broken(), Ok(())));
    assert!(policy.contains("policy weights"), "{policy}");
    assert!(teacher_knowledge(&defaults, Ok(()), Ok(())).is_ok());
    // What the teacher does not use need not decode.
    let plain = Params {
        value_net: false,
        policy_prior: false,
        ..Params::default()
    };
    assert!(teacher_knowledge(&plain, broken(), broken()).is_ok());
}
