//! One finished game as one JSON line: the record `--record` and `--results` append.

use super::clocks::Clocks;
use serde::{Deserialize, Serialize};
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// The winner joined its borders.
    Connected,
    /// The loser did not answer within its clock.
    Timeout,
    /// The loser answered a malformed or illegal move.
    Illegal,
    /// The loser exited or closed its output.
    Crash,
    /// The player to move had no legal hole.
    Draw,
}

impl Reason {
    /// Whether the loser lost by its own fault rather than on the board.
    pub fn is_fault(self) -> bool {
        matches!(self, Reason::Timeout | Reason::Illegal | Reason::Crash)
    }

    /// The lowercase name used in records.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Connected => "connected",
            Reason::Timeout => "timeout",
            Reason::Illegal => "illegal",
            Reason::Crash => "crash",
            Reason::Draw => "draw",
        }
    }
}

/// Where a game sits in a match (absent for a single game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSlot {
    /// The pair index, from 0.
    pub pair: usize,
    /// 0 for the pair's first game, 1 for the second (seats swapped).
    pub game: usize,
    /// The player index engine A had in this game.
    pub a_player: u8,
}

/// One game, as written to a JSON line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Every move in order, `SWAP` included (the opening's moves first).
    pub moves: Vec<String>,
    /// Milliseconds each move took to answer; `null` for the opening's moves.
    pub ms: Vec<Option<u64>>,
    /// The message after each move, if the bot wrote one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<Option<String>>,
    /// How many of `moves` came from the opening rather than from the bots.
    #[serde(default)]
    pub opening: usize,
    /// The winning player index (0 or 1), `null` for a draw.
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: Reason,
    /// The same in words.
    pub detail: String,
    /// The command of player 0.
    pub cmd0: String,
    /// The command of player 1.
    pub cmd1: String,
    /// The game's seed (substituted for `{seed}` in the commands).
    pub seed: u64,
    /// The clocks of player 0 and of player 1 (absent from records older than per-engine
    /// clocks, which were played under one clock for both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<[Clocks; 2]>,
    /// The game's place in a match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<MatchSlot>,
}

impl GameRecord {
    /// The record as one line of JSON (no newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serialises")
    }

    /// Appends the record as one JSON line to `path`.
    pub fn append_to(&self, path: &Path) -> Result<(), String> {
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        writeln!(f, "{}", self.to_json()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The player index of the loser, if the game was not drawn.
    pub fn loser(&self) -> Option<u8> {
        self.winner.map(|w| 1 - w)
    }
}

/// Reads every record of a JSON-lines file; a missing file has none. A torn last line (a
/// match killed while writing) is skipped.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, String> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut out = Vec::new();
    for line in BufReader::new(f).lines() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        if let Ok(r) = serde_json::from_str::<GameRecord>(&line) {
            out.push(r);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_through_json() {
        let r = GameRecord {
            moves: vec!["E5".into(), "SWAP".into()],
            ms: vec![Some(12), Some(3)],
            messages: vec![],
            opening: 0,
            winner: None,
            reason: Reason::Draw,
            detail: "no hole".into(),
            cmd0: "a".into(),
            cmd1: "b".into(),
            seed: 7,
            clocks: Some([Clocks::default(); 2]),
            slot: None,
        };
        let text = r.to_json();
        assert!(text.contains("\"reason\":\"draw\""));
        assert!(text.contains("\"winner\":null"));
        assert_eq!(serde_json::from_str::<GameRecord>(&text).unwrap(), r);
    }

    #[test]
    fn a_record_without_clocks_still_reads() {
        let old = r#"{"moves":["E5"],"ms":[3],"winner":0,"reason":"timeout","detail":"d","cmd0":"a","cmd1":"b","seed":1}"#;
        let r = serde_json::from_str::<GameRecord>(old).unwrap();
        assert_eq!((r.clocks, r.opening, r.slot), (None, 0, None));
        let text = r#"{"first_ms":5000,"turn_ms":3000}"#;
        let c = serde_json::from_str::<Clocks>(text).unwrap();
        assert_eq!((c.first_ms, c.turn_ms, c.margin_ms), (5000, 3000, 0));
    }
}
