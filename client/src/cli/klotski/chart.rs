//! The bench as a PNG: one line per contender (a method with its heuristic), the puzzles it answered sorted by time (a "cactus"
//! plot: further right is more puzzles answered, lower is faster). Drawn with plotters' bitmap
//! backend; text needs a TrueType font from the usual system places, and without one the chart
//! is drawn without text.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

use crate::font::font_available;
use crate::png_file::{ChartError, chart_error};

use super::bench::{Contender, Instance, Run};

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 650;
/// Times below this (ms) are drawn at it: the log scale needs a floor.
const FLOOR_MS: f64 = 0.01;
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(90, 90, 90),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Draws the chart into `path`; returns a note for the user ("" when all went as asked).
pub fn draw(
    path: &Path,
    instances: &[Instance],
    contenders: &[Contender],
    runs: &[Run],
) -> anyhow::Result<&'static str> {
    let with_text = font_available();
    crate::out_file::replace_with(path, |temp| {
        draw_lines(temp, instances.len(), contenders, runs, with_text).map_err(chart_error)
    })
    .with_context(|| format!("drawing the bench chart into {}", path.display()))?;
    Ok(if with_text {
        ""
    } else {
        " (the font could not be loaded, so the chart has no text; contenders in the order given)"
    })
}

fn draw_lines(
    path: &Path,
    puzzles: usize,
    contenders: &[Contender],
    runs: &[Run],
    with_text: bool,
) -> Result<(), ChartError> {
    let millis = |run: &Run| (run.time.as_secs_f64() * 1000.0).max(FLOOR_MS);
    let slowest = runs
        .iter()
        .filter(|run| run.answered())
        .map(millis)
        .fold(1.0, f64::max);
    let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(15).margin_right(30);
    if with_text {
        builder
            .caption(
                "Numeric Klotski: puzzles answered within a time, by method and heuristic",
                ("sans-serif", 22),
            )
            .x_label_area_size(40)
            .y_label_area_size(70);
    }
    let mut chart =
        builder.build_cartesian_2d(0..puzzles, (FLOOR_MS..slowest * 2.0).log_scale())?;
    let mut mesh = chart.configure_mesh();
    if with_text {
        mesh.x_desc("puzzles answered (each method's, fastest first)")
            .y_desc("time per puzzle, ms");
    } else {
        // No labels and so no grid lines at them; asking for zero labels instead overflows in
        // plotters' integer axis.
        mesh.disable_x_mesh().disable_y_mesh();
    }
    mesh.draw()?;
    for (&contender, colour) in contenders.iter().zip(COLOURS.iter().cycle()) {
        let mut times: Vec<f64> = runs
            .iter()
            .filter(|run| run.contender == contender && run.answered())
            .map(millis)
            .collect();
        times.sort_by(f64::total_cmp);
        let line = times
            .into_iter()
            .enumerate()
            .map(|(count, time)| (count + 1, time));
        let series = chart.draw_series(LineSeries::new(line, colour.stroke_width(2)))?;
        if with_text {
            series
                .label(contender.name())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
        }
    }
    if with_text {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use parlor_engines::klotski::Method;

    use super::*;

    const BFS: Contender = Contender {
        method: Method::Bfs,
        heuristic: None,
    };

    #[test]
    fn a_chart_without_a_font_is_drawn_without_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chart.png");
        draw_lines(&path, 1, &[BFS], &[], false).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 1_000);
    }

    #[test]
    fn a_chart_that_cannot_be_written_says_the_io_error_not_plotters_debug_text() {
        let dir = tempfile::tempdir().unwrap();
        let nowhere = dir.path().join("no-such-folder").join("chart.png");
        let error = draw_lines(&nowhere, 1, &[BFS], &[], false).map_err(chart_error);
        let message = format!("{:#}", error.expect_err("no folder"));
        assert!(message.contains("No such file or directory"), "{message}");
        assert!(
            !message.contains("backend") && !message.contains("Error("),
            "{message}"
        );
    }
}
