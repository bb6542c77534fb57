//! What the hall's nodes say to each other on the bus, in the binary format of
//! `codec::encode_for_node`. A command for a room travels from the node its client is connected
//! to (`remote.rs`) to the room's owner (`served.rs`); what the room has for that client travels
//! back; and every node says which rooms it holds (`lobby.rs`).

use std::net::IpAddr;

use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{ErrorCode, RoomId, RoomSummary, SeatSpec, SeatToken, ServerMsg};
use serde::{Deserialize, Serialize};

use crate::brain_uses::BrainTally;
use crate::follows::FollowTally;
use crate::limits::RoomQuota;
use crate::room::{ConnId, PlayedAgain, RoomCommand, Subscriber};

/// A client's command for a room, without the connection it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RemoteCommand {
    Join {
        seat: u8,
        token: Option<SeatToken>,
        spectator_cap: usize,
    },
    Reclaim {
        token: SeatToken,
        spectator_cap: usize,
    },
    Watch {
        spectator_cap: usize,
    },
    Leave,
    /// The room's state again, for every follower on the sender's node: the bus came back,
    /// and states sent while it was away were lost.
    Resend,
    /// The sender goes by the name it is forwarded with now.
    Renamed,
    Close,
    PlayedAgain(PlayedAgain),
    Move {
        token: SeatToken,
        version: u64,
        mv: GameMove,
    },
    /// Last, so that the variants before it keep their numbers in bincode.
    RematchClosed(RoomId),
}

impl RemoteCommand {
    /// Whether its sender is told when the room is gone: all but `PlayedAgain`, a word to a
    /// finished room that its sender, who has a room of its own, does not wait for, and
    /// `RematchClosed`, `Resend` and `Renamed`, which the node sends, not its client.
    pub fn is_answered(&self) -> bool {
        !matches!(
            self,
            RemoteCommand::PlayedAgain(_)
                | RemoteCommand::RematchClosed(_)
                | RemoteCommand::Resend
                | RemoteCommand::Renamed
        )
    }
}

/// A command as it travels to the room's owner: who sent it, through which node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Forwarded {
    /// The node the client is connected to, where the answers go.
    pub from: String,
    /// That node's process (`Cluster::incarnation`): a node started again under its name
    /// numbers its connections from 1 again, and must not take over the stand-ins of the
    /// connections it had before.
    pub incarnation: u64,
    /// The connection there.
    pub conn: ConnId,
    pub player: Player,
    pub operator: bool,
    pub command: RemoteCommand,
}

/// The owner's answer to a [`Forwarded`] command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Taken {
    /// In the room's inbox; the room answers the client as it answers its own. Its owner holds
    /// it at `epoch`.
    Queued { epoch: i64 },
    /// The room has closed.
    Closed,
}

/// Something a room has for a client connected to another node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    /// The incarnation of the connection's node: one started again drops what was meant for
    /// the connections it had before.
    pub incarnation: u64,
    pub conn: ConnId,
    pub room: RoomId,
    pub what: Delivered,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Delivered {
    Reply(ServerMsg),
    /// The room's state, for the connection and every other follower of the room on its node
    /// (`remote::Members`); it replaces one still waiting for each.
    State(ServerMsg),
    /// The room moved on to another node: the client is to reconnect.
    Reconnect,
}

/// A node's rooms, said every half second.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Announcement {
    pub node: String,
    /// Its process (`Cluster::incarnation`): owners let go of the stand-ins of an older one.
    pub incarnation: u64,
    pub rooms: Vec<AnnouncedRoom>,
    /// The places its caps have left (`room_caps::free_places`).
    pub free: RoomQuota,
    /// What its connections follow, by player and address, for the follow quotas.
    pub follows: FollowTally,
    /// The brains its matches train, its games will teach and its imports write.
    pub brains: BrainTally,
}

/// A room to open on another node, whose caps have room for it (`placement.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Creation {
    pub setup: GameSetup,
    pub seats: Vec<SeatSpec>,
    pub creator: Player,
    pub address: Option<IpAddr>,
    /// The seats a rematch keeps for the players of the game it plays again, one per seat
    /// (`room/play_again.rs::seats_kept`); empty for any other room.
    pub kept: Vec<Option<Player>>,
}

/// The answer to a [`Creation`]: the room, or why not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Created {
    Room(RoomId),
    Refused(ErrorCode, String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnnouncedRoom {
    pub summary: RoomSummary,
    /// The epoch its node owns it at: of two nodes that both list a room (the old owner's
    /// word not yet expired), the higher epoch is the owner. 0 for a finished room.
    pub epoch: i64,
    /// The address it was asked for from, for the per-address quotas, which hold hall-wide.
    pub address: Option<IpAddr>,
}

/// The command without its connection, for the bus; `None` for the room's own commands, which
/// never leave their node.
pub fn detach(command: RoomCommand) -> Option<(Subscriber, RemoteCommand)> {
    let detached = match command {
        RoomCommand::Join {
            seat,
            token,
            who,
            spectator_cap,
        } => (
            who,
            RemoteCommand::Join {
                seat,
                token,
                spectator_cap,
            },
        ),
        RoomCommand::Reclaim {
            token,
            who,
            spectator_cap,
        } => (
            who,
            RemoteCommand::Reclaim {
                token,
                spectator_cap,
            },
        ),
        RoomCommand::Watch { who, spectator_cap } => (who, RemoteCommand::Watch { spectator_cap }),
        RoomCommand::Leave { who } => (who, RemoteCommand::Leave),
        RoomCommand::Resend { who } => (who, RemoteCommand::Resend),
        RoomCommand::Renamed { who } => (who, RemoteCommand::Renamed),
        RoomCommand::Close { who } => (who, RemoteCommand::Close),
        RoomCommand::PlayedAgain { made, who } => (who, RemoteCommand::PlayedAgain(made)),
        RoomCommand::RematchClosed { rematch, who } => (who, RemoteCommand::RematchClosed(rematch)),
        RoomCommand::Move {
            token,
            version,
            mv,
            who,
        } => (who, RemoteCommand::Move { token, version, mv }),
        _ => return None,
    };
    Some(detached)
}

/// The command as the owner's room takes it, from `who` (the owner's stand-in for the remote
/// connection).
pub fn attach(command: RemoteCommand, who: Subscriber) -> RoomCommand {
    match command {
        RemoteCommand::Join {
            seat,
            token,
            spectator_cap,
        } => RoomCommand::Join {
            seat,
            token,
            who,
            spectator_cap,
        },
        RemoteCommand::Reclaim {
            token,
            spectator_cap,
        } => RoomCommand::Reclaim {
            token,
            who,
            spectator_cap,
        },
        RemoteCommand::Watch { spectator_cap } => RoomCommand::Watch { who, spectator_cap },
        RemoteCommand::Leave => RoomCommand::Leave { who },
        RemoteCommand::Resend => RoomCommand::Resend { who },
        RemoteCommand::Renamed => RoomCommand::Renamed { who },
        RemoteCommand::Close => RoomCommand::Close { who },
        RemoteCommand::PlayedAgain(made) => RoomCommand::PlayedAgain { made, who },
        RemoteCommand::RematchClosed(rematch) => RoomCommand::RematchClosed { rematch, who },
        RemoteCommand::Move { token, version, mv } => RoomCommand::Move {
            token,
            version,
            mv,
            who,
        },
    }
}
