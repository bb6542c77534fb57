//! Under a list of the lobby that does not fit: how many of its rows are shown, and Up and
//! Down, so that a click or the keyboard reaches every row too.

use macroquad::math::Rect;

use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, Input, button_enabled, button_width, fit_to_width, label,
};

/// Under a list that does not fit (its rows from `first` on shown): how many rows are shown
/// and where the others are, and Up and Down, which move it a page (the wheel moves it a row),
/// so that a click or the keyboard reaches every row too. The row is [`MORE_ROWS_HEIGHT`] high.
pub fn draw_more_rows(input: &Input, list: Rect, total: usize, first: &mut usize, visible: usize) {
    let Some(text) = more_hint(total, *first, visible) else {
        return;
    };
    let y = list.y + list.h + 4.0;
    let (up, down) = ("Up", "Down");
    let down_rect = Rect::new(
        list.x + list.w - button_width(down),
        y,
        button_width(down),
        BUTTON_HEIGHT,
    );
    let up_x = down_rect.x - 6.0 - button_width(up);
    let up_rect = Rect::new(up_x, y, button_width(up), BUTTON_HEIGHT);
    label(
        &fit_to_width(&text, up_x - list.x - 10.0),
        list.x,
        y + 19.0,
        DIM_TEXT,
    );
    if button_enabled(input, up_rect, up, *first > 0) {
        *first = first.saturating_sub(visible);
    }
    if button_enabled(input, down_rect, down, *first + visible < total) {
        *first = (*first + visible).min(total.saturating_sub(visible));
    }
}

/// The height [`draw_more_rows`] takes under its list.
pub const MORE_ROWS_HEIGHT: f32 = BUTTON_HEIGHT + 6.0;

/// The words of [`draw_more_rows`]: how many rows are shown and where the others are. Rows are
/// counted, not named by number: a stored game's row starts with its own "#id".
pub fn more_hint(total: usize, first: usize, visible: usize) -> Option<String> {
    if total <= visible {
        return None;
    }
    let shown = visible.min(total - first.min(total));
    let above = first;
    let below = total - above - shown;
    let rest = match (above, below) {
        (0, _) => format!("{below} more below"),
        (_, 0) => format!("{above} more above"),
        _ => format!("{above} above, {below} below"),
    };
    Some(format!("{shown} of {total} shown, {rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_more_hint_counts_rows_and_names_no_game_number() {
        assert_eq!(more_hint(2, 0, 2), None);
        assert_eq!(
            more_hint(2, 1, 1).as_deref(),
            Some("1 of 2 shown, 1 more above")
        );
        assert_eq!(
            more_hint(14, 0, 9).as_deref(),
            Some("9 of 14 shown, 5 more below")
        );
        assert_eq!(
            more_hint(14, 2, 9).as_deref(),
            Some("9 of 14 shown, 2 above, 3 below")
        );
    }
}
