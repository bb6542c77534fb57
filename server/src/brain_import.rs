//! A brain file to import arrives in parts (`parlor_shared::brain_parts`), one `ImportBrain`
//! frame each, and is joined here, one file per connection. Whole, it goes to the store.
//!
//! A file under way holds up to 64 MiB, so few may be under way at once server-wide
//! ([`MAX_IMPORTS_UNDER_WAY`]), and one that stalls is dropped after [`IMPORT_TIME`], freeing
//! its place: a client cannot hold memory by beginning files it never finishes.

use std::sync::Arc;
use std::time::Duration;

use parlor_shared::brain_parts::{Assembly, Part};
use parlor_shared::protocol::ErrorCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::hall::Refusal;

/// Brain files being joined at once, server-wide.
pub const MAX_IMPORTS_UNDER_WAY: usize = 4;
/// How long a file may take from its first part to its last.
pub const IMPORT_TIME: Duration = Duration::from_secs(600);

/// The places for files under way, shared by every connection.
pub fn places() -> Arc<Semaphore> {
    Arc::new(Semaphore::new(MAX_IMPORTS_UNDER_WAY))
}

/// One connection's file: being joined, or refused.
pub enum PendingImport {
    Joining {
        assembly: Option<Assembly>,
        begun: Instant,
        _place: OwnedSemaphorePermit,
    },
    /// A file refused part way: its refusal was answered, so its later parts, which the client
    /// sent without waiting, are passed over in silence (and not charged as requests).
    Refused { name: String, parts: u32 },
}

/// What a part did.
#[derive(Debug)]
pub enum Step {
    /// Taken; more parts are due.
    Taken,
    /// A later part of a refused file, passed over.
    PassedOver,
    /// The last part: the whole file, for the brain `name`.
    Whole { name: String, json: String },
}

/// Takes one part into the connection's file (`pending`). Part 0 begins a file and needs a
/// free place; a refused part drops the file and frees its place.
pub fn take_part(
    pending: &mut Option<PendingImport>,
    places: &Arc<Semaphore>,
    part: Part,
) -> Result<Step, Refusal> {
    let refused = || PendingImport::Refused {
        name: part.name.to_owned(),
        parts: part.parts,
    };
    if part.part == 0 {
        // This connection's unfinished file gives its place to the new one.
        *pending = None;
        let Ok(place) = Arc::clone(places).try_acquire_owned() else {
            *pending = Some(refused());
            return Err((
                ErrorCode::LimitReached,
                format!(
                    "{MAX_IMPORTS_UNDER_WAY} brain files are being sent to the server already; \
                     try again in a minute"
                ),
            ));
        };
        *pending = Some(PendingImport::Joining {
            assembly: None,
            begun: Instant::now(),
            _place: place,
        });
    }
    match pending.take() {
        Some(PendingImport::Refused { name, parts })
            if name == part.name && parts == part.parts && (1..parts).contains(&part.part) =>
        {
            if part.part + 1 < parts {
                *pending = Some(PendingImport::Refused { name, parts });
            }
            Ok(Step::PassedOver)
        }
        Some(PendingImport::Joining {
            mut assembly,
            begun,
            _place,
        }) => match Assembly::take(&mut assembly, part) {
            Ok(None) => {
                *pending = Some(PendingImport::Joining {
                    assembly,
                    begun,
                    _place,
                });
                Ok(Step::Taken)
            }
            Ok(Some((name, json))) => Ok(Step::Whole { name, json }),
            Err(refusal) => {
                *pending = Some(refused());
                Err((ErrorCode::BadRequest, refusal))
            }
        },
        // Nothing under way: the part is refused for that.
        _ => {
            let refusal = Assembly::take(&mut None, part).err();
            Err((
                ErrorCode::BadRequest,
                refusal.unwrap_or_else(|| "a part came out of place".into()),
            ))
        }
    }
}

/// Drops the file being joined if by `now` it has taken longer than [`IMPORT_TIME`] (its
/// later parts will be passed over); true if it did.
pub fn drop_if_stalled(pending: &mut Option<PendingImport>, now: Instant) -> bool {
    let Some(PendingImport::Joining {
        assembly: Some(assembly),
        begun,
        ..
    }) = pending
    else {
        return false;
    };
    if now.duration_since(*begun) <= IMPORT_TIME {
        return false;
    }
    let (name, parts) = assembly.file();
    *pending = Some(PendingImport::Refused { name, parts });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(part: u32, parts: u32) -> Part<'static> {
        Part {
            name: "HER",
            part,
            parts,
            text: "x",
        }
    }

    fn refusal_code(step: Result<Step, Refusal>) -> ErrorCode {
        step.expect_err("refused").0
    }

    #[test]
    fn files_being_joined_hold_a_place_each_until_whole_refused_or_replaced() {
        let places = places();
        let mut connections: Vec<Option<PendingImport>> =
            (0..=MAX_IMPORTS_UNDER_WAY).map(|_| None).collect();
        for pending in &mut connections[..MAX_IMPORTS_UNDER_WAY] {
            assert!(matches!(
                take_part(pending, &places, part(0, 2)),
                Ok(Step::Taken)
            ));
        }
        let last = MAX_IMPORTS_UNDER_WAY;
        let no_place = take_part(&mut connections[last], &places, part(0, 2));
        assert_eq!(refusal_code(no_place), ErrorCode::LimitReached);
        // A connection beginning again keeps its one place.
        assert!(take_part(&mut connections[0], &places, part(0, 2)).is_ok());
        assert_eq!(places.available_permits(), 0);
        // Whole: the place is free.
        let whole = take_part(&mut connections[0], &places, part(1, 2)).unwrap();
        assert!(matches!(whole, Step::Whole { json, .. } if json == "xx"));
        assert_eq!(places.available_permits(), 1);
        assert!(take_part(&mut connections[last], &places, part(0, 2)).is_ok());
        // Refused: the file is dropped and its place freed.
        let out_of_place = take_part(&mut connections[2], &places, part(1, 3));
        assert_eq!(refusal_code(out_of_place), ErrorCode::BadRequest);
        assert_eq!(places.available_permits(), 1);
    }

    #[test]
    fn a_refused_files_later_parts_are_passed_over_until_its_last() {
        let places = Arc::new(Semaphore::new(0));
        let mut pending = None;
        let refused = take_part(&mut pending, &places, part(0, 3));
        assert_eq!(refusal_code(refused), ErrorCode::LimitReached);
        for later in 1..3 {
            let step = take_part(&mut pending, &places, part(later, 3));
            assert!(matches!(step, Ok(Step::PassedOver)), "part {later}");
        }
        assert!(pending.is_none(), "the last part ends the refused file");
        let stray = take_part(&mut pending, &places, part(1, 3));
        assert_eq!(refusal_code(stray), ErrorCode::BadRequest);
    }

    #[test]
    fn a_stalled_file_is_dropped_and_frees_its_place() {
        let places = places();
        let mut pending = None;
        take_part(&mut pending, &places, part(0, 3)).unwrap();
        assert!(!drop_if_stalled(&mut pending, Instant::now()));
        let later = Instant::now() + IMPORT_TIME + Duration::from_secs(1);
        assert!(drop_if_stalled(&mut pending, later));
        assert_eq!(places.available_permits(), MAX_IMPORTS_UNDER_WAY);
        let step = take_part(&mut pending, &places, part(1, 3));
        assert!(matches!(step, Ok(Step::PassedOver)));
    }
}
