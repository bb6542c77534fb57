//! A connection's brain files: an import's parts joined (`crate::brain_transfer`) and stored
//! when whole, and an export sent part by part from one copy of the file.

use std::sync::Arc;

use anyhow::Context;
use parlor_shared::brain_parts::{self, Part};
use tokio::time::Instant;

use super::Connection;
use crate::brain_transfer::{self, Step};
use crate::hall::Hall;
use crate::store_requests;

impl Connection {
    /// Takes one part of the brain file this client is sending; the last one stores the file.
    pub(super) async fn import_part(&mut self, part: Part<'_>) -> anyhow::Result<()> {
        let (hall, address) = (Arc::clone(&self.hall), self.source);
        let asker = self.asker();
        let begin = |name: &str| {
            hall.check_brain_free(&Hall::brain_to_import(name, asker)?)?;
            brain_transfer::take_place(&hall.file_places, address)
        };
        // A full store refuses the file at its first part, not after it all came.
        let begin = |name: &str| hall.store_has_room().and_then(|()| begin(name));
        match brain_transfer::take_part(&mut self.import, part, begin) {
            Ok(Step::Taken | Step::PassedOver) => Ok(()),
            Ok(Step::Whole { name, json, place }) => {
                let answer = store_requests::import(&hall, name, json, asker).await;
                let sent = self.send(&answer).await;
                drop(place);
                sent
            }
            Err((code, message)) => self.error(code, message).await.map(drop),
        }
    }

    /// Sends the brain `name` as its file's parts, one copy of the file held meanwhile.
    pub(super) async fn export(&mut self, name: String) -> anyhow::Result<()> {
        let place = match brain_transfer::take_place(&self.hall.file_places, self.source) {
            Ok(place) => place,
            Err((code, message)) => return self.error(code, message).await.map(drop),
        };
        let json = match store_requests::brain_file(&self.hall, &name, self.me.player.id).await {
            Ok(json) => json,
            Err(refusal) => return self.send(&refusal).await,
        };
        let send_all = async {
            for answer in brain_parts::export_answers(&name, &json) {
                self.send(&answer).await?;
            }
            anyhow::Ok(())
        };
        tokio::time::timeout(brain_transfer::FILE_TIME, send_all)
            .await
            .context("the client took too long to read a brain file")??;
        drop(place);
        // Reading a long file is no sign of a client gone quiet.
        self.last_heard = Instant::now();
        Ok(())
    }
}
