//! Every tunable search parameter, declared once.

/// Search parameters. [`Params::default`] is what the bot plays with.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// UCT exploration constant `c` in `w/n + c * sqrt(ln N / n)`, values in [0, 1].
    pub exploration: f32,
    /// Visits a leaf needs before its children are added.
    pub expand_after: u32,
    /// Most tree nodes kept (memory bound: about 16 bytes each).
    pub max_nodes: usize,
    /// Iterations between two looks at the clock.
    pub clock_every: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            exploration: 0.6,
            expand_after: 2,
            max_nodes: 4_000_000,
            clock_every: 64,
        }
    }
}
