//! The report's plots, drawn as inline SVG: a line over the games (the score, the LLR) and a
//! histogram of answer times with the clock marked. No script and no library: the page must
//! show them offline and as printed.

use super::page::escape;
use std::fmt::Write;

const WIDTH: f64 = 460.0;
const HEIGHT: f64 = 230.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 36.0;

/// A closed range of values on one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    /// The value at the axis's start.
    pub lo: f64,
    /// The value at the axis's end.
    pub hi: f64,
}

impl Span {
    /// The span from `lo` to `hi`, widened to a unit when they meet.
    pub fn new(lo: f64, hi: f64) -> Span {
        if hi > lo {
            Span { lo, hi }
        } else {
            Span { lo, hi: lo + 1.0 }
        }
    }

    fn at(self, v: f64, from: f64, to: f64) -> f64 {
        from + (v - self.lo) / (self.hi - self.lo) * (to - from)
    }
}

/// The smallest of 1, 2 or 5 times a power of ten that is at least `raw` (positive).
pub fn nice(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power)
}

/// Round tick values covering `span`: steps of 1, 2 or 5 times a power of ten, four to ten.
pub fn ticks(span: Span) -> Vec<f64> {
    let step = nice((span.hi - span.lo) / 6.0);
    let first = (span.lo / step).ceil() as i64;
    let last = (span.hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// One plot being drawn.
pub struct Chart {
    x: Span,
    y: Span,
    body: String,
}

impl Chart {
    /// An empty plot of `x` against `y`.
    pub fn new(x: Span, y: Span) -> Chart {
        Chart {
            x,
            y,
            body: String::new(),
        }
    }

    fn px(&self, v: f64) -> f64 {
        self.x.at(v, LEFT, WIDTH - RIGHT)
    }

    fn py(&self, v: f64) -> f64 {
        self.y.at(v, HEIGHT - BOTTOM, TOP)
    }

    /// A polyline through `points`.
    pub fn line(&mut self, points: &[(f64, f64)], colour: &str) {
        let coords: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y)))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            coords.join(" ")
        );
    }

    /// A dashed horizontal line at `y` with a label at its right end.
    pub fn level(&mut self, y: f64, colour: &str, label: &str) {
        let (x1, x2, py) = (LEFT, WIDTH - RIGHT, self.py(y));
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1}" y1="{py:.1}" x2="{x2}" y2="{py:.1}" stroke="{colour}" stroke-dasharray="5 4"/><text x="{:.1}" y="{:.1}" class="note" text-anchor="end" fill="{colour}">{}</text>"#,
            x2 - 2.0,
            py - 4.0,
            escape(label)
        );
    }

    /// A dashed vertical line at `x` with a label at its top.
    pub fn mark(&mut self, x: f64, colour: &str, label: &str) {
        let px = self.px(x);
        let _ = writeln!(
            self.body,
            r#"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="5 3"/><text x="{:.1}" y="{}" class="note" text-anchor="end" fill="{colour}">{}</text>"#,
            HEIGHT - BOTTOM,
            px - 3.0,
            TOP + 10.0,
            escape(label)
        );
    }

    /// A bar from `x0` to `x1`, from `y0` up to `y1`.
    pub fn bar(&mut self, (x0, x1): (f64, f64), (y0, y1): (f64, f64), colour: &str) {
        let (left, right) = (self.px(x0), self.px(x1));
        let (top, bottom) = (self.py(y1), self.py(y0));
        let _ = writeln!(
            self.body,
            r#"<rect x="{left:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="{colour}"/>"#,
            (right - left - 0.5).max(0.5),
            bottom - top
        );
    }

    /// Names in their colours, one a line, at the top left of the frame.
    pub fn legend(&mut self, entries: &[(String, &str)]) {
        for (i, (text, colour)) in entries.iter().enumerate() {
            let _ = writeln!(
                self.body,
                r#"<text x="{}" y="{}" class="note" fill="{colour}">{}</text>"#,
                LEFT + 6.0,
                TOP + 12.0 + 12.0 * i as f64,
                escape(text)
            );
        }
    }

    /// The finished picture: title, axes with their ticks and labels, the drawing.
    pub fn finish(self, title: &str, x_label: &str, y_label: &str) -> String {
        let mut out = format!(
            r#"<svg class="plot" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"><title>{t}</title><text x="{LEFT}" y="16" class="ptitle">{t}</text>"#,
            t = escape(title)
        );
        let (bottom, right) = (HEIGHT - BOTTOM, WIDTH - RIGHT);
        let _ = write!(
            out,
            r##"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="#fffdf8" stroke="#bbb"/>"##,
            right - LEFT,
            bottom - TOP
        );
        for t in ticks(self.x) {
            let x = self.px(t);
            let _ = write!(
                out,
                r#"<text x="{x:.1}" y="{}" class="tick" text-anchor="middle">{}</text>"#,
                bottom + 14.0,
                number(t)
            );
        }
        for t in ticks(self.y) {
            let y = self.py(t);
            let _ = write!(
                out,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{right}" y2="{y:.1}" stroke="#eee"/><text x="{}" y="{:.1}" class="tick" text-anchor="end">{}</text>"##,
                LEFT - 4.0,
                y + 4.0,
                number(t)
            );
        }
        out.push_str(&self.body);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{}" class="tick" text-anchor="middle">{}</text><text x="12" y="{:.1}" class="tick" text-anchor="middle" transform="rotate(-90 12 {:.1})">{}</text></svg>"#,
            (LEFT + right) / 2.0,
            HEIGHT - 4.0,
            escape(x_label),
            (TOP + bottom) / 2.0,
            (TOP + bottom) / 2.0,
            escape(y_label)
        );
        out
    }
}

/// A tick's value without a useless fraction.
fn number(v: f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{}", v as i64)
    } else {
        format!("{v:.1}")
    }
}

/// Counts of `values` in bins of `width` from 0: `counts[k]` holds `[k*width, (k+1)*width)`.
pub fn bin(values: &[u64], width: u64, bins: usize) -> Vec<u64> {
    let mut counts = vec![0; bins];
    for &v in values {
        counts[((v / width.max(1)) as usize).min(bins - 1)] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside_the_span() {
        assert_eq!(
            ticks(Span::new(0.0, 100.0)),
            [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(ticks(Span::new(-2.94, 2.94)), [-2.0, -1.0, 0.0, 1.0, 2.0]);
        assert_eq!(ticks(Span::new(0.0, 7.0)), [0.0, 2.0, 4.0, 6.0]);
        assert_eq!(ticks(Span::new(5.0, 5.0)), ticks(Span::new(5.0, 6.0)));
    }

    #[test]
    fn nice_steps_are_one_two_or_five_times_a_power_of_ten() {
        let got: Vec<f64> = [0.3, 1.0, 1.5, 4.0, 7.0, 18.0]
            .iter()
            .map(|&r| nice(r))
            .collect();
        assert_eq!(got, [0.5, 1.0, 2.0, 5.0, 10.0, 20.0]);
    }

    #[test]
    fn values_fall_in_their_bins_and_the_last_takes_the_rest() {
        assert_eq!(bin(&[0, 9, 10, 25, 999], 10, 3), [2, 1, 2]);
    }

    #[test]
    fn a_chart_maps_its_spans_onto_the_frame() {
        let mut c = Chart::new(Span::new(0.0, 10.0), Span::new(0.0, 1.0));
        c.line(&[(0.0, 0.0), (10.0, 1.0)], "red");
        let svg = c.finish("t", "games", "score <%>");
        let corner = |x: f64, y: f64| format!("{x:.1},{y:.1}");
        let expected = format!(
            "{} {}",
            corner(LEFT, HEIGHT - BOTTOM),
            corner(WIDTH - RIGHT, TOP)
        );
        assert!(svg.contains(&expected), "{svg}");
        assert!(svg.contains("score &lt;%&gt;"));
    }
}
