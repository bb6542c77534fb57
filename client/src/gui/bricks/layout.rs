//! Where the Dropping Bricks tower is drawn: the whole tower of heights 1..=H as one column,
//! and, when H is too tall for each floor to get pixels of its own, a close-up column of the
//! heights around the open ones. Pure functions of the screen area and the game, so that the
//! window test can compute where every floor is and sample its colour.

use macroquad::math::Rect;
use parlor_shared::bricks::BricksGame;

use crate::gui::widgets::{TOP_BAR_HEIGHT, side_panel_x};

/// Width of the part of the board area that holds the tower, when there is room; the status
/// card is right of it.
pub const TOWER_WIDTH: f32 = 360.0;
/// The least the tower's part may shrink to: its columns and their labels ("100 max safe").
const MIN_TOWER_WIDTH: f32 = 280.0;
/// The width the status card and the controls want before the tower gives up any of its own.
const CARD_MIN_WIDTH: f32 = 190.0;
/// Room above the columns for the title.
const TITLE_BAND: f32 = 44.0;
/// Room below the columns for the ground and its label.
const GROUND_BAND: f32 = 40.0;
/// Below this many pixels per floor, floors merge into a scaled column and cannot be clicked.
pub const MIN_FLOOR_PIXELS: f32 = 5.0;
/// Scale labels are at least this many pixels apart.
pub const LABEL_GAP: f32 = 18.0;
/// The close-up shows at least this many floors, so that the last safe and the first broken
/// floor around a small open range are in view too.
const CLOSE_UP_MIN_FLOORS: u64 = 5;
/// A close-up is drawn only when it magnifies at least this much; otherwise it would only
/// repeat the whole tower.
const CLOSE_UP_MIN_ZOOM: u64 = 4;

/// The area left of the side panel and below the top bar, where a game's board goes.
pub fn board_area(screen_w: f32, screen_h: f32) -> Rect {
    Rect::new(
        0.0,
        TOP_BAR_HEIGHT,
        side_panel_x(screen_w),
        (screen_h - TOP_BAR_HEIGHT).max(0.0),
    )
}

/// One column of floors `low..=high` (low >= 1) drawn in `rect`, floor `low` at the bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    pub rect: Rect,
    pub low: u64,
    pub high: u64,
}

impl Column {
    pub fn floors(&self) -> u64 {
        self.high - self.low + 1
    }

    pub fn floor_pixels(&self) -> f32 {
        self.rect.h / self.floors() as f32
    }

    /// Whether every floor is tall enough to be drawn, and clicked, on its own.
    pub fn shows_single_floors(&self) -> bool {
        self.floor_pixels() >= MIN_FLOOR_PIXELS
    }

    /// The y of the top edge of floor `height`; `low - 1` gives the column's bottom. Heights
    /// outside the column are clamped to its ends. Computed in f64, since H reaches 10^18.
    pub fn edge_y(&self, height: u64) -> f32 {
        let height = height.clamp(self.low - 1, self.high);
        let fraction = (height - (self.low - 1)) as f64 / self.floors() as f64;
        self.rect.y + self.rect.h - (fraction * f64::from(self.rect.h)) as f32
    }

    /// The screen rectangle of floor `height`.
    pub fn floor_rect(&self, height: u64) -> Rect {
        let top = self.edge_y(height);
        let bottom = self.edge_y(height.saturating_sub(1));
        Rect::new(self.rect.x, top, self.rect.w, bottom - top)
    }

    /// The centre pixel of floor `height`.
    pub fn floor_center(&self, height: u64) -> (f32, f32) {
        let rect = self.floor_rect(height);
        (rect.x + rect.w / 2.0, rect.y + rect.h / 2.0)
    }

    /// Where a label for `height` goes: the middle of its floor, or the bottom edge for the
    /// height just below the column (0 is the ground).
    pub fn label_y(&self, height: u64) -> f32 {
        if height + 1 == self.low {
            self.edge_y(height)
        } else {
            self.floor_center(height).1
        }
    }

    /// The floor under (`x`, `y`), or `None` off the column. Each floor owns its top edge, so
    /// every pixel of the column belongs to exactly one floor.
    pub fn floor_at(&self, x: f32, y: f32) -> Option<u64> {
        let r = self.rect;
        let inside = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
        if !inside {
            return None;
        }
        let from_bottom = f64::from(r.y + r.h - y) / f64::from(r.h) * self.floors() as f64;
        let index = (from_bottom.ceil() as u64).clamp(1, self.floors());
        let estimate = self.low + index - 1;
        // Rounding may put a point on an edge into the next floor; the drawn edges decide.
        Some(if y < self.edge_y(estimate) && estimate < self.high {
            estimate + 1
        } else if y >= self.edge_y(estimate - 1) && estimate > self.low {
            estimate - 1
        } else {
            estimate
        })
    }
}

/// The tower's columns on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TowerLayout {
    /// The x where the tower's part of the area ends: its labels stay left of it.
    pub right: f32,
    /// Heights 1..=H.
    pub whole: Column,
    /// The open heights with their neighbours, magnified; only when H is too tall for the
    /// whole column to show single floors and the open heights are few enough to zoom on.
    pub close_up: Option<Column>,
}

impl TowerLayout {
    /// The floor a click at (`x`, `y`) picks: only on a column that shows single floors.
    pub fn floor_at(&self, x: f32, y: f32) -> Option<u64> {
        self.close_up
            .iter()
            .chain([&self.whole])
            .filter(|column| column.shows_single_floors())
            .find_map(|column| column.floor_at(x, y))
    }

    /// Whether (`x`, `y`) is on a column whose floors are too thin to pick one by a click.
    pub fn too_fine_at(&self, x: f32, y: f32) -> bool {
        (self.close_up.iter().chain([&self.whole]))
            .any(|column| !column.shows_single_floors() && column.floor_at(x, y).is_some())
    }

    /// Whether the open floors can be picked by a click: the close-up, which holds them, or
    /// else the whole tower shows single floors.
    pub fn open_floors_clickable(&self) -> bool {
        self.close_up.unwrap_or(self.whole).shows_single_floors()
    }
}

/// The tower of `game` in the board `area`.
/// The width of the tower's part of `area`: all it wants when the card keeps its own, less on
/// a narrow window.
pub fn tower_width(area: Rect) -> f32 {
    (area.w - CARD_MIN_WIDTH).clamp(MIN_TOWER_WIDTH, TOWER_WIDTH)
}

pub fn tower_layout(area: Rect, game: &BricksGame) -> TowerLayout {
    let height = game.setup().height;
    let top = area.y + TITLE_BAND;
    let column_h = (area.h - TITLE_BAND - GROUND_BAND).max(1.0);
    let column = |x: f32, w: f32, low: u64, high: u64| Column {
        rect: Rect::new(area.x + x, top, w, column_h),
        low,
        high,
    };
    let state = game.state();
    match close_up_window(height, column_h, state.min_safe(), state.max_safe()) {
        None => TowerLayout {
            right: area.x + tower_width(area),
            whole: column(60.0, 100.0, 1, height),
            close_up: None,
        },
        Some((low, high)) => {
            // On a narrow window the close-up moves left and slims, so that its labels keep
            // some of the room they lose.
            let squeeze = (TOWER_WIDTH - tower_width(area)) / 4.0;
            TowerLayout {
                right: area.x + tower_width(area),
                whole: column(70.0, 30.0, 1, height),
                close_up: Some(column(150.0 - squeeze, 70.0 - squeeze, low, high)),
            }
        }
    }
}

/// The floors a close-up shows: from the last safe floor to the first broken one, widened to
/// a few floors; `None` when the whole column shows single floors or there is nothing to zoom.
fn close_up_window(height: u64, column_h: f32, min_safe: u64, max_safe: u64) -> Option<(u64, u64)> {
    if column_h / height as f32 >= MIN_FLOOR_PIXELS {
        return None;
    }
    let mut low = min_safe.max(1);
    let mut high = (max_safe + 1).min(height);
    while high - low + 1 < CLOSE_UP_MIN_FLOORS && (low > 1 || high < height) {
        if low > 1 {
            low -= 1;
        }
        if high < height && high - low + 1 < CLOSE_UP_MIN_FLOORS {
            high += 1;
        }
    }
    let floors = high - low + 1;
    (floors.saturating_mul(CLOSE_UP_MIN_ZOOM) <= height).then_some((low, high))
}

/// The heights that get a scale label beside `column`: every floor when there is room, else
/// round numbers; always the top floor and, at the ground, 0. None comes within
/// [`LABEL_GAP`] of another label or of the `taken` label positions (the marked heights').
pub fn scale_labels(column: &Column, taken: &[f32]) -> Vec<u64> {
    let mut candidates = vec![column.high];
    if column.low == 1 {
        candidates.push(0);
    }
    if column.floor_pixels() >= LABEL_GAP {
        candidates.extend((column.low..column.high).rev());
    } else {
        let per_gap = column.floors() as f64 * f64::from(LABEL_GAP) / f64::from(column.rect.h);
        let step = round_step(per_gap.ceil() as u64);
        let mut height = column.high / step * step;
        while height >= column.low && height > 0 {
            candidates.push(height);
            height = height.saturating_sub(step);
        }
    }
    let mut taken = taken.to_vec();
    let mut labels = Vec::new();
    for height in candidates {
        let y = column.label_y(height);
        if taken.iter().all(|&other| (other - y).abs() >= LABEL_GAP) {
            taken.push(y);
            labels.push(height);
        }
    }
    labels.sort_unstable();
    labels
}

/// Label positions moved apart so that none is within [`LABEL_GAP`] of another, in the
/// order given, each as near its own `ys` as the others allow and none below `bottom`: the
/// marked heights of neighbouring floors (min safe, a drop just above it) stay readable.
pub fn spread_labels(ys: &[f32], bottom: f32) -> Vec<f32> {
    let mut order: Vec<usize> = (0..ys.len()).collect();
    order.sort_by(|&a, &b| ys[a].total_cmp(&ys[b]));
    let mut placed: Vec<f32> = order.iter().map(|&i| ys[i]).collect();
    // Top down, push each label below the one above; then bottom up, keep them on screen.
    for i in 1..placed.len() {
        placed[i] = placed[i].max(placed[i - 1] + LABEL_GAP);
    }
    if let Some(last) = placed.last_mut() {
        *last = last.min(bottom);
    }
    for i in (0..placed.len().saturating_sub(1)).rev() {
        placed[i] = placed[i].min(placed[i + 1] - LABEL_GAP);
    }
    let mut spread = vec![0.0; ys.len()];
    for (slot, &index) in order.iter().enumerate() {
        spread[index] = placed[slot];
    }
    spread
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `at_least`.
fn round_step(at_least: u64) -> u64 {
    let mut power: u64 = 1;
    loop {
        for factor in [1, 2, 5] {
            let step = power.saturating_mul(factor);
            if step >= at_least {
                return step;
            }
        }
        if power > u64::MAX / 10 {
            return u64::MAX;
        }
        power *= 10;
    }
}

/// Units for the scale labels of a tall column: thousand, million, billion, trillion,
/// quadrillion.
const UNITS: [(u64, &str); 5] = [
    (1_000_000_000_000_000, "Q"),
    (1_000_000_000_000, "T"),
    (1_000_000_000, "B"),
    (1_000_000, "M"),
    (1_000, "k"),
];

/// A height as a label beside a column whose top is `column_high`: plain digits on a column
/// under a million, so every label of the column is written alike; on a taller column, every
/// label in thousands, millions, ... ("950k", "1M", "2.5B"), with "~" in front when digits were
/// dropped ("~123M" for 123456789).
pub fn short_height(height: u64, column_high: u64) -> String {
    if column_high < 1_000_000 {
        return height.to_string();
    }
    let Some(&(unit, name)) = UNITS.iter().find(|(unit, _)| height >= *unit) else {
        return height.to_string();
    };
    let whole = height / unit;
    let rest = height % unit;
    if rest == 0 {
        return format!("{whole}{name}");
    }
    let tenth = unit / 10;
    if whole < 10 && rest.is_multiple_of(tenth) {
        return format!("{whole}.{}{name}", rest / tenth);
    }
    if whole < 10 {
        let tenths = (height as f64 / tenth as f64).round() as u64;
        return format!("~{}.{}{name}", tenths / 10, tenths % 10);
    }
    let rounded = (height as f64 / unit as f64).round() as u64;
    format!("~{rounded}{name}")
}

#[cfg(test)]
mod tests;
