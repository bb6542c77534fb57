//! Numeric Klotski in a room and in the replay: left of the side panel, the status line (steps,
//! solved or why it was given up), the board with the last slide animated and the goal picture;
//! in a room the player's controls (a click on a piece or a blank, a piece's number typed, the
//! arrow keys for the piece picked last, Give up), each turned into a `GameMove` or into the
//! reason it is none.

use macroquad::color::Color;
use macroquad::input::{KeyCode, is_key_pressed};
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle_lines;
use parlor_shared::game::GameMove;
use parlor_shared::klotski::{
    Dir, GiveUpReason, KlotskiGame, KlotskiMove, KlotskiStatus, Move, Position, Puzzle, Shape,
};

use super::board::{BoardLayout, Motion, board_layout, draw_board, draw_goal, piece_at};
use super::play::{TypedPiece, slide_for_click, slide_for_key, slide_into_blank};
use super::slides::Slides;
use super::walk::count_steps;
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::confirm::Confirmation;
use crate::gui::describe::count_s;
use crate::gui::key_focus;
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, TEXT, button_enabled,
    button_width, first_that_fits, heading, label,
};
use crate::gui::widgets::{TOP_BAR_HEIGHT, side_panel_x};

const MARGIN: f32 = 16.0;
/// Room above the board for the status line.
const STATUS_BAND: f32 = 56.0;
/// Room under the board for the buttons.
const BUTTON_BAND: f32 = 56.0;
/// Side of the goal picture's square, right of the board.
const GOAL_SIDE: f32 = 180.0;
/// The outline of the piece the arrow keys move.
const PICKED_EDGE: Color = Color::new(0.35, 0.85, 0.45, 1.0);

/// Where the parts of a Klotski room or replay sit left of the side panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoomLayout {
    /// Baseline of the status line.
    pub status_y: f32,
    /// The area the board is centred in.
    pub board: Rect,
    /// The area the goal picture is centred in.
    pub goal: Rect,
    /// Top of the button row.
    pub buttons_y: f32,
}

pub fn room_layout(screen_w: f32, screen_h: f32) -> RoomLayout {
    let area_w = side_panel_x(screen_w);
    let top = TOP_BAR_HEIGHT + STATUS_BAND;
    let board_w = (area_w - 3.0 * MARGIN - GOAL_SIDE).max(0.0);
    RoomLayout {
        status_y: TOP_BAR_HEIGHT + 34.0,
        board: Rect::new(
            MARGIN,
            top,
            board_w,
            (screen_h - top - BUTTON_BAND).max(0.0),
        ),
        goal: Rect::new(2.0 * MARGIN + board_w, top + 34.0, GOAL_SIDE, GOAL_SIDE),
        buttons_y: screen_h - BUTTON_BAND + (BUTTON_BAND - BUTTON_HEIGHT) / 2.0,
    }
}

/// "Solved in 17 steps", "Gave up after 3 steps: the player gave up", "4 steps so far".
pub fn status_line(game: &KlotskiGame) -> (String, Color) {
    let steps = count_steps(game.steps() as usize);
    match game.status() {
        KlotskiStatus::Playing => (format!("{steps} so far"), TEXT),
        KlotskiStatus::Solved if game.steps() == 0 => {
            ("Solved at the start: no step needed".into(), GOOD_TEXT)
        }
        KlotskiStatus::Solved => (format!("Solved in {steps}"), GOOD_TEXT),
        KlotskiStatus::GaveUp(reason) => (format!("Gave up after {steps}: {reason}"), ERROR_TEXT),
    }
}

/// Draws the status line, the board (its piece `motion` under way) and the goal; returns the
/// board's layout for the hit test.
fn draw_game(layout: &RoomLayout, game: &KlotskiGame, motion: Option<Motion>) -> BoardLayout {
    let (status, color) = status_line(game);
    label(&status, MARGIN, layout.status_y, color);
    let puzzle = game.puzzle();
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let board = board_layout(rows, cols, layout.board);
    draw_board(&board, puzzle, game.position(), motion);
    heading("Goal", layout.goal.x, layout.goal.y - 10.0);
    let goal = board_layout(rows, cols, layout.goal);
    draw_goal(&goal, puzzle);
    let blocks = puzzle.pieces().iter();
    let blocks = blocks.filter(|piece| piece.shape != Shape::Single).count();
    let facts = [
        format!("{rows} x {cols} board"),
        format!(
            "{}, {}",
            count_s(puzzle.blank_count() as u64, "blank"),
            count_s(blocks as u64, "block")
        ),
    ];
    let mut y = goal.bounds().bottom() + 30.0;
    for fact in facts {
        label(&fact, layout.goal.x, y, DIM_TEXT);
        y += LINE_HEIGHT;
    }
    board
}

/// The replay's picture of `game`, the state after the first `step` of `moves`: stepping on
/// slides the piece in, stepping back slides it back.
pub fn draw_replay_board(
    slides: &mut Slides,
    game: &KlotskiGame,
    step: usize,
    moves: &[GameMove],
    now: f64,
) {
    let layout = room_layout(canvas_width(), canvas_height());
    draw_game(&layout, game, slides.motion(step, moves, now));
    let hint = "Right and Left step through the slides.";
    label(hint, MARGIN, layout.buttons_y + 20.0, DIM_TEXT);
}

/// The room's controls: the piece picked last (the arrow keys move it), the number being typed
/// and the slide on show.
#[derive(Debug, Default)]
pub struct KlotskiRoomBoard {
    picked: Option<u16>,
    typed: TypedPiece,
    slides: Slides,
    /// Give up asks "Sure?" first: one click must not end the game.
    giving_up: Confirmation<()>,
}

impl KlotskiRoomBoard {
    /// Draws `game` (after `moves`) and handles this frame's click, arrow key or Give up.
    /// `seated`: this client plays here; `may_move`: and may move now, or why not.
    pub fn update(
        &mut self,
        input: &Input,
        now: f64,
        game: &KlotskiGame,
        moves: &[GameMove],
        seated: bool,
        may_move: Result<(), String>,
    ) -> BoardPlay {
        let layout = room_layout(canvas_width(), canvas_height());
        let motion = self.slides.motion(moves.len(), moves, now);
        let board = draw_game(&layout, game, motion);
        let (puzzle, position) = (game.puzzle(), game.position());
        let playing = game.status() == KlotskiStatus::Playing;
        if seated && playing {
            let settled = motion.is_none_or(|m| m.progress >= 1.0 || Some(m.label) != self.picked);
            if let Some(label) = self.picked.filter(|_| settled) {
                outline_piece(&board, puzzle, position, label);
            }
            let text = self.giving_up.text((), "Give up", now);
            // As wide as its question, so nothing beside it moves when it asks.
            let width = button_width("Sure? Give up");
            let rect = Rect::new(MARGIN, layout.buttons_y, width, BUTTON_HEIGHT);
            let room = side_panel_x(canvas_width()) - rect.right() - 12.0 - MARGIN;
            let hints = [
                "Click a piece to slide it, or type its number and use the arrow keys.",
                "Click a piece, or type its number and use the arrow keys.",
                "Click a piece, or type its number, then an arrow key.",
                "Click a piece, or type its number.",
                "Click a piece to slide it.",
            ];
            let hint = first_that_fits(&hints, room);
            label(
                &hint,
                rect.right() + 12.0,
                layout.buttons_y + 20.0,
                DIM_TEXT,
            );
            let pressed = button_enabled(input, rect, &text, may_move.is_ok());
            self.giving_up.draw_time_left((), rect, now);
            if pressed && self.giving_up.click((), now) {
                return BoardPlay::Move(GameMove::Klotski(KlotskiMove::GiveUp(
                    GiveUpReason::Player,
                )));
            }
        }
        let key = [
            (KeyCode::Up, Dir::Up),
            (KeyCode::Down, Dir::Down),
            (KeyCode::Left, Dir::Left),
            (KeyCode::Right, Dir::Right),
        ]
        .into_iter()
        .find(|&(key, _)| is_key_pressed(key))
        .map(|(_, dir)| dir);
        let typed = self.typed.read(&input.typed, now, puzzle);
        if key.is_some() || typed.is_some() {
            // The board has the keyboard now: a later Enter must not press a ringed button.
            key_focus::let_go();
        }
        match typed {
            Some(Ok(label)) if seated && playing => {
                self.picked = Some(label);
                let next = format!("Piece {label} picked: the arrow keys slide it.");
                BoardPlay::Prompt(next)
            }
            Some(Err(reason)) if seated && playing => BoardPlay::Refused(reason),
            _ => self.decide(&board, game, input, key, may_move),
        }
    }

    /// What this frame's arrow key towards `key` or click on `board` does: a slide, the reason
    /// there is none (`may_move`'s first), or nothing. A click on a piece picks it.
    fn decide(
        &mut self,
        board: &BoardLayout,
        game: &KlotskiGame,
        input: &Input,
        key: Option<Dir>,
        may_move: Result<(), String>,
    ) -> BoardPlay {
        let (puzzle, position) = (game.puzzle(), game.position());
        let attempt = match key {
            Some(dir) => Some(slide_for_key(puzzle, position, self.picked, dir)),
            None if input.clicked => {
                let clicked = click_slide(board, puzzle, position, self.picked, input);
                clicked.map(|(picked, slide)| {
                    self.picked = picked;
                    slide
                })
            }
            None => None,
        };
        match (attempt, may_move) {
            (None, _) => BoardPlay::Nothing,
            (Some(_), Err(reason)) => BoardPlay::Refused(reason),
            (Some(Err(reason)), Ok(())) => BoardPlay::Refused(reason),
            (Some(Ok(mv)), Ok(())) => {
                self.picked = Some(mv.label);
                BoardPlay::Move(GameMove::Klotski(KlotskiMove::Slide(mv)))
            }
        }
    }
}

/// What a click at the input's mouse on the board asks for, or `None` off the grid: the piece
/// picked afterwards and the slide (or why there is none). A click on a piece picks it.
pub(super) fn click_slide(
    board: &BoardLayout,
    puzzle: &Puzzle,
    position: &Position,
    picked: Option<u16>,
    input: &Input,
) -> Option<(Option<u16>, Result<Move, String>)> {
    let (x, y) = (input.mouse.x, input.mouse.y);
    let cell = board.cell_at(x, y)?;
    let Some(label) = piece_at(board, puzzle, position, x, y) else {
        return Some((picked, slide_into_blank(puzzle, position, cell, picked)));
    };
    let rect = piece_rect(board, puzzle, position, label)?;
    let centre = rect.center();
    let lean = ((x - centre.x) / board.cell, (y - centre.y) / board.cell);
    Some((Some(label), slide_for_click(puzzle, position, label, lean)))
}

fn piece_rect(
    board: &BoardLayout,
    puzzle: &Puzzle,
    position: &Position,
    label: u16,
) -> Option<Rect> {
    let index = puzzle.piece_index(label)?;
    let shape = puzzle.pieces()[index].shape;
    Some(board.piece_rect(shape, position.tops()[index]))
}

/// Rings the piece the arrow keys move.
fn outline_piece(board: &BoardLayout, puzzle: &Puzzle, position: &Position, label: u16) {
    if let Some(rect) = piece_rect(board, puzzle, position, label) {
        draw_rectangle_lines(rect.x, rect.y, rect.w, rect.h, 4.0, PICKED_EDGE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};
    use parlor_shared::klotski::parse_puzzle;

    const BLOCKS: &str = "3 4\n6 2 3 4\n10 1 7 8\n0 5 0 9\n2\n6 2*1\n3 2*2\n";

    fn click_at(x: f32, y: f32) -> Input {
        Input {
            mouse: macroquad::math::vec2(x, y),
            clicked: true,
            typed: Vec::new(),
            wheel: 0.0,
        }
    }

    #[test]
    fn clicks_pick_pieces_lean_towards_a_blank_or_fill_a_blank() {
        let puzzle = parse_puzzle(BLOCKS).unwrap();
        let start = puzzle.start();
        let layout = room_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
        let board = board_layout(3, 4, layout.board);
        let five = board.cell_rect(9);
        // Right of 5's centre: 5 slides right, and 5 is picked.
        let (picked, slide) = click_slide(
            &board,
            &puzzle,
            start,
            None,
            &click_at(five.right() - 5.0, five.center().y),
        )
        .unwrap();
        assert_eq!(picked, Some(5));
        assert_eq!(slide.unwrap().to_string(), "5 R");
        // In the middle of 5: refused, still picked.
        let centre = five.center();
        let (picked, slide) =
            click_slide(&board, &puzzle, start, None, &click_at(centre.x, centre.y)).unwrap();
        assert_eq!(picked, Some(5));
        assert!(slide.unwrap_err().contains("left or right"));
        // The blank left of 5 with 5 picked: 5 L; off the board: nothing.
        let blank = board.cell_rect(8).center();
        let (picked, slide) =
            click_slide(&board, &puzzle, start, Some(5), &click_at(blank.x, blank.y)).unwrap();
        assert_eq!(
            (picked, slide.unwrap().to_string()),
            (Some(5), "5 L".into())
        );
        assert!(click_slide(&board, &puzzle, start, None, &click_at(1.0, 1.0)).is_none());
    }

    #[test]
    fn clicks_and_keys_become_slides_for_the_player_and_reasons_for_anyone_else() {
        let game = KlotskiGame::new(parse_puzzle(BLOCKS).unwrap());
        let layout = room_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
        let board = board_layout(3, 4, layout.board);
        let on = |cell: u8| board.cell_rect(cell).center();
        let slide = |text: &str| {
            BoardPlay::Move(GameMove::Klotski(KlotskiMove::Slide(text.parse().unwrap())))
        };
        let mut controls = KlotskiRoomBoard::default();
        let (nine, still) = (
            click_at(on(11).x, on(11).y),
            Input {
                clicked: false,
                ..click_at(0.0, 0.0)
            },
        );
        // A spectator's click is refused with may_move's reason.
        let watching = Err("Spectators cannot move.".to_string());
        assert_eq!(
            controls.decide(&board, &game, &nine, None, watching),
            BoardPlay::Refused("Spectators cannot move.".into())
        );
        assert_eq!(
            controls.decide(&board, &game, &still, None, Ok(())),
            BoardPlay::Nothing
        );
        // 9 can only go left: a click slides it, and it stays picked for the arrow keys.
        assert_eq!(
            controls.decide(&board, &game, &nine, None, Ok(())),
            slide("9 L")
        );
        assert_eq!(controls.picked, Some(9));
        let refused = controls.decide(&board, &game, &still, Some(Dir::Up), Ok(()));
        assert_eq!(
            refused,
            BoardPlay::Refused("9 U is blocked: the cells it moves into are not all blank.".into())
        );
        assert_eq!(
            controls.decide(&board, &game, &still, Some(Dir::Left), Ok(())),
            slide("9 L")
        );
    }

    #[test]
    fn the_status_says_steps_and_how_it_ended() {
        let game = KlotskiGame::new(parse_puzzle("2 2\n1 2\n0 3\n0\n").unwrap());
        assert_eq!(status_line(&game).0, "0 steps so far");
        let slide = |label, dir| KlotskiMove::Slide(Move { label, dir });
        let solved = game.play(slide(3, Dir::Left)).unwrap();
        assert_eq!(status_line(&solved), ("Solved in 1 step".into(), GOOD_TEXT));
        // A puzzle whose start is its goal is solved without a step.
        let at_goal = KlotskiGame::new(parse_puzzle("2 2\n1 2\n3 0\n0\n").unwrap());
        assert_eq!(at_goal.status(), KlotskiStatus::Solved);
        assert_eq!(
            status_line(&at_goal).0,
            "Solved at the start: no step needed"
        );
        let quit = game
            .play(KlotskiMove::GiveUp(GiveUpReason::Player))
            .unwrap();
        assert_eq!(
            status_line(&quit).0,
            "Gave up after 0 steps: the player gave up"
        );
    }

    #[test]
    fn board_goal_and_buttons_share_the_left_of_the_window() {
        let (w, h) = (WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
        let layout = room_layout(w, h);
        assert!(layout.board.right() < layout.goal.x);
        assert!(layout.goal.right() <= side_panel_x(w));
        assert!(layout.board.bottom() <= layout.buttons_y);
        assert!(layout.buttons_y + BUTTON_HEIGHT <= h);
        assert!(
            layout.board.w > 400.0 && layout.board.h > 400.0,
            "{layout:?}"
        );
    }
}
