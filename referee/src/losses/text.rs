//! The text of `losses`: one block a loss, then the counts by phase and seat.

use super::collapse::{our_moves, value_of, Phase};
use super::{Games, Loss};
use std::fmt::Write;

/// Our values a line in a block.
const VALUES_A_LINE: usize = 12;

/// The whole report: a header, a block a loss, the table.
pub fn report(games: &Games, lost: usize) -> String {
    let mut out = format!(
        "{} games: ours won {}, drew {}, lost {}",
        games.games, games.won, games.drawn, lost
    );
    if games.losses.len() < lost {
        write!(out, "; a sample of {} of the losses", games.losses.len()).unwrap();
    }
    if !games.left_out.is_empty() {
        write!(out, "; {} lines left out", games.left_out.len()).unwrap();
    }
    out.push_str("\n(ply k: the position after k moves, and the move played there)\n\n");
    for loss in &games.losses {
        out.push_str(&block(loss));
        out.push('\n');
    }
    out.push_str(&table(&games.losses));
    out
}

/// A percentage, or `-`.
fn percent(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{:.0}%", v * 100.0))
}

/// The move at ply `k`, or `-` past the game's end.
fn move_at(loss: &Loss, k: usize) -> &str {
    loss.record.moves.get(k).map_or("-", String::as_str)
}

/// One loss: where, who, how it ended, our values, the collapse and the phase.
pub fn block(loss: &Loss) -> String {
    let r = &loss.record;
    let mut out = format!(
        "{}  seed {}  ours: player {} (cmd{})  {} plies, opening {}, lost: {} ({})\n",
        loss.place(),
        r.seed,
        loss.seat,
        loss.seat,
        r.moves.len(),
        r.opening,
        r.reason.name(),
        r.detail
    );
    out.push_str(&values_lines(loss));
    out.push_str(&collapse_line(loss));
    writeln!(out, "  phase: {}", loss.phase.name()).unwrap();
    out
}

/// Our moves' plies with their values (the message where it gives none; `-` for no message).
fn values_lines(loss: &Loss) -> String {
    let items: Vec<String> = our_moves(&loss.record, loss.seat)
        .into_iter()
        .map(|(k, m)| match (value_of(m), m) {
            (Some(v), _) => format!("{k}:{}", percent(Some(v))),
            (None, Some(m)) => format!("{k}:{m}"),
            (None, None) => format!("{k}:-"),
        })
        .collect();
    if items.is_empty() {
        return "  values: none (no move of ours)\n".to_string();
    }
    let mut out = String::new();
    for (i, chunk) in items.chunks(VALUES_A_LINE).enumerate() {
        let head = if i == 0 { "  values:" } else { "         " };
        writeln!(out, "{head} {}", chunk.join(" ")).unwrap();
    }
    out
}

/// The collapse: its ply, what we played and valued, the value before, their answer.
fn collapse_line(loss: &Loss) -> String {
    let c = &loss.collapse;
    let what = c.kind.describe();
    format!(
        "  {what} at ply {}: we played {} ({} after, {} before); they answered {}\n",
        c.ply,
        move_at(loss, c.ply),
        percent(c.value),
        percent(c.before),
        move_at(loss, c.ply + 1)
    )
}

/// The counts of `losses` by phase (rows) and our seat (columns), with totals.
pub fn table(losses: &[Loss]) -> String {
    let count = |phase: Option<Phase>, seat: Option<u8>| {
        losses
            .iter()
            .filter(|l| phase.is_none_or(|p| l.phase == p))
            .filter(|l| seat.is_none_or(|s| l.seat == s))
            .count()
    };
    let mut out = format!(
        "{:<12}{:>10}{:>10}{:>8}\n",
        "phase", "player 0", "player 1", "all"
    );
    let rows = Phase::ALL.map(Some).into_iter().chain([None]);
    for phase in rows {
        let name = phase.map_or("all", Phase::name);
        let [a, b, all] = [Some(0), Some(1), None].map(|s| count(phase, s));
        writeln!(out, "{name:<12}{a:>10}{b:>10}{all:>8}").unwrap();
    }
    let faults = losses.iter().filter(|l| l.record.reason.is_fault()).count();
    if faults > 0 {
        writeln!(
            out,
            "of which by a fault (timeout, illegal move, crash): {faults}"
        )
        .unwrap();
    }
    out
}
