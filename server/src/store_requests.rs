//! Requests answered from the store alone (stored games and HER's brains): each runs its store
//! call on a blocking thread and answers with one message, an `Error` when refused. Brain files
//! travel in parts (`crate::brain_transfer`): [`brain_file`] gives the whole file that the
//! connection sends as parts, and a file that arrived whole comes to [`import`]. Brain names are
//! a player's (see `parlor_shared::hexapawn::BrainRef`): anybody lists, exports and plays a
//! brain, only its owner imports over it or resets it.

use parlor_shared::brain_parts;
use parlor_shared::hexapawn::{Brain, BrainRef};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{ClientMsg, ErrorCode, ServerMsg};

use crate::hall::{Hall, Refusal, internal};
use crate::store::Store;

/// Whether the store answers `request` (then [`answer`] takes it).
pub fn is_store_request(request: &ClientMsg) -> bool {
    matches!(
        request,
        ClientMsg::ListRecords
            | ClientMsg::GetRecord { .. }
            | ClientMsg::ListBrains
            | ClientMsg::ResetBrain { .. }
    )
}

/// `asker`'s request, answered from the store.
pub async fn answer(hall: &Hall, request: ClientMsg, asker: PlayerId) -> ServerMsg {
    if let ClientMsg::ResetBrain { name } = request {
        return reset(hall, name, asker).await;
    }
    run_blocking(hall, move |store| answer_blocking(store, request, asker)).await
}

/// Empties `asker`'s brain `name`, holding it while it writes: a match may neither be training
/// it nor start.
async fn reset(hall: &Hall, name: String, asker: PlayerId) -> ServerMsg {
    let (_write, canonical) = match hall.hold_brain_to_change(&name, asker) {
        Ok(held) => held,
        Err(refusal) => return refused(refusal),
    };
    run_blocking(hall, move |store| {
        Ok(match store.reset_brain(&canonical)? {
            true => ServerMsg::Brains(store.list_brains(asker)?),
            false => no_such_brain(&name),
        })
    })
    .await
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
pub async fn import(hall: &Hall, name: String, json: String, asker: PlayerId) -> ServerMsg {
    // Held until the file is stored: a match starting meanwhile would read the old brain and
    // store it back over the import with its first round.
    let (_write, name) = match hall.hold_brain_to_change(&name, asker) {
        Ok(held) => held,
        Err(refusal) => return refused(refusal),
    };
    // Asked again as the file is stored: the store may have filled since its first part.
    if let Err(refusal) = hall.store_has_room() {
        return refused(refusal);
    }
    run_blocking(hall, move |store| {
        Ok(match Brain::from_json(&json) {
            Ok(brain) => {
                store.put_brain(&name, &brain)?;
                ServerMsg::Brains(store.list_brains(asker)?)
            }
            Err(refusal) => error(ErrorCode::BadRequest, refusal.to_string()),
        })
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

fn answer_blocking(
    store: &Store,
    request: ClientMsg,
    asker: PlayerId,
) -> anyhow::Result<ServerMsg> {
    Ok(match request {
        ClientMsg::ListRecords => ServerMsg::Records(store.list()?),
        ClientMsg::GetRecord { id } => match store.get(id)? {
            Some(record) => ServerMsg::Record(record),
            None => error(ErrorCode::NoSuchRecord, format!("no stored game {id}")),
        },
        ClientMsg::ListBrains => ServerMsg::Brains(store.list_brains(asker)?),
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
