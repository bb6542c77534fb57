//! Requests answered from the store alone (stored games and HER's brains): each runs its store
//! call on a blocking thread and answers with one message, an `Error` when refused. Brain files
//! travel in parts (`crate::brain_transfer`): [`brain_file`] gives the whole file that the
//! connection sends as parts, and a file that arrived whole comes to [`import`]. Brain names are
//! a player's (see `parlor_shared::hexapawn::BrainRef`): anybody lists, exports and plays a
//! brain, only its owner imports over it, resets it or deletes it.

use parlor_shared::brain_parts;
use parlor_shared::hexapawn::{Brain, BrainRef};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{ClientMsg, ErrorCode, RecordSummary, ServerMsg};

use crate::brain_quota::{self, BrainMaker};
use crate::brain_uses::BrainWrite;
use crate::frame_fit::fit_in_a_frame;
use crate::hall::{Asker, Hall, Refusal, internal};
use crate::store::{BrainRow, Store};

/// Whether the store answers `request` (then [`answer`] takes it).
pub fn is_store_request(request: &ClientMsg) -> bool {
    matches!(
        request,
        ClientMsg::ListRecords
            | ClientMsg::GetRecord { .. }
            | ClientMsg::ListBrains
            | ClientMsg::ResetBrain { .. }
            | ClientMsg::DeleteBrain { .. }
    )
}

/// `asker`'s request, answered from the store.
pub async fn answer(hall: &Hall, request: ClientMsg, asker: Asker) -> ServerMsg {
    match request {
        ClientMsg::ResetBrain { name } => reset(hall, name, asker).await,
        ClientMsg::DeleteBrain { name } => delete(hall, name, asker).await,
        request => run_blocking(hall, move |store| answer_blocking(store, request, asker)).await,
    }
}

/// Deletes the brain `name`: its owner may, and the hall's operators, any brain.
async fn delete(hall: &Hall, name: String, asker: Asker) -> ServerMsg {
    let held = match BrainRef::canonical(&name, Some(asker.player)) {
        Ok(brain) if asker.operator => hall.hold_brain_for_write(&brain.text()),
        Ok(_) => hall.hold_brain_to_change(&name, asker),
        Err(refusal) => Err((ErrorCode::BadRequest, refusal)),
    };
    change(hall, held, name, asker, |store, name| {
        store.delete_brain(name)
    })
    .await
}

/// Empties `asker`'s brain `name`, holding it while it writes: a match may neither be training
/// it nor start.
async fn reset(hall: &Hall, name: String, asker: Asker) -> ServerMsg {
    let held = hall.hold_brain_to_change(&name, asker);
    change(hall, held, name, asker, |store, name| {
        store.reset_brain(name)
    })
    .await
}

/// Changes the brain `held` (its write held, its canonical name) with `act`, which says
/// whether there was one: answered with `asker`'s brains, or `NoSuchBrain` naming `name`.
async fn change(
    hall: &Hall,
    held: Result<(BrainWrite, String), Refusal>,
    name: String,
    asker: Asker,
    act: fn(&Store, &str) -> anyhow::Result<bool>,
) -> ServerMsg {
    let (_write, canonical) = match held {
        Ok(held) => held,
        Err(refusal) => return refused(refusal),
    };
    run_blocking(hall, move |store| {
        Ok(match act(store, &canonical)? {
            true => brains(store, asker)?,
            false => no_such_brain(&name),
        })
    })
    .await
}

/// The brains `asker` lists.
fn brains(store: &Store, asker: Asker) -> anyhow::Result<ServerMsg> {
    let listed = store.list_brains(asker.player, asker.operator)?;
    Ok(ServerMsg::Brains(listed))
}

/// The brain `name` (as `asker` names it) as its file, or the refusal to send instead.
pub async fn brain_file(hall: &Hall, name: &str, asker: PlayerId) -> Result<String, ServerMsg> {
    let canonical = match BrainRef::canonical(name, Some(asker)) {
        Ok(brain) => brain.text(),
        Err(refusal) => return Err(error(ErrorCode::BadRequest, refusal)),
    };
    let store = hall.store.clone();
    let name = name.to_string();
    let loaded = tokio::task::spawn_blocking(move || {
        let json = store.brain_json(&canonical)?;
        anyhow::Ok((name, json))
    })
    .await;
    match loaded {
        Ok(Ok((_, Some(json)))) if json.len() <= brain_parts::MAX_FILE_BYTES => Ok(json),
        Ok(Ok((name, Some(json)))) => Err(error(
            ErrorCode::LimitReached,
            format!(
                "the brain {name:?} is {} MiB as a file, over the {} MiB a brain file may travel",
                json.len() >> 20,
                brain_parts::MAX_FILE_BYTES >> 20
            ),
        )),
        Ok(Ok((name, None))) => Err(no_such_brain(&name)),
        Ok(Err(error)) => Err(refused(internal(error))),
        Err(error) => Err(refused(internal(error))),
    }
}

/// Stores a brain file that arrived whole as `asker`'s brain `name`: answered with `Brains`,
/// or a refusal when the file does not read as a brain, the brain is not theirs or is in use.
pub async fn import(hall: &Hall, name: String, json: String, asker: Asker) -> ServerMsg {
    // Held until the file is stored: a match starting meanwhile would read the old brain and
    // store it back over the import with its first round.
    let held =
        Hall::brain_to_import(&name, asker).and_then(|name| hall.hold_brain_for_write(&name));
    let (_write, name) = match held {
        Ok(held) => held,
        Err(refusal) => return refused(refusal),
    };
    // Asked again as the file is stored: the store may have filled since its first part.
    if let Err(refusal) = hall.store_has_room() {
        return refused(refusal);
    }
    let quotas = hall.brain_quotas();
    run_blocking(hall, move |store| {
        let brain = match Brain::from_json(&json) {
            Ok(brain) => brain,
            Err(refusal) => return Ok(error(ErrorCode::BadRequest, refusal.to_string())),
        };
        let row = BrainRow::of(&brain);
        let bytes = row.stored_bytes();
        let maker = BrainMaker {
            player: asker.player,
            source: asker.source,
        };
        if let Err(refusal) = brain_quota::admit(store, quotas, maker, &name, bytes) {
            return Ok(refused(refusal));
        }
        store.put_brain_row(&name, &row)?;
        brains(store, asker)
    })
    .await
}

async fn run_blocking(
    hall: &Hall,
    task: impl FnOnce(&Store) -> anyhow::Result<ServerMsg> + Send + 'static,
) -> ServerMsg {
    let store = hall.store.clone();
    match tokio::task::spawn_blocking(move || task(&store)).await {
        Ok(Ok(message)) => message,
        Ok(Err(error)) => refused(internal(error)),
        Err(error) => refused(internal(error)),
    }
}

fn answer_blocking(store: &Store, request: ClientMsg, asker: Asker) -> anyhow::Result<ServerMsg> {
    Ok(match request {
        ClientMsg::ListRecords => {
            let listed = store.list(Some(asker.player))?;
            ServerMsg::Records(fitting_a_frame(listed, asker.player))
        }
        ClientMsg::GetRecord { id } => match store.get(id)? {
            Some(record) => ServerMsg::Record(record),
            None => error(ErrorCode::NoSuchRecord, format!("no stored game {id}")),
        },
        ClientMsg::ListBrains => brains(store, asker)?,
        other => anyhow::bail!("not a store request: {other:?}"),
    })
}

fn error(code: ErrorCode, message: String) -> ServerMsg {
    ServerMsg::Error { code, message }
}

fn refused((code, message): Refusal) -> ServerMsg {
    error(code, message)
}

fn no_such_brain(name: &str) -> ServerMsg {
    error(ErrorCode::NoSuchBrain, format!("no brain named {name:?}"))
}

/// `records` (newest first, the asker's own older ones after them) cut to what one frame
/// holds: the hall's oldest go first, the asker's own stay, unless they do not fit alone
/// (up to 250 games under long names): then the oldest of them go too.
fn fitting_a_frame(mut records: Vec<RecordSummary>, asker: PlayerId) -> Vec<RecordSummary> {
    let theirs = |record: &RecordSummary| record.players.contains(&Some(asker));
    fit_in_a_frame(&mut records, |left, _| {
        (left.iter().rposition(|record| !theirs(record))).or(left.len().checked_sub(1))
    });
    records
}

#[cfg(test)]
mod tests {
    use parlor_shared::codec::{self, Format};
    use parlor_shared::game::{GameKind, Outcome};
    use parlor_shared::identity::widest_player;

    use super::*;

    #[test]
    fn the_widest_list_of_stored_games_is_cut_to_a_frame_keeping_the_askers_own() {
        let (ada, other) = (PlayerId(1), PlayerId(u64::MAX));
        let widest = |id: u64, player: PlayerId| RecordSummary {
            id: u64::MAX - id,
            game: GameKind::Hexapawn,
            seats: vec![widest_player().label(); 2],
            players: vec![Some(player); 2],
            outcome: Outcome::Won { seat: 1 },
            moves: u32::MAX,
            finished_at: u64::MAX,
        };
        let hall = crate::store::RECORD_LIST_LIMIT as u64;
        let mut records: Vec<RecordSummary> = (0..hall).map(|id| widest(id, other)).collect();
        records.extend((hall..hall + 50).map(|id| widest(id, ada)));
        let whole = ServerMsg::Records(records.clone());
        assert!(
            codec::encode(&whole, Format::Json).is_err(),
            "too wide to send whole"
        );
        let fitted = fitting_a_frame(records.clone(), ada);
        let message = ServerMsg::Records(fitted.clone());
        for format in [Format::Json, Format::Binary] {
            assert!(codec::encode(&message, format).is_ok(), "{format:?}");
        }
        assert_eq!(
            &fitted[fitted.len() - 50..],
            &records[records.len() - 50..],
            "Ada's stay"
        );
        let kept = fitted.len() - 50;
        assert_eq!(
            fitted[..kept],
            records[..kept],
            "the hall's newest; its oldest went"
        );
        // A list that fits is left whole.
        let narrow: Vec<RecordSummary> = records.iter().take(3).cloned().collect();
        assert_eq!(fitting_a_frame(narrow.clone(), ada), narrow);

        // The asker's own, too many to fit alone: their newest, as many as fit.
        let own: Vec<RecordSummary> = (0..hall + 50).map(|id| widest(id, ada)).collect();
        let fitted = fitting_a_frame(own.clone(), ada);
        let message = ServerMsg::Records(fitted.clone());
        assert!(codec::encode(&message, Format::Json).is_ok());
        assert!(fitted.len() > 100, "{}", fitted.len());
        assert_eq!(fitted[..], own[..fitted.len()], "their newest");
    }
}
