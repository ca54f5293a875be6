//! The shipped network's arithmetic on a training sample, written from the network's
//! description rather than through the engine's accumulator: the trainer's side of the
//! check that both give the same value.

use super::samples::Sample;
use twixt::knowledge::network::{Network, HIDDEN, QA, QB};

/// The chance that the mover of `s` wins, by the integers of `net`.
pub fn value(net: &Network, s: &Sample) -> f32 {
    let mut sum = i64::from(net.out_bias);
    for (half, view) in s.views.iter().enumerate() {
        for j in 0..HIDDEN {
            let unit: i64 = i64::from(net.bias[j])
                + view
                    .iter()
                    .map(|&i| i64::from(net.rows[i as usize][j]))
                    .sum::<i64>();
            sum += unit.clamp(0, i64::from(QA)) * i64::from(net.out[half][j]);
        }
    }
    // The engine's last steps in the engine's precision, so that both give the same bits.
    let logit = sum as f32 / (QA * QB) as f32;
    1.0 / (1.0 + (-logit).exp())
}
