//! The progress bar of a long run (a match, a tune, self-play): elapsed time, the bar, done
//! out of all in the run's unit, an optional note and the time left. indicatif draws it on
//! stderr only when that is a terminal.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar for a run of `total` units (`unit`: "games", "iterations") of which `done` are done
/// already (a resumed run).
pub fn bar(total: u64, done: u64, unit: &str) -> ProgressBar {
    let template =
        format!("[{{elapsed_precise}}] {{bar:40}} {{pos}}/{{len}} {unit}{{msg}}, eta {{eta}}");
    let bar = ProgressBar::new(total);
    bar.set_style(ProgressStyle::with_template(&template).expect("a valid template"));
    bar.set_position(done);
    bar
}

/// Shows `text` after the bar's count (a rate, the latest values).
pub fn note(bar: &ProgressBar, text: &str) {
    bar.set_message(format!(", {text}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_bar_starts_at_what_was_done() {
        let b = bar(10, 4, "games");
        assert_eq!((b.position(), b.length()), (4, Some(10)));
        note(&b, "3 positions/s");
        assert_eq!(b.message(), ", 3 positions/s");
    }
}
