//! A room's writes to the store, and a room rebuilt from them after a restart.
//!
//! Every write goes through the store's writer and the room awaits its commit before anyone
//! hears of the change: a seat's key before its holder gets the token, a move before the new
//! state is broadcast, a finished game (its record, HER's lesson, and the room's rows dropped,
//! in one transaction) before the state naming the record. So whatever a client has seen survives
//! `kill -9`. On restart the stored moves are replayed through the rules; a room whose moves
//! end the game (killed between its last move and its record) stores its record then.

use anyhow::{Context, bail, ensure};
use parlor_shared::game::{GameMove, GameState, Outcome};
use parlor_shared::hexapawn::HexMove;
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

    /// What the store keeps of the room as it is now.
    pub fn row(&self) -> RoomRow {
        RoomRow {
            id: self.id,
            start: self.start.clone(),
            seats: self.seats.clone(),
            keys: self.keys.clone(),
            players: self.players.clone(),
            creator: self.creator.clone(),
            seed: self.seed,
            her: self.her.as_ref().map(|her| HerStart {
                mode: her.mode(),
                brain: her.brain().clone(),
            }),
            moves: self.moves.clone(),
            unfollowed_since: self.unfollowed_since,
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
            keys,
            mut players,
            creator,
            seed,
            her,
            moves,
            unfollowed_since,
        } = row;
        let game = start.kind();
        ensure!(
            seats.len() == game.seats() as usize && keys.len() == seats.len(),
            "{} seats and {} seat keys for a game of {} seats",
            seats.len(),
            keys.len(),
            game.seats()
        );
        // Rooms stored before players were known have none.
        players.resize(seats.len(), None);
        for (seat, (spec, key)) in seats.iter().zip(&keys).enumerate() {
            ensure!(
                key.is_none() || *spec == SeatSpec::Human,
                "seat {seat} is an AI's but has a token's key"
            );
        }
        // HER's random draws go on from a source of their own after a restart (the draws before
        // it are replayed as forced ones, which use none).
        let creator_id = creator.as_ref().map(|creator| creator.id);
        let mut her = her.map(|HerStart { mode, brain }| {
            let reseeded = seed ^ (moves.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let teaches = match &start {
                GameState::Hexapawn(game) => {
                    crate::her_seat::teaches(&game.setup.brain, creator_id)
                }
                _ => false,
            };
            HerSeat::new(brain, mode, reseeded).teaching(teaches)
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
            keys,
            players,
            creator,
            creator_address: None,
            unfollowed_since,
        })
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
                .map(|(seat, index)| seat_label(self.game, index, seat.spec, seat.player.as_ref()))
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use parlor_shared::game::GameSetup;
    use parlor_shared::hexapawn::{Brain, Dims, HexGame, HexSetup, PlayMode};
    use parlor_shared::klotski::{Dir, KlotskiBoard, KlotskiMove, Move, parse_puzzle};
    use parlor_shared::protocol::SeatState;

    use super::*;
    use crate::hall::Hall;

    fn hex(ply: &str) -> GameMove {
        GameMove::Hexapawn(HexMove::Play(ply.parse().unwrap()))
    }

    fn rows() -> Vec<RoomRow> {
        let key = Some(SeatKey::of(&parlor_shared::protocol::SeatToken::random()));
        let board = KlotskiBoard::of(&parse_puzzle("2 3\n1 2 3\n4 0 5\n0\n").unwrap());
        let solved = RoomRow {
            id: 1,
            start: GameSetup::Klotski(board).start().unwrap(),
            seats: vec![SeatSpec::Human],
            keys: vec![key.clone()],
            players: vec![],
            creator: None,
            seed: 1,
            her: None,
            unfollowed_since: None,
            moves: vec![GameMove::Klotski(KlotskiMove::Slide(Move {
                label: 5,
                dir: Dir::Left,
            }))],
        };
        let cave = GameSetup::Cave.start().unwrap();
        let illegal = RoomRow {
            id: 2,
            start: cave,
            seats: vec![SeatSpec::Human; 2],
            keys: vec![None; 2],
            players: vec![],
            creator: None,
            seed: 2,
            her: None,
            moves: vec![GameMove::Cave("a1".parse().unwrap()); 2],
            unfollowed_since: None,
        };
        let setup = HexSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            mode: PlayMode::Slow,
            brain: format!("{}/HER", crate::audience::test_player(1).id),
        };
        let brain = Brain::new(setup.dims, setup.mirrors);
        let her = HerSeat::new(brain.clone(), PlayMode::Slow, 3);
        let against_her = RoomRow {
            id: 3,
            start: her.start(HexGame::new(setup, &brain)),
            seats: vec![SeatSpec::Human, SeatSpec::ai(100)],
            keys: vec![key, None],
            players: vec![],
            // The brain's owner made it: the game teaches the brain.
            creator: Some(crate::audience::test_player(1)),
            seed: 3,
            her: Some(HerStart {
                mode: PlayMode::Slow,
                brain,
            }),
            // The person's pawn, then the capture the person forced on HER.
            moves: vec![hex("b1-b2"), hex("a3xb2")],
            unfollowed_since: None,
        };
        vec![solved, illegal, against_her]
    }

    #[tokio::test]
    async fn a_restart_replays_rooms_skips_what_does_not_replay_and_stores_a_finished_game() {
        let store = Store::in_memory().unwrap();
        for row in rows() {
            store.insert_room(&row).done().await.unwrap();
        }
        let hall = Hall::restore(store.clone(), crate::Limits::default().room_lifetimes()).unwrap();
        assert!(
            hall.room(2).is_none(),
            "an illegal stored move skips the room"
        );
        let her = hall.room(3).unwrap().summary.borrow().clone();
        assert_eq!((her.version, her.moves, her.outcome), (2, 2, None));
        assert_eq!(
            her.seats[0],
            SeatState::Taken {
                connected: false,
                player: None
            },
            "the token holds the seat"
        );
        // The Klotski room was solved by its last stored move: its record is stored now.
        crate::eventually("the finished game was never stored", || {
            !store.list().unwrap().is_empty()
        })
        .await;
        let unfinished = store.load_rooms().unwrap();
        let ids: Vec<RoomId> = unfinished
            .rooms
            .iter()
            .map(|room| match room {
                crate::store::StoredRoom::Game(row) => row.id,
                crate::store::StoredRoom::Match(row) => row.id,
            })
            .collect();
        assert_eq!(ids, vec![2, 3]);
        let fresh = hall
            .create_room(
                GameSetup::Cave,
                vec![SeatSpec::Human; 2],
                &crate::audience::test_player(1),
            )
            .await
            .unwrap();
        assert_eq!(fresh, 4);
    }

    #[tokio::test]
    async fn a_finished_game_the_store_refused_is_stored_on_a_later_try_and_the_room_closes() {
        let store = Store::in_memory().unwrap();
        let solved = rows().remove(0);
        store.insert_room(&solved).done().await.unwrap();
        store.rename_table("games", "games_away");
        let lifetimes = crate::limits::RoomLifetimes {
            store_retry: Duration::from_millis(20),
            linger: Duration::from_millis(20),
            ..crate::Limits::default().room_lifetimes()
        };
        let hall = Hall::restore(store.clone(), lifetimes).unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            hall.room(1).is_some(),
            "open while its finished game is not stored"
        );
        let rows_left = store.load_rooms().unwrap().rooms.len();
        assert_eq!(rows_left, 1, "the refused finish kept the game's rows");

        store.rename_table("games_away", "games");
        crate::eventually("the room never stored its game and closed", || {
            hall.room(1).is_none()
        })
        .await;
        let records = store.list().unwrap();
        assert_eq!(records.len(), 1, "stored once, by a later try");
        assert!(store.load_rooms().unwrap().rooms.is_empty());
    }

    #[tokio::test]
    async fn a_stored_match_that_would_be_refused_now_is_skipped_at_a_restart() {
        use parlor_shared::hexapawn::{MAX_MATCH_ROUNDS, MatchSetup, Pace};
        let store = Store::in_memory().unwrap();
        let mut setup = MatchSetup {
            dims: Dims::HEXAPAWN,
            mirrors: true,
            rounds: 10,
            pace: Pace::FullSpeed,
            brains: ["A".into(), "A".into()],
        };
        store
            .insert_match(1, &setup, 1, &crate::audience::test_player(1))
            .done()
            .await
            .unwrap();
        setup.brains[1] = "B".into();
        setup.rounds = MAX_MATCH_ROUNDS + 1;
        store
            .insert_match(2, &setup, 1, &crate::audience::test_player(1))
            .done()
            .await
            .unwrap();
        setup.rounds = 10;
        store
            .insert_match(3, &setup, 1, &crate::audience::test_player(1))
            .done()
            .await
            .unwrap();
        let hall = Hall::restore(store, crate::Limits::default().room_lifetimes()).unwrap();
        assert!(hall.room(1).is_none(), "one brain on both sides");
        assert!(hall.room(2).is_none(), "too many rounds");
        assert!(hall.room(3).is_some());
    }

    #[tokio::test]
    async fn a_restart_resumes_matches_before_games_and_holds_the_games_brains() {
        use parlor_shared::hexapawn::{MatchSetup, Pace};
        let store = Store::in_memory().unwrap();
        let against_her = rows().pop().unwrap();
        store.insert_room(&against_her).done().await.unwrap();
        // A match on the game's brain, stored after it (as a store from before games held
        // their brains may have it): resumed all the same, as the game is.
        let on_her = MatchSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds: 1_000,
            pace: Pace::PerPly { ms: 1_000 },
            brains: ["HER".into(), "B".into()],
        };
        store
            .insert_match(4, &on_her, 1, &crate::audience::test_player(1))
            .done()
            .await
            .unwrap();
        let hall = Hall::restore(store.clone(), crate::Limits::default().room_lifetimes());
        let hall = hall.unwrap();
        assert!(hall.room(3).is_some() && hall.room(4).is_some());

        // Without the match, the resumed game alone keeps new matches off its brain.
        let store = Store::in_memory().unwrap();
        store.insert_room(&against_her).done().await.unwrap();
        let hall = Hall::restore(store, crate::Limits::default().room_lifetimes()).unwrap();
        let refused = hall
            .create_room(
                GameSetup::HerMatch(on_her),
                vec![],
                &crate::audience::test_player(1),
            )
            .await;
        let (code, message) = refused.expect_err("refused");
        assert_eq!(
            code,
            parlor_shared::protocol::ErrorCode::BrainBusy,
            "{message}"
        );
    }
}
