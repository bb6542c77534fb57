//! Where a Hexapawn board sits and what a pixel on it is: squares (row 1, White's back row, at
//! the bottom; column a at the left) and the matchbox's arrows. Pure functions of rectangles and
//! the board's size, so tests compute every square's place and every arrow's line.

use macroquad::math::{Rect, Vec2, vec2};
use parlor_shared::hexapawn::{Dims, Move, Square};

use crate::gui::board_cursor::{Cell, Grid};
use crate::gui::widgets::{SIDE_PANEL_WIDTH, TOP_BAR_HEIGHT};

/// Room left of and under a board for its row and column labels.
const LABEL_BAND: f32 = 22.0;
/// Margin around the board area.
const MARGIN: f32 = 16.0;
/// Squares never shrink below this side.
const MIN_CELL: f32 = 8.0;
/// How far a click may be from an arrow's line and still pick it, in cells.
const ARROW_REACH: f32 = 0.22;
/// Where along an arrow its chance is written (0 = its tail, 1 = its head): past the middle,
/// so that two crossing captures do not write in the same place.
const LABEL_AT: f32 = 0.62;

/// A board on screen: its top-left corner, the side of a square and the board's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HexLayout {
    pub left: f32,
    pub top: f32,
    pub cell: f32,
    pub dims: Dims,
}

impl HexLayout {
    /// The largest whole-pixel board of `dims` inside `area`, leaving room for the labels,
    /// centred.
    pub fn fit(area: Rect, dims: Dims) -> HexLayout {
        let (rows, cols) = (f32::from(dims.rows()), f32::from(dims.cols()));
        let fit_w = area.w - LABEL_BAND;
        let fit_h = area.h - LABEL_BAND;
        let cell = (fit_w / cols).min(fit_h / rows).floor().max(MIN_CELL);
        HexLayout {
            left: (area.x + LABEL_BAND + ((fit_w - cell * cols) / 2.0).max(0.0)).floor(),
            top: (area.y + ((fit_h - cell * rows) / 2.0).max(0.0)).floor(),
            cell,
            dims,
        }
    }

    /// The squares as drawn (White's home row at the bottom), for the keyboard's cursor.
    pub fn grid(&self) -> Grid {
        Grid {
            left: self.left,
            top: self.top,
            cell: self.cell,
            cols: self.dims.cols(),
            rows: self.dims.rows(),
        }
    }

    /// `square`'s cell on the [`grid`](Self::grid).
    pub fn cell(&self, square: Square) -> Cell {
        let rows = self.dims.rows();
        (
            square.col,
            rows.saturating_sub(1).saturating_sub(square.row),
        )
    }

    pub fn width(&self) -> f32 {
        self.cell * f32::from(self.dims.cols())
    }

    pub fn height(&self) -> f32 {
        self.cell * f32::from(self.dims.rows())
    }

    /// The screen rectangle of `square`; off the board for a square beyond it (as a peer may
    /// send), never a panic.
    pub fn square_rect(&self, square: Square) -> Rect {
        let rows_from_top = f32::from(self.dims.rows()) - 1.0 - f32::from(square.row);
        Rect::new(
            self.left + f32::from(square.col) * self.cell,
            self.top + rows_from_top * self.cell,
            self.cell,
            self.cell,
        )
    }

    pub fn square_center(&self, square: Square) -> Vec2 {
        let rect = self.square_rect(square);
        vec2(rect.x + rect.w / 2.0, rect.y + rect.h / 2.0)
    }

    /// The square under `point`, or `None` off the board. Each square owns its top and left
    /// edges, so every pixel on the board belongs to exactly one square.
    pub fn square_at(&self, point: Vec2) -> Option<Square> {
        let col = ((point.x - self.left) / self.cell).floor();
        let from_top = ((point.y - self.top) / self.cell).floor();
        let (rows, cols) = (f32::from(self.dims.rows()), f32::from(self.dims.cols()));
        if !(0.0..cols).contains(&col) || !(0.0..rows).contains(&from_top) {
            return None;
        }
        Some(Square::new(
            col as u8,
            self.dims.rows() - 1 - from_top as u8,
        ))
    }

    /// The arrow drawn for `mv`: from near its pawn's centre to near its target's centre.
    pub fn arrow(&self, mv: Move) -> Arrow {
        let from = self.square_center(mv.from);
        let to = self.square_center(mv.to);
        let along = (to - from).normalize_or_zero();
        Arrow {
            tail: from + along * self.cell * 0.3,
            head: to - along * self.cell * 0.12,
        }
    }

    /// The move of `moves` whose arrow passes nearest to `point`, if one passes near enough.
    pub fn arrow_at(&self, moves: &[Move], point: Vec2) -> Option<Move> {
        moves
            .iter()
            .map(|&mv| (mv, self.arrow(mv).distance(point)))
            .filter(|&(_, distance)| distance <= self.cell * ARROW_REACH)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(mv, _)| mv)
    }
}

/// Where the tags of `arrows`, each at most `size` (width, height), are written, in order: at
/// [`LABEL_AT`] along its arrow, unless a tag written before is there, then at the first of a
/// few other points along it that is clear, or that covers least of the others. A pawn's
/// straight move and its capture leave the pawn side by side, and on a small board their tags
/// would otherwise run into one ("33%33%").
pub fn tag_points(arrows: &[Arrow], size: Vec2) -> Vec<Vec2> {
    const ALONG: [f32; 5] = [LABEL_AT, 0.85, 0.4, 1.0, 0.2];
    // Tags that touch read as one; a few pixels between them keep them apart.
    let size = size + vec2(8.0, 2.0);
    let rect_at = |at: Vec2| Rect::new(at.x - size.x / 2.0, at.y - size.y / 2.0, size.x, size.y);
    let mut placed: Vec<Rect> = Vec::new();
    (arrows.iter())
        .map(|arrow| {
            // The area a tag at `at` would cover of the tags written before.
            let covered = |at: Vec2| -> f32 {
                let tag = rect_at(at);
                (placed.iter())
                    .filter_map(|other| other.intersect(tag))
                    .map(|both| both.w * both.h)
                    .sum()
            };
            let points = ALONG.map(|along| arrow.tail.lerp(arrow.head, along));
            // The first clear point; where none is, the one that covers least (each point's
            // cover reckoned once, not again at every comparison).
            let (_, at) = (points.into_iter())
                .map(|at| (covered(at), at))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .unwrap_or((0.0, points[0]));
            placed.push(rect_at(at));
            at
        })
        .collect()
}

/// A move's arrow on a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrow {
    pub tail: Vec2,
    pub head: Vec2,
}

impl Arrow {
    /// Where the move's chance is written.
    pub fn label_point(&self) -> Vec2 {
        self.tail.lerp(self.head, LABEL_AT)
    }

    /// The two ends of the arrowhead's barbs, `size` pixels back from the head.
    pub fn barbs(&self, size: f32) -> [Vec2; 2] {
        let back = (self.tail - self.head).normalize_or_zero() * size;
        let side = back.perp() * 0.55;
        [self.head + back + side, self.head + back - side]
    }

    /// The distance from `point` to the arrow's line segment.
    pub fn distance(&self, point: Vec2) -> f32 {
        let line = self.head - self.tail;
        let length_squared = line.length_squared();
        let t = if length_squared == 0.0 {
            0.0
        } else {
            ((point - self.tail).dot(line) / length_squared).clamp(0.0, 1.0)
        };
        point.distance(self.tail + line * t)
    }
}

/// The area left of the side panel and below the top bar, less a margin.
pub fn board_area(screen_w: f32, screen_h: f32) -> Rect {
    let width = (screen_w - SIDE_PANEL_WIDTH).max(0.0);
    Rect::new(
        MARGIN,
        TOP_BAR_HEIGHT + MARGIN,
        (width - 2.0 * MARGIN).max(0.0),
        (screen_h - TOP_BAR_HEIGHT - 2.0 * MARGIN).max(0.0),
    )
}

/// Splits `area` into a top band `height` high and the rest below it, `gap` apart.
pub fn split_top(area: Rect, height: f32, gap: f32) -> (Rect, Rect) {
    let height = height.min(area.h);
    let below = (area.h - height - gap).max(0.0);
    (
        Rect::new(area.x, area.y, area.w, height),
        Rect::new(area.x, area.y + area.h - below, area.w, below),
    )
}

/// Splits `area` into a left and a right half, `gap` apart.
pub fn halves(area: Rect, gap: f32) -> (Rect, Rect) {
    let w = ((area.w - gap) / 2.0).max(0.0);
    (
        Rect::new(area.x, area.y, w, area.h),
        Rect::new(area.x + area.w - w, area.y, w, area.h),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    #[test]
    fn row_one_is_at_the_bottom_and_every_centre_maps_back() {
        let layout = HexLayout::fit(Rect::new(0.0, 0.0, 322.0, 322.0), Dims::HEXAPAWN);
        assert_eq!(layout.cell, 100.0);
        assert!(layout.left >= LABEL_BAND);
        let a1 = layout.square_rect(sq("a1"));
        let a3 = layout.square_rect(sq("a3"));
        let c1 = layout.square_rect(sq("c1"));
        assert!(a1.y > a3.y && c1.x > a1.x && a1.y == c1.y);
        for row in 0..3 {
            for col in 0..3 {
                let square = Square::new(col, row);
                assert_eq!(layout.square_at(layout.square_center(square)), Some(square));
            }
        }
        let corner = vec2(layout.left - 0.5, layout.top);
        assert_eq!(layout.square_at(corner), None);
        let below = vec2(layout.left, layout.top + layout.height());
        assert_eq!(layout.square_at(below), None);
        // A square of a bigger board (in a move or a box a peer sent) lies off this one.
        let far = layout.square_center(Square::new(7, 7));
        assert_eq!(layout.square_at(far), None);
    }

    #[test]
    fn a_wide_board_fits_its_area_and_stays_centred() {
        let area = Rect::new(10.0, 20.0, 400.0, 200.0);
        let dims = Dims::new(4, 6).unwrap();
        let layout = HexLayout::fit(area, dims);
        assert!(layout.left + layout.width() <= area.x + area.w);
        assert!(layout.top + layout.height() <= area.y + area.h);
        assert_eq!(layout.cell, ((200.0 - LABEL_BAND) / 4.0_f32).floor());
    }

    #[test]
    fn a_click_on_an_arrow_picks_its_move_and_crossing_captures_write_apart() {
        let layout = HexLayout::fit(Rect::new(0.0, 0.0, 322.0, 322.0), Dims::HEXAPAWN);
        let moves = [mv("a3xb2"), mv("b3xa2"), mv("c3-c2")];
        for m in moves {
            let arrow = layout.arrow(m);
            let middle = arrow.tail.lerp(arrow.head, 0.8);
            assert_eq!(layout.arrow_at(&moves, middle), Some(m));
            assert!(arrow.distance(arrow.tail) < 1e-3);
        }
        // The crossing point of the two captures is equally near both: one of them is picked.
        let cross = layout
            .arrow(mv("a3xb2"))
            .tail
            .lerp(layout.arrow(mv("a3xb2")).head, 0.5);
        assert!(layout.arrow_at(&moves, cross).is_some());
        let far = layout.square_center(sq("c1"));
        assert_eq!(layout.arrow_at(&moves, far), None);
        let one = layout.arrow(mv("a3xb2")).label_point();
        let other = layout.arrow(mv("b3xa2")).label_point();
        assert!(one.distance(other) > layout.cell * 0.2);
    }

    #[test]
    fn tags_of_arrows_from_one_pawn_do_not_run_into_each_other() {
        // A straight move and a capture from the same pawn, on a board of 46-pixel squares.
        let straight = Arrow {
            tail: vec2(0.0, 100.0),
            head: vec2(0.0, 54.0),
        };
        let capture = Arrow {
            tail: vec2(10.0, 90.0),
            head: vec2(40.0, 60.0),
        };
        let size = vec2(30.0, 14.0);
        let tag = |at: Vec2| Rect::new(at.x - 15.0, at.y - 7.0, 30.0, 14.0);
        assert!(tag(straight.label_point()).overlaps(&tag(capture.label_point())));
        let [one, other] = tag_points(&[straight, capture], size)[..] else {
            panic!("a point a tag");
        };
        assert_eq!(one, straight.label_point(), "the first tag keeps its place");
        assert!(!tag(one).overlaps(&tag(other)));
        assert!(capture.distance(other) < 1e-3, "a tag stays on its arrow");
    }

    #[test]
    fn an_arrowhead_points_back_along_its_arrow() {
        let arrow = Arrow {
            tail: vec2(0.0, 100.0),
            head: vec2(0.0, 0.0),
        };
        let [left, right] = arrow.barbs(10.0);
        assert_eq!(left.y, 10.0);
        assert_eq!(right.y, 10.0);
        assert_eq!(left.x, -right.x);
        assert!(left.x.abs() > 1.0);
    }

    #[test]
    fn areas_split_without_overlap() {
        let area = board_area(1024.0, 768.0);
        assert!(area.x + area.w <= 1024.0 - SIDE_PANEL_WIDTH);
        let (top, rest) = split_top(area, 300.0, 10.0);
        assert_eq!(top.h, 300.0);
        assert_eq!(rest.y, top.y + 310.0);
        assert_eq!(rest.y + rest.h, area.y + area.h);
        let (left, right) = halves(top, 20.0);
        assert_eq!(right.x - (left.x + left.w), 20.0);
    }
}
