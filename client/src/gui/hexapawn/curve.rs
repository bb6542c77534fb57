//! The learning curve of an auto match as two small charts: each HER's losses per point (a
//! point is some rounds, see `MatchView::rounds_per_point`) and the beads left in its brain,
//! over the rounds of the whole match, so the lines grow from left to right as it goes on.

use macroquad::color::Color;
use macroquad::math::{Rect, Vec2, vec2};
use macroquad::shapes::{draw_circle, draw_line, draw_rectangle};
use parlor_shared::hexapawn::{CurvePoint, MatchView};

use crate::gui::describe::count_s;
use crate::gui::widgets::{DIM_TEXT, TEXT, fit_to_width, label, text_width};

/// Each HER's colour in the charts and the score.
pub const HER_COLORS: [Color; 2] = [
    Color::new(0.35, 0.65, 1.0, 1.0),
    Color::new(1.0, 0.62, 0.20, 1.0),
];
const CHART_BACK: Color = Color::new(0.11, 0.12, 0.15, 1.0);
const AXIS: Color = Color::new(0.62, 0.64, 0.68, 1.0);
/// Room left of a chart for its tick labels, and above it for its title.
pub const AXIS_BAND: f32 = 64.0;
pub const TITLE_BAND: f32 = 26.0;

/// A chart's plot rectangle and the values at its right and top edges (both start at 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chart {
    pub plot: Rect,
    pub x_max: f64,
    pub y_max: f64,
}

impl Chart {
    /// The pixel of the value (`x`, `y`); values past the maxima are held at the edges.
    pub fn point(&self, x: f64, y: f64) -> Vec2 {
        let fx = (x / self.x_max.max(f64::MIN_POSITIVE)).clamp(0.0, 1.0) as f32;
        let fy = (y / self.y_max.max(f64::MIN_POSITIVE)).clamp(0.0, 1.0) as f32;
        vec2(
            self.plot.x + fx * self.plot.w,
            self.plot.y + self.plot.h - fy * self.plot.h,
        )
    }

    /// The polyline of one series.
    pub fn line(&self, points: impl Iterator<Item = (f64, f64)>) -> Vec<Vec2> {
        points.map(|(x, y)| self.point(x, y)).collect()
    }
}

/// The smallest 1, 2 or 5 times a power of ten that is at least `value` (and at least 1).
pub fn nice_max(value: f64) -> f64 {
    if value <= 1.0 {
        return 1.0;
    }
    let power = 10f64.powf(value.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|step| step * power)
        .find(|&top| top >= value)
        .unwrap_or(10.0 * power)
}

/// The top of a chart's y-axis: the data's largest value with some headroom above it (so the
/// line does not run along the top border), at least `floor`, rounded up by [`nice_max`].
pub fn y_top(most: f64, floor: f64) -> f64 {
    nice_max((most * HEADROOM).max(floor))
}

/// How far above the largest value a chart's y-axis reaches.
const HEADROOM: f64 = 1.2;

/// Why the charts of `view` are empty, or `None` once the curve has points. A point is drawn
/// every `rounds_per_point` rounds, so a match shorter than that never gets one.
pub fn empty_text(view: &MatchView) -> Option<String> {
    if !view.curve.is_empty() {
        return None;
    }
    let per = count_s(view.rounds_per_point, "round");
    Some(if view.finished {
        format!(
            "No curve: a point takes {per}, the match played {}",
            view.rounds_played
        )
    } else {
        format!("The curve starts after {per}")
    })
}

/// The two charts in `area`: losses above, beads below.
pub fn chart_rects(area: Rect) -> [Rect; 2] {
    let gap = 18.0;
    let h = ((area.h - gap) / 2.0).max(0.0);
    let plot = |y: f32| {
        Rect::new(
            area.x + AXIS_BAND,
            y + TITLE_BAND,
            (area.w - AXIS_BAND - 10.0).max(0.0),
            (h - TITLE_BAND - 20.0).max(0.0),
        )
    };
    [plot(area.y), plot(area.y + h + gap)]
}

/// The losses chart and the beads chart of `view` in `area`.
pub fn charts(area: Rect, view: &MatchView) -> [Chart; 2] {
    // A match that stopped early (its brains full) spans the rounds it played.
    let rounds = if view.finished {
        view.rounds_played.max(1)
    } else {
        view.setup.rounds
    };
    let x_max = rounds as f64;
    let most = |value: fn(&CurvePoint) -> f64| view.curve.iter().map(value).fold(0.0, f64::max);
    let losses = most(|p| f64::from(p.losses[0].max(p.losses[1])));
    // The beads now may be more than at the last point, or there may be no point yet.
    let beads =
        most(|p| p.beads[0].max(p.beads[1]) as f64).max(view.beads[0].max(view.beads[1]) as f64);
    let [top, bottom] = chart_rects(area);
    [
        Chart {
            plot: top,
            x_max,
            y_max: y_top(losses, view.rounds_per_point as f64 / 2.0),
        },
        Chart {
            plot: bottom,
            x_max,
            y_max: y_top(beads, 1.0),
        },
    ]
}

/// Draws both charts of `view` in `area`, with axes, labels and a legend.
pub fn draw_curve(area: Rect, view: &MatchView, names: [&str; 2]) {
    let [losses, beads] = charts(area, view);
    let per = view.rounds_per_point;
    draw_chart(
        &losses,
        &match per {
            1 => "Losses per round".to_string(),
            _ => format!("Losses per {per} rounds"),
        },
        view,
        |p, her| f64::from(p.losses[her]),
    );
    draw_chart(&beads, "Beads left in the brain", view, |p, her| {
        p.beads[her] as f64
    });
    if let Some(text) = empty_text(view) {
        // No lines, so no legend either: say why instead, in the middle of each chart.
        for chart in [losses, beads] {
            let plot = chart.plot;
            let text = fit_to_width(&text, plot.w - 20.0);
            let x = plot.x + (plot.w - text_width(&text)) / 2.0;
            label(&text, x, plot.y + plot.h / 2.0 + 6.0, DIM_TEXT);
        }
        return;
    }
    let mut x = losses.plot.x + losses.plot.w;
    for her in (0..2).rev() {
        x -= text_width(names[her]) + 30.0;
        draw_rectangle(x, losses.plot.y - 20.0, 14.0, 4.0, HER_COLORS[her]);
        label(names[her], x + 18.0, losses.plot.y - 12.0, TEXT);
    }
}

fn draw_chart(chart: &Chart, title: &str, view: &MatchView, value: fn(&CurvePoint, usize) -> f64) {
    let plot = chart.plot;
    draw_rectangle(plot.x, plot.y, plot.w, plot.h, CHART_BACK);
    let bottom = plot.y + plot.h;
    draw_line(plot.x, plot.y, plot.x, bottom, 2.0, AXIS);
    draw_line(plot.x, bottom, plot.x + plot.w, bottom, 2.0, AXIS);
    label(title, plot.x, plot.y - 8.0, TEXT);
    let top_label = format_count(chart.y_max);
    label(
        &top_label,
        plot.x - text_width(&top_label) - 6.0,
        plot.y + 14.0,
        DIM_TEXT,
    );
    label("0", plot.x - text_width("0") - 6.0, bottom, DIM_TEXT);
    let end = match format_count(chart.x_max).as_str() {
        "1" => "1 round".to_string(),
        count => format!("{count} rounds"),
    };
    label(
        &end,
        plot.x + plot.w - text_width(&end),
        bottom + 18.0,
        DIM_TEXT,
    );
    label("0", plot.x, bottom + 18.0, DIM_TEXT);
    for (her, color) in HER_COLORS.into_iter().enumerate() {
        let line = chart.line(view.curve.iter().map(|p| (p.round as f64, value(p, her))));
        // The first HER's line is wider, so it still shows where the second's covers it.
        let width = if her == 0 { 5.0 } else { 2.0 };
        for pair in line.windows(2) {
            draw_line(pair[0].x, pair[0].y, pair[1].x, pair[1].y, width, color);
        }
        if let [only] = line.as_slice() {
            draw_circle(only.x, only.y, 3.0, color);
        }
    }
}

/// A count for an axis: 1200 as "1200", 25000 as "25k", 3000000 as "3M".
pub fn format_count(value: f64) -> String {
    if value >= 1e6 && value % 1e6 == 0.0 {
        format!("{}M", value / 1e6)
    } else if value >= 1e4 && value % 1e3 == 0.0 {
        format!("{}k", value / 1e3)
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_maxima_round_up_to_one_two_or_five() {
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(1.0), 1.0);
        assert_eq!(nice_max(1.5), 2.0);
        assert_eq!(nice_max(7.0), 10.0);
        assert_eq!(nice_max(10.0), 10.0);
        assert_eq!(nice_max(11.0), 20.0);
        assert_eq!(nice_max(430.0), 500.0);
    }

    #[test]
    fn values_map_into_the_plot_with_zero_at_the_bottom_left() {
        let chart = Chart {
            plot: Rect::new(100.0, 50.0, 200.0, 100.0),
            x_max: 1000.0,
            y_max: 10.0,
        };
        assert_eq!(chart.point(0.0, 0.0), vec2(100.0, 150.0));
        assert_eq!(chart.point(1000.0, 10.0), vec2(300.0, 50.0));
        assert_eq!(chart.point(500.0, 5.0), vec2(200.0, 100.0));
        assert_eq!(chart.point(2000.0, -1.0), vec2(300.0, 150.0));
        let line = chart.line([(0.0, 10.0), (250.0, 0.0)].into_iter());
        assert_eq!(line, vec![vec2(100.0, 50.0), vec2(150.0, 150.0)]);
    }

    #[test]
    fn the_charts_span_the_rounds_set_up_or_those_played_by_a_match_that_stopped_early() {
        let mut view = MatchView::new(parlor_shared::hexapawn::MatchSetup {
            dims: "8x8".parse().unwrap(),
            mirrors: false,
            rounds: 1_000_000,
            pace: parlor_shared::hexapawn::Pace::FullSpeed,
            brains: ["A".into(), "B".into()],
        });
        view.rounds_played = 8_508;
        let area = Rect::new(0.0, 400.0, 600.0, 300.0);
        assert_eq!(charts(area, &view).map(|chart| chart.x_max), [1e6; 2]);
        view.finished = true;
        assert_eq!(charts(area, &view).map(|chart| chart.x_max), [8_508.0; 2]);
    }

    fn short_match() -> MatchView {
        MatchView::new(parlor_shared::hexapawn::MatchSetup {
            dims: "3x3".parse().unwrap(),
            mirrors: false,
            rounds: 1000,
            pace: parlor_shared::hexapawn::Pace::FullSpeed,
            brains: ["A".into(), "B".into()],
        })
    }

    #[test]
    fn the_y_axes_cover_the_data_and_the_beads_now_with_headroom() {
        assert_eq!(y_top(0.0, 5.0), 5.0);
        assert_eq!(y_top(4.0, 5.0), 5.0);
        // A value at a nice maximum would run along the top border.
        assert_eq!(y_top(5.0, 5.0), 10.0);
        assert_eq!(y_top(8.0, 1.0), 10.0);
        assert_eq!(y_top(111.0, 1.0), 200.0);
        // One round played, no point yet: the beads axis still covers the 8 beads now.
        let mut view = short_match();
        view.rounds_played = 1;
        view.beads = [8, 5];
        let area = Rect::new(0.0, 400.0, 600.0, 300.0);
        let [losses, beads] = charts(area, &view);
        assert_eq!((losses.y_max, beads.y_max), (5.0, 10.0));
        // Losses of a whole window (5 of 10 for each HER) stay below the top.
        view.curve = vec![CurvePoint {
            round: 10,
            losses: [5, 5],
            beads: [99, 111],
        }];
        view.beads = [99, 111];
        let [losses, beads] = charts(area, &view);
        assert!(
            losses.y_max > 5.0 && beads.y_max > 111.0,
            "{losses:?} {beads:?}"
        );
    }

    #[test]
    fn empty_charts_say_why() {
        let mut view = short_match();
        assert_eq!(
            empty_text(&view).as_deref(),
            Some("The curve starts after 10 rounds")
        );
        view.rounds_played = 1;
        view.finished = true;
        assert_eq!(
            empty_text(&view).as_deref(),
            Some("No curve: a point takes 10 rounds, the match played 1")
        );
        view.curve.push(CurvePoint {
            round: 1,
            losses: [0, 1],
            beads: [8, 5],
        });
        assert_eq!(empty_text(&view), None);
    }

    #[test]
    fn the_two_charts_share_the_area_without_overlapping() {
        let area = Rect::new(0.0, 400.0, 600.0, 300.0);
        let [top, bottom] = chart_rects(area);
        assert!(top.y + top.h < bottom.y - TITLE_BAND);
        assert!(bottom.y + bottom.h <= area.y + area.h);
        assert_eq!(top.x, AXIS_BAND);
        assert!(top.w > 400.0);
    }

    #[test]
    fn counts_read_short() {
        assert_eq!(format_count(1000.0), "1000");
        assert_eq!(format_count(20000.0), "20k");
        assert_eq!(format_count(1e6), "1M");
        assert_eq!(format_count(5.0), "5");
    }
}
