//! The report's head: the result block as `match` prints it, the plots over the games and of
//! the answer times, and the table of the games.

use super::page::escape;
use super::plots::{bin, nice, Chart, Span};
use super::Shown;
use crate::clocks::Clocks;
use crate::record::{GameRecord, Pairing};
use crate::sprt::Sprt;
use crate::tally::Tally;
use std::fmt::Write;
use twixt::picture::{COLOURS, LIGHT};

/// The summary and the plots: of a match (engines A and B) or of single games (players 0
/// and 1).
pub(super) fn summary(games: &[Shown], sprt: Option<&Sprt>) -> String {
    match games[0].record.pairing() {
        Some(p) => match_summary(games, &p, sprt),
        None => games_summary(games),
    }
}

/// Points of a plot, `(x, y)`.
type Points = Vec<(f64, f64)>;

/// A's score so far after each game, and the LLR after each completed pair; with the tally.
fn series(games: &[Shown], sprt: Option<&Sprt>) -> (Tally, Points, Points) {
    let (mut tally, mut score, mut llr) = (Tally::default(), Vec::new(), vec![(0.0, 0.0)]);
    for (k, g) in games.iter().enumerate() {
        tally.add(&g.record);
        let w = &tally.wdl;
        let points = w.wins as f64 + 0.5 * w.draws as f64;
        score.push(((k + 1) as f64, 100.0 * points / (k + 1) as f64));
        let pairs = tally.penta.pairs() as f64;
        if let (Some(s), true) = (sprt, pairs > llr.last().map_or(0.0, |l| l.0)) {
            llr.push((pairs, s.llr(&tally.penta)));
        }
    }
    (tally, score, llr)
}

fn match_summary(games: &[Shown], p: &Pairing, sprt: Option<&Sprt>) -> String {
    let (tally, score, llr) = series(games, sprt);
    let mut text = String::new();
    for (k, name) in ["A", "B"].iter().enumerate() {
        let clock = p
            .clocks
            .map_or("not recorded".to_string(), |c| c[k].to_string());
        let _ = writeln!(text, "{name}: {} [clock: {clock}]", p.cmds[k]);
    }
    text.push('\n');
    text.push_str(&tally.block(sprt));
    text.push_str(&tally.engine_lines(["A", "B"]));
    let mut plots = vec![score_plot(&score)];
    let note = match sprt {
        Some(s) => {
            plots.push(llr_plot(&llr, s));
            ""
        }
        None => "<p>No SPRT was given: <code>--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05</code> adds the LLR, its bounds and its plot.</p>\n",
    };
    let answers = answer_times(games, |r, player| {
        let a = r.slot.map_or(0, |s| s.a_player);
        usize::from(player != a)
    });
    for (k, name) in ["A", "B"].iter().enumerate() {
        plots.push(time_plot(name, &answers[k], p.clocks.map(|c| c[k]), k));
    }
    head(&text, note, &plots)
}

fn games_summary(games: &[Shown]) -> String {
    let mut won = [0; 3];
    for g in games {
        won[g.record.winner.map_or(2, usize::from)] += 1;
    }
    let text = format!(
        "{} single games (not a match): player 0 won {}, player 1 won {}, {} drawn\n",
        games.len(),
        won[0],
        won[1],
        won[2]
    );
    let answers = answer_times(games, |_, player| usize::from(player));
    let clocks = games[0].record.clocks;
    let plots: Vec<String> = ["player 0", "player 1"]
        .iter()
        .enumerate()
        .map(|(k, name)| time_plot(name, &answers[k], clocks.map(|c| c[k]), k))
        .collect();
    head(&text, "", &plots)
}

fn head(text: &str, note: &str, plots: &[String]) -> String {
    format!(
        "<h2>Summary</h2>\n<pre class=\"summary\">{}</pre>\n{note}<h2>Plots</h2>\n<div class=\"plots\">{}</div>\n",
        escape(text),
        plots.join("\n")
    )
}

fn score_plot(score: &[(f64, f64)]) -> String {
    let mut c = Chart::new(Span::new(0.0, score.len() as f64), Span::new(0.0, 100.0));
    c.level(50.0, "#777", "50%");
    c.line(score, COLOURS[0]);
    c.finish("A's score over the games", "games", "score %")
}

fn llr_plot(llr: &[(f64, f64)], s: &Sprt) -> String {
    let (lo, hi) = s.bounds();
    let (min, max) = llr
        .iter()
        .fold((lo, hi), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let pairs = llr.last().map_or(1.0, |p| p.0);
    let mut c = Chart::new(Span::new(0.0, pairs), Span::new(min * 1.1, max * 1.1));
    c.level(hi, "#2a7a2a", &format!("H1 {hi:.2}"));
    c.level(lo, "#b03030", &format!("H0 {lo:.2}"));
    c.line(llr, COLOURS[1]);
    let title = format!("LLR over the pairs (elo0 {}, elo1 {})", s.elo0, s.elo1);
    c.finish(&title, "pairs", "LLR")
}

/// One side's answer times: its first turn in each game, and its later turns.
#[derive(Default)]
struct Answers {
    first: Vec<u64>,
    later: Vec<u64>,
}

/// The answer times of the two sides, `side(record, player)` saying whose a player's are.
fn answer_times(games: &[Shown], side: impl Fn(&GameRecord, u8) -> usize) -> [Answers; 2] {
    let mut out = [Answers::default(), Answers::default()];
    for g in games {
        let mut answered = [false; 2];
        for (k, ms) in g.record.ms.iter().enumerate() {
            if let Some(ms) = *ms {
                let player = k % 2;
                let a = &mut out[side(&g.record, player as u8)];
                let first = !std::mem::replace(&mut answered[player], true);
                if first { &mut a.first } else { &mut a.later }.push(ms);
            }
        }
    }
    out
}

/// A histogram of one side's answer times, first turns stacked in a light shade, with the
/// clocks marked.
fn time_plot(name: &str, a: &Answers, clocks: Option<Clocks>, colour: usize) -> String {
    let slowest = a.first.iter().chain(&a.later).copied().max().unwrap_or(0);
    let limit = clocks.map_or(0, |c| c.first_ms.max(c.turn_ms) + c.margin_ms);
    let range = (slowest.max(limit) as f64 * 1.05).max(10.0);
    let width = nice(range / 60.0).max(1.0) as u64;
    let bins = (range / width as f64).ceil() as usize;
    let (later, first) = (bin(&a.later, width, bins), bin(&a.first, width, bins));
    let peak = (0..bins).map(|k| later[k] + first[k]).max().unwrap_or(0);
    let x = Span::new(0.0, (bins as u64 * width) as f64);
    let mut c = Chart::new(x, Span::new(0.0, (peak as f64 * 1.1).max(1.0)));
    for k in 0..bins {
        let span = ((k as u64 * width) as f64, ((k as u64 + 1) * width) as f64);
        let (l, f) = (later[k] as f64, first[k] as f64);
        c.bar(span, (0.0, l), COLOURS[colour]);
        c.bar(span, (l, l + f), LIGHT[colour]);
    }
    if let Some(clock) = clocks {
        let turn = clock.turn_ms + clock.margin_ms;
        c.mark(turn as f64, "#333", &format!("clock {turn} ms"));
        let first = clock.first_ms + clock.margin_ms;
        c.mark(first as f64, "#333", &format!("first turn {first} ms"));
    }
    let answers = a.first.len() + a.later.len();
    let title = format!("{name}: answer times, {answers} answers (light: first turns)");
    c.finish(&title, &format!("ms (bins of {width})"), "answers")
}

/// The games, one row each; a click shows the game in the viewer.
pub(super) fn table(games: &[Shown]) -> String {
    let matched = games[0].record.slot.is_some();
    let mut out = String::from("<h2>Games</h2>\n<div class=\"tablebox\"><table class=\"games\">\n<tr><th>#</th><th>line</th>");
    out.push_str(if matched {
        "<th>pair</th><th>A is</th><th>winner</th>"
    } else {
        "<th>player 0</th><th>player 1</th><th>winner</th>"
    });
    out.push_str("<th>reason</th><th>moves</th><th>seed</th><th>opening</th><th>board</th></tr>\n");
    for (k, g) in games.iter().enumerate() {
        let r = &g.record;
        let _ = write!(
            out,
            "<tr data-game=\"{k}\"><td>{}</td><td>{}</td>",
            k + 1,
            g.line
        );
        let cells = match r.slot {
            Some(s) => {
                let winner = r
                    .winner
                    .map_or("draw", |w| if w == s.a_player { "A" } else { "B" });
                format!(
                    "<td>{}</td><td>player {}</td><td>{winner}</td>",
                    s.pair + 1,
                    s.a_player
                )
            }
            None => {
                let winner = r
                    .winner
                    .map_or("draw".to_string(), |w| format!("player {w}"));
                format!(
                    "<td>{}</td><td>{}</td><td>{winner}</td>",
                    escape(&r.cmd0),
                    escape(&r.cmd1)
                )
            }
        };
        out.push_str(&cells);
        let _ = writeln!(
            out,
            "<td title=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td><a href=\"{}#moves={}&amp;ply=0\" target=\"_blank\" rel=\"noopener\">open</a></td></tr>",
            escape(&r.detail),
            r.reason.name(),
            r.moves.len(),
            r.seed,
            escape(&r.moves[..r.opening.min(r.moves.len())].join(" ")),
            super::BOARD,
            escape(&r.moves.join(","))
        );
    }
    out.push_str("</table></div>\n");
    out.push_str(
        "<p class=\"note\">A game's <em>open</em> link shows it on <code>twixt-board</code>'s board, \
         where the engine analyses any move: start the board first with \
         <code>cargo run --release -p twixt-board</code> (it listens on 127.0.0.1 port 8765).</p>\n",
    );
    out
}
