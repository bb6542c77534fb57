use super::*;
use crate::store::*;
use parlor_shared::codec::{self, Format, MAX_FRAME_BYTES};
use parlor_shared::hexapawn::{Dims, MAX_BRAIN_NAME, check_brain_name};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::ServerMsg;

#[test]
fn the_list_holds_the_brains_changed_last_by_name() {
    let store = SqliteStore::in_memory().unwrap();
    let empty = Brain::new(Dims::HEXAPAWN, false);
    let count = MAX_LISTED_BRAINS + 2;
    for i in 0..count {
        store.put_brain(&format!("brain {i:03}"), &empty).unwrap();
    }
    // Two brains left alone since long ago.
    store
        .lock()
        .execute(
            "UPDATE brains SET updated_at = 0 WHERE name IN ('brain 001', 'brain 100')",
            [],
        )
        .unwrap();
    let names: Vec<String> = store
        .list_brains(PlayerId(1), false)
        .unwrap()
        .into_iter()
        .map(|summary| summary.name)
        .collect();
    let expected: Vec<String> = (0..count)
        .filter(|i| ![1, 100].contains(i))
        .map(|i| format!("hall/brain {i:03}"))
        .collect();
    assert_eq!(names, expected);
    assert!(
        store.load_brain("brain 001").unwrap().is_some(),
        "kept, not listed"
    );
}

#[test]
fn a_full_list_of_the_largest_summaries_fits_in_a_frame() {
    let longest_name: String = "\u{1D11E}".repeat(MAX_BRAIN_NAME);
    assert!(check_brain_name(&longest_name).is_ok());
    let summary = BrainSummary {
        name: longest_name,
        dims: Dims::new(8, 8).unwrap(),
        mirrors: false,
        boxes: u32::MAX,
        beads: u64::MAX,
        games: u64::MAX,
        updated_at: u64::MAX,
    };
    let answer = ServerMsg::Brains(vec![summary; MAX_LISTED_BRAINS as usize]);
    for format in [Format::Json, Format::Binary] {
        let frame = codec::encode(&answer, format).unwrap();
        assert!(
            frame.len() <= MAX_FRAME_BYTES,
            "{format:?}: {}",
            frame.len()
        );
    }
}
