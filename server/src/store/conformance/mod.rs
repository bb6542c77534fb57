//! The store's behaviour, the same whichever database holds it: each test here takes a
//! [`Store`] and runs on SQLite in memory and on PostgreSQL (a fresh database each, when
//! `PARLOR_TEST_POSTGRES` names a server; see `postgres/test_database.rs`). What only one
//! database does (SQLite's migrations, its WAL) is tested beside it.

mod brains;
mod records;
mod rooms;

use parlor_shared::game::{GameKind, GameMove, GameSetup, Outcome};
use parlor_shared::hexapawn::{Dims, MatchSetup, Pace};
use parlor_shared::protocol::{AiKind, RoomId, SeatSpec, SeatToken};

use super::{NewRecord, RoomRow, StoredRoom, Unfinished};
use crate::seat_key::SeatKey;

/// Tests `fn(Store)` run on every database: SQLite in memory, and PostgreSQL when a server is
/// named.
macro_rules! on_every_database {
    ($($test:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[test]
                fn $test() {
                    super::$test(crate::store::Store::in_memory().unwrap());
                }
            )*
        }
        mod on_postgres {
            $(
                #[test]
                fn $test() {
                    if let Some(database) =
                        crate::store::postgres::test_database::TestDatabase::create()
                    {
                        super::$test(database.store());
                    }
                }
            )*
        }
    };
}
use on_every_database;

pub fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

pub fn key_of(token: &str) -> SeatKey {
    SeatKey::of(&SeatToken(token.into()))
}

pub fn cave(square: &str) -> GameMove {
    GameMove::Cave(square.parse().unwrap())
}

pub fn cave_room(id: RoomId) -> RoomRow {
    RoomRow {
        id,
        start: GameSetup::Cave.start().unwrap(),
        seats: vec![
            SeatSpec::Human,
            SeatSpec::Ai {
                move_ms: 100,
                kind: AiKind::Easy,
            },
        ],
        keys: vec![Some(key_of("00ff")), None],
        players: vec![],
        creator: None,
        address: Some([10, 1, 2, 3].into()),
        seed: u64::MAX - 7,
        her: None,
        moves: Vec::new(),
        unfollowed_since: Some(1_700_000_000),
    }
}

pub fn match_setup() -> MatchSetup {
    MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 100,
        pace: Pace::FullSpeed,
        brains: ["A".into(), "B".into()],
    }
}

pub fn record(moves: Vec<GameMove>) -> NewRecord {
    NewRecord {
        game: GameKind::Cave,
        seats: vec!["human".into(), "human".into()],
        players: vec![None, None],
        outcome: Outcome::Won { seat: 0 },
        start: GameSetup::Cave.start().unwrap(),
        moves,
    }
}

pub fn game_rows(unfinished: &Unfinished) -> Vec<&RoomRow> {
    unfinished
        .rooms
        .iter()
        .filter_map(|room| match room {
            StoredRoom::Game(row) => Some(&**row),
            StoredRoom::Match(_) => None,
        })
        .collect()
}
