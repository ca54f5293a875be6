//! `twixt-bot bench`: playout speed, and a deterministic search signature that only a change
//! of behaviour changes (as Viridithas' bench node count signs each commit).

use crate::position::Position;
use crate::rng::FastRng;
use crate::search::params::Params;
use crate::search::playout::playout;
use crate::search::{Limits, Searcher};
use std::io::Write;
use std::time::Instant;

/// A fixed middle game (24 pegs), for benches and the signature.
pub const MIDGAME: &str = "F6 G8 E8 D6 H5 J6 F10 H9 G3 C4 E4 I3 D9 K8 G11 C10 H7 E6 \
                           D3 B6 I10 J10 F2 K4";

/// A lost endgame (player 1 to move cannot stop both of player 0's threats): for the
/// signature.
pub const ENDGAME: &str = "E1 B5 F3 B7 E5 C9 F7 J5 E9 J7 F11 K9 G2";

/// What [`playout_rate`] measured.
pub struct Rate {
    /// Playouts played.
    pub playouts: u64,
    /// Pegs they placed.
    pub pegs: u64,
    /// Seconds taken.
    pub seconds: f64,
}

/// Random playouts from `pos` for about `seconds`.
pub fn playout_rate(pos: &Position, seconds: f64, seed: u64) -> Rate {
    let mut rng = FastRng::new(seed);
    let start = Instant::now();
    let (mut playouts, mut pegs) = (0u64, 0u64);
    loop {
        for _ in 0..256 {
            let mut p = pos.clone();
            pegs += playout(&mut p, &mut rng).1 as u64;
        }
        playouts += 256;
        let taken = start.elapsed().as_secs_f64();
        if taken >= seconds {
            return Rate {
                playouts,
                pegs,
                seconds: taken,
            };
        }
    }
}

/// The default parameters, but for the forced win in two, which answers [`MIDGAME`] (player 0
/// wins in two there) without a search: the benches and the signature measure the search.
pub fn searched() -> Params {
    Params {
        win_in_two: false,
        ..Params::default()
    }
}

/// Sum of tree nodes, principal-line pegs and the chosen move's visits of fixed-iteration
/// searches from fixed positions with a fixed seed (the [`searched`] parameters): the same
/// code gives the same number on every machine.
pub fn signature() -> u64 {
    signature_of(&searched())
}

/// [`signature`] with `params`. The chosen move's visits count because a change of the
/// backups (as the MCTS-solver's once) may change them where the tree's shape stays the same.
fn signature_of(params: &Params) -> u64 {
    let limits = Limits {
        soft_deadline: None,
        hard_deadline: None,
        iterations: Some(4000),
    };
    ["", "F6", MIDGAME, ENDGAME]
        .iter()
        .filter_map(|moves| Position::after(moves))
        .map(|pos| {
            Searcher::new(params.clone(), 1)
                .choose(&pos, &limits)
                .map_or(0, |r| r.nodes as u64 + r.plies + u64::from(r.best_visits))
        })
        .sum()
}

/// Prints the playout rate from the empty board and the signature.
pub fn run<W: Write>(seconds: f64, out: &mut W) {
    let r = playout_rate(&Position::new(), seconds, 1);
    let _ = writeln!(
        out,
        "playouts: {} in {:.2} s (empty board, one thread), {:.1} pegs each on average",
        r.playouts,
        r.seconds,
        r.pegs as f64 / r.playouts as f64
    );
    let _ = writeln!(
        out,
        "playouts per second: {:.0}",
        r.playouts as f64 / r.seconds
    );
    let _ = writeln!(out, "signature: {}", signature());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_midgame_is_legal_and_open() {
        let pos = Position::after(MIDGAME).expect("MIDGAME is a legal game");
        assert_eq!(pos.board().occupied().count(), 24);
        assert_eq!(pos.outcome(), None);
        // Why the benches turn the win in two off.
        assert!(crate::search::tactics::win_in_two(&pos).is_some());
    }

    /// The search's signature: a change of the search changes it, and this value with it, on
    /// purpose and in the same commit (a change meant to be pure speed leaves it alone).
    const SIGNATURE: u64 = 1363138;

    #[test]
    fn the_signature_is_pinned() {
        assert_eq!(signature(), SIGNATURE);
    }

    #[test]
    fn the_signature_sees_the_minimax_backups_and_the_saves() {
        let minimax_off = Params {
            minimax: 0.0,
            ..searched()
        };
        assert_ne!(signature_of(&minimax_off), signature());
        let saves_switched = Params {
            saves: !searched().saves,
            ..searched()
        };
        assert_ne!(signature_of(&saves_switched), signature());
    }
}
