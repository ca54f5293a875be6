//! Every tunable search parameter, declared once with its default, its range and its tuning
//! step (as Monty declares its own): the struct, its defaults, the range checks and the
//! setter behind `twixt-bot --set NAME=VALUE` all come from the one list below.

use std::fmt;
use std::str::FromStr;

/// One parameter's declaration as written in the list below: for listing the tunables.
#[cfg(not(codingame))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The name `--set` takes.
    pub name: &'static str,
    /// The default value.
    pub default: &'static str,
    /// The smallest value allowed.
    pub min: &'static str,
    /// The largest value allowed.
    pub max: &'static str,
    /// The step a tuner moves it by.
    pub step: &'static str,
}

/// Parses `text` as a value of parameter `name`, of its type and in `min..=max`.
fn parse_in_range<T>(name: &str, text: &str, min: T, max: T) -> Result<T, String>
where
    T: PartialOrd + FromStr + fmt::Display,
{
    match text.trim().parse::<T>() {
        // A NaN compares false: it is in no range.
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(format!(
            "parameter {}: '{}' is not a value in {}..={}",
            name, text, min, max
        )),
    }
}

/// Calls `$m!` with the list of parameters, the one place they are declared: the shipped
/// struct and setter, and the host-only table of declarations, are all made from it. The
/// shipped parameters come first; `with_host_params!` adds the host's own.
macro_rules! with_params {
    ($m:ident) => {
        with_host_params! { $m
            /// UCT exploration constant `c` in `q + c * sqrt(ln N / n)`. Tuned by SPSA
            /// (`twixt-referee tune`) for the gen3 network, as are `prior_visits`,
            /// `policy_mid`, `policy_slope` and `value_mix` (docs/STRENGTH.md row 79), again
            /// with `value_mix` and `minimax` (row 86), with the refitted policy and tree
            /// reuse (row 96), and all six again (row 131). Tuned again for the gen5 network
            /// with `value_mix`, `minimax` and `prior_visits`, they stayed (row 193).
            exploration: f32 = 0.292828, min 0.0, max 1.0, step 0.05;
            /// Play a forced win in two without searching: a peg after which the opponent has
            /// no immediate win and every reply leaves one ([`super::tactics::win_in_two`]).
            win_in_two: bool = true, min false, max true, step true;
            /// Keep the subtree of the position reached after our move and the opponent's
            /// reply (on since docs/STRENGTH.md row 90).
            reuse_tree: bool = true, min false, max true, step true;
            /// Playouts answer an intrusion into a two-way connection ([`super::policy`]).
            saves: bool = true, min false, max true, step true;
            /// Visits a leaf needs before its children are added (besides its prior's).
            expand_after: u32 = 2, min 1, max 64, step 1;
            /// Virtual visits each new child starts with ([`super::prior`]); 0: no priors, and
            /// unvisited children are tried first.
            /// Tuned by SPSA.
            prior_visits: u32 = 10, min 0, max 100, step 2;
            /// The learned prior's value for a move of the average policy share.
            /// Tuned by SPSA.
            policy_mid: f32 = 0.329874, min 0.0, max 1.0, step 0.025;
            /// What the learned prior adds per e-fold of a move's share over the average.
            /// Tuned by SPSA.
            policy_slope: f32 = 0.11699, min 0.0, max 0.5, step 0.01;
            /// Weight of the value network's chance ([`crate::knowledge::network`]; on the host
            /// without `value_net`, the distance value's) in each iteration's result, against
            /// the playout's (0: playouts alone; 1: the value alone, and no playout is played).
            /// Tuned by SPSA.
            value_mix: f32 = 0.436525, min 0.0, max 1.0, step 0.05;
            /// Weight of implicit minimax backups (Lanctot et al. 2014) in selection: a child
            /// scores `(1 - w) * q + w * m`, `m` the minimax of the value's estimates at the
            /// leaves below it, kept apart from the playouts' results (0: off). Tuned by SPSA.
            minimax: f32 = 0.140697, min 0.0, max 1.0, step 0.05;
            /// Most nodes a tree keeps. Memory: 20 bytes a node (`tree::Node`), 24 with minimax
            /// backups, and tree reuse holds a second tree: 192 MB at most by default, where
            /// CodinGame allows 768 MB.
            max_nodes: usize = 4000000, min 1000, max 40000000, step 500000;
            /// Iterations between two looks at the clock.
            clock_every: u64 = 16, min 1, max 4096, step 16;
        }
    };
}

/// Adds the parameters that only the host has to the shipped ones and calls `$m!` with all:
/// switches and values of knowledge that a measured default leaves unused (the distance value
/// and the hand-set prior, which the network and the learned policy replaced; the network's
/// policy head, which the shipped network lacks: docs/TRAINING.md, "Measured and kept off").
/// The bundle's `--set` does not know them, and
/// their code is host-only too, so what ships is what plays.
#[cfg(not(codingame))]
macro_rules! with_host_params {
    ($m:ident $($shipped:tt)*) => {
        $m! {
            $($shipped)*
            /// Prior value of a hole with no peg within two columns and rows.
            prior_far: f32 = 0.3, min 0.0, max 1.0, step 0.05;
            /// Prior value of a hole with a peg within two columns and rows.
            prior_near: f32 = 0.45, min 0.0, max 1.0, step 0.05;
            /// Added to the prior of a hole a knight's move from one of the mover's pegs.
            prior_link: f32 = 0.1, min 0.0, max 0.5, step 0.025;
            /// Added to the prior of a hole a knight's move from one of the opponent's pegs.
            prior_block: f32 = 0.05, min 0.0, max 0.5, step 0.025;
            /// New children start with the learned policy's prior ([`crate::knowledge`])
            /// instead of the hand-set one.
            policy_prior: bool = true, min false, max true, step true;
            /// The value mixed in is the network's ([`crate::knowledge::network`]), whose
            /// accumulators follow each iteration down the tree, rather than the distance's.
            value_net: bool = true, min false, max true, step true;
            /// The value's log-odds for the mover when both players are equally far from their
            /// borders: the edge of being on move (fitted by `twixt-train value`).
            value_bias: f32 = 0.52, min 0.0, max 2.0, step 0.05;
            /// The value's log-odds per peg the mover is nearer its borders than the opponent.
            value_scale: f32 = 1.38, min 0.0, max 4.0, step 0.1;
            /// Weight of the network's policy head ([`crate::knowledge::network`]) in the
            /// learned prior: its logits, times this, are added to the feature policy's
            /// (0: the features alone; needs a shipped network with a policy head).
            net_policy: f32 = 0.0, min 0.0, max 2.0, step 0.1;
            /// The feature policy's logits count in the learned prior (false: with
            /// `net_policy` above 0, the network's alone).
            feature_policy: bool = true, min false, max true, step true;
        }
    };
}

/// The bundle's parameters: the shipped ones alone.
#[cfg(codingame)]
macro_rules! with_host_params {
    ($m:ident $($shipped:tt)*) => {
        $m! { $($shipped)* }
    };
}

/// The struct, its defaults and the checked setter.
macro_rules! define_params {
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
        }
    };
}

with_params!(define_params);

/// The table of declarations, for the host: `--help` and tuners list the tunables from it.
#[cfg(not(codingame))]
macro_rules! define_specs {
    ($($(#[doc = $doc:literal])*
       $name:ident: $ty:ty = $default:expr, min $min:expr, max $max:expr, step $step:expr;)*) => {
        impl Params {
            /// Every parameter's declaration as written, in declaration order.
            pub const SPECS: &'static [Spec] = &[$(Spec {
                name: stringify!($name),
                default: stringify!($default),
                min: stringify!($min),
                max: stringify!($max),
                step: stringify!($step),
            }),*];

            /// The value of parameter `name` as `--set` takes it back, if there is one.
            pub fn value_text(&self, name: &str) -> Option<String> {
                match name {
                    $(stringify!($name) => Some(self.$name.to_string()),)*
                    _ => None,
                }
            }
        }
    };
}

/// `twixt-bot params`: every parameter a tuner can move (the numeric ones; switches are not
/// tuned but set), one a line: name, current value, min, max, step.
#[cfg(not(codingame))]
pub fn tunables(params: &Params) -> String {
    let numeric = Params::SPECS
        .iter()
        .filter(|s| s.step.parse::<f64>().is_ok());
    numeric
        .map(|s| {
            let value = params.value_text(s.name).unwrap_or_default();
            format!("{} {} {} {} {}\n", s.name, value, s.min, s.max, s.step)
        })
        .collect()
}

#[cfg(not(codingame))]
with_params!(define_specs);

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
        let error = p.set("speed", "1").unwrap_err();
        assert!(error.starts_with("unknown parameter 'speed' (known: exploration, win_in_two,"));
        assert_eq!(Params::NAMES.len(), 22);
        let declared: Vec<&str> = Params::SPECS.iter().map(|s| s.name).collect();
        assert_eq!(declared, Params::NAMES);
    }

    #[test]
    fn values_of_the_wrong_type_or_out_of_range_are_refused() {
        let mut p = Params::default();
        let refused = [
            ("clock_every", "0", "1..=4096"),
            ("exploration", "1.5", "0..=1"),
            ("exploration", "NaN", "0..=1"),
            ("exploration", "many", "0..=1"),
            ("expand_after", "-1", "1..=64"),
            ("expand_after", "2.5", "1..=64"),
            ("saves", "1", "false..=true"),
        ];
        for (name, value, range) in refused {
            let message = format!("parameter {name}: '{value}' is not a value in {range}");
            assert_eq!(p.set(name, value), Err(message), "{name}={value}");
        }
        assert_eq!(p, Params::default(), "a refused value changes nothing");
    }

    #[test]
    fn the_tunables_are_the_numeric_parameters_with_their_current_values() {
        let mut p = Params::default();
        p.set("exploration", "0.3").unwrap();
        let text = tunables(&p);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "exploration 0.3 0.0 1.0 0.05");
        assert!(lines.contains(&"expand_after 2 1 64 1"), "{text}");
        assert!(
            !text.contains("win_in_two") && !text.contains("saves"),
            "switches are not tuned"
        );
        let numeric = Params::SPECS.iter().filter(|s| s.step != "true").count();
        assert_eq!(lines.len(), numeric);
        for line in lines {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(words.len(), 5, "{line}");
            let mut q = Params::default();
            q.set(words[0], words[1])
                .expect("the value listed is one --set takes");
        }
    }

    #[test]
    fn every_default_lies_in_its_range_and_every_step_fits_it() {
        for spec in Params::SPECS {
            let mut p = Params::default();
            for bound in [spec.min, spec.default, spec.max] {
                p.set(spec.name, bound).unwrap();
            }
            p.set(spec.name, spec.default).unwrap();
            assert_eq!(
                p,
                Params::default(),
                "{} is declared as its default",
                spec.name
            );
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
