//! The stress runner's picture: milliseconds per counted step over the run, stacked by stage
//! (SVG through plotters' SVG backend; text is left to the SVG viewer, so no fonts are needed).

use crate::measure::Timeline;
use plotters::prelude::*;
use std::path::Path;

/// Draws `timeline` as a stacked area chart (one band per stage, bottom = first stage) with the
/// measured step total as a black line on top, into the SVG file `path`.
pub fn stacked_stage_svg(path: &Path, title: &str, timeline: &Timeline) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let n = timeline.step_ms.len();
    let k = timeline.stage_names.len();
    // cumulative[s][i] = sum of stages 0..=i at step s.
    let cumulative: Vec<Vec<f64>> = timeline
        .stage_ms
        .iter()
        .map(|row| {
            let mut acc = 0.0;
            (0..k)
                .map(|i| {
                    acc += row.get(i).copied().unwrap_or(0.0);
                    acc
                })
                .collect()
        })
        .collect();
    let top = timeline
        .step_ms
        .iter()
        .chain(cumulative.iter().filter_map(|r| r.last()))
        .fold(0.0f64, |m, &x| m.max(x));
    let ymax = if top > 0.0 { top * 1.1 } else { 1.0 };
    let xmax = n.max(2) as f64 - 1.0;

    let root = SVGBackend::new(path, (1000, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("counted step")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("ms per step")
        .draw()
        .map_err(|e| err(&e))?;
    for i in (0..k).rev() {
        let colour = Palette99::pick(i).to_rgba();
        let points = cumulative.iter().enumerate().map(|(s, r)| (s as f64, r[i]));
        chart
            .draw_series(AreaSeries::new(points, 0.0, colour.filled()).border_style(BLACK.mix(0.3)))
            .map_err(|e| err(&e))?
            .label(timeline.stage_names[i])
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    chart
        .draw_series(LineSeries::new(
            timeline
                .step_ms
                .iter()
                .enumerate()
                .map(|(s, &t)| (s as f64, t)),
            BLACK.stroke_width(1),
        ))
        .map_err(|e| err(&e))?
        .label("step total (measured)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 12, y)], BLACK));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
