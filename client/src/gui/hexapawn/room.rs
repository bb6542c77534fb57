//! A game against HER in a room: the board, and in slow mode on HER's turn its matchbox beside
//! it. The person (White) clicks a pawn, then its target (or presses them with the keyboard's
//! cursor: the arrow keys, then Enter); on HER's turn in slow mode they click one of the
//! matchbox's arrows, or HER's pawn and its target on the board, to force that move, or let HER
//! pick. Illegal clicks are refused here with the rules' reason; the server checks every move
//! again.

use macroquad::color::Color;
use macroquad::math::{Rect, Vec2, vec2};
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::hexapawn::{
    Dims, HER_SEAT, HexGame, HexMove, Move, PERSON_SEAT, PERSON_SIDE, PlayMode, Position, Square,
    brain_title,
};
use parlor_shared::protocol::{DEFAULT_AI_MOVE_MS, Rematch, RoomSnapshot, SeatSpec, SeatState};

use super::draw::{HexMarks, caption, draw_board, draw_matchbox};
use super::layout::{HexLayout, board_area, halves, split_top};
use super::words::{BrainAtStart, brain_line, turn_line};
use crate::gui::board_cursor::{Aim, BoardCursor};
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::describe::count_s;
use crate::gui::widgets::{
    DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, TEXT, button_at, button_width,
    first_that_fits, heading, label,
};

/// Room under the boards for the brain's counts, the turn and the buttons.
const INFO_HEIGHT: f32 = 150.0;
/// Room above a board for its caption.
const CAPTION: f32 = 30.0;
/// Room under a board for its column letters.
const LABEL_ROOM: f32 = 24.0;

/// Where the board and (in slow mode) the matchbox go on a `screen_w` x `screen_h` screen,
/// and where the text under them starts.
pub fn play_layout(
    screen_w: f32,
    screen_h: f32,
    game: &HexGame,
) -> (HexLayout, Option<HexLayout>, f32) {
    let area = board_area(screen_w, screen_h);
    let (top, info) = split_top(area, area.h - INFO_HEIGHT, 8.0);
    let boards = Rect::new(top.x, top.y + CAPTION, top.w, top.h - CAPTION);
    let dims = game.setup.dims;
    // Boards at the top of their band, the text right under them (under their labels).
    let at_top = |area: Rect| HexLayout {
        top: area.y,
        ..HexLayout::fit(area, dims)
    };
    let (board, matchbox) = match game.setup.mode {
        PlayMode::Fast => (at_top(boards), None),
        PlayMode::Slow => {
            let (left, right) = halves(boards, 24.0);
            (at_top(left), Some(at_top(right)))
        }
    };
    let info_y = info.y.min(board.top + board.height() + 2.0 * LABEL_ROOM);
    (board, matchbox, info_y)
}

/// Where the replay's board goes, and where the text under it starts.
pub fn replay_layout(screen_w: f32, screen_h: f32, dims: Dims) -> (HexLayout, f32) {
    let area = board_area(screen_w, screen_h);
    let (top, info) = split_top(area, area.h - INFO_HEIGHT, 8.0);
    let boards = Rect::new(top.x, top.y + CAPTION, top.w, top.h - CAPTION);
    (HexLayout::fit(boards, dims), info.y)
}

/// The board of a stored game at one step: `last` is the move that led here, `arrival` of the
/// way there.
pub fn draw_replay_board(game: &HexGame, last: Option<&GameMove>, arrival: f32) {
    let (layout, info_y) = replay_layout(canvas_width(), canvas_height(), game.setup.dims);
    let marks = HexMarks {
        last: match last {
            Some(GameMove::Hexapawn(HexMove::Play(mv))) => Some(*mv),
            _ => None,
        },
        moving: Some(arrival),
        ..HexMarks::default()
    };
    let against = format!(
        "Against {} on {}",
        brain_title(&game.setup.brain),
        game.setup.dims
    );
    caption(&[&against], layout, TEXT);
    draw_board(layout, &game.position, &marks);
    // Whoever replays a stored game held no seat in it.
    if let Some((result, color)) = result_for(game, false) {
        draw_result(
            &result,
            color,
            layout.left - 22.0,
            info_y + LINE_HEIGHT + 8.0,
        );
    }
}

/// The end of the game in words and colour, once it is over. The person (`seated`) is told
/// "You win." in the success colour or "HER wins." in the error colour; anyone else (a
/// spectator, a replay) who won, in plain text.
pub fn result_for(game: &HexGame, seated: bool) -> Option<(String, Color)> {
    let winner = game.winner()?;
    let person_won = winner == PERSON_SIDE;
    if seated {
        let color = if person_won { GOOD_TEXT } else { ERROR_TEXT };
        return game.result_text().map(|text| (text, color));
    }
    let name = if person_won { "White" } else { "HER" };
    let how = if game.her_resigned {
        "HER resigns: its matchbox is empty.".to_string()
    } else {
        // "White wins: a pawn reached the far row": the heading names the winner already.
        let status = game.position.status().to_string();
        let why = status
            .split_once(": ")
            .map_or(status.as_str(), |(_, why)| why);
        let mut chars = why.chars();
        chars.next().map_or_else(String::new, |first| {
            first.to_uppercase().chain(chars).collect()
        })
    };
    Some((format!("{name} wins. {how}"), TEXT))
}

/// The end of the game: its first sentence as a heading, the rest under it in `color`;
/// returns the baseline after it.
fn draw_result(result: &str, color: Color, x: f32, y: f32) -> f32 {
    let (first, rest) = result.split_once(". ").unwrap_or((result, ""));
    let first = if rest.is_empty() {
        first.to_string()
    } else {
        format!("{first}.")
    };
    heading(&first, x, y);
    label(rest, x, y + LINE_HEIGHT + 4.0, color);
    y + 2.0 * LINE_HEIGHT + 4.0
}

/// The seat whose token sends the next move: the seat to move, except that in slow mode the
/// person sends HER's moves too (forced, or "HER picks").
pub fn acting_seat(game: &HexGame) -> Option<u8> {
    match game.seat_to_move() {
        Some(HER_SEAT) if game.setup.mode == PlayMode::Slow => Some(PERSON_SEAT),
        seat => seat,
    }
}

/// The room's controls: the pawn picked, on which version of the room.
#[derive(Debug, Default)]
pub struct HexRoomBoard {
    selected: Option<(u64, Square)>,
    /// HER's brain as this room's game began, for the line under the boards.
    brain_at_start: BrainAtStart,
    cursor: BoardCursor,
}

impl HexRoomBoard {
    /// Draws the game of `snapshot` and handles this frame's clicks for the seats `mine`;
    /// `awaiting` says a move of ours is on its way.
    pub fn update(
        &mut self,
        input: &Input,
        snapshot: &RoomSnapshot,
        game: &HexGame,
        (mine, awaiting): (&[u8], bool),
        arrival: f32,
    ) -> BoardPlay {
        let (board, matchbox_at, info_y) = play_layout(canvas_width(), canvas_height(), game);
        self.brain_at_start.note(snapshot.room, game);
        let allowed = may_act(game, mine, awaiting);
        let selected = self
            .selected
            .filter(|&(at, _)| at == snapshot.version && allowed.is_ok())
            .map(|(_, square)| square);
        let marks = HexMarks {
            last: game.plies.last().copied(),
            moving: Some(arrival),
            selected,
            targets: selected.map_or_else(Vec::new, |from| targets(&game.position, from)),
        };
        caption(&["The board"], board, TEXT);
        draw_board(board, &game.position, &marks);
        let mut play = BoardPlay::Nothing;
        if let Some(layout) = matchbox_at {
            play = self.matchbox(input, layout, game, &allowed);
        }
        let start = selected.or_else(|| first_pawn_with_a_move(&game.position));
        let start = start.map_or((0, 0), |square| board.cell(square));
        let aim = (self.cursor).frame(input, board.grid(), start, game.winner().is_some());
        let point = match aim {
            Aim {
                at: Some(point), ..
            } => Some(point),
            Aim { moved: true, .. } if allowed.is_ok() => {
                play = BoardPlay::Prompt(match selected {
                    Some(from) => format!("Pawn {from} picked: Enter on a green dot moves it."),
                    None if game.seat_to_move() == Some(HER_SEAT) => {
                        "Enter or Space on one of HER's pawns picks it, to force its move.".into()
                    }
                    None => "Enter or Space on one of your pawns picks it.".into(),
                });
                None
            }
            _ => None,
        };
        if let Some(square) = point.and_then(|point| board.square_at(point)) {
            play = match &allowed {
                Err(reason) => BoardPlay::Refused(reason.clone()),
                Ok(()) => {
                    let (play, picked) = click(&game.position, selected, square);
                    self.selected = picked.map(|square| (snapshot.version, square));
                    forced_if_beaded(play, game)
                }
            };
        }
        let brain = brain_line(game, self.brain_at_start.counts(snapshot.room));
        play.or(draw_info(
            input, info_y, snapshot, game, mine, &allowed, &brain,
        ))
    }

    /// The matchbox on HER's turn, with a click on an arrow forcing its move.
    fn matchbox(
        &self,
        input: &Input,
        layout: HexLayout,
        game: &HexGame,
        allowed: &Result<(), String>,
    ) -> BoardPlay {
        let Some(matchbox) = &game.matchbox else {
            let waiting = ["HER's matchbox (shown on its turn)", "HER's matchbox"];
            caption(&waiting, layout, TEXT);
            return BoardPlay::Nothing;
        };
        let beads = count_s(matchbox.total, "bead");
        let (long, short) = (
            format!("HER's matchbox: {beads}"),
            format!("Matchbox: {beads}"),
        );
        caption(&[&long, &short], layout, TEXT);
        let moves: Vec<Move> = matchbox.beads.iter().map(|&(mv, _)| mv).collect();
        let hover = layout
            .arrow_at(&moves, input.mouse)
            .filter(|_| allowed.is_ok());
        draw_matchbox(layout, matchbox, hover);
        let Some(mv) = hover.filter(|_| input.clicked) else {
            return BoardPlay::Nothing;
        };
        if matchbox.chance(mv) > 0.0 {
            BoardPlay::Move(GameMove::Hexapawn(HexMove::Play(mv)))
        } else {
            BoardPlay::Refused(format!(
                "HER has no bead left for {mv}: force a blue arrow, or Let HER pick."
            ))
        }
    }
}

/// Whether one of `mine` may act in `game` now, or why not.
pub fn may_act(game: &HexGame, mine: &[u8], awaiting: bool) -> Result<(), String> {
    if mine.is_empty() {
        Err("Spectators cannot move.".into())
    } else if game.winner().is_some() {
        Err("The game is over.".into())
    } else if !acting_seat(game).is_some_and(|seat| mine.contains(&seat)) {
        Err("HER is thinking.".into())
    } else if awaiting {
        Err("Your move is on its way.".into())
    } else {
        Ok(())
    }
}

/// The square of the side to move's first pawn that has a move, where the cursor first goes.
fn first_pawn_with_a_move(position: &Position) -> Option<Square> {
    position.legal_moves().first().map(|mv| mv.from)
}

/// The squares the pawn on `from` may move to.
pub fn targets(position: &Position, from: Square) -> Vec<Square> {
    position
        .legal_moves()
        .iter()
        .filter(|mv| mv.from == from)
        .map(|mv| mv.to)
        .collect()
}

/// `play` on HER's turn (slow mode, the person forcing HER's move): a move only if HER's
/// matchbox has a bead for it, as a click on its arrow would be.
fn forced_if_beaded(play: BoardPlay, game: &HexGame) -> BoardPlay {
    let (BoardPlay::Move(GameMove::Hexapawn(HexMove::Play(mv))), Some(matchbox)) =
        (&play, &game.matchbox)
    else {
        return play;
    };
    if game.seat_to_move() != Some(HER_SEAT) || matchbox.chance(*mv) > 0.0 {
        return play;
    }
    BoardPlay::Refused(format!(
        "HER has no bead left for {mv}: force a blue arrow, or Let HER pick."
    ))
}

/// What a click on `square` does with `selected` picked, for the side to move (the person's
/// White, or in slow mode HER's Black, forced): a move, a new pick, or a refusal with the
/// rules' reason. Returns the play and the pawn picked afterwards.
pub fn click(
    position: &Position,
    selected: Option<Square>,
    square: Square,
) -> (BoardPlay, Option<Square>) {
    if let Some(from) = selected {
        let mv = Move::new(from, square);
        if position.check(mv).is_ok() {
            return (BoardPlay::Move(GameMove::Hexapawn(HexMove::Play(mv))), None);
        }
    }
    let mover = position.to_move();
    let (own_pawns, other_pawn) = if mover == PERSON_SIDE {
        ("one of your white pawns", "HER's pawn")
    } else {
        ("one of HER's black pawns", "your pawn")
    };
    match position.pawn_at(square) {
        Some(side) if side == mover => {
            if targets(position, square).is_empty() {
                let reason = format!("The pawn on {square} has no move.");
                (BoardPlay::Refused(reason), None)
            } else {
                (BoardPlay::Picked, Some(square))
            }
        }
        Some(_) if selected.is_none() => (
            BoardPlay::Refused(format!("That is {other_pawn}: pick {own_pawns}.")),
            None,
        ),
        _ => match selected {
            Some(from) => {
                let reason = match position.check(Move::new(from, square)) {
                    Err(error) => format!("{error}."),
                    Ok(()) => "Click a green dot.".into(),
                };
                (BoardPlay::Refused(reason), selected)
            }
            None => (
                BoardPlay::Refused(format!("First pick {own_pawns}, then its target.")),
                None,
            ),
        },
    }
}

/// The room for the same setup again, with HER pausing as long as in this one.
pub fn again(snapshot: &RoomSnapshot, game: &HexGame) -> BoardPlay {
    let move_ms = match snapshot.seats.get(usize::from(HER_SEAT)) {
        Some(SeatState::Ai { move_ms, .. }) => *move_ms,
        _ => DEFAULT_AI_MOVE_MS,
    };
    BoardPlay::PlayAgain(Rematch {
        setup: GameSetup::Hexapawn(game.setup.clone()),
        seats: vec![SeatSpec::Human, SeatSpec::ai(move_ms)],
        made: None,
    })
}

/// The top-left corner of "Let HER pick" when the text under the boards starts at `info_y`.
pub fn pick_button_at(screen_w: f32, screen_h: f32, info_y: f32) -> Vec2 {
    vec2(
        board_area(screen_w, screen_h).x,
        info_y + 2.5 * LINE_HEIGHT + 18.0,
    )
}

/// The top-left corner of "Play again" when the text under the boards starts at `info_y`.
pub fn again_button_at(screen_w: f32, screen_h: f32, info_y: f32) -> Vec2 {
    vec2(
        board_area(screen_w, screen_h).x,
        info_y + 4.0 * LINE_HEIGHT + 18.0,
    )
}

/// The text under the boards: the brain, whose turn, the result, and the buttons.
fn draw_info(
    input: &Input,
    top: f32,
    snapshot: &RoomSnapshot,
    game: &HexGame,
    mine: &[u8],
    allowed: &Result<(), String>,
    brain: &[String; 2],
) -> BoardPlay {
    let area = board_area(canvas_width(), canvas_height());
    let x = area.x;
    let mut y = top + LINE_HEIGHT;
    let setup = &game.setup;
    let brain = first_that_fits(&[&brain[0], &brain[1]], area.w - 10.0);
    label(&brain, x, y, DIM_TEXT);
    y += LINE_HEIGHT + 10.0;
    let seated = mine.contains(&PERSON_SEAT);
    if let Some((result, color)) = result_for(game, seated) {
        draw_result(&result, color, x, y + 8.0);
        // Playing again is the person's: a spectator gets no button.
        let at = again_button_at(canvas_width(), canvas_height(), top);
        let mut note_x = at.x;
        if seated {
            let text = "Play again";
            if button_at(input, at.x, at.y, text) {
                return again(snapshot, game);
            }
            note_x += button_width(text) + 12.0;
        }
        let note = "HER keeps what it learnt: the server stores its brain.";
        label(note, note_x, at.y + 20.0, DIM_TEXT);
        return BoardPlay::Nothing;
    }
    let turn = turn_line(game, seated);
    label(&turn, x, y, if allowed.is_ok() { GOOD_TEXT } else { TEXT });
    let her_turn = game.seat_to_move() == Some(HER_SEAT);
    if her_turn && setup.mode == PlayMode::Slow && allowed.is_ok() {
        let text = if game.matchbox.as_ref().is_some_and(|m| m.total == 0) {
            "Let HER pick (it resigns)"
        } else {
            "Let HER pick"
        };
        let at = pick_button_at(canvas_width(), canvas_height(), top);
        if button_at(input, at.x, at.y, text) {
            return BoardPlay::Move(GameMove::Hexapawn(HexMove::HerPicks));
        }
    }
    BoardPlay::Nothing
}

#[cfg(test)]
mod tests;
