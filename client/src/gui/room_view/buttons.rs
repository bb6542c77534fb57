//! The room's buttons at the foot of its side panel: Leave, Replay (or Replay the solution while
//! a solver plays it), Resign while a two-player game of ours is on (asked twice), and Play
//! again once it is over, with a line above them once another player has made the room that
//! plays the game again; a spectator gets Watch for that room instead.

use macroquad::math::Rect;
use macroquad::time::get_time;
use parlor_shared::game::{GameMove, GameState};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{ClientMsg, Rematch, RoomId, RoomSnapshot, SeatState};

use super::{RoomAction, is_stored_when_over};
use crate::gui::board_play::HeldSeat;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::confirm::Confirmation;
use crate::gui::widgets::{
    BUTTON_HEIGHT, GOOD_TEXT, Input, LINE_HEIGHT, button, button_at, button_enabled, button_width,
    fit_to_width, label, side_panel_x,
};

/// Leave, Replay once the finished game is stored (greyed until then), Resign while a game of
/// ours is on (`resigning` asks twice), and for its players Play again once it is over: a room
/// like it (Hexapawn's board offers its own). `held` are this client's seats in the room.
pub(super) fn draw_buttons(
    input: &Input,
    snapshot: Option<&RoomSnapshot>,
    held: &[HeldSeat],
    me: Option<PlayerId>,
    resigning: &mut Confirmation<RoomId>,
) -> Option<RoomAction> {
    let x = side_panel_x(canvas_width()) + 10.0;
    let y = canvas_height() - BUTTON_HEIGHT - 16.0;
    if button_at(input, x, y, "Leave") {
        return Some(RoomAction::Leave);
    }
    if !is_stored_when_over(snapshot) {
        return None;
    }
    let record = snapshot.and_then(|s| s.record);
    // A solver's whole solution may be replayed as soon as it has one.
    let planned = snapshot.is_some_and(|s| s.outcome.is_none() && !s.plan_ahead.is_empty());
    if planned {
        let text = "Replay the solution";
        return button_at(input, replay_rect().x, y, text).then_some(RoomAction::ReplaySolution);
    }
    let text = "Replay";
    if button_enabled(input, replay_rect(), text, record.is_some()) {
        return record.map(RoomAction::Replay);
    }
    let snapshot = snapshot?;
    if let Some(resign) = resignation(snapshot, held) {
        let now = get_time();
        let text = resigning.text(snapshot.room, RESIGN, now);
        let rect = Rect {
            w: button_width(&text),
            ..resign_rect()
        };
        let pressed = button(input, rect, &text);
        resigning.draw_time_left(snapshot.room, rect, now);
        let confirmed = pressed && resigning.click(snapshot.room, now);
        return confirmed.then_some(RoomAction::Send(resign));
    }
    if let Some((note, rematch)) = spectators_rematch(snapshot, held, me) {
        let note = fit_to_width(&note, canvas_width() - x - 10.0);
        label(&note, x, y - 8.0, GOOD_TEXT);
        let text = format!("Watch #{rematch}");
        let rect = Rect {
            w: button_width(&text),
            ..play_again_rect()
        };
        return button(input, rect, &text).then_some(RoomAction::WatchRematch(rematch));
    }
    let again = offered_again(snapshot, held, me)?;
    if let Some(note) = rematch_note(snapshot, again, held, me) {
        let note = fit_to_width(&note, canvas_width() - x - 10.0);
        label(&note, x, y - 8.0, GOOD_TEXT);
    }
    button(input, play_again_rect(), PLAY_AGAIN).then(|| RoomAction::PlayAgain(again.clone()))
}

const PLAY_AGAIN: &str = "Play again";
const RESIGN: &str = "Resign";

/// The move that resigns our seat in `snapshot`'s game: a Magnetic Cave or Dropping Bricks
/// game under way in which this client holds one seat and the other is taken (holding both,
/// or with the other still open, there is nobody to give the game to).
fn resignation(snapshot: &RoomSnapshot, held: &[HeldSeat]) -> Option<ClientMsg> {
    let resignable = matches!(snapshot.state, GameState::Cave(_) | GameState::Bricks(_));
    let opposed = !snapshot.seats.iter().any(SeatState::untaken);
    let under_way = snapshot.outcome.is_none() && resignable && opposed;
    let [mine] = held else {
        return None;
    };
    under_way.then(|| ClientMsg::Move {
        room: snapshot.room,
        token: mine.token.clone(),
        version: snapshot.version,
        mv: GameMove::Resign { seat: mine.seat },
    })
}

/// Where Replay is, right of Leave.
fn replay_rect() -> Rect {
    let x = side_panel_x(canvas_width()) + 20.0 + button_width("Leave");
    let y = canvas_height() - BUTTON_HEIGHT - 16.0;
    Rect::new(x, y, button_width("Replay"), BUTTON_HEIGHT)
}

/// Where Play again is, right of Replay (for the scripted window's click too).
pub(in crate::gui) fn play_again_rect() -> Rect {
    let replay = replay_rect();
    let width = button_width(PLAY_AGAIN);
    Rect::new(replay.right() + 10.0, replay.y, width, BUTTON_HEIGHT)
}

/// Where Resign is while the game is on, in Play again's place (wider once it asks "Sure?";
/// for the scripted window's clicks too).
pub(in crate::gui) fn resign_rect() -> Rect {
    Rect {
        w: button_width(RESIGN),
        ..play_again_rect()
    }
}

/// Whether the person played in the room: a seat held here, or one their player took (from
/// another window, or before the window was opened again, its token gone with it; the server
/// knows a player by who they are, for Play again too).
pub(super) fn played_here(
    snapshot: &RoomSnapshot,
    held: &[HeldSeat],
    me: Option<PlayerId>,
) -> bool {
    !held.is_empty() || snapshot.seats.iter().any(|state| state.taken_by(me))
}

/// What Play again offers a player of the room (Hexapawn's board offers its own).
fn offered_again<'a>(
    snapshot: &'a RoomSnapshot,
    held: &[HeldSeat],
    me: Option<PlayerId>,
) -> Option<&'a Rematch> {
    let offered =
        played_here(snapshot, held, me) && !matches!(snapshot.state, GameState::Hexapawn(_));
    snapshot.again.as_deref().filter(|_| offered)
}

/// The line above the buttons once a player made the room that plays the game again: who
/// waits there (Play again takes the seat left), or that we do (having come back to this room
/// since; Play again takes our seat there again).
fn rematch_note(
    snapshot: &RoomSnapshot,
    again: &Rematch,
    held: &[HeldSeat],
    me: Option<PlayerId>,
) -> Option<String> {
    let made = again.made.as_ref()?;
    let ours = |held: &HeldSeat| match snapshot.seats.get(usize::from(held.seat)) {
        Some(SeatState::Taken {
            player: Some(player),
            ..
        }) => player.id == made.by.id,
        _ => false,
    };
    let room = made.room;
    Some(match Some(made.by.id) == me || held.iter().any(ours) {
        true => format!("You wait in room #{room} to play again"),
        false => format!("{} waits in room #{room}", made.by.label()),
    })
}

/// For a spectator of a finished game whose player made a room to play it again: the line
/// that says so, and that room, to watch next.
fn spectators_rematch(
    snapshot: &RoomSnapshot,
    held: &[HeldSeat],
    me: Option<PlayerId>,
) -> Option<(String, RoomId)> {
    let made = snapshot.again.as_ref()?.made.as_ref()?;
    (!played_here(snapshot, held, me)).then(|| {
        let note = format!("{} plays again in room #{}", made.by.label(), made.room);
        (note, made.room)
    })
}

/// How much higher the moves list must end to leave the buttons' note its line: there is a
/// note once a rematch is made (`rematch_note`, `spectators_rematch`).
pub(super) fn note_height(snapshot: &RoomSnapshot, held: &[HeldSeat], me: Option<PlayerId>) -> f32 {
    let players = offered_again(snapshot, held, me).is_some_and(|again| again.made.is_some());
    match players || spectators_rematch(snapshot, held, me).is_some() {
        true => LINE_HEIGHT,
        false => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::GameSetup;
    use parlor_shared::identity::{Player, PlayerId};
    use parlor_shared::protocol::{RematchRoom, SeatSpec, SeatToken};

    use super::*;
    use crate::gui::cave::room::tests::snapshot_after;

    #[test]
    fn the_note_names_whoever_made_the_rematch() {
        let player = |id, name: &str| Player {
            id: PlayerId(id),
            name: name.into(),
        };
        let (ada, bob) = (player(0xada0 << 48, "Ada"), player(0xb0b0 << 48, "Bob"));
        let mut snapshot = snapshot_after("a1 h8 b1 h7 c1 h6 d1 h5 e1");
        for (seat, player) in [ada.clone(), bob.clone()].into_iter().enumerate() {
            snapshot.seats[seat] = SeatState::Taken {
                connected: true,
                player: Some(player),
            };
        }
        let mut again = Rematch {
            setup: GameSetup::Cave,
            seats: vec![SeatSpec::Human; 2],
            made: None,
        };
        let adas_seat = [HeldSeat {
            seat: 0,
            token: SeatToken("t".into()),
        }];
        let note = |again: &Rematch| rematch_note(&snapshot, again, &adas_seat, None);
        assert_eq!(note(&again), None, "none made yet");
        again.made = Some(RematchRoom { room: 8, by: bob });
        assert_eq!(note(&again).as_deref(), Some("Bob #b0b0 waits in room #8"));
        // Ada made it, and came back to the old room: her seat there waits for her.
        again.made = Some(RematchRoom { room: 8, by: ada });
        let mine = note(&again);
        assert_eq!(mine.as_deref(), Some("You wait in room #8 to play again"));
    }

    #[test]
    fn a_spectator_is_shown_the_rematch_to_watch_and_a_player_is_not() {
        let mut snapshot = snapshot_after("a1 h8 b1 h7 c1 h6 d1 h5 e1");
        let made = |room: Option<RoomId>| {
            let by = Player {
                id: PlayerId(0xb0b0 << 48),
                name: "Bob".into(),
            };
            Box::new(Rematch {
                setup: GameSetup::Cave,
                seats: vec![SeatSpec::Human; 2],
                made: room.map(|room| RematchRoom { room, by }),
            })
        };
        snapshot.again = Some(made(None));
        assert_eq!(
            spectators_rematch(&snapshot, &[], None),
            None,
            "none made yet"
        );
        snapshot.again = Some(made(Some(8)));
        let shown = spectators_rematch(&snapshot, &[], None);
        assert_eq!(shown, Some(("Bob #b0b0 plays again in room #8".into(), 8)));
        let held = [HeldSeat {
            seat: 0,
            token: SeatToken("t".into()),
        }];
        assert_eq!(
            spectators_rematch(&snapshot, &held, None),
            None,
            "Play again's"
        );
        assert_eq!(note_height(&snapshot, &[], None), LINE_HEIGHT);
        // Bob, his window opened again since: no token, but the seat was his player's.
        snapshot.seats[1] = SeatState::Taken {
            connected: false,
            player: Some(Player {
                id: PlayerId(0xb0b0 << 48),
                name: "Bob".into(),
            }),
        };
        let bob = Some(PlayerId(0xb0b0 << 48));
        assert_eq!(spectators_rematch(&snapshot, &[], bob), None, "a player's");
        let offered = offered_again(&snapshot, &[], bob).expect("Play again for Bob");
        assert_eq!(offered.made.as_ref().map(|made| made.room), Some(8));
        let note = rematch_note(&snapshot, offered, &[], bob);
        assert_eq!(note.as_deref(), Some("You wait in room #8 to play again"));
    }

    #[test]
    fn resigning_is_offered_for_our_one_seat_while_the_game_is_on() {
        let seat = |seat| HeldSeat {
            seat,
            token: SeatToken(format!("token {seat}")),
        };
        let playing = snapshot_after("a1 h8");
        let Some(ClientMsg::Move {
            token, version, mv, ..
        }) = resignation(&playing, &[seat(1)])
        else {
            panic!("White may resign");
        };
        assert_eq!(
            (token, version, mv),
            (seat(1).token, 2, GameMove::Resign { seat: 1 })
        );
        assert_eq!(resignation(&playing, &[]), None, "a spectator");
        assert_eq!(
            resignation(&playing, &[seat(0), seat(1)]),
            None,
            "both seats ours"
        );
        let over = snapshot_after("a1 h8 b1 h7 c1 h6 d1 h5 e1");
        assert_eq!(resignation(&over, &[seat(1)]), None, "the game is over");
        let mut unopposed = playing.clone();
        unopposed.seats[0] = SeatState::Open;
        assert_eq!(resignation(&unopposed, &[seat(1)]), None, "Black is open");
        let bricks = GameSetup::Bricks {
            height: 10,
            drops: 4,
            bricks: 2,
        };
        let bricks = RoomSnapshot {
            state: bricks.start().unwrap(),
            outcome: None,
            ..playing
        };
        assert!(
            resignation(&bricks, &[seat(0)]).is_some(),
            "Dropping Bricks' agent may resign"
        );
    }
}
