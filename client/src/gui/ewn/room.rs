//! EWN in a room and in the replay: the board of the latest state, and for the player the
//! two-click move (a movable piece, then one of its legal squares, clicked or pressed with the
//! keyboard's cursor) turned into a `GameMove`, or into the reason a click is none.

use macroquad::time::get_time;
use parlor_shared::ewn::{BOARD_SIZE, EwnGame, EwnMove, Move, Pieces, Status, neighbours};
use parlor_shared::game::GameMove;
use parlor_shared::protocol::RoomSnapshot;

use super::draw::{EwnMarks, draw_ewn};
use super::layout::{ewn_layout, square_at};
use crate::gui::board_cursor::{Aim, BoardCursor, Cell};
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::confirm::Confirmation;
use crate::gui::widgets::Input;

/// The replay's board: `last` is the move that led here, if any, from the game `before` it,
/// `arrival` of the way.
pub fn draw_replay_board(
    game: &EwnGame,
    last: Option<&GameMove>,
    before: Option<&EwnGame>,
    arrival: f32,
) {
    let layout = ewn_layout(canvas_width(), canvas_height());
    let marks = EwnMarks {
        last_to: last_to(last),
        moving: moving_from(last, before.map(|game| game.state().pieces), arrival),
        ..EwnMarks::default()
    };
    draw_ewn(layout, game, &marks);
}

/// Where the last move's piece came from, in the pieces `before` it, with `arrival`.
fn moving_from(last: Option<&GameMove>, before: Option<Pieces>, arrival: f32) -> Option<(u8, f32)> {
    let Some(GameMove::Ewn(mv)) = last else {
        return None;
    };
    let from = before?.square_of(mv.piece)?;
    (from != mv.to).then_some((from, arrival))
}

fn last_to(last: Option<&GameMove>) -> Option<u8> {
    match last {
        Some(GameMove::Ewn(mv)) => Some(mv.to),
        _ => None,
    }
}

/// The room's controls: which piece the player picked, on which version of the room, and
/// a move that takes the target waiting for its second click.
#[derive(Debug, Default)]
pub struct EwnRoomBoard {
    selected: Option<(u64, u8)>,
    /// The pieces of the version shown now and of the one before it, for the last move's
    /// arrival.
    shown: Option<(u64, Pieces)>,
    before: Option<Pieces>,
    taking_target: Confirmation<(u64, EwnMove)>,
    cursor: BoardCursor,
}

impl EwnRoomBoard {
    /// Draws `game` and handles a click. `may_move` says this client holds the seat to move and
    /// no move of ours is on its way; `refusal` is why not otherwise.
    pub fn update(
        &mut self,
        input: &Input,
        version: u64,
        game: &EwnGame,
        (last, arrival): (Option<&GameMove>, f32),
        may_move: Result<(), String>,
    ) -> BoardPlay {
        let layout = ewn_layout(canvas_width(), canvas_height());
        if self.shown.is_none_or(|(seen, _)| seen != version) {
            self.before = self.shown.map(|(_, pieces)| pieces);
            self.shown = Some((version, game.state().pieces));
        }
        let movable: Vec<u8> = game.level().movable(game.state()).as_slice().to_vec();
        let selected = self.selected(version, &movable, may_move.is_ok());
        let legal = selected.map_or_else(Vec::new, |piece| legal_squares(game, piece));
        let marks = EwnMarks {
            movable: if may_move.is_ok() {
                movable.clone()
            } else {
                Vec::new()
            },
            selected,
            loses: legal.iter().copied().find(|&to| takes_target(game, to)),
            legal,
            last_to: last_to(last),
            moving: moving_from(last, self.before, arrival),
        };
        draw_ewn(layout, game, &marks);
        let start = start_cell(game, selected.or(movable.first().copied()));
        let over = game.status() != Status::Playing;
        let aim = self.cursor.frame(input, layout.grid(), start, over);
        let point = match aim {
            Aim {
                at: Some(point), ..
            } => point,
            Aim { moved: true, .. } if may_move.is_ok() => {
                let next = match selected {
                    Some(piece) => {
                        format!("Piece {piece} picked: Enter on a green square moves it.")
                    }
                    None => "Enter or Space on a ringed piece picks it.".to_string(),
                };
                return BoardPlay::Prompt(next);
            }
            _ => return BoardPlay::Nothing,
        };
        let Some(square) = square_at(layout, point.x, point.y) else {
            return BoardPlay::Nothing;
        };
        if let Err(reason) = may_move {
            return BoardPlay::Refused(reason);
        }
        let (play, picked) = click(game, &movable, selected, square);
        self.selected = picked.map(|piece| (version, piece));
        self.ask_before_losing(game, version, play, get_time())
    }

    /// `play` as it stands, unless it takes the target: then only on a second click on it
    /// within `confirm::CONFIRM_SECONDS` of the first (at `now`).
    fn ask_before_losing(
        &mut self,
        game: &EwnGame,
        version: u64,
        play: BoardPlay,
        now: f64,
    ) -> BoardPlay {
        match play {
            BoardPlay::Move(GameMove::Ewn(mv)) if takes_target(game, mv.to) => {
                if self.taking_target.click((version, mv), now) {
                    return play;
                }
                // One click must not lose the puzzle: the piece stays picked for the second.
                self.selected = Some((version, mv.piece));
                let target = game.level().target();
                BoardPlay::Refused(format!(
                    "Taking the target (piece {target}) loses the puzzle: pick it again to \
                     take it anyway."
                ))
            }
            play => play,
        }
    }

    /// The picked piece if still movable on this version; the only movable piece otherwise.
    fn selected(&self, version: u64, movable: &[u8], may_move: bool) -> Option<u8> {
        if !may_move {
            return None;
        }
        match self.selected {
            Some((at, piece)) if at == version && movable.contains(&piece) => Some(piece),
            _ => match movable {
                [only] => Some(*only),
                _ => None,
            },
        }
    }
}

/// Where the keyboard's cursor first goes: on `piece`, else the board's top-left corner.
fn start_cell(game: &EwnGame, piece: Option<u8>) -> Cell {
    let square = piece.and_then(|piece| game.state().pieces.square_of(piece));
    square.map_or((0, 0), |square| (square % BOARD_SIZE, square / BOARD_SIZE))
}

/// Whether a seat of `mine` may move now in `snapshot`, or why not.
pub fn may_move(snapshot: &RoomSnapshot, mine: &[u8], awaiting: bool) -> Result<(), String> {
    if mine.is_empty() {
        return Err("Spectators cannot move.".into());
    }
    if snapshot.outcome.is_some() || snapshot.state.outcome().is_some() {
        return Err("The game is over.".into());
    }
    if !snapshot
        .state
        .seat_to_move()
        .is_some_and(|seat| mine.contains(&seat))
    {
        return Err("It is not your turn.".into());
    }
    if awaiting {
        return Err("Your move is on its way.".into());
    }
    Ok(())
}

/// The squares `piece` may step to now (none if it may not move).
pub fn legal_squares(game: &EwnGame, piece: u8) -> Vec<u8> {
    let level = game.level();
    let state = game.state();
    let Some(from) = state.pieces.square_of(piece) else {
        return Vec::new();
    };
    neighbours(from, level.rules().blocked)
        .filter(|&to| level.play(state, Move { piece, to }).is_ok())
        .collect()
}

/// Whether a move to `square` takes the target, which loses the puzzle.
fn takes_target(game: &EwnGame, square: u8) -> bool {
    game.state().pieces.piece_on(square) == Some(game.level().target())
}

/// What a click on `square` does with `selected` picked: a move, a new pick, or a refusal.
/// Returns the play and the piece picked afterwards.
fn click(
    game: &EwnGame,
    movable: &[u8],
    selected: Option<u8>,
    square: u8,
) -> (BoardPlay, Option<u8>) {
    let on_square = game.state().pieces.piece_on(square);
    if let Some(piece) = selected.filter(|&piece| legal_squares(game, piece).contains(&square)) {
        let mv = GameMove::Ewn(EwnMove { piece, to: square });
        return (BoardPlay::Move(mv), None);
    }
    match on_square {
        Some(piece) if movable.contains(&piece) => (BoardPlay::Picked, Some(piece)),
        Some(piece) => {
            let list: Vec<String> = movable.iter().map(u8::to_string).collect();
            let die = game.level().die(game.state()).unwrap_or(0);
            let reason = format!(
                "Piece {piece} may not move on die {die}: pick {}.",
                list.join(" or ")
            );
            (BoardPlay::Refused(reason), selected)
        }
        None => {
            let reason = match selected {
                Some(piece) => match game.play(EwnMove { piece, to: square }) {
                    Err(error) => format!("{error}."),
                    Ok(_) => "Pick a highlighted square.".to_string(),
                },
                None => "First pick a ringed piece, then a green square.".to_string(),
            };
            (BoardPlay::Refused(reason), selected)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::ewn::{Rules, parse_level};

    fn level1() -> EwnGame {
        let text = include_str!("../../../../levels/ewn/level1.txt");
        EwnGame::new(parse_level(text, Rules::default()).unwrap())
    }

    #[test]
    fn the_only_movable_piece_is_picked_and_a_green_square_makes_the_move() {
        // Level 1: die 3, piece 3 on 43 is the only one that may move.
        let game = level1();
        let board = EwnRoomBoard::default();
        let movable = game.level().movable(game.state()).as_slice().to_vec();
        assert_eq!(movable, vec![3]);
        assert_eq!(board.selected(1, &movable, true), Some(3));
        let legal = legal_squares(&game, 3);
        assert!(legal.contains(&33) && !legal.contains(&43) && legal.len() == 8);
        let (play, picked) = click(&game, &movable, Some(3), 33);
        assert_eq!(
            play,
            BoardPlay::Move(GameMove::Ewn(EwnMove { piece: 3, to: 33 }))
        );
        assert_eq!(picked, None);
    }

    #[test]
    fn taking_the_target_is_marked_and_asks_a_second_click() {
        // Level 1: piece 3 on 43 may step onto 32, where the target (piece 2) stands.
        let game = level1();
        assert_eq!(game.level().target(), 2);
        assert!(takes_target(&game, 32) && !takes_target(&game, 33));
        let mut board = EwnRoomBoard::default();
        let movable = vec![3];
        let take = GameMove::Ewn(EwnMove { piece: 3, to: 32 });
        let (play, _) = click(&game, &movable, Some(3), 32);
        assert_eq!(play, BoardPlay::Move(take));
        let first = board.ask_before_losing(&game, 1, play.clone(), 10.0);
        assert!(
            matches!(&first, BoardPlay::Refused(why) if why.contains("loses the puzzle")),
            "{first:?}"
        );
        assert_eq!(board.selected, Some((1, 3)), "the piece stays picked");
        let second = board.ask_before_losing(&game, 1, play.clone(), 11.0);
        assert_eq!(second, BoardPlay::Move(take));
        // Another state is another question; an ordinary move never asks.
        assert!(matches!(
            board.ask_before_losing(&game, 2, play, 12.0),
            BoardPlay::Refused(_)
        ));
        let step = BoardPlay::Move(GameMove::Ewn(EwnMove { piece: 3, to: 33 }));
        assert_eq!(board.ask_before_losing(&game, 2, step.clone(), 13.0), step);
    }

    #[test]
    fn clicks_that_are_no_move_say_why() {
        let game = level1();
        let movable = vec![3];
        let (play, picked) = click(&game, &movable, Some(3), 34);
        // 34 holds piece 4, a legal capture for piece 3 on 43.
        assert!(matches!(play, BoardPlay::Move(_)));
        assert_eq!(picked, None);
        let (play, _) = click(&game, &movable, Some(3), 12);
        assert_eq!(
            play,
            BoardPlay::Refused("Piece 6 may not move on die 3: pick 3.".into())
        );
        let (play, _) = click(&game, &movable, Some(3), 99);
        assert!(matches!(play, BoardPlay::Refused(reason) if reason.contains("not a king step")));
        let (play, picked) = click(&game, &movable, None, 0);
        assert!(matches!(play, BoardPlay::Refused(_)));
        assert_eq!(picked, None);
        let (play, picked) = click(&game, &movable, None, 43);
        assert_eq!((play, picked), (BoardPlay::Picked, Some(3)));
    }
}
