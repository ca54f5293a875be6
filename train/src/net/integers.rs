//! A model rounded to the integers that ship ([`Model::quantize`]), refused where the
//! engine would not give the model's arithmetic: a weight that is not finite (it has no
//! integer), a bias beyond what the format ships (clamping it would change the model), or a
//! sum that could leave `i32` in some position (the engine's sums wrap there, silently).

use super::model::Model;
use anyhow::{bail, Result};
use twixt::knowledge::network::local::LOCAL;
use twixt::knowledge::network::{
    Kernel, Network, PolicyHead, BIAS_LIMIT, MAX_HIDDEN, POLICY_HOLES,
};

/// The largest integer of `bits` bits (signed).
fn top(bits: u32) -> i32 {
    (1i32 << (bits - 1)) - 1
}

/// The scale that brings the largest of `ws` near `limit`, from 1 to `most`.
fn scale(ws: &[f32], limit: i32, most: i32) -> i32 {
    let max = ws.iter().fold(1e-6f32, |m, w| m.max(w.abs()));
    ((limit as f32 / max).floor() as i32).clamp(1, most)
}

/// `w` at scale `s`, rounded, within `±limit` (which the scale keeps it in).
fn q(w: f32, s: i32, limit: i32) -> i32 {
    (w * s as f32).round().clamp(-(limit as f32), limit as f32) as i32
}

/// A row of `ws` at scale `s`, each within `±limit`.
fn row(ws: &[f32], s: i32, limit: i32) -> [i16; MAX_HIDDEN] {
    let mut r = [0i16; MAX_HIDDEN];
    r.iter_mut()
        .zip(ws)
        .for_each(|(o, &w)| *o = q(w, s, limit) as i16);
    r
}

/// The bias `b` at scale `s`; an error naming it (`what`) where it is beyond
/// [`BIAS_LIMIT`], which the format ships: clamped, it would not be the model's.
fn bias(b: f32, s: i32, what: &dyn Fn() -> String) -> Result<i32> {
    let v = (b * s as f32).round();
    if v.abs() > BIAS_LIMIT as f32 {
        bail!(
            "{} {b} is {v} at its scale {s}, beyond the ±{BIAS_LIMIT} a bias ships in: \
             it would be clamped (ship fewer bits, or a smaller bias)",
            what()
        );
    }
    Ok(v as i32)
}

impl Model {
    /// The integers that ship, the input rows in `row_bits` bits and the policy's weights in
    /// `policy_bits`: each tensor scaled so that its largest weight is near its top level,
    /// the value's outputs at the finest scale 15 bits allow (at most 1024), each bias at its
    /// layer's scales. Refused, with the reason: a NaN or infinite weight (`as` would quietly
    /// make it 0), a bias that would be clamped, and a network whose sums could wrap in the
    /// engine ([`exact_in_i32`]).
    pub fn quantize(&self, row_bits: u32, policy_bits: u32) -> Result<Network> {
        if let Some((at, w)) = self.first_non_finite() {
            bail!("weight {at} is {w}: a model with a weight that is not finite cannot ship");
        }
        let (l, h) = (self.layout, self.layout.hidden);
        let p = &self.params;
        let rows = &p[..l.bias()];
        let qa = scale(rows, top(row_bits), 16383).min(scale(&p[l.bias()..l.out()], 16383, 16383));
        let qb = scale(&p[l.out()..l.out_bias()], 16383, 1024);
        let net = Network {
            hidden: h,
            row_bits,
            qa,
            qb,
            rows: rows.chunks(h).map(|r| row(r, qa, top(row_bits))).collect(),
            bias: row(&p[l.bias()..l.out()], qa, 16383),
            out: [
                row(&p[l.out()..][..h], qb, 16383),
                row(&p[l.out() + h..][..h], qb, 16383),
            ],
            out_bias: bias(p[l.out_bias()], qa * qb, &|| {
                "the value's output bias".into()
            })?,
            policy: self.policy_head(qa, policy_bits)?,
            kernel: Kernel::detected(),
        };
        exact_in_i32(&net)?;
        Ok(net)
    }

    /// The policy head's integers (see [`Model::quantize`]) for the input scale `qa`; `None`
    /// without a head.
    fn policy_head(&self, qa: i32, bits: u32) -> Result<Option<PolicyHead>> {
        let (l, h) = (self.layout, self.layout.hidden);
        if !l.policy {
            return Ok(None);
        }
        let p = &self.params;
        let weights = &p[l.policy()..l.policy_bias()];
        let qp = scale(weights, top(bits), 16383);
        let rows = weights
            .chunks(2 * h)
            .map(|w| {
                let mut r = [0i16; 2 * MAX_HIDDEN];
                r[..MAX_HIDDEN].copy_from_slice(&row(&w[..h], qp, top(bits)));
                r[MAX_HIDDEN..].copy_from_slice(&row(&w[h..], qp, top(bits)));
                r
            })
            .collect();
        let biases = |from: usize, n: usize, what: &str| {
            p[from..][..n]
                .iter()
                .enumerate()
                .map(|(k, &b)| bias(b, qa * qp, &|| format!("the policy's {what} {k}")))
                .collect::<Result<Vec<i32>>>()
        };
        Ok(Some(PolicyHead {
            bits,
            qp,
            rows,
            bias: biases(l.policy_bias(), POLICY_HOLES, "bias of hole")?,
            local: biases(l.local(), LOCAL, "local weight")?,
        }))
    }
}

/// Checks that every sum the engine makes of `net`'s integers stays within `i32` in any
/// position, by its worst case: a hidden unit's bias and every input row at once; the
/// value's output bias and every unit at its clip `qa`; a hole's policy bias, every local
/// weight at once and every unit at `qa`. The engine's sums wrap past `i32` (its loops add
/// in `i32`), so a network that could reach there is refused, the sum and bound named.
pub fn exact_in_i32(net: &Network) -> Result<()> {
    let h = net.hidden;
    let abs = |w: &[i16]| w.iter().map(|&w| i64::from(w).abs()).sum::<i64>();
    let qa = i64::from(net.qa);
    for j in 0..h {
        let column = net.rows.iter().map(|r| i64::from(r[j]).abs()).sum::<i64>();
        within(i64::from(net.bias[j]).abs() + column, || {
            format!("hidden unit {j} (its bias and every input row)")
        })?;
    }
    let out = abs(&net.out[0][..h]) + abs(&net.out[1][..h]);
    within(i64::from(net.out_bias).abs() + qa * out, || {
        format!("the value's sum (its bias and its output weights, qa = {qa})")
    })?;
    if let Some(head) = &net.policy {
        let local: i64 = head.local.iter().map(|&w| i64::from(w).abs()).sum();
        for (k, r) in head.rows.iter().enumerate() {
            let units = abs(&r[..h]) + abs(&r[MAX_HIDDEN..][..h]);
            within(i64::from(head.bias[k]).abs() + local + qa * units, || {
                format!("the policy's logit of hole {k} (its bias, the local weights and its row, qa = {qa})")
            })?;
        }
    }
    Ok(())
}

/// An error naming `what` where its worst case `worst` is beyond `i32`.
fn within(worst: i64, what: impl Fn() -> String) -> Result<()> {
    if worst > i64::from(i32::MAX) {
        bail!(
            "{} can reach {worst} in the engine, beyond i32's {}: its sums would wrap \
             (ship fewer bits, or smaller weights)",
            what(),
            i32::MAX
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use twixt::knowledge::network::Layout;

    fn model(policy: bool) -> Model {
        Model::new(3, Layout { hidden: 32, policy })
    }

    /// A model whose tiny input rows and hidden biases give the largest accumulator scale,
    /// 16383.
    fn at_the_largest_scale(policy: bool) -> Model {
        let mut m = model(policy);
        let out = m.layout.out();
        m.params[..out].iter_mut().for_each(|w| *w = 1e-6);
        m
    }

    fn error(m: &Model, bits: (u32, u32)) -> String {
        match m.quantize(bits.0, bits.1) {
            Ok(_) => panic!("the model was quantized"),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn a_model_whose_value_sum_could_wrap_is_refused_and_named() {
        // Large output weights give the value's scale 16383 / 20: 64 units at 16383 · 16380.
        let mut m = at_the_largest_scale(false);
        let l = m.layout;
        m.params[l.out()..l.out_bias()].fill(20.0);
        let e = error(&m, (8, 8));
        assert!(e.starts_with("the value's sum"), "{e}");
        assert!(
            e.contains("qa = 16383") && e.contains("beyond i32's 2147483647"),
            "{e}"
        );
        // Small output weights at the same scale stay in range.
        m.params[l.out()..l.out_bias()].fill(0.5);
        assert!(m.quantize(8, 8).is_ok());
    }

    #[test]
    fn a_policy_logit_that_could_wrap_is_refused_with_its_hole() {
        // Policy weights at their 15-bit top: 64 units at 16383 · 16383.
        let mut m = at_the_largest_scale(true);
        let l = m.layout;
        m.params[l.policy()..l.policy_bias()].fill(1.0);
        let e = error(&m, (15, 15));
        assert!(e.starts_with("the policy's logit of hole 0"), "{e}");
    }

    #[test]
    fn a_bias_that_would_be_clamped_is_refused_and_named() {
        let mut m = model(true);
        let l = m.layout;
        m.params[l.policy_bias() + 5] = 1e9;
        let e = error(&m, (8, 8));
        assert!(
            e.starts_with("the policy's bias of hole 5 1000000000 is "),
            "{e}"
        );
        assert!(e.contains(&format!("beyond the ±{BIAS_LIMIT}")), "{e}");
        let mut m = model(false);
        let l = m.layout;
        m.params[l.out_bias()] = -1e9;
        let e = error(&m, (8, 8));
        assert!(
            e.starts_with("the value's output bias -1000000000 is "),
            "{e}"
        );
    }

    #[test]
    fn the_worst_sums_of_a_sound_model_fit() {
        for policy in [false, true] {
            let net = model(policy).quantize(8, 8).unwrap();
            exact_in_i32(&net).unwrap();
        }
    }
}
