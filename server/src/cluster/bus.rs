//! The bus between a hall's nodes: core NATS (publish, subscribe, request and reply), nothing of
//! JetStream. Every subject starts with the hall's id, so halls that share a NATS server never
//! hear each other. This module and `bus_address.rs` are the only ones that speak NATS.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use async_nats::{Client, ConnectOptions, Event, RequestErrorKind, Subscriber};
use parlor_shared::protocol::RoomId;
use tokio::sync::watch;
use tracing::{info, warn};

use super::bus_address::BusAddress;

/// How long a node waits for another node's answer to a request.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(2);

/// What became of a request.
pub enum Asked {
    Answered(Vec<u8>),
    /// Nobody listens on the subject now (a room between owners), or nobody answered in time
    /// (its owner stopped or cut off): worth asking again a little later.
    Unheard,
    /// The bus itself failed.
    Failed(String),
}

/// A node's connection to the bus, and the names of the hall's subjects.
#[derive(Clone)]
pub struct Bus {
    client: Client,
    /// `parlor.<hall id>`.
    prefix: String,
    /// Counts the connections to the NATS server made again after one was lost.
    reconnections: watch::Receiver<u64>,
}

impl Bus {
    /// Connects to the NATS server at `address` as node `node` of hall `hall`. Lost connections
    /// are made again for as long as the node runs (subscriptions included); what is published
    /// meanwhile waits in the client's buffer.
    pub async fn connect(address: &BusAddress, hall: i64, node: &str) -> anyhow::Result<Bus> {
        let (reconnected, reconnections) = watch::channel(0u64);
        let reconnected = Arc::new(reconnected);
        let options = ConnectOptions::new()
            .name(format!("parlor node {node}"))
            .request_timeout(Some(ANSWER_TIMEOUT))
            .max_reconnects(None)
            .event_callback(move |event| {
                let reconnected = Arc::clone(&reconnected);
                async move {
                    match event {
                        Event::Connected => {
                            info!("bus connected");
                            reconnected.send_modify(|count| *count += 1);
                        }
                        Event::Disconnected => warn!("bus disconnected; reconnecting"),
                        other => info!(event = %other, "bus event"),
                    }
                }
            });
        let options = address.authenticate(options);
        let client =
            tokio::time::timeout(Duration::from_secs(10), options.connect(address.server()))
                .await
                .map_err(|_| anyhow::anyhow!("no answer within 10 s"))
                // Its message already says its cause: not the cause again.
                .and_then(|connected| connected.map_err(|error| anyhow::anyhow!("{error}")))
                .with_context(|| format!("cannot connect to the bus at {}", address.shown()))?;
        Ok(Bus {
            client,
            prefix: format!("parlor.{hall:x}"),
            reconnections,
        })
    }

    /// Changes each time the connection to the NATS server is made again: what was published
    /// while it was away is lost.
    pub fn reconnections(&self) -> watch::Receiver<u64> {
        let mut reconnections = self.reconnections.clone();
        reconnections.mark_unchanged();
        reconnections
    }

    /// Whether the connection to the NATS server is up now: while it is not, nothing is heard
    /// from the other nodes.
    pub fn connected(&self) -> bool {
        self.client.connection_state() == async_nats::connection::State::Connected
    }

    /// Where commands for room `room` go: its owner listens there.
    pub fn room_subject(&self, room: RoomId) -> String {
        format!("{}.room.{room}", self.prefix)
    }

    /// Where owners send what node `node`'s connections are to receive.
    pub fn node_subject(&self, node: &str) -> String {
        format!("{}.node.{node}", self.prefix)
    }

    /// Where node `node` takes rooms to open for other nodes.
    pub fn creation_subject(&self, node: &str) -> String {
        format!("{}.create.{node}", self.prefix)
    }

    /// Where node `node` answers that it runs, so that a second process cannot join the hall
    /// under its name.
    pub fn alive_subject(&self, node: &str) -> String {
        format!("{}.alive.{node}", self.prefix)
    }

    /// Where every node says which rooms it holds.
    pub fn lobby_subject(&self) -> String {
        format!("{}.lobby", self.prefix)
    }

    /// Publishes `payload`; a failure (the client's buffer is full while the bus is away) is
    /// logged and dropped: what travels on the bus heals itself (states are full snapshots,
    /// the lobby is said again and again, a lost command is answered by a timeout).
    pub async fn publish(&self, subject: String, payload: Vec<u8>) {
        if let Err(error) = self.client.publish(subject, payload.into()).await {
            warn!(%error, "could not publish on the bus");
        }
    }

    pub async fn subscribe(&self, subject: String) -> anyhow::Result<Subscriber> {
        (self.client.subscribe(subject.clone()).await)
            .with_context(|| format!("cannot listen on the bus at {subject}"))
    }

    /// Asks whoever listens on `subject` and waits for the answer (at most
    /// [`ANSWER_TIMEOUT`]).
    pub async fn request(&self, subject: String, payload: Vec<u8>) -> Asked {
        match self.client.request(subject, payload.into()).await {
            Ok(answer) => Asked::Answered(answer.payload.to_vec()),
            Err(error) => match error.kind() {
                RequestErrorKind::NoResponders | RequestErrorKind::TimedOut => Asked::Unheard,
                _ => Asked::Failed(error.to_string()),
            },
        }
    }
}
