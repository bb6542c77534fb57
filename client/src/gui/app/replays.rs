//! The replays the app opens: a stored game asked for from the lobby or a finished room, and
//! a solver's whole solution while its room plays it.

use parlor_shared::protocol::{ClientMsg, RecordId, RoomId};

use super::{App, Screen, loading_text};
use crate::gui::replay_view::ReplayView;

/// A stored game asked for to replay, and the room that played it when asked there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WantedRecord {
    pub(super) id: RecordId,
    pub(super) room: Option<RoomId>,
}

impl App {
    /// Asks for a stored game to replay once it comes; `room` is the room that played it, when
    /// the replay is asked for there (record and room numbers differ, and both are shown).
    pub(super) fn load_record(&mut self, id: RecordId, room: Option<RoomId>) {
        self.wanted_record = Some(WantedRecord { id, room });
        self.send(ClientMsg::GetRecord { id });
        self.say(loading_text(id), false);
    }

    /// Opens the whole solution a solver seat of `room` has planned, while the room goes on
    /// playing it (still followed, so Back finds it where it has got to).
    pub(super) fn replay_solution(&mut self, room: RoomId) {
        let Some(snapshot) = self.snapshots.get(&room) else {
            return;
        };
        let solution = snapshot
            .moves
            .iter()
            .chain(&snapshot.plan_ahead)
            .copied()
            .collect();
        let title = format!("Solution of room #{room}, being played");
        let seats = snapshot
            .seats
            .iter()
            .map(|seat| crate::gui::describe::seat_state(snapshot.state.kind(), seat))
            .collect();
        let start = (snapshot.state)
            .start_before(&snapshot.moves)
            .map_err(|error| error.to_string());
        match start.and_then(|start| ReplayView::new(title, seats, start, solution)) {
            Ok(view) => {
                self.screen = Screen::Replay {
                    view,
                    back_to: Some(room),
                }
            }
            Err(reason) => self.say(format!("Cannot replay the solution: {reason}"), true),
        }
    }
}
