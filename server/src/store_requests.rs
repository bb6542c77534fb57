//! Requests answered from the store alone (stored games and HER's brains): each runs its store
//! call on a blocking thread and answers with one message, an `Error` when refused.

use parlor_shared::hexapawn::Brain;
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
            | ClientMsg::ExportBrain { .. }
            | ClientMsg::ImportBrain { .. }
            | ClientMsg::ResetBrain { .. }
    )
}

pub async fn answer(hall: &Hall, request: ClientMsg) -> ServerMsg {
    let store = hall.store.clone();
    // Brains an auto match is training may not change under it.
    if let ClientMsg::ImportBrain { name, .. } | ClientMsg::ResetBrain { name } = &request
        && let Err(refusal) = hall.check_brain_free(name)
    {
        return refused(refusal);
    }
    let answered = tokio::task::spawn_blocking(move || answer_blocking(&store, request)).await;
    match answered {
        Ok(Ok(message)) => message,
        Ok(Err(error)) => refused(internal(error)),
        Err(error) => refused(internal(error)),
    }
}

fn answer_blocking(store: &Store, request: ClientMsg) -> anyhow::Result<ServerMsg> {
    Ok(match request {
        ClientMsg::ListRecords => ServerMsg::Records(store.list()?),
        ClientMsg::GetRecord { id } => match store.get(id)? {
            Some(record) => ServerMsg::Record(record),
            None => error(ErrorCode::NoSuchRecord, format!("no stored game {id}")),
        },
        ClientMsg::ListBrains => ServerMsg::Brains(store.list_brains()?),
        ClientMsg::ExportBrain { name } => match store.brain_json(&name)? {
            Some(json) => ServerMsg::Brain { name, json },
            None => no_such_brain(&name),
        },
        ClientMsg::ImportBrain { name, json } => match Brain::from_json(&json) {
            Ok(brain) => {
                store.put_brain(&name, &brain)?;
                ServerMsg::Brains(store.list_brains()?)
            }
            Err(refusal) => error(ErrorCode::BadRequest, refusal.to_string()),
        },
        ClientMsg::ResetBrain { name } => match store.reset_brain(&name)? {
            true => ServerMsg::Brains(store.list_brains()?),
            false => no_such_brain(&name),
        },
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
