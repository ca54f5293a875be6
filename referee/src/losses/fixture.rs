//! The positions of the collapses as fixtures: `STEM-SEED-plyK.txt`, the turn input our bot
//! was given at ply `K` (the referee's own text, so `twixt-bot < FILE.txt` answers it again),
//! and `STEM-SEED-plyK.moves`, `key: value` lines: the moves before it, what we played, our
//! values after and before, their answer, the phase, for a regression suite to check a later
//! bot's answer there.

use super::collapse::value_of;
use super::Loss;
use anyhow::{anyhow, Context, Result};
use std::fmt::Write;
use std::path::Path;
use twixt_reference::{turn_input, RefGame};

/// What [`write_all`] did.
#[derive(Debug, Default)]
pub struct Written {
    /// The fixtures written (a `.txt` and a `.moves` each).
    pub count: usize,
    /// The losses whose position could not be made, each `FILE:LINE: why`.
    pub skipped: Vec<String>,
    /// The fixtures whose turn input does not tell a process started there its side (a swap,
    /// no peg on a border: [`super::suite::inferred_side`]), by name.
    pub side_unknown: Vec<String>,
}

/// The name both files of a loss share: `STEM-SEED-plyK`.
pub fn name(loss: &Loss) -> String {
    let stem = loss
        .file
        .file_stem()
        .map_or("results".into(), |s| s.to_string_lossy());
    format!("{stem}-{}-ply{}", loss.record.seed, loss.collapse.ply)
}

/// The game's first `ply` moves under the reference rules, or why they are not a game.
pub fn position(loss: &Loss) -> Result<RefGame> {
    let ply = loss.collapse.ply;
    let moves = loss.record.parsed_moves()?;
    let before = moves
        .get(..ply)
        .ok_or_else(|| anyhow!("the game has {} moves, not {ply}", moves.len()))?;
    RefGame::from_moves(before).map_err(|(i, e)| anyhow!("record move {}: {e}", i + 1))
}

/// The `.moves` file of a loss.
pub fn moves_text(loss: &Loss) -> String {
    let r = &loss.record;
    let k = loss.collapse.ply;
    let at = |k: usize| r.moves.get(k).map_or("-", String::as_str);
    let percent = |v: Option<f64>| v.map_or("-".into(), |v| format!("{:.0}%", v * 100.0));
    let mut out = String::new();
    let lines = [
        ("source", loss.place()),
        ("seed", r.seed.to_string()),
        ("seat", loss.seat.to_string()),
        ("ply", k.to_string()),
        ("moves", r.moves[..k.min(r.moves.len())].join(" ")),
        ("played", at(k).to_string()),
        (
            "value",
            percent(value_of(r.messages.get(k).and_then(|m| m.as_deref()))),
        ),
        ("before", percent(loss.collapse.before)),
        ("answer", at(k + 1).to_string()),
        ("phase", loss.phase.name().to_string()),
    ];
    for (key, value) in lines {
        writeln!(out, "{key}: {value}").expect("writing to a String");
    }
    out
}

/// Writes the fixtures of `losses` into `dir` (made if missing). A loss whose moves the rules
/// refuse is skipped and named; a file that cannot be written is an error naming it.
pub fn write_all(dir: &Path, losses: &[Loss]) -> Result<Written> {
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    let mut out = Written::default();
    for loss in losses {
        let game = match position(loss) {
            Ok(game) => game,
            Err(e) => {
                out.skipped
                    .push(format!("{}: no fixture: {e:#}", loss.place()));
                continue;
            }
        };
        let name = name(loss);
        if super::suite::inferred_side(&game) != game.to_move() {
            out.side_unknown.push(name.clone());
        }
        write(&dir.join(format!("{name}.txt")), &turn_input(&game))?;
        write(&dir.join(format!("{name}.moves")), &moves_text(loss))?;
        out.count += 1;
    }
    Ok(out)
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| path.display().to_string())
}
