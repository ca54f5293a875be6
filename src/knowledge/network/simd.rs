//! The network's integer loops: on the host in AVX2 where the processor has it, asked at run time
//! (the baseline x86-64 code has no AVX2), and in plain Rust elsewhere and in the bundle, where the
//! AVX2 loops did not show in the iterations a turn (at 99e3d1f `perf` put their additions at 1.7%
//! of a turn) and their room went to knowledge. Both give the same integers: the sums wrap at
//! `i32`'s range, which makes them independent of the order of their additions (and exact where the
//! network's scales keep them in range), so a search is the same search with either (the tests
//! compare both with sums in `i64`, and with each other along random games).
//!
//! The vector loops round `h` up to whole vectors (8 units for the accumulators, 16 for the
//! clipped units); the weights and units past `h` are 0, as [`super::Network`] keeps them.

use super::MAX_HIDDEN;

/// Which loops run the network's arithmetic. Only [`Kernel::detected`] gives the AVX2 loops,
/// so safe code cannot ask a processor without AVX2 to run them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Loops);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loops {
    /// Plain Rust, which the compiler vectorises for the baseline target only.
    Scalar,
    /// 256-bit integer vectors (x86-64 processors since 2013, and CodinGame's).
    #[cfg(all(target_arch = "x86_64", not(codingame)))]
    Avx2,
}

impl Kernel {
    /// The plain Rust loops, which every processor runs.
    pub const SCALAR: Kernel = Kernel(Loops::Scalar);

    /// The fastest kernel this processor runs.
    pub fn detected() -> Kernel {
        #[cfg(all(target_arch = "x86_64", not(codingame)))]
        {
            if std::is_x86_feature_detected!("avx2") {
                return Kernel(Loops::Avx2);
            }
        }
        Kernel::SCALAR
    }

    /// Every kernel this processor runs, the scalar one first.
    #[cfg(not(codingame))]
    pub fn available() -> Vec<Kernel> {
        let mut all = vec![Kernel::SCALAR];
        let fastest = Kernel::detected();
        if fastest != Kernel::SCALAR {
            all.push(fastest);
        }
        all
    }

    /// The loops' name: `scalar` or `avx2`.
    #[cfg(not(codingame))]
    pub fn name(self) -> &'static str {
        match self.0 {
            Loops::Scalar => "scalar",
            #[cfg(all(target_arch = "x86_64", not(codingame)))]
            Loops::Avx2 => "avx2",
        }
    }

    /// Adds the first `h` weights of each row to the units.
    #[inline]
    pub fn add_rows(self, units: &mut [i32; MAX_HIDDEN], added: &[&[i16; MAX_HIDDEN]], h: usize) {
        match self.0 {
            // SAFETY: only `detected` makes `Avx2`, where the processor runs AVX2.
            #[cfg(all(target_arch = "x86_64", not(codingame)))]
            Loops::Avx2 => unsafe { avx2_add_rows(units, added, h) },
            _ => {
                for row in added {
                    for (u, &w) in units[..h].iter_mut().zip(&row[..h]) {
                        *u = u.wrapping_add(i32::from(w));
                    }
                }
            }
        }
    }

    /// The first `h` units clipped to `0..=qa` (at most `i16::MAX`), written to `out`.
    #[inline]
    pub fn clip(self, units: &[i32; MAX_HIDDEN], qa: i32, h: usize, out: &mut [i16; MAX_HIDDEN]) {
        match self.0 {
            // SAFETY: as in `add_rows`.
            #[cfg(all(target_arch = "x86_64", not(codingame)))]
            Loops::Avx2 => unsafe { avx2_clip(units, qa, h, out) },
            _ => {
                for (o, &v) in out[..h].iter_mut().zip(&units[..h]) {
                    *o = v.clamp(0, qa) as i16;
                }
            }
        }
    }

    /// `Σ a[j]·b[j]` over the first `h` entries, exact.
    #[inline]
    pub fn dot(self, a: &[i16; MAX_HIDDEN], b: &[i16], h: usize) -> i32 {
        let b: &[i16] = &b[..MAX_HIDDEN];
        match self.0 {
            // SAFETY: as in `add_rows`; `b` has MAX_HIDDEN entries, as `a` has.
            #[cfg(all(target_arch = "x86_64", not(codingame)))]
            Loops::Avx2 => unsafe { avx2_dot(a, b, h) },
            _ => a[..h].iter().zip(&b[..h]).fold(0, |sum, (&x, &w)| {
                sum.wrapping_add(i32::from(x) * i32::from(w))
            }),
        }
    }
}

// The AVX2 loops. Each needs AVX2, and reads and writes whole vectors within the
// `MAX_HIDDEN` entries of its arrays (`vectors` never counts past them).
#[cfg(all(target_arch = "x86_64", not(codingame)))]
use std::arch::x86_64::*;

/// Whole vectors of `lanes` covering `h` units, never past `MAX_HIDDEN`.
#[cfg(all(target_arch = "x86_64", not(codingame)))]
#[inline(always)]
fn vectors(h: usize, lanes: usize) -> usize {
    ((h + lanes - 1) / lanes).min(MAX_HIDDEN / lanes)
}

// Slices give the vectors' addresses (`&units[8 * v..]`): the bundler would rename a raw
// pointer's `add`, which an item of the engine shares.
#[cfg(all(target_arch = "x86_64", not(codingame)))]
#[target_feature(enable = "avx2")]
unsafe fn avx2_add_rows(units: &mut [i32; MAX_HIDDEN], added: &[&[i16; MAX_HIDDEN]], h: usize) {
    for v in 0..vectors(h, 8) {
        let at = units[8 * v..].as_mut_ptr() as *mut __m256i;
        let mut sum = _mm256_loadu_si256(at);
        for row in added {
            let w = _mm_loadu_si128(row[8 * v..].as_ptr() as *const __m128i);
            sum = _mm256_add_epi32(sum, _mm256_cvtepi16_epi32(w));
        }
        _mm256_storeu_si256(at, sum);
    }
}

#[cfg(all(target_arch = "x86_64", not(codingame)))]
#[target_feature(enable = "avx2")]
unsafe fn avx2_clip(units: &[i32; MAX_HIDDEN], qa: i32, h: usize, out: &mut [i16; MAX_HIDDEN]) {
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi32(qa));
    for v in 0..vectors(h, 16) {
        let a = _mm256_loadu_si256(units[16 * v..].as_ptr() as *const __m256i);
        let b = _mm256_loadu_si256(units[16 * v + 8..].as_ptr() as *const __m256i);
        let a = _mm256_min_epi32(_mm256_max_epi32(a, zero), top);
        let b = _mm256_min_epi32(_mm256_max_epi32(b, zero), top);
        // Packing works within 128-bit halves: a0-3 b0-3 a4-7 b4-7, put back in order.
        let packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0b11_01_10_00);
        _mm256_storeu_si256(out[16 * v..].as_mut_ptr() as *mut __m256i, packed);
    }
}

#[cfg(all(target_arch = "x86_64", not(codingame)))]
#[target_feature(enable = "avx2")]
unsafe fn avx2_dot(a: &[i16; MAX_HIDDEN], b: &[i16], h: usize) -> i32 {
    let mut sum = _mm256_setzero_si256();
    for v in 0..vectors(h, 16) {
        let x = _mm256_loadu_si256(a[16 * v..].as_ptr() as *const __m256i);
        let y = _mm256_loadu_si256(b[16 * v..].as_ptr() as *const __m256i);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, y));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256(sum, 1),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}
