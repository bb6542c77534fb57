//! The side of the node a client is connected to, for rooms other nodes own. Such a room gets a
//! local [`RoomHandle`] like any other, so connections need not know where rooms live: its
//! inbox is read by a forwarder that sends each command to the room's subject on the bus, and
//! what owners send back for this node's connections is put in their outboxes.
//!
//! When a room changes owner (its owner died or was cut off, another node claimed it and
//! replayed it from the store), the new owner does not know who followed it through this node:
//! those connections are asked to reconnect, and their clients resume their seats and watches
//! (they do the same after any outage).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use parlor_shared::codec;
use parlor_shared::identity::Player;
use parlor_shared::protocol::{ErrorCode, RoomId, RoomSummary, ServerMsg};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tracing::warn;

use super::Cluster;
use super::bus::Asked;
use super::lobby::{ANNOUNCE_EVERY, FORGOTTEN_AFTER, HEARD_FOR};
use super::members::Members;
use super::messages::{Delivered, Delivery, Forwarded, RemoteCommand, Taken, detach};
use crate::outbox::Outbox;
use crate::room::{ConnId, ROOM_INBOX, RoomCommand, RoomHandle, Subscriber};

/// How long an unlisted room's forwarder waits before it ends, once nobody here follows it.
const FORGET_AFTER: Duration = Duration::from_secs(10);

/// How often a command nobody answered is sent again while its room changes owner.
const ASK_AGAIN_EVERY: Duration = Duration::from_millis(200);

/// The rooms other nodes own that this node's connections use, and those connections'
/// outboxes.
#[derive(Default)]
pub struct RemoteRooms {
    handles: Mutex<HashMap<RoomId, Remote>>,
    outboxes: Mutex<HashMap<ConnId, Weak<Outbox>>>,
    members: Members,
}

/// A room another node owns, as this node reaches it: its handle, and the sender of the
/// handle's summary, which a look at the room brings up to its owner's last word, at most
/// every [`LOOK_AT_THE_LOBBY_EVERY`] (each look searches every node's announced rooms).
struct Remote {
    handle: RoomHandle,
    summary: watch::Sender<RoomSummary>,
    looked_at: Instant,
}

/// How often a remote room's handle takes the lobby's word for its summary, at most.
const LOOK_AT_THE_LOBBY_EVERY: Duration = Duration::from_millis(100);

/// Whether `announced` is older than `known`: fewer moves (turns, or an auto match's rounds,
/// which a room's new owner brings back from the store), or the game not over where it was.
/// The lobby may say so for a while, when a room's new owner is unheard and its old one is
/// heard.
fn goes_back(announced: &RoomSummary, known: &RoomSummary) -> bool {
    announced.moves < known.moves || (known.outcome.is_some() && announced.outcome.is_none())
}

impl RemoteRooms {
    /// The handle of room `room`, owned by another node: while the lobby lists it, or always
    /// when `unlisted` is its summary (a room the store has in progress, not heard of yet).
    /// Its summary is the owner's last announced (at most [`HEARD_FOR`] old) when the lobby
    /// has one.
    pub fn handle(
        &self,
        cluster: &Arc<Cluster>,
        room: RoomId,
        unlisted: Option<RoomSummary>,
    ) -> Option<RoomHandle> {
        let now = Instant::now();
        // The lobby is read under this lock, so two looks at once cannot put an older word
        // after a newer one.
        let mut handles = crate::lock(&self.handles);
        handles.retain(|_, remote| !remote.handle.inbox.is_closed());
        if let Some(remote) = handles.get_mut(&room) {
            if now >= remote.looked_at + LOOK_AT_THE_LOBBY_EVERY {
                remote.looked_at = now;
                if let Some(announced) = cluster.lobby.summary_of(room, now) {
                    remote.summary.send_if_modified(|summary| {
                        let newer = *summary != announced && !goes_back(&announced, summary);
                        if newer {
                            *summary = announced;
                        }
                        newer
                    });
                }
            }
            return Some(remote.handle.clone());
        }
        let announced = cluster.lobby.summary_of(room, now);
        let (summary, summaries) = watch::channel(announced.or(unlisted)?);
        let (inbox, commands) = mpsc::channel(ROOM_INBOX);
        let handle = RoomHandle {
            inbox,
            summary: summaries,
        };
        tokio::spawn(forward(Arc::clone(cluster), room, commands));
        let remote = Remote {
            handle: handle.clone(),
            summary,
            looked_at: now,
        };
        handles.insert(room, remote);
        Some(handle)
    }

    /// Room `room` runs on this node now: its forwarder ends (its last handle dropped here),
    /// and asks whoever followed the room through it to reconnect.
    pub fn taken_here(&self, room: RoomId) {
        crate::lock(&self.handles).remove(&room);
    }

    fn register(&self, who: &Subscriber) {
        let mut outboxes = crate::lock(&self.outboxes);
        if outboxes.len() > 1024 {
            outboxes.retain(|_, outbox| outbox.strong_count() > 0);
        }
        outboxes.insert(who.id, Arc::downgrade(&who.outbox));
    }

    /// Puts what an owner sent in the outbox of the connection it is for, if it is still here.
    /// A state goes to every member of its room here (`members.rs`).
    pub fn deliver(&self, delivery: Delivery) {
        let Delivery {
            conn, room, what, ..
        } = delivery;
        let outbox = crate::lock(&self.outboxes)
            .get(&conn)
            .and_then(Weak::upgrade);
        match (what, outbox) {
            (Delivered::State(message), outbox) => {
                self.members.state(room, conn, outbox.as_ref(), message);
            }
            (Delivered::Reply(message), Some(outbox)) => {
                let seated = matches!(message, ServerMsg::Seated { room: r, .. } if r == room);
                let gone = matches!(
                    message,
                    ServerMsg::Left { room: r } | ServerMsg::RoomClosed { room: r, .. } if r == room
                );
                outbox.reply(message);
                if seated {
                    self.members.seated(room, conn, &outbox);
                } else if gone {
                    self.members.left(room, conn);
                }
            }
            (Delivered::Reconnect, Some(outbox)) => {
                self.members.left(room, conn);
                outbox.reconnect();
            }
            // The connection has gone meanwhile.
            (Delivered::Reply(_) | Delivered::Reconnect, None) => {}
        }
    }
}

/// Whom a forwarder knows to follow its room through this node, and at which owner.
#[derive(Default)]
struct Followers {
    /// The owner's epoch when they followed it.
    epoch: i64,
    outboxes: HashMap<ConnId, Follower>,
}

/// A connection that follows the room, as far as the forwarder needs to speak for it.
struct Follower {
    outbox: Weak<Outbox>,
    player: Player,
    operator: bool,
}

impl Followers {
    /// The room is owned at `epoch` now: followers of an older owner are asked to reconnect,
    /// but `except`, who just followed it at this owner.
    fn owned_at(&mut self, epoch: i64, except: Option<ConnId>) {
        if epoch > self.epoch {
            let kept = except.and_then(|conn| self.outboxes.remove_entry(&conn));
            self.send_all_away();
            self.outboxes.extend(kept);
            self.epoch = epoch;
        }
    }

    /// Asks every follower to reconnect, whoever owns the room.
    fn send_all_away(&mut self) {
        for outbox in self
            .outboxes
            .drain()
            .filter_map(|(_, follower)| follower.outbox.upgrade())
        {
            outbox.reconnect();
        }
    }

    /// Notes what `command` changes; true when it makes `who` follow the room.
    fn note(&mut self, who: &Subscriber, command: &RemoteCommand) -> bool {
        match command {
            RemoteCommand::Join { .. }
            | RemoteCommand::Reclaim { .. }
            | RemoteCommand::Watch { .. } => {
                let follower = Follower {
                    outbox: Arc::downgrade(&who.outbox),
                    player: who.player.clone(),
                    operator: who.operator,
                };
                self.outboxes.insert(who.id, follower);
                true
            }
            RemoteCommand::Leave => {
                self.outboxes.remove(&who.id);
                false
            }
            RemoteCommand::Close
            | RemoteCommand::Move { .. }
            | RemoteCommand::PlayedAgain(_)
            | RemoteCommand::RematchClosed(_)
            | RemoteCommand::Resend
            | RemoteCommand::Renamed => false,
        }
    }

    fn any(&self) -> bool {
        self.outboxes
            .values()
            .any(|follower| follower.outbox.strong_count() > 0)
    }

    /// A follower still connected, to ask the owner for the room's state in its name (the
    /// state goes to every follower here).
    fn one(&self) -> Option<(ConnId, &Follower)> {
        (self.outboxes.iter())
            .find(|(_, follower)| follower.outbox.strong_count() > 0)
            .map(|(&conn, follower)| (conn, follower))
    }
}

/// Sends room `room`'s commands to its owner, one at a time, in order.
async fn forward(cluster: Arc<Cluster>, room: RoomId, mut inbox: mpsc::Receiver<RoomCommand>) {
    let mut followers = Followers::default();
    let mut check = tokio::time::interval(ANNOUNCE_EVERY);
    let mut unlisted_since = None;
    let mut bus_back = cluster.bus.reconnections();
    loop {
        tokio::select! {
            Ok(()) = bus_back.changed() => {
                // States the owner sent while the bus was away are lost: the followers here
                // would see the room as it was until its next change.
                let Some((conn, follower)) = followers.one() else { continue };
                let resend = Forwarded {
                    from: cluster.node.clone(),
                    incarnation: cluster.incarnation,
                    conn,
                    player: follower.player.clone(),
                    operator: follower.operator,
                    command: RemoteCommand::Resend,
                };
                match ask(&cluster, room, &resend).await {
                    // Taken by another owner meanwhile: its followers here follow it again.
                    Ok(Taken::Queued { epoch }) => followers.owned_at(epoch, None),
                    Ok(Taken::Closed) => {}
                    Err((_, why)) => warn!(room, why, "could not ask for the room's state again"),
                }
            }
            command = inbox.recv() => {
                let Some((who, command)) = command.and_then(detach) else {
                    if inbox.is_closed() { break } else { continue }
                };
                cluster.remote.register(&who);
                if let RemoteCommand::Leave = command {
                    cluster.remote.members.left(room, who.id);
                }
                // A mover that does not follow the room here must reconnect too when the room
                // changed owner: it follows the room at its old owner, if anywhere.
                let follows = followers.note(&who, &command).then_some(who.id);
                let forwarded = Forwarded {
                    from: cluster.node.clone(),
                    incarnation: cluster.incarnation,
                    conn: who.id,
                    player: who.player.clone(),
                    operator: who.operator,
                    command,
                };
                let answered = forwarded.command.is_answered();
                match ask(&cluster, room, &forwarded).await {
                    Ok(Taken::Queued { epoch }) => followers.owned_at(epoch, follows),
                    Ok(Taken::Closed) if answered => tell_closed(&who, room, &forwarded.command),
                    Err((code, why)) if answered => who.error(code, why),
                    Ok(Taken::Closed) | Err(_) => {}
                }
            }
            _ = check.tick() => {
                let now = Instant::now();
                match cluster.lobby.owner_of(room, now) {
                    Some((_, epoch)) => {
                        unlisted_since = None;
                        followers.owned_at(epoch, None);
                    }
                    None => {
                        let since = *unlisted_since.get_or_insert(now);
                        let unlisted = now.duration_since(since);
                        // Its owner may have let go of them (it forgot this node, cut off from
                        // the bus that long): they follow it again wherever it is.
                        if unlisted > FORGOTTEN_AFTER {
                            followers.send_all_away();
                        }
                        if unlisted > FORGET_AFTER && !followers.any() {
                            break;
                        }
                    }
                }
            }
        }
    }
    // The room is gone, or runs on this node now: whoever followed it through here at an
    // older owner follows one that has it no more. (Who followed it at this node already,
    // through the bus to itself, is served on as before.)
    match cluster.store.epoch_of(room) {
        Some(epoch) => followers.owned_at(epoch, None),
        None => followers.send_all_away(),
    }
    // Commands that came in meanwhile are told the room is gone here.
    inbox.close();
    while let Ok(command) = inbox.try_recv() {
        if let Some((who, command)) = detach(command)
            && command.is_answered()
        {
            tell_closed(&who, room, &command);
        }
    }
}

/// Answers `who`'s `command` to `room`, which has closed: a `Leave` holds (as a node answers
/// it for a room it does not know), anything else is refused.
fn tell_closed(who: &Subscriber, room: RoomId, command: &RemoteCommand) {
    if matches!(command, RemoteCommand::Leave) {
        who.send(ServerMsg::Left { room });
    } else {
        who.error(ErrorCode::NoSuchRoom, format!("room {room} has closed"));
    }
}

/// Sends `forwarded` to the room's owner and waits for its answer. While nobody answers, the
/// room may be between owners (its owner died, and its lease has to run out before another
/// node takes it): the command is sent again until the room is taken, it is found finished
/// in the store, or that took longer than a takeover can.
async fn ask(
    cluster: &Arc<Cluster>,
    room: RoomId,
    forwarded: &Forwarded,
) -> Result<Taken, crate::hall::Refusal> {
    let payload = codec::encode_for_node(forwarded).map_err(crate::hall::internal)?;
    let subject = cluster.bus.room_subject(room);
    let give_up = Instant::now() + 2 * cluster.lease + HEARD_FOR + Duration::from_secs(2);
    loop {
        match cluster.bus.request(subject.clone(), payload.clone()).await {
            Asked::Answered(answer) => {
                return codec::decode_from_node(&answer).map_err(crate::hall::internal);
            }
            Asked::Failed(error) => {
                warn!(room, error, "the bus failed");
                let why = "the hall's nodes cannot reach each other now; try again";
                return Err((ErrorCode::ServerBusy, why.into()));
            }
            Asked::Unheard if Instant::now() >= give_up => {
                let why = format!("room {room} is not answering; try again later");
                return Err((ErrorCode::ServerBusy, why));
            }
            Asked::Unheard => {
                if !cluster.in_progress(room).await {
                    return Ok(Taken::Closed);
                }
                tokio::time::sleep(ASK_AGAIN_EVERY).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::Outcome;

    use super::*;

    #[test]
    fn an_older_announcement_never_takes_a_newer_summarys_place() {
        let mut known = crate::room::placeholder_summary(7, parlor_shared::game::GameKind::Cave);
        known.moves = 12;
        let earlier = RoomSummary {
            moves: 11,
            ..known.clone()
        };
        assert!(goes_back(&earlier, &known));
        let later = RoomSummary {
            moves: 13,
            ..known.clone()
        };
        assert!(!goes_back(&later, &known));
        // The same moves with a seat changed is news; a game over is never undone.
        let seated = RoomSummary {
            spectators: 2,
            ..known.clone()
        };
        assert!(!goes_back(&seated, &known));
        let over = RoomSummary {
            outcome: Some(Outcome::Tie),
            ..known.clone()
        };
        assert!(!goes_back(&over, &known));
        assert!(goes_back(&known, &over));
    }
}
