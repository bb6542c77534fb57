//! A room's writes to the store (`restore.rs` rebuilds a room from them after a restart).
//!
//! Every write goes through the store's writer and the room awaits its commit before anyone
//! hears of the change: a seat's key before its holder gets the token, a move before the new
//! state is broadcast, a finished game (its record, HER's lesson, and the room's rows dropped,
//! in one transaction) before the state naming the record. So whatever a client has seen survives
//! `kill -9`.

use parlor_shared::game::{GameMove, GameState, Outcome};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{ErrorCode, RoomId, SeatSpec};
use tracing::{info, warn};

use super::{Room, RoomInit, seat_label};
use crate::hall::Refusal;
use crate::her_seat::{HerGameRecord, HerSeat};
use crate::seat_key::SeatKey;
use crate::store::{HerStart, NewRecord, PreparedLesson, RoomRow, Store};

impl RoomInit {
    /// A new room `creator` made: nothing played, every seat open, nobody following it yet.
    pub fn new(
        id: RoomId,
        start: GameState,
        seats: Vec<SeatSpec>,
        seed: u64,
        store: Store,
        her: Option<HerSeat>,
        creator: Player,
    ) -> RoomInit {
        let keys = vec![None; seats.len()];
        RoomInit {
            players: vec![None; seats.len()],
            creator: Some(creator),
            creator_address: None,
            id,
            state: start.clone(),
            start,
            seats,
            seed,
            store,
            her,
            moves: Vec::new(),
            keys,
            unfollowed_since: Some(crate::store::unix_now()),
        }
    }

    /// Keeps each seat of `kept` for its player (a rematch's, for the players of the game it
    /// plays again): nobody else may take it (`seats.rs`). A person named for an AI's seat is
    /// not kept there.
    pub fn keep_seats(&mut self, kept: Vec<Option<Player>>) {
        let seats = self.players.iter_mut().zip(&self.seats);
        for ((player, spec), kept) in seats.zip(kept) {
            if *spec == SeatSpec::Human {
                *player = kept;
            }
        }
    }

    /// What the store keeps of the room as it is now.
    pub fn row(&self) -> RoomRow {
        RoomRow {
            id: self.id,
            start: self.start.clone(),
            seats: self.seats.clone(),
            keys: self.keys.clone(),
            players: self.players.clone(),
            creator: self.creator.clone(),
            address: self.creator_address,
            seed: self.seed,
            her: self.her.as_ref().map(|her| HerStart {
                mode: her.mode(),
                brain: her.brain().clone(),
            }),
            moves: self.moves.clone(),
            unfollowed_since: self.unfollowed_since,
        }
    }
}

impl Room {
    /// Stores the keys of the seats' tokens and their players (after a seat was given out);
    /// refused (`Internal`) when the store refuses them.
    pub(super) async fn save_seats(&mut self) -> Result<(), Refusal> {
        let keys: Vec<Option<SeatKey>> = self.seats.iter().map(|seat| seat.key.clone()).collect();
        let players: Vec<Option<Player>> =
            self.seats.iter().map(|seat| seat.player.clone()).collect();
        let saved = self.store.set_seats(self.id, &keys, &players).done().await;
        self.refused_write(saved, "the seat")
    }

    /// Stores the room's creator under the name it goes by now; refused (`Internal`) when the
    /// store refuses it.
    pub(super) async fn save_creator(&mut self) -> Result<(), Refusal> {
        let Some(creator) = &self.creator else {
            return Ok(());
        };
        let saved = self.store.set_creator(self.id, creator).done().await;
        self.refused_write(saved, "the creator's name")
    }

    /// Stores `mv` as the room's next move; refused (`Internal`) when the store refuses it.
    pub(super) async fn store_move(&mut self, mv: GameMove) -> Result<(), Refusal> {
        let ply = self.moves.len() as u64;
        let saved = self.store.append_move(self.id, ply, mv).done().await;
        self.refused_write(saved, "the move")
    }

    /// Stores the finished game (and teaches HER's stored brain after a game against HER) and
    /// forgets the room's rows, in one transaction; the record's id goes into the room's
    /// states.
    pub(super) async fn finish(&mut self, outcome: Outcome) {
        info!(
            room = self.id,
            ?outcome,
            moves = self.moves.len(),
            "game over"
        );
        let record = NewRecord {
            game: self.game,
            seats: self
                .seats
                .iter()
                .zip(0u8..)
                .map(|(seat, index)| {
                    seat_label(&self.start, index, seat.spec, seat.player.as_ref())
                })
                .collect(),
            players: (self.seats.iter())
                .map(|seat| seat.player.as_ref().map(|player| player.id))
                .collect(),
            outcome,
            start: self.start.clone(),
            moves: self.moves.clone(),
        };
        let her_game = match self.her.as_ref().and_then(|her| her.finished(&self.state)) {
            Some(game) => Some(prepare_lesson(self.store.clone(), self.id, game).await),
            None => None,
        };
        let stored = self
            .store
            .finish_room(self.id, record, her_game)
            .done()
            .await;
        // A finish that failed is still in the store, to be taught at the next start: until
        // then no match may take the brain.
        if stored.is_ok()
            && let Some(her) = &mut self.her
        {
            her.lesson_stored();
        }
        let now = tokio::time::Instant::now();
        match stored {
            Ok(id) => {
                self.record = Some(id);
                self.abandon_clock.stop();
                self.recorded_at = Some(now);
                self.store_retry_at = None;
            }
            Err(error) => {
                let retry = self.lifetimes.store_retry;
                warn!(
                    room = self.id,
                    error = format!("{error:#}"),
                    "could not store the finished game; trying again in {retry:?}"
                );
                self.store_retry_at = Some(now + retry);
            }
        }
    }

    /// A write the store refused, as the refusal of the request that needed it: nothing
    /// changed, and the request may be made again.
    fn refused_write(&self, saved: anyhow::Result<()>, what: &str) -> Result<(), Refusal> {
        saved.map_err(|error| {
            warn!(
                room = self.id,
                error = format!("{error:#}"),
                "could not store {what}; refused, nothing changed"
            );
            (
                ErrorCode::Internal,
                format!("the server could not store {what}; nothing changed, try again"),
            )
        })
    }
}

/// HER's lesson from `game`, worked out on a blocking thread so that the store's writer only
/// writes it; `None` beside the game when that failed (the writer then works it out).
async fn prepare_lesson(
    store: Store,
    room: RoomId,
    game: HerGameRecord,
) -> (HerGameRecord, Option<PreparedLesson>) {
    let of = game.clone();
    let prepared = tokio::task::spawn_blocking(move || store.prepare_lesson(&of)).await;
    let prepared = match prepared {
        Ok(prepared) => prepared,
        Err(panicked) => Err(anyhow::anyhow!("{panicked}")),
    };
    match prepared {
        Ok(prepared) => (game, Some(prepared)),
        Err(error) => {
            let error = format!("{error:#}");
            warn!(room, error, "HER's lesson left to the store's writer");
            (game, None)
        }
    }
}
