//! The learning curve of an auto match as a PNG: losses per 10 rounds above, beads left below,
//! one line per HER. Drawn with plotters' bitmap backend; text needs a TrueType font, which is
//! looked for in the usual system places, and without one the chart is drawn without text.

use std::path::Path;

use anyhow::Context;
use parlor_shared::hexapawn::{AutoReport, CURVE_WINDOW};
use plotters::prelude::*;

use crate::font::font_available;
use crate::png_file::{ChartError, chart_error};

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 700;
const HER_COLOURS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];

/// Draws the curve into `path`; returns a note for the user ("" when all went as asked).
pub fn draw_learning_curve(path: &Path, report: &AutoReport) -> anyhow::Result<&'static str> {
    let with_text = font_available();
    crate::out_file::replace_with(path, |temp| {
        draw(temp, report, with_text).map_err(chart_error)
    })
    .with_context(|| format!("drawing the learning curve into {}", path.display()))?;
    Ok(if with_text {
        ""
    } else {
        " (the font could not be loaded, so the chart has no text: losses per 10 rounds above, beads \
         left below, blue HER 1, red HER 2)"
    })
}

fn draw(path: &Path, report: &AutoReport, with_text: bool) -> Result<(), ChartError> {
    let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let (upper, lower) = root.split_vertically(HEIGHT / 2);
    let last_round = report.curve.last().map_or(1, |point| point.round.max(1));
    let most_beads = report
        .curve
        .iter()
        .flat_map(|point| point.beads)
        .max()
        .unwrap_or(1)
        .max(1);
    let panels = [
        (upper, CURVE_WINDOW as f64, "HER's losses per 10 rounds"),
        (lower, most_beads as f64, "beads left in HER's matchboxes"),
    ];
    for (panel, (area, top, caption)) in panels.into_iter().enumerate() {
        let mut builder = ChartBuilder::on(&area);
        builder.margin(12).margin_right(30);
        if with_text {
            builder
                .caption(caption, ("sans-serif", 20))
                .x_label_area_size(30)
                .y_label_area_size(50);
        }
        let mut chart = builder.build_cartesian_2d(0..last_round, 0f64..top * 1.05)?;
        let mut mesh = chart.configure_mesh();
        if with_text {
            mesh.x_desc("rounds");
        } else {
            // No labels and so no grid lines at them; asking for zero labels instead overflows
            // in plotters' integer axis.
            mesh.disable_x_mesh().disable_y_mesh();
        }
        mesh.draw()?;
        for (her, colour) in HER_COLOURS.iter().enumerate() {
            let line = report.curve.iter().map(|point| {
                let value = if panel == 0 {
                    f64::from(point.losses[her])
                } else {
                    point.beads[her] as f64
                };
                (point.round, value)
            });
            let series = chart.draw_series(LineSeries::new(line, colour))?;
            if with_text {
                series
                    .label(format!("HER {}", her + 1))
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
            }
        }
        if with_text {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()?;
        }
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use parlor_shared::hexapawn::{AutoConfig, AutoMatch, Dims};

    use super::*;

    /// A 3x3 match of `rounds` rounds.
    fn report(rounds: u64) -> AutoReport {
        let config = AutoConfig {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds,
            seed: 1,
        };
        AutoMatch::new(config).run()
    }

    #[test]
    fn a_plot_that_cannot_be_written_says_the_io_error_not_plotters_debug_text() {
        let report = report(20);
        let dir = tempfile::tempdir().unwrap();
        let nowhere = dir.path().join("no-such-folder").join("curve.png");
        let error = draw(&nowhere, &report, false).map_err(chart_error);
        let message = format!("{:#}", error.expect_err("no folder"));
        assert!(message.contains("No such file or directory"), "{message}");
        assert!(
            !message.contains("backend") && !message.contains("Error("),
            "{message}"
        );
    }

    #[test]
    fn a_plot_without_a_font_is_drawn_without_text() {
        let report = report(200);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("curve.png");
        draw(&path, &report, false).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 1_000);
    }
}
