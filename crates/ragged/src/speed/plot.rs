//! `--plot`: MB/s against message size, one panel per primitive in a grid that fits a
//! 1920×1080 screen, one line per implementation, as SVG.
//!
//! - x: the message size, log scale.
//! - y: MB/s, log scale where the panel's rates span more than 10x (or everywhere with
//!   `--plot-log-y`; linear everywhere with `--plot-linear-y`), so the 16–256 B rates
//!   are not squashed under the 64 KiB ones.
//! - memcpy and memmove: one line per implementation *and* offset: the colour is the
//!   implementation, the dash pattern the offset (memmove's distances as ±1 and
//!   ±size/2), both explained in the legend.
//! - A line joins measured sizes only where they are close (at most [`GAP`] apart): a
//!   wider gap, such as 64 KiB to 400 MB, is left open, and the points at its ends
//!   stand alone. Sizes an implementation did not run at have no point.
//! - Colours are fixed per implementation (the same in every panel) and dark enough to
//!   read on white; ragged's line is the thickest.
//!
//! plotters' SVG backend writes text as SVG `<text>` elements, so no font is read or
//! needed at build or run time; the viewer renders the labels.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::registry::Role;
use super::sizes;
use super::timing::Measurement;

/// The y axis scale, chosen per panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YScale {
    /// Log where the panel's rates span more than [`LOG_SPAN`]x, linear otherwise.
    Auto,
    /// Log in every panel.
    Log,
    /// Linear (from 0) in every panel.
    Linear,
}

/// The spread of rates above which `Auto` draws a log y axis.
const LOG_SPAN: f64 = 10.0;

/// Two measured sizes further apart than this factor are not joined by a line.
const GAP: f64 = 32.0;

/// The whole chart: a screen (more than two panels), or 960×540 a panel.
const SCREEN: (u32, u32) = (1920, 1080);
const PANEL: (u32, u32) = (960, 540);
const TITLE_HEIGHT: u32 = 36;
/// The legend's strip at the right of each panel.
const LEGEND_WIDTH: u32 = 150;

/// Fixed colours per implementation, dark enough to read on white (no yellow).
const COLOURS: &[(&str, RGBColor)] = &[
    ("ragged", RGBColor(31, 90, 180)),
    ("rustcrypto", RGBColor(200, 30, 40)),
    ("ring", RGBColor(30, 140, 50)),
    ("openssl", RGBColor(130, 70, 180)),
    ("libsodium", RGBColor(220, 100, 0)),
    ("glibc", RGBColor(200, 30, 40)),
    ("ragged-word", RGBColor(0, 150, 160)),
    ("coaligned-only", RGBColor(130, 80, 60)),
    ("bytewise", RGBColor(90, 90, 90)),
];

/// For other names (ragged's backends under `--backends`), in order of appearance.
const EXTRA: &[RGBColor] = &[
    RGBColor(0, 150, 160),
    RGBColor(190, 60, 150),
    RGBColor(130, 80, 60),
    RGBColor(90, 90, 90),
    RGBColor(110, 120, 20),
    RGBColor(60, 60, 140),
];

/// Dash patterns per offset (length, gap), in order of appearance; the first solid.
/// Each offset also has its own marker shape (see [`marker`]).
const DASHES: &[(u32, u32)] = &[(0, 0), (12, 5), (2, 3), (4, 9)];

/// The chart of `results` as an SVG document.
pub fn svg(cpu: &str, results: &[Measurement], scale: YScale) -> Result<String, String> {
    let mut doc = String::new();
    draw(&mut doc, cpu, results, scale).map_err(|e| format!("cannot draw the chart: {e}"))?;
    Ok(doc)
}

/// Rows and columns for `n` panels.
fn grid(n: usize) -> (usize, usize) {
    match n {
        0 | 1 => (1, 1),
        2 => (1, 2),
        3 | 4 => (2, 2),
        5 | 6 => (2, 3),
        _ => (n.div_ceil(3), 3),
    }
}

fn draw(
    doc: &mut String,
    cpu: &str,
    results: &[Measurement],
    scale: YScale,
) -> Result<(), Box<dyn std::error::Error>> {
    let primitives = unique(results.iter().map(|m| m.primitive));
    let (rows, cols) = grid(primitives.len());
    let size = match cols {
        1 => (PANEL.0, PANEL.1 + TITLE_HEIGHT),
        2 if rows == 1 => (SCREEN.0, PANEL.1 + TITLE_HEIGHT),
        _ => SCREEN,
    };
    let root = SVGBackend::with_string(doc, size).into_drawing_area();
    root.fill(&WHITE)?;
    let body = root.titled(
        &format!("ragged speed: MB/s (10^6 bytes/s) against message size; {cpu}"),
        ("sans-serif", 24),
    )?;
    let colours = colours(results);
    for (area, primitive) in body.split_evenly((rows, cols)).iter().zip(&primitives) {
        let rows: Vec<&Measurement> = results
            .iter()
            .filter(|m| m.primitive == *primitive)
            .collect();
        panel(area, primitive, &rows, scale, &colours)?;
    }
    root.present()?;
    Ok(())
}

/// The colour of every implementation in `results`.
fn colours(results: &[Measurement]) -> Vec<(String, RGBColor)> {
    let mut extra = EXTRA.iter().cycle();
    unique(results.iter().map(|m| m.implementation.as_str()))
        .into_iter()
        .map(|name| {
            let colour = COLOURS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, c)| *c)
                .unwrap_or_else(|| *extra.next().expect("a cycle"));
            (name.to_string(), colour)
        })
        .collect()
}

/// The offset's line, by what it means: memmove's distance is ±1 or ±size/2 (the
/// same line at every size), any other primitive's offset is itself.
fn offset_class(m: &Measurement) -> String {
    if m.primitive == "memmove" && m.case.offset.unsigned_abs() != 1 {
        let sign = if m.case.offset < 0 { '-' } else { '+' };
        format!("{sign}size/2")
    } else {
        format!("{:+}", m.case.offset)
    }
}

/// Runs of points (sorted by size) in which neighbours are at most [`GAP`] apart.
fn runs(mut points: Vec<(f64, f64)>) -> Vec<Vec<(f64, f64)>> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    for p in points {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|q| p.0 <= q.0 * GAP) => run.push(p),
            _ => runs.push(vec![p]),
        }
    }
    runs
}

/// Size ticks inside `min..=max`: powers of 4 (16, 64, 256, 1K, …; of 16 over a range
/// wider than 2^20), and the sizes `measured` that are not powers of two (1420,
/// 400000000) where there are at most three, each replacing the power ticks too close
/// to it to label apart (1420 replaces 1K; over a wide range 256 and 4K too).
fn size_ticks(min: f64, max: f64, measured: &[usize]) -> Vec<f64> {
    let base: f64 = if max / min > f64::from(1 << 20) {
        16.0
    } else {
        4.0
    };
    let mut ticks: Vec<f64> = (0..32)
        .map(|i| base.powi(i))
        .filter(|&t| t >= min && t <= max)
        .collect();
    let odd: Vec<f64> = measured
        .iter()
        .filter(|s| !s.is_power_of_two())
        .map(|&s| s as f64)
        .collect();
    if odd.len() <= 3 {
        // Labels need the same room on either axis width: a factor of 2 on a range
        // ticked in powers of 4, of 8 on one ticked in powers of 16.
        ticks.retain(|t| odd.iter().all(|o| (t / o).max(o / t) >= base / 2.0));
        ticks.extend(odd);
        ticks.sort_by(f64::total_cmp);
    }
    ticks
}

/// A size on the x axis: `1420`, `4K` and `64M` (binary, where exact in MiB or KiB
/// up to 1 MiB), `400e6` (decimal millions where exact: 400 MB is 390625 KiB, which
/// says less).
fn size_label(size: usize) -> String {
    if size >= 1_000_000 && size.is_multiple_of(1_000_000) && !size.is_multiple_of(1 << 20) {
        format!("{}e6", size / 1_000_000)
    } else {
        sizes::label(size)
    }
}

/// Ticks at 1, 2, 5 × 10^k inside `lo..=hi` (only the powers of ten where that would
/// be more than 9 ticks).
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let steps: &[f64] = if hi / lo > 1000.0 {
        &[1.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let mut ticks = Vec::new();
    let mut decade = 10f64.powi(lo.log10().floor() as i32);
    while decade <= hi {
        for step in steps {
            let t = decade * step;
            if t >= lo && t <= hi {
                ticks.push(t);
            }
        }
        decade *= 10.0;
    }
    ticks
}

/// Ticks at a round step (1, 2 or 5 × 10^k) from 0 to `top`, about six of them.
fn linear_ticks(top: f64) -> Vec<f64> {
    let raw = top / 6.0;
    let magnitude = 10f64.powi(raw.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|s| s * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(raw);
    (0..)
        .map(|i| i as f64 * step)
        .take_while(|t| *t <= top)
        .collect()
}

/// A rate for an axis label: `250`, `2000`, `0.5`.
fn rate_label(rate: f64) -> String {
    if rate >= 1.0 || rate == 0.0 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.2}")
    }
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    primitive: &str,
    rows: &[&Measurement],
    scale: YScale,
    colours: &[(String, RGBColor)],
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let (plot_area, legend_area) = area.split_horizontally(area.dim_in_pixel().0 - LEGEND_WIDTH);
    let min = rows.iter().map(|m| m.case.size).min().unwrap_or(1) as f64;
    let max = rows.iter().map(|m| m.case.size).max().unwrap_or(1) as f64;
    let (min, max) = if min < max {
        (min / 1.25, max * 1.25)
    } else {
        (min / 2.0, max * 2.0)
    };
    let x_ticks = size_ticks(min, max, &unique(rows.iter().map(|m| m.case.size)));

    let rates: Vec<f64> = rows
        .iter()
        .map(|m| m.mb_per_s)
        .filter(|r| *r > 0.0)
        .collect();
    let lo = rates.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = rates.iter().copied().fold(0.0, f64::max);
    let (lo, hi) = if rates.is_empty() {
        (1.0, 10.0)
    } else {
        (lo, hi)
    };
    let log = match scale {
        YScale::Log => true,
        YScale::Linear => false,
        YScale::Auto => hi / lo > LOG_SPAN,
    };
    // A log axis is drawn as log10(rate) on a linear one, labelled with the rates.
    let to_y: fn(f64) -> f64 = if log { f64::log10 } else { |r| r };
    let (y_range, y_ticks): (Range<f64>, Vec<f64>) = if log {
        let (bottom, top) = (lo / 1.4, hi * 1.4);
        let ticks = log_ticks(bottom, top).into_iter().map(f64::log10).collect();
        (bottom.log10()..top.log10(), ticks)
    } else {
        let top = hi * 1.08;
        (0.0..top, linear_ticks(top))
    };
    let y_desc = if log { "MB/s (log scale)" } else { "MB/s" };

    let mut chart = ChartBuilder::on(&plot_area)
        .caption(primitive, ("sans-serif", 22))
        .margin(8)
        .margin_right(24)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(
            (min..max).log_scale().with_key_points(x_ticks),
            YAxis {
                linear: y_range.into(),
                ticks: y_ticks,
            },
        )?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(BLACK.mix(0.12))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 15))
        .x_desc("message size (bytes, log scale)")
        .y_desc(y_desc)
        .x_label_formatter(&|x| size_label(x.round() as usize))
        .y_label_formatter(&|y| rate_label(if log { 10f64.powf(*y) } else { *y }))
        .draw()?;

    let names = unique(rows.iter().map(|m| (m.implementation.as_str(), m.role)));
    let classes = unique(rows.iter().map(|m| offset_class(m)));
    for (name, role) in &names {
        let colour = colours
            .iter()
            .find(|(n, _)| n == name)
            .map_or(BLACK, |(_, c)| *c);
        let width = if *role == Role::Ragged { 3 } else { 2 };
        let style = colour.stroke_width(width);
        for (index, class) in classes.iter().enumerate() {
            let points: Vec<(f64, f64)> = rows
                .iter()
                .filter(|m| m.implementation == *name && offset_class(m) == *class)
                .filter(|m| m.mb_per_s > 0.0)
                .map(|m| (m.case.size as f64, to_y(m.mb_per_s)))
                .collect();
            let (dash, gap) = DASHES[index % DASHES.len()];
            for run in runs(points) {
                for p in &run {
                    marker(chart.plotting_area(), index, *p, width as i32 + 1, colour)?;
                }
                if run.len() < 2 {
                    continue;
                }
                if dash == 0 {
                    chart.draw_series(LineSeries::new(run, style))?;
                } else {
                    chart.draw_series(DashedLineSeries::new(run, dash, gap, style))?;
                }
            }
        }
    }
    legend(&legend_area, &names, &classes, colours)
}

/// The legend in its strip: a line of each implementation's colour, then (where there
/// is more than one offset) the dash pattern of each offset.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: &[(&str, Role)],
    classes: &[String],
    colours: &[(String, RGBColor)],
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let text = ("sans-serif", 15).into_font().color(&BLACK);
    let (x0, x1, xt) = (8, 34, 40);
    let mut y = 40;
    for (name, role) in names {
        let colour = colours
            .iter()
            .find(|(n, _)| n == name)
            .map_or(BLACK, |(_, c)| *c);
        let width = if *role == Role::Ragged { 3 } else { 2 };
        area.draw(&PathElement::new(
            [(x0, y), (x1, y)],
            colour.stroke_width(width),
        ))?;
        area.draw(&Text::new(name.to_string(), (xt, y - 8), text.clone()))?;
        y += 20;
    }
    if classes.len() > 1 {
        y += 8;
        area.draw(&Text::new("offset", (x0, y - 8), text.clone()))?;
        y += 20;
        for (index, class) in classes.iter().enumerate() {
            let style = BLACK.stroke_width(2);
            match DASHES[index % DASHES.len()] {
                (0, _) => area.draw(&PathElement::new([(x0, y), (x1, y)], style))?,
                (dash, gap) => area.draw(&DashedPathElement::new(
                    [(x0, y), (x1, y)],
                    dash,
                    gap,
                    style,
                ))?,
            }
            marker(area, index, ((x0 + x1) / 2, y), 3, BLACK)?;
            area.draw(&Text::new(class.clone(), (xt, y - 8), text.clone()))?;
            y += 20;
        }
    }
    Ok(())
}

/// The marker of the offset in place `shape` (circle, triangle, square, cross) at `at`.
fn marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    shape: usize,
    at: CT::From,
    size: i32,
    colour: RGBColor,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
    CT::From: Clone + 'static,
{
    match shape % 4 {
        0 => area.draw(&Circle::new(at, size, colour.filled()))?,
        1 => area.draw(&TriangleMarker::new(at, size + 1, colour.filled()))?,
        2 => area.draw(
            &(EmptyElement::at(at)
                + Rectangle::new([(-size, -size), (size, size)], colour.filled())),
        )?,
        _ => area.draw(&Cross::new(at, size + 1, colour.stroke_width(2)))?,
    }
    Ok(())
}

/// A linear y axis with the ticks given (plotters' `with_key_points` on an `f64` range
/// loses the value formatter that `configure_mesh` needs).
struct YAxis {
    linear: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for YAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.linear.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, _: Hint) -> Vec<f64> {
        self.ticks.clone()
    }

    fn range(&self) -> Range<f64> {
        self.linear.range()
    }
}

/// The distinct values in first-seen order.
fn unique<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::super::registry::Case;
    use super::*;

    #[test]
    fn runs_break_at_wide_gaps_only() {
        let points = vec![(65536.0, 3.0), (16.0, 1.0), (4096.0, 2.0), (400e6, 4.0)];
        let runs = runs(points);
        let sizes: Vec<Vec<f64>> = runs
            .iter()
            .map(|r| r.iter().map(|p| p.0).collect())
            .collect();
        assert_eq!(sizes, [vec![16.0], vec![4096.0, 65536.0], vec![400e6]]);
    }

    #[test]
    fn size_ticks_make_room_for_odd_sizes() {
        let memcpy = [16, 64, 256, 1420, 4096, 65536, 400_000_000];
        let ticks = size_ticks(12.0, 5e8, &memcpy);
        assert_eq!(ticks, [16.0, 1420.0, 65536.0, 1048576.0, 16777216.0, 400e6]);
        let labels: Vec<_> = ticks.iter().map(|t| size_label(*t as usize)).collect();
        assert_eq!(labels, ["16", "1420", "64K", "1M", "16M", "400e6"]);
        // Five odd sizes: too many to label, the powers of 4 stay.
        let default = [16, 64, 65, 128, 192, 255, 256, 512, 1024, 1420, 1500, 4096];
        assert_eq!(
            size_ticks(12.0, 5000.0, &default),
            [16.0, 64.0, 256.0, 1024.0, 4096.0]
        );
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(log_ticks(15.0, 600.0), [20.0, 50.0, 100.0, 200.0, 500.0]);
        assert_eq!(log_ticks(3.0, 40000.0), [10.0, 100.0, 1000.0, 10000.0]);
        assert_eq!(
            linear_ticks(1080.0),
            [0.0, 200.0, 400.0, 600.0, 800.0, 1000.0]
        );
    }

    #[test]
    fn memmove_distances_share_a_line_across_sizes() {
        let m = |size, offset| Measurement {
            primitive: "memmove",
            implementation: "ragged".into(),
            role: Role::Ragged,
            case: Case { size, offset },
            mb_per_s: 1.0,
        };
        assert_eq!(offset_class(&m(64, -32)), offset_class(&m(1420, -710)));
        assert_eq!(offset_class(&m(64, 32)), "+size/2");
        assert_eq!(offset_class(&m(64, -1)), "-1");
        assert_eq!(
            offset_class(&Measurement {
                primitive: "memcpy",
                ..m(64, 3)
            }),
            "+3"
        );
    }

    /// Every panel of a chart with a wide rate spread is drawn on a log axis, with the
    /// offsets' legend for memcpy; the SVG is one document.
    #[test]
    fn a_grid_of_panels_with_legends() {
        let mut results = Vec::new();
        for primitive in ["chacha20", "poly1305", "memcpy"] {
            for (implementation, role) in [("ragged", Role::Ragged), ("glibc", Role::Peer)] {
                for size in [16, 1420, 65536, 400_000_000] {
                    for offset in [0, 1] {
                        results.push(Measurement {
                            primitive,
                            implementation: implementation.into(),
                            role,
                            case: Case { size, offset },
                            mb_per_s: size as f64 / 10.0,
                        });
                    }
                }
            }
        }
        let doc = svg("test cpu", &results, YScale::Auto).unwrap();
        assert!(doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"));
        assert!(doc.contains("MB/s (log scale)"));
        assert!(
            doc.contains("\noffset\n") && doc.contains("\n+1\n"),
            "no offset legend"
        );
        let linear = svg("test cpu", &results, YScale::Linear).unwrap();
        assert!(!linear.contains("MB/s (log scale)"));
    }
}
