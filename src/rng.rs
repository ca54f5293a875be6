//! A small, fast random number generator for playouts (wyrand).

/// wyrand: one multiply per number, 64-bit state, good enough statistics for playouts.
#[derive(Clone, Debug)]
pub struct FastRng {
    state: u64,
}

impl FastRng {
    /// A generator from a seed (every seed, 0 included, gives a distinct stream).
    pub fn new(seed: u64) -> FastRng {
        FastRng { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn bits(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.state as u128).wrapping_mul((self.state ^ 0xe703_7ed1_a0b4_28db) as u128);
        (t >> 64) as u64 ^ t as u64
    }

    /// A number in `0..n` (`n` > 0), by multiply-shift: no division, bias below 2^-32.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.bits() >> 32) * n as u64) >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = FastRng::new(7);
        let mut seen = [0u32; 13];
        for _ in 0..13_000 {
            seen[rng.below(13) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
    }

    #[test]
    fn seeds_give_repeatable_streams() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = FastRng::new(1);
                move |_| r.bits()
            })
            .collect();
        let mut b = FastRng::new(1);
        assert_eq!(a, (0..4).map(|_| b.bits()).collect::<Vec<_>>());
    }
}
