//! The parameters to tune: read from the bot's own list (`twixt-bot params`: name, value,
//! min, max, step, one a line), then narrowed to those asked for, in the ranges asked for.

use super::spsa::Axis;
use anyhow::{bail, Context, Result};

/// One line of the bot's list.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// The name `--set` takes.
    pub name: String,
    /// Its value now (the start of the tune).
    pub value: f64,
    /// The smallest value the bot takes.
    pub min: f64,
    /// The largest.
    pub max: f64,
    /// The step the bot declares (the default `c_end`).
    pub step: f64,
    /// Whether the bot takes only whole numbers (all four numbers are written without a
    /// fraction).
    pub integer: bool,
}

/// Parses the bot's list; an error names the line that is not `name value min max step`.
pub fn parse_listing(text: &str) -> Result<Vec<Listed>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let at = || format!("line {} of the parameter list ({line:?})", i + 1);
        if words.len() != 5 {
            bail!("{}: expected name value min max step", at());
        }
        let numbers: Vec<f64> = words[1..]
            .iter()
            .map(|w| w.parse::<f64>().with_context(|| format!("{}: {w:?}", at())))
            .collect::<Result<_>>()?;
        out.push(Listed {
            name: words[0].to_string(),
            value: numbers[0],
            min: numbers[1],
            max: numbers[2],
            step: numbers[3],
            integer: words[1..].iter().all(|w| w.parse::<i64>().is_ok()),
        });
    }
    if out.is_empty() {
        bail!("the parameter list is empty");
    }
    Ok(out)
}

/// What the command line asks of the parameters.
#[derive(Clone, Debug, Default)]
pub struct Choice {
    /// The names to tune (all listed when empty).
    pub names: Vec<String>,
    /// Narrower ranges, `NAME=MIN:MAX`.
    pub ranges: Vec<String>,
    /// Last perturbations other than the declared step, `NAME=VALUE`.
    pub c_ends: Vec<String>,
}

/// `pair` split at its `=` (it should read as `form`), its name checked against `names`.
fn named<'a>(pair: &'a str, what: &str, form: &str, names: &[&str]) -> Result<(&'a str, &'a str)> {
    let (name, value) = pair
        .split_once('=')
        .with_context(|| format!("{what} {pair}: expected {form}"))?;
    if !names.contains(&name) {
        bail!(
            "{what} {pair}: {name} is not a tuned parameter (tuned: {})",
            names.join(", ")
        );
    }
    Ok((name, value))
}

/// The axes to tune and their start values: an error, before any game, for a name the bot
/// does not list, a range that is crossed or leaves the bot's, a start outside its range or a
/// perturbation that does not fit in it.
pub fn choose(listed: &[Listed], choice: &Choice) -> Result<(Vec<Axis>, Vec<f64>)> {
    let known: Vec<&str> = listed.iter().map(|l| l.name.as_str()).collect();
    let names: Vec<&str> = if choice.names.is_empty() {
        known.clone()
    } else {
        choice.names.iter().map(String::as_str).collect()
    };
    let mut axes = Vec::new();
    let mut start = Vec::new();
    for name in &names {
        let l = listed.iter().find(|l| l.name == *name).with_context(|| {
            format!(
                "unknown parameter {name:?} (the bot lists: {})",
                known.join(", ")
            )
        })?;
        if axes.iter().any(|a: &Axis| a.name == *name) {
            bail!("parameter {name} is named twice");
        }
        axes.push(Axis {
            name: l.name.clone(),
            min: l.min,
            max: l.max,
            integer: l.integer,
            c_end: l.step,
        });
        start.push(l.value);
    }
    for pair in &choice.ranges {
        narrow(&mut axes, listed, pair, &names)?;
    }
    for pair in &choice.c_ends {
        let (name, value) = named(pair, "--c-end", "NAME=VALUE", &names)?;
        let c = value
            .parse::<f64>()
            .with_context(|| format!("--c-end {pair}"))?;
        axes.iter_mut()
            .filter(|a| a.name == name)
            .for_each(|a| a.c_end = c);
    }
    for (a, s) in axes.iter().zip(&start) {
        if !(a.min..=a.max).contains(s) {
            bail!(
                "{}: its value {s} lies outside the range {}..={}",
                a.name,
                a.min,
                a.max
            );
        }
        if !(a.c_end > 0.0 && 2.0 * a.c_end <= a.max - a.min) {
            bail!(
                "{}: c_end {} must be above 0 and fit twice in {}..={}",
                a.name,
                a.c_end,
                a.min,
                a.max
            );
        }
    }
    Ok((axes, start))
}

/// Applies `NAME=MIN:MAX` to its axis.
fn narrow(axes: &mut [Axis], listed: &[Listed], pair: &str, names: &[&str]) -> Result<()> {
    let (name, range) = named(pair, "--range", "NAME=MIN:MAX", names)?;
    let bounds = range
        .split_once(':')
        .and_then(|(lo, hi)| Some((lo.parse::<f64>().ok()?, hi.parse::<f64>().ok()?)))
        .with_context(|| format!("--range {pair}: expected NAME=MIN:MAX"))?;
    let declared = listed
        .iter()
        .find(|l| l.name == name)
        .expect("checked by named");
    if bounds.0 >= bounds.1 {
        bail!("--range {pair}: the range is crossed (MIN must be below MAX)");
    }
    if bounds.0 < declared.min || bounds.1 > declared.max {
        bail!(
            "--range {pair}: leaves the bot's range {}..={}",
            declared.min,
            declared.max
        );
    }
    for a in axes.iter_mut().filter(|a| a.name == name) {
        (a.min, a.max) = bounds;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "exploration 0.35 0.0 1.0 0.05\nexpand_after 2 1 64 1\n";

    fn choice(names: &[&str], ranges: &[&str], c_ends: &[&str]) -> Choice {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        Choice {
            names: v(names),
            ranges: v(ranges),
            c_ends: v(c_ends),
        }
    }

    #[test]
    fn the_list_is_read_with_whole_numbers_told_apart() {
        let l = parse_listing(LIST).unwrap();
        assert_eq!(l.len(), 2);
        assert!(!l[0].integer && l[1].integer);
        assert_eq!((l[0].value, l[0].step, l[1].max), (0.35, 0.05, 64.0));
        let err = parse_listing("a 1 2 3\n").unwrap_err().to_string();
        assert!(err.starts_with("line 1 of the parameter list"), "{err}");
        assert!(parse_listing("a 1 x 3 4").is_err() && parse_listing("\n").is_err());
    }

    #[test]
    fn the_axes_are_those_asked_for_in_the_ranges_asked_for() {
        let l = parse_listing(LIST).unwrap();
        let (axes, start) = choose(&l, &choice(&[], &[], &[])).unwrap();
        assert_eq!((axes.len(), start), (2, vec![0.35, 2.0]));
        let c = choice(
            &["exploration"],
            &["exploration=0.2:0.6"],
            &["exploration=0.02"],
        );
        let (axes, _) = choose(&l, &c).unwrap();
        assert_eq!((axes[0].min, axes[0].max, axes[0].c_end), (0.2, 0.6, 0.02));
    }

    #[test]
    fn bad_names_ranges_and_steps_are_refused_before_any_game() {
        let l = parse_listing(LIST).unwrap();
        let refused = [
            (choice(&["speed"], &[], &[]), "unknown parameter \"speed\""),
            (
                choice(&["expand_after", "expand_after"], &[], &[]),
                "named twice",
            ),
            (
                choice(&["exploration"], &["exploration=0.6:0.2"], &[]),
                "crossed",
            ),
            (
                choice(&["exploration"], &["exploration=-1:0.5"], &[]),
                "leaves the bot's range",
            ),
            (
                choice(&["exploration"], &["exploration=0.4:0.6"], &[]),
                "outside the range",
            ),
            (
                choice(&["exploration"], &["expand_after=1:9"], &[]),
                "not a tuned parameter",
            ),
            (
                choice(&["exploration"], &[], &["exploration=0.7"]),
                "fit twice",
            ),
            (
                choice(&["exploration"], &["exploration"], &[]),
                "expected NAME=MIN:MAX",
            ),
        ];
        for (c, expected) in refused {
            let err = choose(&l, &c).unwrap_err().to_string();
            assert!(err.contains(expected), "{err} (expected {expected})");
        }
    }
}
