//! Pages to look at games: `report` turns a results file into one self-contained HTML page
//! (the match's result block, plots, the games' table and a replay viewer), and `game --html`
//! and `show --html` write the viewer for one game.
//!
//! The games are read as far as they can be: a line that is no record, a record of another
//! match or a move the reference rules refuse leaves that line out, and the page names it.

pub mod page;
pub mod plots;
pub mod replay;
mod summary;

use crate::record::{GameRecord, Readable};
use crate::sprt::Sprt;
use anyhow::{bail, Result};
use page::escape;
use replay::Replay;

/// The board of `twixt-board` at its default port: the report links each game there (a link
/// is followed only by a click; the page loads nothing from it). `twixt-board`'s tests hold
/// its default port to this address.
pub const BOARD: &str = "http://127.0.0.1:8765/";

/// A game the page shows: its line in the file, its record and its replay.
struct Shown {
    line: usize,
    record: GameRecord,
    replay: Replay,
}

/// What `report` made.
#[derive(Debug)]
pub struct Report {
    /// The page.
    pub html: String,
    /// How many games it shows.
    pub games: usize,
    /// The lines left out, each with why (also named on the page).
    pub left_out: Vec<String>,
}

/// The games of `readable` that belong to the match of its first record and replay by the
/// rules, and the lines left out with why, in line order.
fn select(readable: Readable) -> (Vec<Shown>, Vec<String>) {
    let mut left_out: Vec<(usize, String)> = readable
        .unreadable
        .into_iter()
        .map(|(n, why)| (n, format!("not a game record: {why}")))
        .collect();
    let first = readable.records.first().map(|(_, r)| r.pairing());
    let mut shown = Vec::new();
    for (line, record) in readable.records {
        let pairing = record.pairing();
        if Some(&pairing) != first.as_ref() {
            let who = match pairing {
                Some(p) => format!("A: {}, B: {}", p.cmds[0], p.cmds[1]),
                None => "a single game".to_string(),
            };
            left_out.push((line, format!("a game of another match ({who})")));
            continue;
        }
        match replay::replay(&record) {
            Ok(mut replay) => {
                replay.title = title(shown.len() + 1, line, &record);
                shown.push(Shown {
                    line,
                    record,
                    replay,
                });
            }
            Err(e) => left_out.push((line, format!("{e:#}"))),
        }
    }
    left_out.sort_by_key(|(n, _)| *n);
    let named = left_out
        .into_iter()
        .map(|(n, why)| format!("line {n}: {why}"));
    (shown, named.collect())
}

/// The viewer's heading for game `k` of the page.
fn title(k: usize, line: usize, r: &GameRecord) -> String {
    match r.slot {
        Some(s) => format!(
            "Game {k} (line {line}): pair {}, game {}, A is player {}",
            s.pair + 1,
            s.game + 1,
            s.a_player
        ),
        None => format!("Game {k} (line {line}), seed {}", r.seed),
    }
}

/// The report page of a results file read as [`Readable`] from `source`; `sprt` adds the LLR
/// and its plot. An error when no game can be shown, naming the lines that could not be read.
pub fn match_report(readable: Readable, source: &str, sprt: Option<&Sprt>) -> Result<Report> {
    let (games, left_out) = select(readable);
    if games.is_empty() {
        let why = if left_out.is_empty() {
            "it is empty".to_string()
        } else {
            left_out.join("; ")
        };
        bail!("{source} holds no game that can be shown: {why}");
    }
    let mut body = summary::summary(&games, sprt);
    if !left_out.is_empty() {
        body.push_str(&format!(
            "<p class=\"warning\">{} line(s) of {} left out:<br>{}</p>\n",
            left_out.len(),
            escape(source),
            left_out
                .iter()
                .map(|s| escape(s))
                .collect::<Vec<_>>()
                .join("<br>")
        ));
    }
    body.push_str(&summary::table(&games));
    let count = games.len();
    let replays: Vec<Replay> = games.into_iter().map(|g| g.replay).collect();
    Ok(Report {
        html: page::page(&format!("Twixt-PP match report: {source}"), &body, &replays),
        games: count,
        left_out,
    })
}

/// The viewer page of one game.
pub fn game_page(record: &GameRecord) -> Result<String> {
    let mut replay = replay::replay(record)?;
    replay.title = format!("Seed {}: {}", record.seed, replay.end);
    let clock = |p: usize| {
        record
            .clocks
            .map_or(String::new(), |c| format!(" [clock: {}]", c[p]))
    };
    let body = format!(
        "<pre class=\"summary\">player 0 (rows 1-12): {}{}\nplayer 1 (columns A-L): {}{}\n{}</pre>\n",
        escape(&record.cmd0),
        escape(&clock(0)),
        escape(&record.cmd1),
        escape(&clock(1)),
        escape(&replay.end)
    );
    Ok(page::page("Twixt-PP game", &body, &[replay]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::record;
    use crate::record::{MatchSlot, Reason};

    fn game(pair: usize, g: usize, seed: u64, cmds: [&str; 2]) -> GameRecord {
        GameRecord {
            slot: Some(MatchSlot::new(pair, g)),
            seed,
            cmd0: cmds[0].replace("{seed}", &seed.to_string()),
            cmd1: cmds[1].replace("{seed}", &seed.to_string()),
            ..record("E5 E7 F7", None, Reason::Draw)
        }
    }

    #[test]
    fn games_of_another_match_and_bad_lines_are_left_out_and_named() {
        let ours = ["a {seed}", "b {seed}"];
        let readable = Readable {
            records: vec![
                (1, game(0, 0, 7, ours)),
                (2, game(0, 1, 8, [ours[1], ours[0]])),
                (4, game(1, 0, 9, ["c {seed}", "b {seed}"])),
                (5, record("E5 E5", None, Reason::Draw)),
            ],
            unreadable: vec![(3, "expected value at column 1".into())],
        };
        let (shown, left_out) = select(readable);
        assert_eq!(shown.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(left_out.len(), 3, "{left_out:?}");
        assert!(left_out[0].starts_with("line 3: not a game record"));
        assert!(left_out[1].starts_with("line 4: a game of another match (A: c {seed}"));
        assert!(left_out[2].starts_with("line 5: a game of another match (a single game)"));
    }

    #[test]
    fn nothing_to_show_is_an_error_that_says_why() {
        let empty = match_report(Readable::default(), "r.jsonl", None).unwrap_err();
        assert_eq!(
            empty.to_string(),
            "r.jsonl holds no game that can be shown: it is empty"
        );
        let torn = Readable {
            records: vec![],
            unreadable: vec![(1, "EOF at column 9".into())],
        };
        let err = match_report(torn, "r.jsonl", None).unwrap_err().to_string();
        assert!(
            err.contains("line 1: not a game record: EOF at column 9"),
            "{err}"
        );
    }
}
