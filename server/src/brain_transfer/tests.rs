use std::net::IpAddr;
use std::sync::Arc;

use super::*;

fn part(name: &'static str, part: u32, parts: u32) -> Part<'static> {
    Part {
        name,
        part,
        parts,
        text: "x",
    }
}

fn places() -> Arc<Places> {
    Arc::default()
}

fn free(places: &Places) -> usize {
    places::MAX_FILES_TRAVELLING - places.taken()
}

/// Begins a file from the address 10.0.0.`last`, every name allowed.
fn begin_at(places: &Arc<Places>, last: u8) -> impl FnOnce(&str) -> Result<Place, Refusal> {
    move |_| take_place(places, IpAddr::from([10, 0, 0, last]))
}

/// Takes `part` of the file "HER" from the address 10.0.0.`last`.
fn take_at(
    pending: &mut Option<PendingImport>,
    places: &Arc<Places>,
    last: u8,
    n: u32,
    of: u32,
) -> Result<Step, Refusal> {
    take_part(pending, part("HER", n, of), begin_at(places, last))
}

/// Takes `part` of the file "HER" from 10.0.0.1.
fn take(
    pending: &mut Option<PendingImport>,
    places: &Arc<Places>,
    n: u32,
    of: u32,
) -> Result<Step, Refusal> {
    take_at(pending, places, 1, n, of)
}

/// Makes the file under way have brought `bytes` so far.
fn brought(pending: &mut Option<PendingImport>, bytes_so_far: usize) {
    if let Some(PendingImport::Joining { bytes, .. }) = pending {
        *bytes = bytes_so_far;
    }
}

fn refusal_code(step: Result<Step, Refusal>) -> ErrorCode {
    step.expect_err("refused").0
}

#[test]
fn files_being_joined_hold_a_place_each_until_stored_refused_or_replaced() {
    let places = places();
    let total = places::MAX_FILES_TRAVELLING;
    let mut connections: Vec<Option<PendingImport>> = (0..=total).map(|_| None).collect();
    // Each connection from an address of its own: one address holds only its share.
    for (index, pending) in connections[..total].iter_mut().enumerate() {
        let begun = take_at(pending, &places, index as u8, 0, 2);
        assert!(matches!(begun, Ok(Step::Taken)));
    }
    let last = total;
    let no_place = take_at(&mut connections[last], &places, 99, 0, 2);
    assert_eq!(refusal_code(no_place), ErrorCode::LimitReached);
    // A connection beginning again keeps its one place.
    assert!(take_at(&mut connections[0], &places, 0, 0, 2).is_ok());
    assert_eq!(free(&places), 0);
    // Whole: the place goes with the file, held until it is stored.
    let Ok(Step::Whole { json, place, .. }) = take_at(&mut connections[0], &places, 0, 1, 2) else {
        panic!("the last part gives the file");
    };
    assert_eq!(json, "xx");
    assert_eq!(free(&places), 0);
    drop(place);
    assert_eq!(free(&places), 1);
    // Refused: the file is dropped and its place freed.
    let out_of_place = take_at(&mut connections[1], &places, 1, 2, 3);
    assert_eq!(refusal_code(out_of_place), ErrorCode::BadRequest);
    assert_eq!(free(&places), 2);
}

#[test]
fn a_refused_files_later_parts_are_passed_over_until_its_last() {
    let places = places();
    let mut pending = None;
    let full = |_: &str| Err((ErrorCode::LimitReached, "no place".to_string()));
    let refused = take_part(&mut pending, part("HER", 0, 3), full);
    assert_eq!(refusal_code(refused), ErrorCode::LimitReached);
    for later in 1..3 {
        let step = take(&mut pending, &places, later, 3);
        assert!(matches!(step, Ok(Step::PassedOver)), "part {later}");
    }
    assert!(pending.is_none(), "the last part ends the refused file");
    let stray = take(&mut pending, &places, 1, 3);
    assert_eq!(refusal_code(stray), ErrorCode::BadRequest);
}

#[test]
fn a_stray_part_drops_the_file_under_way_whose_later_parts_are_passed_over() {
    let places = places();
    let mut pending = None;
    take(&mut pending, &places, 0, 3).unwrap();
    let stray = take_part(&mut pending, part("OTHER", 1, 2), begin_at(&places, 1));
    assert_eq!(refusal_code(stray), ErrorCode::BadRequest);
    assert_eq!(free(&places), places::MAX_FILES_TRAVELLING);
    assert!(matches!(
        take(&mut pending, &places, 1, 3),
        Ok(Step::PassedOver)
    ));
}

#[test]
fn a_name_refused_at_part_0_takes_no_place_and_its_file_is_passed_over() {
    let places = places();
    let mut pending = None;
    let busy = |name: &str| Err((ErrorCode::BrainBusy, format!("{name} is training")));
    let refused = take_part(&mut pending, part("HER", 0, 2), busy);
    assert_eq!(refusal_code(refused), ErrorCode::BrainBusy);
    assert_eq!(free(&places), places::MAX_FILES_TRAVELLING);
    assert!(matches!(
        take(&mut pending, &places, 1, 2),
        Ok(Step::PassedOver)
    ));
}

#[test]
fn an_impossible_part_count_leaves_nothing_to_pass_over() {
    let places = places();
    let mut pending = None;
    let refused = take(&mut pending, &places, 0, u32::MAX);
    assert_eq!(refusal_code(refused), ErrorCode::BadRequest);
    assert!(pending.is_none());
    assert_eq!(free(&places), places::MAX_FILES_TRAVELLING);
}

#[test]
fn a_file_still_coming_is_dropped_after_the_file_time() {
    let places = places();
    let mut pending = None;
    take(&mut pending, &places, 0, 3).unwrap();
    let late = Instant::now() + FILE_TIME + Duration::from_secs(1);
    // Parts keep coming: the last one a second before `late`.
    if let Some(PendingImport::Joining { last_part, .. }) = &mut pending {
        *last_part = late - Duration::from_secs(1);
    }
    assert!(drop_if_stalled(&mut pending, late));
    assert_eq!(free(&places), places::MAX_FILES_TRAVELLING);
}

#[test]
fn a_stalled_file_is_dropped_and_frees_its_place() {
    let places = places();
    for (wait, stalled) in [
        (PART_GAP - Duration::from_secs(1), false),
        (PART_GAP + Duration::from_secs(1), true),
        (FILE_TIME + Duration::from_secs(1), true),
    ] {
        let mut pending = None;
        take(&mut pending, &places, 0, 3).unwrap();
        // Fast enough: only the waits count here.
        brought(&mut pending, MIN_RATE * FILE_TIME.as_secs() as usize * 2);
        assert_eq!(
            drop_if_stalled(&mut pending, Instant::now() + wait),
            stalled,
            "{wait:?}"
        );
        if stalled {
            assert_eq!(free(&places), places::MAX_FILES_TRAVELLING);
            assert!(matches!(
                take(&mut pending, &places, 1, 3),
                Ok(Step::PassedOver)
            ));
        }
    }
}

#[test]
fn a_trickle_is_cut_after_its_grace_and_a_slow_link_is_not() {
    let places = places();
    let mut pending = None;
    take(&mut pending, &places, 0, 100).unwrap();
    let begun = Instant::now();
    let within_grace = begun + RATE_GRACE - Duration::from_secs(1);
    assert!(!drop_if_stalled(&mut pending, within_grace));
    // A tiny part 20 s in: within the part gap, but far below the rate.
    let at = begun + Duration::from_secs(20);
    if let Some(PendingImport::Joining { last_part, .. }) = &mut pending {
        *last_part = at;
    }
    assert!(drop_if_stalled(&mut pending, at));
    assert_eq!(
        free(&places),
        places::MAX_FILES_TRAVELLING,
        "its place is free"
    );
    // A file at the slowest rate allowed goes on.
    let mut slow = None;
    take(&mut slow, &places, 0, 100).unwrap();
    let later = Instant::now() + Duration::from_secs(60);
    brought(&mut slow, MIN_RATE * 61);
    if let Some(PendingImport::Joining { last_part, .. }) = &mut slow {
        *last_part = later;
    }
    assert!(!drop_if_stalled(&mut slow, later));
}
