//! What a room shows: its full snapshot to followers, its summary to the lobby, and how its
//! seats are named in a stored record.

use parlor_shared::ewn::MAX_MOVES_MADE;
use parlor_shared::game::{GameKind, GameMove, GameState};
use parlor_shared::hexapawn::{BrainOwner, BrainRef, brain_title};
use parlor_shared::identity::Player;
use parlor_shared::klotski::MAX_STEPS;
use parlor_shared::protocol::{
    AiKind, RoomId, RoomSnapshot, RoomSummary, SeatSpec, SeatState, ServerMsg, WATCHERS_SHOWN,
};
use parlor_shared::words;

use super::Room;
use crate::ai;
use crate::outbox::Broadcast;

/// How soon everyone in a room sees a spectator's coming or going, when nothing else changes.
pub const SPECTATORS_SHOWN_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

impl Room {
    pub(super) fn seat_states(&self) -> Vec<SeatState> {
        let over = self.state.outcome().is_some();
        self.seats
            .iter()
            .zip(0u8..)
            .map(|(seat, index)| match seat.spec {
                // An oracle's secret strength is told once the game is over.
                SeatSpec::Ai {
                    move_ms,
                    kind:
                        kind @ AiKind::Oracle {
                            strength: Some(strength),
                        },
                } if over => SeatState::Ai {
                    move_ms,
                    name: format!("{}, strength {strength}", ai::name(self.game, index, kind)),
                },
                SeatSpec::Ai { move_ms, kind } => SeatState::Ai {
                    move_ms,
                    name: ai::name(self.game, index, kind).into(),
                },
                SeatSpec::Human if seat.key.is_none() => match &seat.player {
                    Some(player) => SeatState::Kept {
                        player: player.clone(),
                    },
                    None => SeatState::Open,
                },
                SeatSpec::Human => SeatState::Taken {
                    connected: seat.holder.is_some(),
                    player: seat.player.clone(),
                },
            })
            .collect()
    }

    pub(super) fn spectator_count(&self) -> u32 {
        let holders = self
            .seats
            .iter()
            .filter(|seat| seat.holder.is_some())
            .count();
        self.audience.len().saturating_sub(holders) as u32
    }

    /// The spectators' players, as many as a snapshot names.
    pub(super) fn watchers(&self) -> Vec<Player> {
        let holds_a_seat = |conn| self.seats.iter().any(|seat| seat.holder == Some(conn));
        (self.audience).players(|conn| !holds_a_seat(conn), WATCHERS_SHOWN)
    }

    pub(super) fn snapshot(&self) -> RoomSnapshot {
        RoomSnapshot {
            room: self.id,
            version: self.version,
            seats: self.seat_states(),
            spectators: self.spectator_count(),
            watchers: self.watchers(),
            creator: self.creator.clone(),
            state: self.state.clone(),
            moves: self.moves.clone(),
            plan_ahead: self.plan_ahead(),
            outcome: self.state.outcome(),
            record: self.record,
            again: self.state.outcome().map(|_| Box::new(self.rematch())),
        }
    }

    /// A solver seat's moves still to come in a puzzle, within the game's move limit: with
    /// the moves made, the whole solution, which spectators may replay at once.
    fn plan_ahead(&self) -> Vec<GameMove> {
        let limit = match self.game {
            GameKind::Ewn => MAX_MOVES_MADE,
            GameKind::Klotski => MAX_STEPS,
            _ => return Vec::new(),
        };
        if self.state.outcome().is_some() {
            return Vec::new();
        }
        let room_left = (limit as usize).saturating_sub(self.moves.len());
        self.ai_plan.iter().take(room_left).copied().collect()
    }

    /// Publishes the lobby summary, then gives the current snapshot to every subscriber,
    /// forgetting closed ones. Every change to the room goes through here.
    pub(super) fn broadcast(&mut self) {
        // Every state carries the spectator count: nothing is left to show.
        self.spectators_news_at = None;
        self.publish_summary();
        let state = Broadcast::new(ServerMsg::State(self.snapshot()));
        for id in self.audience.send_state(self.id, &state) {
            self.drop_member(id);
        }
    }

    /// The spectator count changed and no state went out to everyone: they see it within
    /// [`SPECTATORS_SHOWN_WITHIN`] (spectators who come and go meanwhile share one state).
    pub(super) fn spectators_changed(&mut self) {
        let due = tokio::time::Instant::now() + SPECTATORS_SHOWN_WITHIN;
        self.spectators_news_at.get_or_insert(due);
    }

    pub(super) fn publish_summary(&mut self) {
        let summary = RoomSummary {
            room: self.id,
            game: self.game,
            creator: self.creator.clone(),
            seats: self.seat_states(),
            spectators: self.spectator_count(),
            version: self.version,
            moves: parlor_shared::game::turns(&self.moves),
            outcome: self.state.outcome(),
            to_move: self.state.seat_waited_for(),
            rematch: self.rematch.as_ref().map(|named| named.made.clone()),
        };
        self.summary.send_replace(summary);
    }
}

/// The lobby summary a room publishes before its first real one.
pub(crate) fn placeholder_summary(room: RoomId, game: GameKind) -> RoomSummary {
    RoomSummary {
        room,
        game,
        creator: None,
        seats: vec![],
        spectators: 0,
        version: 0,
        moves: 0,
        outcome: None,
        to_move: None,
        rematch: None,
    }
}

/// How a seat of the game that began at `start` is named in a stored record: its player's
/// label, the AI, or HER by the brain it played with ("Alpha (matchbox robot)").
pub(super) fn seat_label(
    start: &GameState,
    seat: u8,
    spec: SeatSpec,
    player: Option<&Player>,
) -> String {
    match (spec, start) {
        (SeatSpec::Human, _) => player.map_or_else(|| "human".into(), Player::label),
        (SeatSpec::Ai { .. }, GameState::Hexapawn(game)) => her_label(&game.setup.brain),
        (SeatSpec::Ai { move_ms, kind }, _) => {
            words::ai_seat(move_ms, ai::name(start.kind(), seat, kind))
        }
    }
}

/// HER by its brain `brain` (a `BrainRef`'s text): "Alpha (matchbox robot)", or for one of the
/// hall's, "HER (the hall's matchbox robot)".
fn her_label(brain: &str) -> String {
    match BrainRef::parse(brain) {
        Ok(BrainRef {
            owner: BrainOwner::Hall,
            name,
        }) => format!("{name} (the hall's {})", words::HER_SEAT),
        _ => format!("{} ({})", brain_title(brain), words::HER_SEAT),
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::GameSetup;
    use parlor_shared::hexapawn::{Dims, HexSetup, PlayMode};

    use super::*;

    #[test]
    fn a_record_names_an_ai_seat_as_the_room_shows_it() {
        let classic = SeatSpec::Ai {
            move_ms: 300,
            kind: AiKind::Classic,
        };
        let cave = GameSetup::Cave.start().unwrap();
        assert_eq!(seat_label(&cave, 1, classic, None), "AI 0.3 s (classic)");
        assert_eq!(seat_label(&cave, 0, SeatSpec::Human, None), "human");
        let against = |brain: &str| {
            let setup = GameSetup::Hexapawn(HexSetup {
                dims: Dims::new(3, 3).unwrap(),
                mirrors: true,
                mode: PlayMode::Fast,
                brain: brain.into(),
            });
            seat_label(&setup.start().unwrap(), 1, classic, None)
        };
        assert_eq!(against("3f2a000000000001/Alpha"), "Alpha (matchbox robot)");
        assert_eq!(against("hall/HER"), "HER (the hall's matchbox robot)");
    }
}
