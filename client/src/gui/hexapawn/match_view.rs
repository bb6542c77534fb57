//! An auto match (HER against HER) as its spectators see it: the board of the round being
//! played, the matchbox of the HER to move, the round and the running score, and the learning
//! curve as it grows. Nobody moves here: the server's room plays the match.

use macroquad::math::Rect;
use parlor_shared::hexapawn::{MatchView, RoundResult, Side, brain_title};

use super::curve::{HER_COLORS, draw_curve};
use super::draw::{HexMarks, caption, draw_board, draw_matchbox};
use super::layout::{HexLayout, board_area, halves, split_top};
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::describe::{count_of, count_s};
use crate::gui::widgets::{
    DIM_TEXT, GOOD_TEXT, LINE_HEIGHT, TEXT, first_that_fits, fit_to_width, label,
};

/// Heights of the band with the two boards and of the score under it.
const BOARDS_HEIGHT: f32 = 290.0;
/// The boards give up height down to this, so that the charts keep theirs on a short window.
const BOARDS_MIN_HEIGHT: f32 = 150.0;
/// The height the learning curve's two charts need to show their lines and scales.
const CURVE_MIN_HEIGHT: f32 = 240.0;
const SCORE_HEIGHT: f32 = 4.0 * LINE_HEIGHT + 8.0;
const CAPTION: f32 = 30.0;

/// Where a match's parts go on the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchLayout {
    pub board: HexLayout,
    pub matchbox: HexLayout,
    /// The first baseline of the score.
    pub score_y: f32,
    /// The learning curve's two charts.
    pub curve: Rect,
}

pub fn match_layout(screen_w: f32, screen_h: f32, view: &MatchView) -> MatchLayout {
    let area = board_area(screen_w, screen_h);
    let boards_height = (area.h - 2.0 * 8.0 - SCORE_HEIGHT - CURVE_MIN_HEIGHT)
        .clamp(BOARDS_MIN_HEIGHT, BOARDS_HEIGHT);
    let (boards, rest) = split_top(area, boards_height, 8.0);
    let (score, curve) = split_top(rest, SCORE_HEIGHT, 8.0);
    let boards = Rect::new(boards.x, boards.y + CAPTION, boards.w, boards.h - CAPTION);
    let (left, right) = halves(boards, 24.0);
    let dims = view.setup.dims;
    MatchLayout {
        board: HexLayout::fit(left, dims),
        matchbox: HexLayout::fit(right, dims),
        score_y: score.y + LINE_HEIGHT - 4.0,
        curve,
    }
}

/// The names of the two HERs: their brains.
fn names(view: &MatchView) -> [String; 2] {
    view.setup.brains.each_ref().map(|name| brain_title(name))
}

/// Which HER is to move on the board shown (0 or 1).
pub fn her_to_move(view: &MatchView) -> usize {
    let white = usize::from(view.white);
    match view.position.to_move() {
        Side::White => white,
        Side::Black => 1 - white,
    }
}

/// Draws the match; spectators make no moves, so this is always `Nothing`.
pub fn draw_match(view: &MatchView) -> BoardPlay {
    let layout = match_layout(canvas_width(), canvas_height(), view);
    let names = names(view);
    let white = usize::from(view.white);
    let board_caption = format!("{} plays White", names[white]);
    caption(&[&board_caption], layout.board, TEXT);
    let marks = HexMarks {
        last: view.last_move,
        ..HexMarks::default()
    };
    draw_board(layout.board, &view.position, &marks);
    match &view.matchbox {
        Some(matchbox) => {
            let mover = her_to_move(view);
            let beads = count_s(matchbox.total, "bead");
            let long = format!("{}'s matchbox: {beads}", names[mover]);
            let shorter = format!("{}'s box: {beads}", names[mover]);
            let short = format!("Matchbox: {beads}");
            let captions = [&long, &shorter, &short, &beads].map(String::as_str);
            caption(&captions, layout.matchbox, HER_COLORS[mover]);
            draw_matchbox(layout.matchbox, matchbox, None);
        }
        None => {
            let text = if view.finished {
                "The match is over."
            } else {
                "(the matchbox in use shows here)"
            };
            caption(&[text], layout.matchbox, DIM_TEXT);
        }
    }
    let score_x = layout.board.left - 22.0;
    let width = layout.curve.x + layout.curve.w - score_x;
    let names = names.each_ref().map(String::as_str);
    draw_score(score_x, layout.score_y, width, view, names);
    draw_curve(layout.curve, view, names);
    BoardPlay::Nothing
}

/// The round, each HER's wins and the share of them moving first, and the last round.
fn draw_score(x: f32, mut y: f32, width: f32, view: &MatchView, names: [&str; 2]) {
    let line = |text: &str, y: f32, color| label(&fit_to_width(text, width), x, y, color);
    let fitting = |texts: &[String], y: f32, color| {
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        label(&first_that_fits(&texts, width), x, y, color)
    };
    let round = if view.finished && view.rounds_played < view.setup.rounds {
        format!(
            "Stopped after {} of {} on {}: a brain is full",
            view.rounds_played,
            count_s(view.setup.rounds, "round"),
            view.setup.dims
        )
    } else if view.finished {
        format!(
            "Finished: {} played on {}",
            count_s(view.rounds_played, "round"),
            view.setup.dims
        )
    } else {
        format!(
            "Round {} of {} on {}",
            view.rounds_played.saturating_add(1).min(view.setup.rounds),
            view.setup.rounds,
            view.setup.dims
        )
    };
    line(&round, y, if view.finished { GOOD_TEXT } else { TEXT });
    y += LINE_HEIGHT;
    for her in 0..2 {
        fitting(&score_lines(view, her, names[her]), y, HER_COLORS[her]);
        y += LINE_HEIGHT;
    }
    if let Some(last) = view.last_round {
        fitting(&last_round_lines(last, names), y, DIM_TEXT);
    }
}

/// The last round in words, the whole story first, then shorter ways for a narrow window. A HER
/// that resigns before its first move has lost every opening it had (each box empties as its
/// moves lose): that is why a round can end with no ply.
fn last_round_lines(last: RoundResult, names: [&str; 2]) -> Vec<String> {
    let (winner, first) = (names[last.winner], names[last.first]);
    let loser = names[1 - last.winner];
    let plies = count_of(last.plies, "ply", "plies");
    match (last.resigned, last.plies) {
        (true, 0) => vec![
            format!(
                "Last round: {winner} won: {loser}, moving first, resigned at once (every \
                 opening it has left lost before)"
            ),
            format!("Last round: {winner} won: {loser} resigned at once"),
            format!("Last: {winner} won, {loser} resigned"),
        ],
        (true, _) => vec![
            format!(
                "Last round: {winner} won in {plies}, {first} first; {loser} resigned (every \
                 move it had left there had lost)"
            ),
            format!("Last round: {winner} won in {plies}; {loser} resigned"),
            format!("Last: {winner} won, {loser} resigned"),
        ],
        (false, _) => vec![
            format!("Last round: {winner} won in {plies}, {first} first"),
            format!("Last round: {winner} won in {plies}"),
            format!("Last: {winner} won"),
        ],
    }
}

/// One HER's line of the score, the whole line first, then shorter ways for a narrow window.
fn score_lines(view: &MatchView, her: usize, name: &str) -> Vec<String> {
    let stats = view.stats[her];
    let (wins, short_wins) = match (stats.wins, stats.share_moving_first()) {
        (1, Some(share)) if share > 0.5 => ("1 win, moving first".into(), "1 win, first".into()),
        (1, _) => ("1 win, moving second".into(), "1 win, second".into()),
        (wins, Some(0.0)) => (
            format!("{wins} wins, all moving second"),
            format!("{wins} wins, all second"),
        ),
        (wins, Some(1.0)) => (
            format!("{wins} wins, all moving first"),
            format!("{wins} wins, all first"),
        ),
        (wins, Some(share)) => {
            let percent = share * 100.0;
            (
                format!("{wins} wins, {percent:.0}% of them moving first"),
                format!("{wins} wins, {percent:.0}% first"),
            )
        }
        (wins, None) => (count_s(wins, "win"), count_s(wins, "win")),
    };
    let boxes = count_of(view.boxes[her], "box", "boxes");
    let beads = count_s(view.beads[her], "bead");
    vec![
        format!("{name}: {wins}; {boxes}, {beads}"),
        format!("{name}: {short_wins}; {boxes}, {beads}"),
        format!("{name}: {}; {beads}", count_s(stats.wins, "win")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::hexapawn::{Dims, HerStats, MatchSetup, Pace};

    fn view() -> MatchView {
        MatchView::new(MatchSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds: 100,
            pace: Pace::FullSpeed,
            brains: ["HER A".into(), "HER B".into()],
        })
    }

    #[test]
    fn the_score_says_wins_and_the_share_moving_first() {
        let mut view = view();
        let score_line = |view: &MatchView, her, name| score_lines(view, her, name).remove(0);
        assert_eq!(score_line(&view, 0, "A"), "A: 0 wins; 0 boxes, 0 beads");
        view.stats[0] = HerStats {
            wins: 1,
            wins_moving_first: 1,
        };
        view.boxes[0] = 1;
        view.beads[0] = 1;
        assert_eq!(
            score_line(&view, 0, "A"),
            "A: 1 win, moving first; 1 box, 1 bead"
        );
        view.stats[1] = HerStats {
            wins: 8,
            wins_moving_first: 2,
        };
        view.boxes[1] = 11;
        view.beads[1] = 20;
        assert_eq!(
            score_lines(&view, 1, "B"),
            [
                "B: 8 wins, 25% of them moving first; 11 boxes, 20 beads",
                "B: 8 wins, 25% first; 11 boxes, 20 beads",
                "B: 8 wins; 20 beads"
            ]
        );
    }

    #[test]
    fn a_round_won_by_resignation_says_why_and_a_one_sided_score_says_all() {
        let round = |plies, resigned| RoundResult {
            first: 0,
            winner: 1,
            plies,
            resigned,
            end: parlor_shared::hexapawn::Position::start(Dims::HEXAPAWN),
            last_move: None,
        };
        let last_round_line = |last, names| last_round_lines(last, names).remove(0);
        let at_once = last_round_line(round(0, true), ["A", "B"]);
        assert!(!at_once.contains("0 plies"), "{at_once}");
        assert!(
            at_once.contains("A, moving first, resigned at once"),
            "{at_once}"
        );
        assert!(at_once.contains("every opening"), "{at_once}");
        let later = last_round_line(round(2, true), ["A", "B"]);
        assert!(
            later.contains("won in 2 plies") && later.contains("A resigned"),
            "{later}"
        );
        let played = last_round_line(round(3, false), ["A", "B"]);
        assert_eq!(played, "Last round: B won in 3 plies, A first");

        let mut view = view();
        view.stats[1] = HerStats {
            wins: 5,
            wins_moving_first: 0,
        };
        let score = score_lines(&view, 1, "B");
        assert!(score[0].starts_with("B: 5 wins, all moving second;"));
        assert!(score[1].starts_with("B: 5 wins, all second;"));
        // Every shorter way is shorter.
        for lines in [score, last_round_lines(round(2, true), ["A", "B"])] {
            assert!(
                lines.windows(2).all(|pair| pair[1].len() < pair[0].len()),
                "{lines:?}"
            );
        }
    }

    #[test]
    fn the_mover_follows_the_side_to_move_and_who_plays_white() {
        let mut view = view();
        assert_eq!(her_to_move(&view), 0);
        view.white = 1;
        assert_eq!(her_to_move(&view), 1);
        view.position = view.position.play("b1-b2".parse().unwrap()).unwrap();
        assert_eq!(her_to_move(&view), 0);
    }

    #[test]
    fn boards_score_and_curve_are_stacked_without_overlap() {
        let layout = match_layout(1024.0, 768.0, &view());
        assert!(layout.board.left + layout.board.width() < layout.matchbox.left);
        assert!(layout.board.top + layout.board.height() + 16.0 < layout.score_y);
        assert!(layout.score_y + 3.0 * LINE_HEIGHT < layout.curve.y);
        assert!(layout.curve.y + layout.curve.h <= 768.0);
        assert!(layout.curve.h > 200.0, "{layout:?}");
    }

    /// On a short window the boards give up height, not the charts.
    #[test]
    fn the_curve_keeps_its_height_on_a_small_window() {
        let layout = match_layout(800.0, 600.0, &view());
        assert!(layout.curve.h >= CURVE_MIN_HEIGHT, "{layout:?}");
        assert!(layout.curve.y + layout.curve.h <= 600.0);
        assert!(layout.board.top + layout.board.height() + 16.0 < layout.score_y);
        assert!(layout.score_y + 3.0 * LINE_HEIGHT < layout.curve.y);
        assert!(layout.board.cell >= 30.0, "{layout:?}");
    }
}
