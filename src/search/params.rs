//! Every tunable search parameter, declared once with its default, its range and its tuning
//! step (as Monty declares its own): the struct, its defaults, the range checks and the
//! setter behind `twixt-bot --set NAME=VALUE` all come from the one list below.

use std::fmt;
use std::str::FromStr;

/// What a parameter's type must do: parse from text, compare with its bounds, and say what
/// text it expects.
pub trait Value: Copy + PartialOrd + FromStr + fmt::Display {
    /// What a value of this type looks like, for error messages.
    const EXPECTED: &'static str;
}

impl Value for f32 {
    const EXPECTED: &'static str = "a number";
}

impl Value for u32 {
    const EXPECTED: &'static str = "a whole number";
}

impl Value for u64 {
    const EXPECTED: &'static str = "a whole number";
}

impl Value for usize {
    const EXPECTED: &'static str = "a whole number";
}

impl Value for bool {
    const EXPECTED: &'static str = "true or false";
}

/// One parameter's declaration, as text: for listing the tunables.
#[cfg(not(codingame))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The name `--set` takes.
    pub name: &'static str,
    /// The default value.
    pub default: String,
    /// The smallest value allowed.
    pub min: String,
    /// The largest value allowed.
    pub max: String,
    /// The step a tuner moves it by.
    pub step: String,
}

/// Parses `text` as a value of parameter `name` and checks it lies in `min..=max`.
fn parse_in_range<T: Value>(name: &str, text: &str, min: T, max: T) -> Result<T, String> {
    let value: T = text
        .trim()
        .parse()
        .map_err(|_| format!("parameter {}: '{}' is not {}", name, text, T::EXPECTED))?;
    // `!(..)` rather than `<`/`>`: a NaN is in no range.
    if !(value >= min && value <= max) {
        return Err(format!(
            "parameter {}: {} is out of its range {}..={}",
            name, value, min, max
        ));
    }
    Ok(value)
}

macro_rules! params {
    ($($(#[doc = $doc:literal])*
       $name:ident: $ty:ty = $default:expr, min $min:expr, max $max:expr, step $step:expr;)*) => {
        /// Search parameters. [`Params::default`] is what the bot plays with.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Default for Params {
            fn default() -> Self {
                Params { $($name: $default,)* }
            }
        }

        impl Params {
            /// The parameters' names, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// Sets one parameter from text (`--set NAME=VALUE`); a value of the wrong type or
            /// out of the parameter's range is refused and changes nothing.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
                match name {
                    $(stringify!($name) => {
                        self.$name = parse_in_range::<$ty>(name, value, $min, $max)?;
                        Ok(())
                    })*
                    _ => Err(format!(
                        "unknown parameter '{}' (known: {})",
                        name,
                        Self::NAMES.join(", ")
                    )),
                }
            }

            /// Every parameter's declaration, in declaration order.
            #[cfg(not(codingame))]
            pub fn specs() -> Vec<Spec> {
                vec![$(Spec {
                    name: stringify!($name),
                    default: <$ty>::to_string(&$default),
                    min: <$ty>::to_string(&$min),
                    max: <$ty>::to_string(&$max),
                    step: <$ty>::to_string(&$step),
                }),*]
            }
        }
    };
}

params! {
    /// UCT exploration constant `c` in `q + c * sqrt(ln N / n)`.
    exploration: f32 = 0.35, min 0.0, max 1.0, step 0.05;
    /// MCTS-solver: back up proven wins and losses, take proven wins, avoid proven losses.
    solver: bool = false, min false, max true, step true;
    /// Keep the subtree of the position reached after our move and the opponent's reply.
    reuse_tree: bool = false, min false, max true, step true;
    /// Playouts answer an intrusion into a two-way connection ([`super::policy`]).
    saves: bool = true, min false, max true, step true;
    /// Visits a leaf needs before its children are added (besides its prior's).
    expand_after: u32 = 2, min 1, max 64, step 1;
    /// Virtual visits each new child starts with ([`super::prior`]); 0: no priors, and
    /// unvisited children are tried first.
    prior_visits: u32 = 10, min 0, max 100, step 2;
    /// Prior value of a hole with no peg within two columns and rows.
    prior_far: f32 = 0.3, min 0.0, max 1.0, step 0.05;
    /// Prior value of a hole with a peg within two columns and rows.
    prior_near: f32 = 0.45, min 0.0, max 1.0, step 0.05;
    /// Added to the prior of a hole a knight's move from one of the mover's pegs.
    prior_link: f32 = 0.1, min 0.0, max 0.5, step 0.025;
    /// Added to the prior of a hole a knight's move from one of the opponent's pegs.
    prior_block: f32 = 0.05, min 0.0, max 0.5, step 0.025;
    /// Most tree nodes kept (memory bound: 16 bytes each; CodinGame allows 768 MB).
    max_nodes: usize = 4_000_000, min 1_000, max 40_000_000, step 500_000;
    /// Iterations between two looks at the clock.
    clock_every: u64 = 64, min 1, max 4096, step 16;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_set_by_name() {
        let mut p = Params::default();
        p.set("exploration", "0.25").unwrap();
        assert_eq!(p.exploration, 0.25);
        p.set("saves", "false").unwrap();
        assert!(!p.saves);
        assert_eq!(
            p.set("speed", "1").unwrap_err(),
            format!(
                "unknown parameter 'speed' (known: {})",
                Params::NAMES.join(", ")
            )
        );
        assert_eq!(Params::NAMES.len(), 12);
    }

    #[test]
    fn values_of_the_wrong_type_or_out_of_range_are_refused() {
        let mut p = Params::default();
        let refused = [
            (
                "clock_every",
                "0",
                "parameter clock_every: 0 is out of its range 1..=4096",
            ),
            (
                "exploration",
                "1.5",
                "parameter exploration: 1.5 is out of its range 0..=1",
            ),
            (
                "exploration",
                "NaN",
                "parameter exploration: NaN is out of its range 0..=1",
            ),
            (
                "exploration",
                "many",
                "parameter exploration: 'many' is not a number",
            ),
            (
                "expand_after",
                "-1",
                "parameter expand_after: '-1' is not a whole number",
            ),
            (
                "expand_after",
                "2.5",
                "parameter expand_after: '2.5' is not a whole number",
            ),
            ("solver", "1", "parameter solver: '1' is not true or false"),
        ];
        for (name, value, message) in refused {
            assert_eq!(
                p.set(name, value),
                Err(message.to_string()),
                "{name}={value}"
            );
        }
        assert_eq!(p, Params::default(), "a refused value changes nothing");
    }

    #[test]
    fn every_default_lies_in_its_range_and_every_step_fits_it() {
        let specs = Params::specs();
        assert_eq!(specs.len(), Params::NAMES.len());
        for spec in specs {
            let mut p = Params::default();
            for bound in [&spec.min, &spec.default, &spec.max] {
                p.set(spec.name, bound).unwrap();
            }
            if let (Ok(min), Ok(max), Ok(step)) = (
                spec.min.parse::<f64>(),
                spec.max.parse::<f64>(),
                spec.step.parse::<f64>(),
            ) {
                assert!(min < max && step > 0.0 && step <= max - min, "{spec:?}");
            }
        }
    }
}
