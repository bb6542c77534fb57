//! A room rebuilt from the store after a restart: its stored moves replayed through the rules
//! (a game against HER through HER's seat), so that it stands where it stood when the server
//! died. A room whose moves end the game (killed between its last move and its record) stores
//! its record as it starts (`Room::run`).

use anyhow::{Context, bail, ensure};
use parlor_shared::game::{GameMove, GameState};
use parlor_shared::hexapawn::HexMove;
use parlor_shared::protocol::SeatSpec;

use super::RoomInit;
use crate::her_seat::HerSeat;
use crate::store::{HerStart, RoomRow, Store};

impl RoomInit {
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
            address,
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
            creator_address: address,
            unfollowed_since,
        })
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
    use crate::seat_key::SeatKey;
    use parlor_shared::protocol::RoomId;

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
            address: None,
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
            address: None,
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
            address: None,
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
            !store.list(None).unwrap().is_empty()
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
        let fresh = crate::room::tests::people_room(&hall).await;
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
        let records = store.list(None).unwrap();
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
            .insert_match(1, &setup, 1, &crate::audience::test_player(1), None)
            .done()
            .await
            .unwrap();
        setup.brains[1] = "B".into();
        setup.rounds = MAX_MATCH_ROUNDS + 1;
        store
            .insert_match(2, &setup, 1, &crate::audience::test_player(1), None)
            .done()
            .await
            .unwrap();
        setup.rounds = 10;
        store
            .insert_match(3, &setup, 1, &crate::audience::test_player(1), None)
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
            .insert_match(4, &on_her, 1, &crate::audience::test_player(1), None)
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
