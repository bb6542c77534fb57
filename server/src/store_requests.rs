//! Requests answered from the store alone (stored games and HER's brains): each runs its store
//! call on a blocking thread and answers with one message, an `Error` when refused, except
//! `ExportBrain`, answered with the brain file's parts. A brain file to import arrives in
//! parts (`crate::brain_import`) and comes here whole, to [`import`].

use parlor_shared::brain_parts;
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
            | ClientMsg::ResetBrain { .. }
    )
}

/// The answer to a store request: one message, or the parts of an exported brain.
pub async fn answer(hall: &Hall, request: ClientMsg) -> Vec<ServerMsg> {
    // Brains an auto match is training may not change under it.
    if let ClientMsg::ResetBrain { name } = &request
        && let Err(refusal) = hall.check_brain_free(name)
    {
        return vec![refused(refusal)];
    }
    run_blocking(hall, move |store| answer_blocking(store, request)).await
}

/// Stores a brain file that arrived whole as the brain `name`: answered with `Brains`, or a
/// refusal when the file does not read as a brain or the brain is in use.
pub async fn import(hall: &Hall, name: String, json: String) -> ServerMsg {
    if let Err(refusal) = hall.check_brain_free(&name) {
        return refused(refusal);
    }
    let mut answer = run_blocking(hall, move |store| {
        Ok(vec![match Brain::from_json(&json) {
            Ok(brain) => {
                store.put_brain(&name, &brain)?;
                ServerMsg::Brains(store.list_brains()?)
            }
            Err(refusal) => error(ErrorCode::BadRequest, refusal.to_string()),
        }])
    })
    .await;
    answer.remove(0)
}

async fn run_blocking(
    hall: &Hall,
    task: impl FnOnce(&Store) -> anyhow::Result<Vec<ServerMsg>> + Send + 'static,
) -> Vec<ServerMsg> {
    let store = hall.store.clone();
    match tokio::task::spawn_blocking(move || task(&store)).await {
        Ok(Ok(messages)) => messages,
        Ok(Err(error)) => vec![refused(internal(error))],
        Err(error) => vec![refused(internal(error))],
    }
}

fn answer_blocking(store: &Store, request: ClientMsg) -> anyhow::Result<Vec<ServerMsg>> {
    if let ClientMsg::ExportBrain { name } = request {
        return Ok(match store.brain_json(&name)? {
            Some(json) if json.len() > brain_parts::MAX_FILE_BYTES => vec![error(
                ErrorCode::LimitReached,
                format!(
                    "the brain {name:?} is {} MiB as a file, over the {} MiB a brain file may travel",
                    json.len() >> 20,
                    brain_parts::MAX_FILE_BYTES >> 20
                ),
            )],
            Some(json) => export_parts(&name, &json),
            None => vec![no_such_brain(&name)],
        });
    }
    Ok(vec![match request {
        ClientMsg::ListRecords => ServerMsg::Records(store.list()?),
        ClientMsg::GetRecord { id } => match store.get(id)? {
            Some(record) => ServerMsg::Record(record),
            None => error(ErrorCode::NoSuchRecord, format!("no stored game {id}")),
        },
        ClientMsg::ListBrains => ServerMsg::Brains(store.list_brains()?),
        ClientMsg::ResetBrain { name } => match store.reset_brain(&name)? {
            true => ServerMsg::Brains(store.list_brains()?),
            false => no_such_brain(&name),
        },
        other => anyhow::bail!("not a store request: {other:?}"),
    }])
}

fn export_parts(name: &str, json: &str) -> Vec<ServerMsg> {
    brain_parts::numbered(json)
        .map(|(part, parts, text)| ServerMsg::Brain {
            name: name.to_owned(),
            part,
            parts,
            json: text.to_owned(),
        })
        .collect()
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
