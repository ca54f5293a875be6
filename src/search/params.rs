//! Every tunable search parameter, declared once: the struct, its defaults and the setter
//! behind `twixt-bot --set NAME=VALUE` all come from the one list below.

macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:expr,)*) => {
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

            /// Sets one parameter from text (`--set NAME=VALUE`).
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
                match name {
                    $(stringify!($name) => {
                        self.$name = value
                            .parse()
                            .map_err(|_| format!("parameter {}: '{}' is not a {}", name, value, stringify!($ty)))?;
                        Ok(())
                    })*
                    _ => Err(format!("unknown parameter '{}' (known: {})", name, Self::NAMES.join(", "))),
                }
            }
        }
    };
}

params! {
    /// UCT exploration constant `c` in `q + c * sqrt(ln N / n)`, values in [0, 1].
    exploration: f32 = 0.35,
    /// MCTS-solver: back up proven wins and losses, take proven wins, avoid proven losses.
    solver: bool = false,
    /// Keep the subtree of the position reached after our move and the opponent's reply.
    reuse_tree: bool = false,
    /// Playouts answer an intrusion into a two-way connection ([`super::policy`]).
    saves: bool = true,
    /// Visits a leaf needs before its children are added (besides its prior's).
    expand_after: u32 = 2,
    /// Virtual visits each new child starts with ([`super::prior`]); 0: no priors, and
    /// unvisited children are tried first.
    prior_visits: u32 = 10,
    /// Prior value of a hole with no peg within two columns and rows.
    prior_far: f32 = 0.3,
    /// Prior value of a hole with a peg within two columns and rows.
    prior_near: f32 = 0.45,
    /// Added to the prior of a hole a knight's move from one of the mover's pegs.
    prior_link: f32 = 0.1,
    /// Added to the prior of a hole a knight's move from one of the opponent's pegs.
    prior_block: f32 = 0.05,
    /// Most tree nodes kept (memory bound: 16 bytes each).
    max_nodes: usize = 4_000_000,
    /// Iterations between two looks at the clock.
    clock_every: u64 = 64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_set_by_name() {
        let mut p = Params::default();
        p.set("exploration", "0.25").unwrap();
        assert_eq!(p.exploration, 0.25);
        assert!(p
            .set("exploration", "many")
            .unwrap_err()
            .contains("not a f32"));
        assert!(p
            .set("speed", "1")
            .unwrap_err()
            .contains("unknown parameter 'speed'"));
        assert_eq!(Params::NAMES.len(), 12);
    }
}
