//! What the bot's command lines share: the default clocks and the readers of a number and
//! of `--set NAME=VALUE`, used by the playing options and by `analyze` alike.

use crate::search::params::Params;

/// Thinking time per turn after the first, in ms: CodinGame's clock is 300 ms, and the rest
/// is the margin for reading the input, answering and the arena's load. The search stops
/// early by twice its longest stall (about 7 ms on an idle machine), so 256 answers when
/// d003f5e's 250 did, with as many playouts (docs/STRENGTH.md row 121).
pub const THINK_MS: u64 = 256;
/// Thinking time on the process's first turn, in ms (CodinGame's clock is 1000 ms).
pub const FIRST_THINK_MS: u64 = 850;
/// CodinGame's clock for a turn after the first, in ms.
pub const CLOCK_MS: u64 = 300;
/// CodinGame's clock for the first turn, in ms.
pub const FIRST_CLOCK_MS: u64 = 1000;

/// Sets the parameter `pair` names (`NAME=VALUE`, the argument after `--set`).
pub fn set_param(params: &mut Params, pair: Option<String>) -> Result<(), String> {
    let pair = pair.ok_or("--set needs NAME=VALUE")?;
    let (name, text) = pair
        .split_once('=')
        .ok_or(format!("--set needs NAME=VALUE, not '{}'", pair))?;
    params.set(name, text)
}

/// The whole number after `flag`.
pub fn number(flag: &str, text: Option<String>) -> Result<u64, String> {
    let text = text.ok_or(format!("{} needs a number", flag))?;
    text.parse()
        .map_err(|_| format!("{} needs a whole number, not '{}'", flag, text))
}
