//! What a match has counted so far, per engine (A and B, whatever their seats), and the
//! result block printed while it runs and at its end.

use super::record::{GameRecord, Reason};
use super::sprt::Sprt;
use super::stats::{Estimate, Fixed2, Penta, Wdl};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Faults and answer times of one engine.
#[derive(Clone, Debug, Default)]
pub struct EngineLog {
    /// Games lost by timeout.
    pub timeouts: u64,
    /// Games lost by an illegal or malformed move.
    pub illegal: u64,
    /// Games lost by exiting or closing the output.
    pub crashes: u64,
    /// The milliseconds of each game's first answer (its clock is the longer one).
    pub first_ms: Vec<u64>,
    /// The milliseconds of every later answer.
    pub ms: Vec<u64>,
}

impl EngineLog {
    /// The `q`-quantile (nearest rank) of the later answers' times.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        let mut v = self.ms.clone();
        v.sort_unstable();
        let n = v.len();
        (n > 0).then(|| v[((q * n as f64).ceil() as usize).clamp(1, n) - 1])
    }

    /// The slowest first answer.
    pub fn slowest_first(&self) -> Option<u64> {
        self.first_ms.iter().copied().max()
    }
}

/// A's results split the ways a reader of a match asks about: by seat, after a swap by either
/// side, and how long the lost games were.
#[derive(Clone, Debug, Default)]
pub struct Splits {
    /// A's half-points and games as player 0, then as player 1.
    pub seats: [(u64, u64); 2],
    /// A's half-points and games after A's swap, then after B's.
    pub swaps: [(u64, u64); 2],
    /// The plies of each game A lost, then of each game B lost.
    pub losses: [Vec<usize>; 2],
}

impl Splits {
    fn add(&mut self, r: &GameRecord, a_player: u8, half_points: u8) {
        let count = |(points, games): &mut (u64, u64)| {
            *points += u64::from(half_points);
            *games += 1;
        };
        count(&mut self.seats[usize::from(a_player)]);
        // Only player 1's answer to a first peg can be a swap; an opening's moves are none.
        if r.opening < 2 && r.moves.get(1).map(String::as_str) == Some("SWAP") {
            count(&mut self.swaps[usize::from(a_player != 1)]);
        }
        if let Some(loser) = r.loser() {
            self.losses[usize::from(loser != a_player)].push(r.moves.len());
        }
    }

    /// `A by seat: 124.0/200 as player 0, ...`, then the swaps and the lengths of the losses.
    pub fn lines(&self) -> String {
        let score = |(half, games): (u64, u64)| format!("{:.1}/{games}", half as f64 / 2.0);
        let swaps = if self.swaps.iter().all(|&(_, games)| games == 0) {
            "no swaps".to_string()
        } else {
            format!(
                "after a swap: {} after A's, {} after B's",
                score(self.swaps[0]),
                score(self.swaps[1])
            )
        };
        let mut out = format!(
            "A by seat: {} as player 0, {} as player 1; {swaps}\n",
            score(self.seats[0]),
            score(self.seats[1]),
        );
        for (name, plies) in ["A", "B"].iter().zip(&self.losses) {
            let mut v = plies.clone();
            v.sort_unstable();
            let _ = match (v.first(), v.last()) {
                (Some(lo), Some(hi)) => writeln!(
                    out,
                    "{name} lost {} games: {lo} to {hi} plies, median {}",
                    v.len(),
                    v[(v.len() - 1) / 2]
                ),
                _ => writeln!(out, "{name} lost no game"),
            };
        }
        out
    }
}

/// The counts of a match.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games from A's side.
    pub wdl: Wdl,
    /// Complete pairs from A's side.
    pub penta: Penta,
    /// Pairs with one win each (within `penta`'s middle class).
    pub pairs_wl: u64,
    /// Engine A's and engine B's logs.
    pub logs: [EngineLog; 2],
    /// A's results by seat and after swaps, and the lengths of the losses.
    pub splits: Splits,
    /// Half-points of the first game of pairs still waiting for their second.
    open_pairs: BTreeMap<usize, u8>,
}

/// A's half-points (0, 1, 2) in a game.
fn a_half_points(r: &GameRecord, a_player: u8) -> u8 {
    match r.winner {
        None => 1,
        Some(w) if w == a_player => 2,
        Some(_) => 0,
    }
}

impl Tally {
    /// Counts one game of a match (its record has a slot).
    pub fn add(&mut self, r: &GameRecord) {
        let slot = r.slot.expect("match games have a slot");
        let hp = a_half_points(r, slot.a_player);
        self.wdl.add(hp);
        self.log_engines(r, slot.a_player);
        self.splits.add(r, slot.a_player, hp);
        match self.open_pairs.remove(&slot.pair) {
            Some(first) => {
                self.penta.add(first + hp);
                if first.abs_diff(hp) == 2 {
                    self.pairs_wl += 1;
                }
            }
            None => {
                self.open_pairs.insert(slot.pair, hp);
            }
        }
    }

    fn log_engines(&mut self, r: &GameRecord, a_player: u8) {
        let engine_of = |player: u8| usize::from(player != a_player);
        let mut answered = [false; 2];
        for (k, ms) in r.ms.iter().enumerate() {
            if let Some(ms) = ms {
                let log = &mut self.logs[engine_of((k % 2) as u8)];
                if std::mem::replace(&mut answered[k % 2], true) {
                    log.ms.push(*ms);
                } else {
                    log.first_ms.push(*ms);
                }
            }
        }
        if let (true, Some(loser)) = (r.reason.is_fault(), r.loser()) {
            let log = &mut self.logs[engine_of(loser)];
            match r.reason {
                Reason::Timeout => log.timeouts += 1,
                Reason::Illegal => log.illegal += 1,
                _ => log.crashes += 1,
            }
        }
    }

    /// The result block, as fastchess prints it.
    pub fn block(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let w = &self.wdl;
        let points = w.wins as f64 + 0.5 * w.draws as f64;
        if let Some(e) = Estimate::from_penta(&self.penta) {
            let _ = writeln!(
                out,
                "Elo: {} +/- {}, nElo: {} +/- {}",
                Fixed2(e.elo),
                Fixed2(e.elo_error),
                Fixed2(e.nelo),
                Fixed2(e.nelo_error)
            );
            let _ = writeln!(
                out,
                "LOS: {} %, DrawRatio: {} %",
                Fixed2(e.los * 100.0),
                Fixed2(w.draw_ratio() * 100.0)
            );
        }
        let _ = writeln!(
            out,
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)",
            w.games(),
            w.wins,
            w.losses,
            w.draws,
            points,
            Fixed2(100.0 * points / w.games().max(1) as f64)
        );
        let p = self.penta.0;
        let _ = writeln!(
            out,
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD: {}, {}",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            self.pairs_wl,
            p[2] - self.pairs_wl
        );
        if let Some(s) = sprt {
            out.push_str(&sprt_line(s, &self.penta));
        }
        out
    }

    /// Per engine: faults, the slowest first answer and the later answers' times; then A's
    /// results by seat and after swaps, and the lengths of the losses.
    pub fn engine_lines(&self, names: [&str; 2]) -> String {
        let mut out = String::new();
        for (name, log) in names.iter().zip(&self.logs) {
            let q = |x: f64| {
                log.quantile(x)
                    .map_or("-".to_string(), |v| format!("{v} ms"))
            };
            let _ = writeln!(
                out,
                "{name}: timeouts {}, illegal moves {}, crashes {}; first answers max {} ({}); later answers p50 {}, p99 {}, max {} ({})",
                log.timeouts,
                log.illegal,
                log.crashes,
                log.slowest_first()
                    .map_or("-".to_string(), |v| format!("{v} ms")),
                log.first_ms.len(),
                q(0.5),
                q(0.99),
                q(1.0),
                log.ms.len()
            );
        }
        out + &self.splits.lines()
    }
}

/// `LLR: 1.23 (41.8%) (-2.94, 2.94) [0.00, 5.00]`: the LLR, how far it is towards the bound
/// it leans to, the bounds, and elo0/elo1.
pub fn sprt_line(s: &Sprt, penta: &Penta) -> String {
    let llr = s.llr(penta);
    let (lo, hi) = s.bounds();
    let towards = if llr >= 0.0 { llr / hi } else { llr / lo };
    format!(
        "LLR: {} ({:.1}%) ({}, {}) [{}, {}]\n",
        Fixed2(llr),
        100.0 * towards,
        Fixed2(lo),
        Fixed2(hi),
        Fixed2(s.elo0),
        Fixed2(s.elo1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::record;
    use crate::record::MatchSlot;

    fn rec(pair: usize, game: usize, winner: Option<u8>, reason: Reason) -> GameRecord {
        GameRecord {
            slot: Some(MatchSlot::new(pair, game)),
            ..record("E5 E7 F7", winner, reason)
        }
    }

    #[test]
    fn pairs_count_from_a_side_with_seats_swapped() {
        let mut t = Tally::default();
        // Pair 0: A (player 0) wins, then A (player 1) wins: WW.
        t.add(&rec(0, 0, Some(0), Reason::Connected));
        t.add(&rec(0, 1, Some(1), Reason::Connected));
        // Pair 1: A wins as player 0, B wins as player 0 by A's timeout: WL.
        t.add(&rec(1, 0, Some(0), Reason::Connected));
        t.add(&rec(1, 1, Some(0), Reason::Timeout));
        // Pair 2: only its first game so far, a draw.
        t.add(&rec(2, 0, None, Reason::Draw));
        assert_eq!(t.penta, Penta([0, 0, 1, 0, 1]));
        assert_eq!(t.pairs_wl, 1);
        assert_eq!((t.wdl.wins, t.wdl.draws, t.wdl.losses), (3, 1, 1));
        assert_eq!(t.logs[0].timeouts, 1);
        // A moved 2 of 3 moves as player 0 (three games) and 1 of 3 as player 1 (two games):
        // one first answer a game, the rest later ones.
        assert_eq!(t.logs[0].first_ms.len(), 5);
        assert_eq!(t.logs[0].ms.len(), 3);
        assert_eq!(t.logs[0].quantile(1.0), Some(30));
        assert_eq!(t.logs[0].slowest_first(), Some(20));
        assert_eq!(t.logs[1].quantile(0.5), Some(30));
        assert_eq!(t.logs[1].slowest_first(), Some(20));
        assert!(t
            .block(None)
            .contains("Ptnml(0-2): [0, 0, 1, 0, 1], WL/DD: 1, 0"));
    }

    #[test]
    fn results_are_split_by_seat_and_swap_and_losses_by_length() {
        let mut t = Tally::default();
        let game = |pair, game, moves: &str, winner| GameRecord {
            slot: Some(MatchSlot::new(pair, game)),
            ..record(moves, Some(winner), Reason::Connected)
        };
        // Pair 0: A is player 0 and loses in 3 plies after B's swap, then A as player 1
        // swaps and wins in 4.
        t.add(&game(0, 0, "E5 SWAP F7", 1));
        t.add(&game(0, 1, "E5 SWAP F7 G7", 1));
        // Pair 1: no swap; A wins as player 0 in 3 plies and loses as player 1 in 5.
        t.add(&game(1, 0, "E5 E7 F7", 0));
        t.add(&game(1, 1, "E5 E7 F7 G7 H7", 0));
        let s = &t.splits;
        assert_eq!(s.seats, [(2, 2), (2, 2)]);
        assert_eq!(s.swaps, [(2, 1), (0, 1)]);
        assert_eq!(s.losses, [vec![3, 5], vec![4, 3]]);
        let lines = t.engine_lines(["A", "B"]);
        assert!(lines.contains(
            "A by seat: 1.0/2 as player 0, 1.0/2 as player 1; after a swap: 1.0/1 after A's, 0.0/1 after B's"
        ));
        assert!(lines.contains("A lost 2 games: 3 to 5 plies, median 3"));
        assert!(lines.contains("B lost 2 games: 3 to 4 plies, median 3"));
        let mut unswapped = Tally::default();
        unswapped.add(&game(1, 0, "E5 E7 F7", 0));
        let lines = unswapped.engine_lines(["A", "B"]);
        assert!(lines.contains("A by seat: 1.0/1 as player 0, 0.0/0 as player 1; no swaps\n"));
    }
}
