//! `--plot`: MB/s against message size (log scale), one panel per primitive and one
//! line per implementation, as SVG.
//!
//! plotters' SVG backend writes text as SVG `<text>` elements, so no font is read or
//! needed at build or run time; the viewer renders the labels.

use plotters::prelude::*;

use super::registry::Role;
use super::sizes;
use super::timing::Measurement;

const PANEL_WIDTH: u32 = 960;
const PANEL_HEIGHT: u32 = 540;

/// The chart of `results` as an SVG document.
pub fn svg(cpu: &str, results: &[Measurement]) -> Result<String, String> {
    let mut doc = String::new();
    draw(&mut doc, cpu, results).map_err(|e| format!("cannot draw the chart: {e}"))?;
    Ok(doc)
}

fn draw(
    doc: &mut String,
    cpu: &str,
    results: &[Measurement],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut primitives: Vec<&str> = Vec::new();
    for m in results {
        if !primitives.contains(&m.primitive) {
            primitives.push(m.primitive);
        }
    }
    let panels = u32::try_from(primitives.len().max(1))?;
    let root =
        SVGBackend::with_string(doc, (PANEL_WIDTH, PANEL_HEIGHT * panels)).into_drawing_area();
    root.fill(&WHITE)?;
    for (area, primitive) in root
        .split_evenly((primitives.len().max(1), 1))
        .iter()
        .zip(&primitives)
    {
        panel(area, cpu, primitive, results)?;
    }
    root.present()?;
    Ok(())
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    cpu: &str,
    primitive: &str,
    results: &[Measurement],
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let rows: Vec<&Measurement> = results
        .iter()
        .filter(|m| m.primitive == primitive)
        .collect();
    let min = rows.iter().map(|m| m.case.size).min().unwrap_or(1) as f64;
    let max = rows.iter().map(|m| m.case.size).max().unwrap_or(1) as f64;
    let (min, max) = if min < max {
        (min, max)
    } else {
        (min / 2.0, max * 2.0)
    };
    let top = rows.iter().map(|m| m.mb_per_s).fold(0.0, f64::max) * 1.08;
    let top = if top > 0.0 { top } else { 1.0 };
    // Tick marks at powers of four inside the range: 16, 64, 256, 1K, …
    let ticks: Vec<f64> = (0..64)
        .map(|i| 4f64.powi(i))
        .filter(|&t| t >= min && t <= max)
        .collect();

    let mut chart = ChartBuilder::on(area)
        .caption(format!("{primitive} — {cpu}"), ("sans-serif", 24))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(72)
        .build_cartesian_2d((min..max).log_scale().with_key_points(ticks), 0.0..top)?;
    chart
        .configure_mesh()
        .light_line_style(BLACK.mix(0.04))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 15))
        .x_desc("message size (bytes, log scale)")
        .y_desc("MB/s (10^6 bytes/s)")
        .x_label_formatter(&|x| sizes::label(x.round() as usize))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;

    let mut names: Vec<(&str, Role)> = Vec::new();
    for m in &rows {
        if !names.iter().any(|(n, _)| *n == m.implementation) {
            names.push((&m.implementation, m.role));
        }
    }
    for (index, (name, role)) in names.iter().enumerate() {
        let color = Palette99::pick(index).to_rgba();
        let width = if *role == Role::Ragged { 3 } else { 2 };
        let mut points: Vec<(f64, f64)> = rows
            .iter()
            .filter(|m| m.implementation == *name)
            .map(|m| (m.case.size as f64, m.mb_per_s))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(width)))?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new([(x, y), (x + 20, y)], color.stroke_width(width))
            });
        chart.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
