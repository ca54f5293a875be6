//! The shipped network's arithmetic on a training sample, written from the network's
//! description rather than through the engine's accumulator: the trainer's side of the
//! check that both give the same value and the same logits.

use super::samples::Sample;
use twixt::knowledge::network::{hole_cell, local, Network, MAX_HIDDEN};

/// Each view's units of `s`, clipped to `0..=qa`: the mover's, then the opponent's.
fn clipped(net: &Network, s: &Sample) -> Vec<[i64; MAX_HIDDEN]> {
    s.views
        .iter()
        .map(|view| {
            let mut u = [0i64; MAX_HIDDEN];
            for (j, unit) in u.iter_mut().enumerate().take(net.hidden) {
                let sum: i64 = i64::from(net.bias[j])
                    + view
                        .iter()
                        .map(|&i| i64::from(net.rows[i as usize][j]))
                        .sum::<i64>();
                *unit = sum.clamp(0, i64::from(net.qa));
            }
            u
        })
        .collect()
}

/// The chance that the mover of `s` wins, by the integers of `net`.
pub fn value(net: &Network, s: &Sample) -> f32 {
    let u = clipped(net, s);
    let mut sum = i64::from(net.out_bias);
    for (units, out) in u.iter().zip(&net.out) {
        for (&unit, &w) in units.iter().zip(out).take(net.hidden) {
            sum += unit * i64::from(w);
        }
    }
    // The engine's last steps in the engine's precision, so that both give the same bits.
    let logit = sum as f32 / (net.qa * net.qb) as f32;
    1.0 / (1.0 + (-logit).exp())
}

/// The policy's logits of the mover's holes `holes` in `s`, by the integers of `net`; `None`
/// without a policy head.
pub fn logits(net: &Network, s: &Sample, holes: &[u16]) -> Option<Vec<f32>> {
    let head = net.policy.as_ref()?;
    let u = clipped(net, s);
    let around = s.surroundings();
    let scale = 1.0 / (net.qa * head.qp) as f32;
    let logit = |k: usize| {
        let mut sum = i64::from(head.bias[k]);
        for (half, units) in u.iter().enumerate() {
            let row = &head.rows[k][half * MAX_HIDDEN..];
            for (&unit, &w) in units.iter().zip(row).take(net.hidden) {
                sum += unit * i64::from(w);
            }
        }
        let v = hole_cell(k);
        local::each(
            v,
            |w| around.holds(v, w),
            |i| sum += i64::from(head.local[i]),
        );
        sum as f32 * scale
    };
    Some(holes.iter().map(|&k| logit(k as usize)).collect())
}
