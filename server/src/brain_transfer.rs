//! Brain files travel in parts (`parlor_shared::brain_parts`). An export is sent part by part
//! from one copy of the file; an import arrives one `ImportBrain` frame a part and is joined
//! here, one file per connection.
//!
//! A file holds up to 64 MiB, so few may travel at once ([`places`]: 4 server-wide, 2 from one
//! address, shared by exports and imports, each held until the file's answer is sent). An
//! import that stalls ([`PART_GAP`] without a part, slower than [`MIN_RATE`] on average after
//! its first [`RATE_GRACE`], or [`FILE_TIME`] in all) is dropped, freeing its place: else a
//! few clients sending a tiny part now and then would hold every place. The parts after the first cost a connection [`PART_COST`] of a request
//! each: a 64 MiB file fits a full budget, and no part is free.

use std::time::Duration;

use parlor_shared::brain_parts::{Assembly, Part};
use parlor_shared::protocol::ErrorCode;
use tokio::time::Instant;

use crate::hall::Refusal;

mod places;

pub use places::{Place, Places, take_place};

/// How long a file may take from its first part to its answer.
pub const FILE_TIME: Duration = Duration::from_secs(600);
/// The longest wait for an import's next part.
pub const PART_GAP: Duration = Duration::from_secs(30);
/// The slowest an import may arrive on average, in bytes a second of its parts' JSON: a slow
/// link's rate, far above a trickle's.
pub const MIN_RATE: usize = 16 * 1024;
/// How long an import may take before its rate counts (a connection's first round trips).
pub const RATE_GRACE: Duration = Duration::from_secs(10);
/// What a part after the first costs of the connection's request budget.
pub const PART_COST: f64 = 1.0 / 16.0;

/// One connection's import: being joined, or refused.
pub enum PendingImport {
    Joining {
        assembly: Option<Assembly>,
        begun: Instant,
        last_part: Instant,
        /// The bytes of JSON its parts have brought so far.
        bytes: usize,
        place: Place,
    },
    /// A file refused part way: its refusal was answered, so the later parts the client sent
    /// without waiting are passed over in silence, up to the file's last part.
    Refused { name: String, parts: u32 },
}

/// What a part did.
#[derive(Debug)]
pub enum Step {
    /// Taken; more parts are due.
    Taken,
    /// A later part of a refused file, passed over.
    PassedOver,
    /// The last part: the whole file for the brain `name`, and its place, to keep until the
    /// file is stored.
    Whole {
        name: String,
        json: String,
        place: Place,
    },
}

/// Takes one part into the connection's import (`pending`). Part 0 begins a file: `begin`
/// checks its name and takes its place. A refused part drops the file under way.
pub fn take_part(
    pending: &mut Option<PendingImport>,
    part: Part,
    begin: impl FnOnce(&str) -> Result<Place, Refusal>,
) -> Result<Step, Refusal> {
    let under_way = pending.take();
    if part.part == 0 {
        // This connection's unfinished file, if any, gives its place to the new one.
        drop(under_way);
        let place =
            begin(part.name).inspect_err(|_| *pending = refused_file(part.name, part.parts))?;
        let now = Instant::now();
        return join(pending, (None, now, 0), place, part);
    }
    match under_way {
        Some(PendingImport::Refused { name, parts })
            if name == part.name && parts == part.parts && part.part < parts =>
        {
            if part.part + 1 < parts {
                *pending = Some(PendingImport::Refused { name, parts });
            }
            Ok(Step::PassedOver)
        }
        Some(PendingImport::Joining {
            assembly,
            begun,
            bytes,
            place,
            ..
        }) => join(pending, (assembly, begun, bytes), place, part),
        _ => {
            let refusal = Assembly::take(&mut None, part).err();
            Err((
                ErrorCode::BadRequest,
                refusal.unwrap_or_else(|| "a part came out of place".into()),
            ))
        }
    }
}

/// Takes `part` into the file under way: its assembly, when it began and the bytes so far.
fn join(
    pending: &mut Option<PendingImport>,
    (mut assembly, begun, bytes): (Option<Assembly>, Instant, usize),
    place: Place,
    part: Part,
) -> Result<Step, Refusal> {
    let bytes = bytes + part.text.len();
    // The file under way, to pass over if this part is refused.
    let file = assembly
        .as_ref()
        .map_or((part.name.to_owned(), part.parts), Assembly::file);
    match Assembly::take(&mut assembly, part) {
        Ok(None) => {
            *pending = Some(PendingImport::Joining {
                assembly,
                begun,
                last_part: Instant::now(),
                bytes,
                place,
            });
            Ok(Step::Taken)
        }
        Ok(Some((name, json))) => Ok(Step::Whole { name, json, place }),
        Err(refusal) => {
            *pending = refused_file(&file.0, file.1);
            Err((ErrorCode::BadRequest, refusal))
        }
    }
}

/// The record of a refused file whose later parts are passed over; none for a part count no
/// file may have.
fn refused_file(name: &str, parts: u32) -> Option<PendingImport> {
    (1..=parlor_shared::brain_parts::MAX_PARTS)
        .contains(&parts)
        .then(|| PendingImport::Refused {
            name: name.to_owned(),
            parts,
        })
}

/// Whether `request` continues this connection's import (and costs [`PART_COST`]).
pub fn continues(pending: &Option<PendingImport>, part: Option<Part>) -> bool {
    pending.is_some() && part.is_some_and(|part| part.part > 0)
}

/// Drops the file being joined if by `now` it has stalled (see the module's comment; its later
/// parts will be passed over); true if it did. The connection asks at each ping, every 20 s,
/// so a stall is noticed up to 20 s late.
pub fn drop_if_stalled(pending: &mut Option<PendingImport>, now: Instant) -> bool {
    let Some(PendingImport::Joining {
        assembly: Some(assembly),
        begun,
        last_part,
        bytes,
        ..
    }) = pending
    else {
        return false;
    };
    let taken = now.duration_since(*begun);
    let trickling = taken > RATE_GRACE && (*bytes as f64) < MIN_RATE as f64 * taken.as_secs_f64();
    if taken <= FILE_TIME && now.duration_since(*last_part) <= PART_GAP && !trickling {
        return false;
    }
    let (name, parts) = assembly.file();
    *pending = refused_file(&name, parts);
    true
}

#[cfg(test)]
mod tests;
