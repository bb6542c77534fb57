//! A room's writes to the store, and a room rebuilt from them after a restart.
//!
//! Every write goes through the store's writer and the room awaits its commit before anyone
//! hears of the change: a seat's token before its holder gets it, a move before the new state is
//! broadcast, a finished game (its record, HER's lesson, and the room's rows dropped, in one
//! transaction) before the state naming the record. So whatever a client has seen survives
//! `kill -9`. On restart the stored moves are replayed through the rules; a room whose moves
//! end the game (killed between its last move and its record) stores its record then.

use anyhow::{Context, bail, ensure};
use parlor_shared::game::{GameMove, GameState, Outcome};
use parlor_shared::hexapawn::HexMove;
use parlor_shared::protocol::{RoomId, SeatSpec, SeatToken};
use tracing::{info, warn};

use super::{Room, RoomInit, seat_label};
use crate::her_seat::HerSeat;
use crate::store::{HerStart, NewRecord, RoomRow, Store};

impl RoomInit {
    /// A new room: nothing played, every seat open.
    pub fn new(
        id: RoomId,
        start: GameState,
        seats: Vec<SeatSpec>,
        seed: u64,
        store: Store,
        her: Option<HerSeat>,
    ) -> RoomInit {
        let tokens = vec![None; seats.len()];
        RoomInit {
            id,
            state: start.clone(),
            start,
            seats,
            seed,
            store,
            her,
            moves: Vec::new(),
            tokens,
        }
    }

    /// What the store keeps of the room as it is now.
    pub fn row(&self) -> RoomRow {
        RoomRow {
            id: self.id,
            start: self.start.clone(),
            seats: self.seats.clone(),
            tokens: self.tokens.clone(),
            seed: self.seed,
            her: self.her.as_ref().map(|her| HerStart {
                mode: her.mode(),
                brain: her.brain().clone(),
            }),
            moves: self.moves.clone(),
        }
    }

    /// Rebuilds a stored room by replaying its moves from its start through the rules (a game
    /// against HER through HER's seat, from the brain as it was when the game began, each of
    /// HER's moves replayed as the draw it was). Refuses a row that does not replay.
    pub fn restore(row: RoomRow, store: Store) -> anyhow::Result<RoomInit> {
        let RoomRow {
            id,
            start,
            seats,
            tokens,
            seed,
            her,
            moves,
        } = row;
        let game = start.kind();
        ensure!(
            seats.len() == game.seats() as usize && tokens.len() == seats.len(),
            "{} seats and {} tokens for a game of {} seats",
            seats.len(),
            tokens.len(),
            game.seats()
        );
        for (seat, (spec, token)) in seats.iter().zip(&tokens).enumerate() {
            ensure!(
                token.is_none() || *spec == SeatSpec::Human,
                "seat {seat} is an AI's but has a token"
            );
        }
        // HER's random draws go on from a source of their own after a restart (the draws before
        // it are replayed as forced ones, which use none).
        let mut her = her.map(|HerStart { mode, brain }| {
            let reseeded = seed ^ (moves.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            HerSeat::new(brain, mode, reseeded)
        });
        let mut state = start.clone();
        for (ply, &mv) in moves.iter().enumerate() {
            let seat = state
                .seat_to_move()
                .with_context(|| format!("move {ply} comes after the end of the game"))?;
            state = match (&mut her, mv) {
                (Some(her), GameMove::Hexapawn(asked)) => {
                    // A resignation is what HER's own draw gives before an empty box.
                    let asked = match asked {
                        HexMove::HerResigns => HexMove::HerPicks,
                        other => other,
                    };
                    let (next, recorded) = her
                        .apply(&state, seat, asked)
                        .map_err(|(_, reason)| anyhow::anyhow!("move {ply}: {reason}"))?;
                    ensure!(
                        GameMove::Hexapawn(recorded) == mv,
                        "move {ply} replays as {recorded:?}"
                    );
                    next
                }
                (Some(_), _) => bail!("move {ply} is not a Hexapawn move"),
                (None, _) => state
                    .apply(mv)
                    .with_context(|| format!("move {ply} ({mv})"))?,
            };
        }
        Ok(RoomInit {
            id,
            start,
            seats,
            seed,
            store,
            her,
            state,
            moves,
            tokens,
        })
    }
}

impl Room {
    /// Stores the seats' tokens (after one was given out).
    pub(super) async fn save_tokens(&mut self) {
        if !self.saving {
            return;
        }
        let tokens: Vec<Option<SeatToken>> =
            self.seats.iter().map(|seat| seat.token.clone()).collect();
        let saved = self.store.set_tokens(self.id, &tokens).done().await;
        self.check_saved(saved);
    }

    /// Stores the move just made.
    pub(super) async fn save_last_move(&mut self) {
        let Some(&mv) = self.moves.last() else {
            return;
        };
        if !self.saving {
            return;
        }
        let ply = self.moves.len() as u64 - 1;
        let saved = self.store.append_move(self.id, ply, mv).done().await;
        self.check_saved(saved);
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
                .map(|(seat, index)| seat_label(self.game, index, seat.spec))
                .collect(),
            outcome,
            start: self.start.clone(),
            moves: self.moves.clone(),
        };
        let her_game = self.her.as_ref().and_then(|her| her.finished(&self.state));
        match self
            .store
            .finish_room(self.id, record, her_game)
            .done()
            .await
        {
            Ok(id) => self.record = Some(id),
            Err(error) => warn!(
                room = self.id,
                error = format!("{error:#}"),
                "could not store the finished game"
            ),
        }
    }

    fn check_saved(&mut self, saved: anyhow::Result<()>) {
        if let Err(error) = saved {
            self.saving = false;
            warn!(
                room = self.id,
                error = format!("{error:#}"),
                "could not store the room; it goes on but would not survive a restart"
            );
        }
    }
}
