//! Finished games: stored whole, listed newest first, and the store's cap.

use parlor_shared::game::GameSetup;
use parlor_shared::identity::PlayerId;

use parlor_shared::protocol::RecordId;

use super::*;
use crate::store::NewRecord;
use crate::store::Store;

on_every_database!(
    a_saved_game_comes_back_whole_and_lists_first,
    a_capped_store_refuses_growth_once_full,
    a_players_own_games_are_listed_for_them_however_many_others_came_after,
);

fn a_saved_game_comes_back_whole_and_lists_first(store: Store) {
    let moves = vec![cave("a1"), cave("h8"), cave("b1")];
    let older = store.save(&record(vec![cave("a1")])).unwrap();
    let mut game = record(moves.clone());
    game.seats = vec!["ada #0000".into(), "AI 1000 ms".into()];
    game.players = vec![Some(PlayerId(0x0000_2a00_0000_002a)), None];
    let id = store.save(&game).unwrap();
    assert!(id > older, "ids grow");
    let got = store.get(id).unwrap().unwrap();
    assert_eq!(got.moves, moves);
    assert_eq!(got.start, GameSetup::Cave.start().unwrap());
    assert_eq!(got.summary.seats, game.seats);
    assert_eq!(got.summary.players, game.players);
    assert_eq!(got.summary.outcome, Outcome::Won { seat: 0 });
    assert_eq!(got.summary.moves, 3);
    let listed = store.list(None).unwrap();
    let ids: Vec<_> = listed.iter().map(|summary| summary.id).collect();
    assert_eq!(ids, vec![id, older], "newest first");
    assert_eq!(listed[0].players, game.players, "players listed too");
    assert!(store.get(id + 1000).unwrap().is_none());
}

fn a_capped_store_refuses_growth_once_full(store: Store) {
    assert!(store.check_not_full().is_ok(), "uncapped");
    store.cap_size(store.size_bytes().max(1));
    let full = store.check_not_full().unwrap_err();
    assert!(full.to_string().contains("full"), "{full}");
    store.cap_size(u64::MAX);
    assert!(store.check_not_full().is_ok());
}

fn a_players_own_games_are_listed_for_them_however_many_others_came_after(store: Store) {
    let (ada, spammer) = (
        PlayerId(0xada0_0000_0000_0001),
        PlayerId(0x5ba3_0000_0000_0002),
    );
    let by = |player: PlayerId| NewRecord {
        players: vec![Some(player), Some(player)],
        ..record(vec![cave("a1")])
    };
    let adas: Vec<_> = (0..3).map(|_| store.save(&by(ada)).unwrap()).collect();
    let newest = crate::store::RECORD_LIST_LIMIT as usize + 5;
    for _ in 0..newest {
        store.save(&by(spammer)).unwrap();
    }
    let ids = |viewer| -> Vec<RecordId> {
        let listed = store.list(viewer).unwrap();
        listed.iter().map(|summary| summary.id).collect()
    };
    let for_anyone = ids(None);
    assert_eq!(for_anyone.len(), crate::store::RECORD_LIST_LIMIT as usize);
    assert!(adas.iter().all(|id| !for_anyone.contains(id)), "pushed out");
    let for_ada = ids(Some(ada));
    assert_eq!(for_ada.len(), for_anyone.len() + adas.len());
    assert_eq!(
        &for_ada[for_anyone.len()..],
        [adas[2], adas[1], adas[0]],
        "hers after, newest first"
    );
    assert_eq!(
        ids(Some(spammer)),
        for_anyone,
        "theirs are the newest already"
    );
}
