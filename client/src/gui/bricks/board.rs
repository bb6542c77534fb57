//! The Dropping Bricks board of a room or a replay: the tower beside a status card and, for the
//! seats this client holds, the agent's drop field or the answerer's Safe and Broken buttons.
//! Spectators get the same tower and card without controls.

use macroquad::color::Color;
use macroquad::math::Rect;
use parlor_shared::bricks::{AGENT_SEAT, ANSWERER_SEAT, Answer, BricksGame, BricksMove, Turn};
use parlor_shared::game::GameMove;

use super::draw::{BROKEN_TEXT, PENDING_TEXT, SAFE_TEXT, TowerMarks, draw_tower};
use super::layout::{board_area, tower_layout, tower_width};
use super::words::{Tone, drop_height, range_text, status_lines};
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::text_field::{FieldEvent, TextField};
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, TEXT, button_enabled,
    button_width, first_that_fits, label, wrap_to_width,
};

/// The space kept free under the controls.
const MARGIN: f32 = 16.0;
/// The height of one seat's controls: its title, the field or buttons, and up to three lines
/// of note.
const SEAT_CONTROLS_HEIGHT: f32 = 10.0 + BUTTON_HEIGHT + 4.0 * LINE_HEIGHT + 10.0;

/// The tower and the status card of a replayed game, its last drop `arrival` of the way down.
pub fn draw_replay_board(game: &BricksGame, arrival: f32) {
    let area = board_area(canvas_width(), canvas_height());
    let marks = TowerMarks {
        falling: Some(arrival),
        ..TowerMarks::default()
    };
    draw_tower(&tower_layout(area, game), game, &marks);
    draw_status_card(area, game);
}

/// Where the status card starts, right of the tower.
fn card_x(area: Rect) -> f32 {
    area.x + tower_width(area) + 10.0
}

/// The width of a line of the card.
fn card_width(area: Rect) -> f32 {
    area.x + area.w - card_x(area) - 10.0
}

/// What is known and left, and what comes next; returns the y below it.
fn draw_status_card(area: Rect, game: &BricksGame) -> f32 {
    let x = card_x(area);
    let mut y = area.y + 26.0;
    for (text, tone) in status_lines(game) {
        let color = match tone {
            Tone::Plain => TEXT,
            Tone::Dim => DIM_TEXT,
            Tone::Safe => SAFE_TEXT,
            Tone::Broken => BROKEN_TEXT,
            Tone::Pending => PENDING_TEXT,
            Tone::Final => GOOD_TEXT,
        };
        for line in wrap_to_width(&text, card_width(area)) {
            label(&line, x, y, color);
            y += LINE_HEIGHT;
        }
    }
    y
}

/// Draws `text` wrapped to the card's width at `y`; returns the y below it.
fn draw_note(area: Rect, y: f32, text: &str, color: Color) -> f32 {
    let mut y = y;
    for line in wrap_to_width(text, card_width(area)) {
        label(&line, card_x(area), y, color);
        y += LINE_HEIGHT;
    }
    y
}

/// The room's board with the controls of the seats held here.
pub struct BricksRoomBoard {
    /// The agent's next drop height, as typed or picked on the tower.
    height: TextField,
    /// The version at which the drop field was focused, so that it is focused once per turn
    /// and a click elsewhere is respected.
    focused_at: Option<u64>,
}

impl Default for BricksRoomBoard {
    fn default() -> BricksRoomBoard {
        BricksRoomBoard {
            height: TextField::new(""),
            focused_at: None,
        }
    }
}

/// Why a click on a tower too tall to show single floors picks none.
const TOO_FINE: &str = "The floors here are too thin to pick one: type the height.";

/// What the agent's controls need to know of this turn.
#[derive(Clone, Copy)]
struct DropTurn {
    /// The agent's seat is ours and it is to drop, nothing of ours on its way.
    to_drop: bool,
    /// Put the keyboard in the drop field.
    focus: bool,
    /// A click on the tower can pick an open floor.
    floors_clickable: bool,
}

impl BricksRoomBoard {
    /// Draws the board of `game` at `version`; `mine` are the seats held here and `awaiting`
    /// says a move of ours is on its way. Returns the move the user made, if any.
    pub fn update(
        &mut self,
        input: &Input,
        version: u64,
        game: &BricksGame,
        (mine, awaiting): (&[u8], bool),
        arrival: f32,
    ) -> BoardPlay {
        let area = board_area(canvas_width(), canvas_height());
        let layout = tower_layout(area, game);
        let agent_to_drop = game.turn() == Turn::Agent && mine.contains(&AGENT_SEAT) && !awaiting;
        let open = game.state().drop_range().ok();
        let (x, y) = (input.mouse.x, input.mouse.y);
        let on_floor = layout.floor_at(x, y).filter(|_| agent_to_drop);
        let hovered = on_floor.filter(|height| open.as_ref().is_some_and(|r| r.contains(height)));
        let picked_on_tower = hovered.filter(|_| input.clicked);
        // A click on the tower that picks nothing says why: a floor already known, or floors
        // too thin to pick one.
        let click_refused = match on_floor.filter(|_| input.clicked) {
            Some(height) if hovered.is_none() => drop_height(&height.to_string(), game).err(),
            None if input.clicked && agent_to_drop && layout.too_fine_at(x, y) => {
                Some(TOO_FINE.to_string())
            }
            _ => None,
        };
        if let Some(height) = picked_on_tower {
            self.height.text = height.to_string();
        }
        let typed_before = self.height.text.clone();
        let typed = drop_height(&self.height.text, game);
        let marks = TowerMarks {
            hovered,
            picked: typed.as_ref().ok().copied().filter(|_| agent_to_drop),
            falling: Some(arrival),
        };
        draw_tower(&layout, game, &marks);
        let card_bottom = draw_status_card(area, game);
        // The controls keep their place at the foot of the card, so that Safe, Broken and the
        // drop field do not move as the card's lines come and go between turns.
        let seats_held = [AGENT_SEAT, ANSWERER_SEAT]
            .iter()
            .filter(|seat| mine.contains(seat))
            .count();
        let controls_top = area.y + area.h - MARGIN - seats_held as f32 * SEAT_CONTROLS_HEIGHT;
        let mut y = match seats_held {
            0 => card_bottom + 20.0,
            _ => controls_top.max(card_bottom + 20.0) + 16.0,
        };
        let mut play = BoardPlay::Nothing;
        if mine.contains(&AGENT_SEAT) {
            let focus =
                picked_on_tower.is_some() || (agent_to_drop && self.focused_at != Some(version));
            if agent_to_drop {
                self.focused_at = Some(version);
            }
            let turn = DropTurn {
                to_drop: agent_to_drop,
                focus,
                floors_clickable: layout.open_floors_clickable(),
            };
            let drop = self.agent_controls(input, area, &mut y, game, turn);
            play = play.or(drop);
        }
        if mine.contains(&ANSWERER_SEAT) {
            play = play.or(answerer_controls(input, area, &mut y, game, awaiting));
        }
        if mine.is_empty() {
            draw_note(area, y, "You are watching.", DIM_TEXT);
        }
        // A height picked or typed anew makes a refusal of the last one out of date.
        let picked = picked_on_tower.is_some() || self.height.text != typed_before;
        let picked = picked && drop_height(&self.height.text, game).is_ok();
        play.or(if picked {
            BoardPlay::Picked
        } else if let Some(reason) = click_refused {
            BoardPlay::Refused(reason)
        } else {
            BoardPlay::Nothing
        })
    }

    /// The drop field and button.
    fn agent_controls(
        &mut self,
        input: &Input,
        area: Rect,
        y: &mut f32,
        game: &BricksGame,
        turn: DropTurn,
    ) -> BoardPlay {
        let DropTurn {
            to_drop: agent_to_drop,
            focus,
            floors_clickable,
        } = turn;
        let x = card_x(area);
        let title = first_that_fits(
            &["Your drop (you are the agent)", "Your drop"],
            card_width(area),
        );
        label(&title, x, *y, TEXT);
        *y += 10.0;
        let field_w = (card_width(area) - button_width("Drop") - 10.0).clamp(60.0, 170.0);
        let field = Rect::new(x, *y, field_w, BUTTON_HEIGHT);
        let submitted = self.height.update(input, field) == FieldEvent::Submitted;
        if focus {
            self.height.focus();
        }
        let typed = drop_height(&self.height.text, game);
        let button = Rect::new(
            field.right() + 10.0,
            *y,
            button_width("Drop"),
            BUTTON_HEIGHT,
        );
        let clicked = button_enabled(input, button, "Drop", agent_to_drop && typed.is_ok());
        *y += BUTTON_HEIGHT + LINE_HEIGHT;
        let (note, color) = match (&typed, game.turn()) {
            (_, Turn::Over(_) | Turn::Resigned { .. }) => {
                ("The game is over.".to_string(), DIM_TEXT)
            }
            (_, Turn::Answerer { height }) => (
                format!("Waiting for the answer to the drop from {height}."),
                DIM_TEXT,
            ),
            _ if !agent_to_drop => ("Your drop is on its way.".to_string(), DIM_TEXT),
            (Ok(height), _) => (
                format!("Drop from {height}: press Drop or Enter."),
                DIM_TEXT,
            ),
            (Err(_), _) if self.height.text.trim().is_empty() => {
                let state = game.state();
                let open = range_text(state.min_safe() + 1, state.max_safe(), "none");
                let or_click = if floors_clickable {
                    ", or click an open floor"
                } else {
                    ""
                };
                let note = match state.min_safe() + 1 == state.max_safe() {
                    true => format!("Type the height {open}{or_click}."),
                    false => format!("Type a height in {open}{or_click}."),
                };
                (note, DIM_TEXT)
            }
            (Err(reason), _) => (reason.clone(), ERROR_TEXT),
        };
        *y = draw_note(area, *y, &note, color) + 10.0;
        if !agent_to_drop || !(clicked || submitted) {
            return BoardPlay::Nothing;
        }
        match typed {
            Ok(height) => {
                self.height.text.clear();
                BoardPlay::Move(GameMove::Bricks(BricksMove::Drop(height)))
            }
            Err(reason) => {
                // Enter let the field go; a height refused is to be mended in it at once.
                if submitted {
                    self.height.focus();
                }
                BoardPlay::Refused(reason)
            }
        }
    }
}

/// Safe and Broken, enabled only while the agent waits for an answer (as in the seed).
fn answerer_controls(
    input: &Input,
    area: Rect,
    y: &mut f32,
    game: &BricksGame,
    awaiting: bool,
) -> BoardPlay {
    let x = card_x(area);
    let title = ["Your answer (you are the answerer)", "Your answer"];
    label(&first_that_fits(&title, card_width(area)), x, *y, TEXT);
    *y += 10.0;
    let waiting_drop = match game.turn() {
        Turn::Answerer { height } => Some(height),
        _ => None,
    };
    let enabled = waiting_drop.is_some() && !awaiting;
    let mut play = BoardPlay::Nothing;
    for (index, answer) in Answer::BOTH.into_iter().enumerate() {
        let text = match answer {
            Answer::Safe => "Safe",
            Answer::Broken => "Broken",
        };
        let width = ((card_width(area) - 10.0) / 2.0).min(100.0);
        let rect = Rect::new(x + index as f32 * (width + 10.0), *y, width, BUTTON_HEIGHT);
        if button_enabled(input, rect, text, enabled) {
            play = BoardPlay::Move(GameMove::Bricks(BricksMove::Answer(answer)));
        }
    }
    *y += BUTTON_HEIGHT + LINE_HEIGHT;
    let note = match (waiting_drop, game.turn()) {
        (_, Turn::Over(_) | Turn::Resigned { .. }) => "The game is over.".to_string(),
        (Some(_), _) if awaiting => "Your answer is on its way.".to_string(),
        (Some(height), _) => format!("Did the brick survive the drop from {height}?"),
        (None, _) => "Wait for the agent's drop.".to_string(),
    };
    *y = draw_note(area, *y, &note, DIM_TEXT) + 10.0;
    play
}
