//! The wire protocol between clients and the server (see docs/PROTOCOL.md).
//!
//! Every message is one WebSocket frame: binary frames carry bincode, text frames carry the
//! same message as JSON, and the server answers in the format the client spoke. Enums are
//! externally tagged (serde's default), the only tagging bincode can carry.

use serde::{Deserialize, Serialize};

use crate::game::{GameKind, GameMove, GameSetup, GameState, Outcome};
use crate::hexapawn::Dims;
use crate::identity::{Player, PlayerId, PlayerSecret, looks_random, random_hex};

/// Bumped whenever a message changes shape; the handshake refuses a mismatch.
pub const PROTOCOL_VERSION: u32 = 19;

pub type RoomId = u64;
pub type RecordId = u64;

/// The budget an AI seat gets per move when the creator names none.
pub const DEFAULT_AI_MOVE_MS: u32 = 1000;
/// The course rule: an AI that takes longer than this loses, so no budget may exceed it.
pub const MAX_AI_MOVE_MS: u32 = 3000;

/// A secret that proves the holder owns a seat. Sent only to the seat's owner.
///
/// Its `Debug` form hides the secret, so a token can never reach a log by accident.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatToken(pub String);

impl SeatToken {
    /// Hex digits in a token.
    pub const LENGTH: usize = 32;

    /// A fresh token: 128 bits from the operating system's generator, as 32 hex digits.
    pub fn random() -> SeatToken {
        SeatToken(random_hex(Self::LENGTH))
    }

    /// Whether the token has the form [`SeatToken::random`] gives (32 lowercase hex digits)
    /// and looks random: a token a client chose as `000…` could be guessed by anybody.
    pub fn is_strong(&self) -> bool {
        self.0.len() == Self::LENGTH && looks_random(&self.0)
    }
}

impl std::fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeatToken(<secret>)")
    }
}

/// Who sits in a seat of a room being created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatSpec {
    /// A person, who joins with `JoinSeat`.
    Human,
    /// The server's AI, thinking at most `move_ms` per move (capped at [`MAX_AI_MOVE_MS`]).
    Ai { move_ms: u32, kind: AiKind },
}

impl SeatSpec {
    /// The game's standard AI with a budget of `move_ms` per move.
    pub const fn ai(move_ms: u32) -> SeatSpec {
        SeatSpec::Ai {
            move_ms,
            kind: AiKind::Standard,
        }
    }
}

/// Which AI plays a seat. The server refuses a kind that does not fit the game and seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AiKind {
    /// The game's usual AI for the seat: Magnetic Cave's engine; in Dropping Bricks the winning
    /// agent or the adversary.
    Standard,
    /// Magnetic Cave: the seed's depth-4 minimax with its line sum.
    Classic,
    /// Magnetic Cave: a 2-ply alpha-beta.
    Easy,
    /// Magnetic Cave: iterative-deepening alpha-beta with a window heuristic.
    Normal,
    /// Magnetic Cave: the strong engine (PVS, transposition table, threat extensions); the
    /// same as `Standard`.
    Strong,
    /// EWN puzzle: a random legal move (the standard EWN AI is the optimal solver).
    RandomPlayer,
    /// Dropping Bricks agent that drops from a random open height.
    RandomAgent,
    /// Dropping Bricks agent that plays the closed form and wins whenever the start allows.
    WinningAgent,
    /// Dropping Bricks answerer that tells the truth about a strength fixed at the start:
    /// the given one, or a secret random one. Never shown to others.
    Oracle { strength: Option<u64> },
    /// Dropping Bricks answerer that makes the agent lose when it can, and otherwise need the
    /// most drops.
    Adversary,
}

/// Client to server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// Must be the first message; the server answers `Welcome` or an error and closes.
    /// `player` is the person's secret (see `parlor_shared::identity`), the same on every
    /// connection; `name` the name they go by (1 to 32 characters).
    Hello {
        protocol: u32,
        client: String,
        player: PlayerSecret,
        name: String,
    },
    ListGames,
    ListRooms,
    /// One `SeatSpec` per seat of the game. Answered with `RoomCreated`, or `RoomRefused`
    /// saying why not.
    CreateRoom {
        setup: GameSetup,
        seats: Vec<SeatSpec>,
    },
    /// A room to play the game of `room` again, asked by one of its players: answered as a
    /// `CreateRoom` (the quotas are the same). If `setup` and `seats` are the old room's
    /// `again` and nobody asked before, the old room names the new one in its `again.made`, so
    /// that its other players join it rather than make rooms of their own.
    PlayAgain {
        room: RoomId,
        setup: GameSetup,
        seats: Vec<SeatSpec>,
    },
    /// Take an open human seat, or take back a seat this player holds (from another window or
    /// machine: the seat's old token stops working). Answered with `Seated` (holding the
    /// token), then `State`. With a `token` of the client's own (a fresh
    /// [`SeatToken::random`]) the seat is held by it, and the same request again (its answer
    /// lost in a disconnect) is answered the same way; without one, the server makes the
    /// token. (`default`: JSON may leave it out.)
    JoinSeat {
        room: RoomId,
        seat: u8,
        #[serde(default)]
        token: Option<SeatToken>,
    },
    /// Take a seat back after a disconnect by presenting its token.
    Reclaim {
        room: RoomId,
        token: SeatToken,
    },
    /// Follow a room as a spectator. Answered with `State`, then every later state.
    Watch {
        room: RoomId,
    },
    /// Stop following a room; a seat taken is kept for `Reclaim`.
    Leave {
        room: RoomId,
    },
    /// A move for the seat the token belongs to, made on state `version`.
    Move {
        room: RoomId,
        token: SeatToken,
        version: u64,
        mv: GameMove,
    },
    /// The stored finished games, newest first.
    ListRecords,
    /// One stored game with its moves, for replay.
    GetRecord {
        id: RecordId,
    },
    /// HER's brains kept by the server. Answered with `Brains`.
    ListBrains,
    /// One brain as JSON (see `parlor_shared::hexapawn::BrainFile`). Answered with its
    /// parts, `Brain` messages numbered from 0, which joined in order make the file (see
    /// `parlor_shared::brain_parts`).
    ExportBrain {
        name: String,
    },
    /// Part `part` of `parts` (numbered from 0) of a brain file to store as the brain `name`,
    /// replacing any brain of that name. Parts are sent in order, each cut as
    /// `brain_parts::split` cuts them; part 0 begins a file. Answered once, after the last
    /// part, with `Brains`; a refused part is answered with an `Error` and drops the file.
    ImportBrain {
        name: String,
        part: u32,
        parts: u32,
        json: String,
    },
    /// Forgets everything the brain `name` learnt. Answered with `Brains`.
    ResetBrain {
        name: String,
    },
    /// Deletes the brain `name`: its owner may, and the hall's operators (any brain).
    /// Answered with `Brains`.
    DeleteBrain {
        name: String,
    },
    /// The seats this player holds in unfinished rooms, on any connection. Answered with
    /// `MySeats`.
    ListMySeats,
    /// Ends an unfinished room this player created (any room, for the hall's operators): its
    /// followers get `RoomClosed`, the game is not stored.
    CloseRoom {
        room: RoomId,
    },
}

impl ClientMsg {
    /// `JoinSeat` with a fresh token of ours, so the request may be sent again if its answer
    /// is lost.
    pub fn join_seat(room: RoomId, seat: u8) -> ClientMsg {
        ClientMsg::JoinSeat {
            room,
            seat,
            token: Some(SeatToken::random()),
        }
    }
}

/// Server to client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMsg {
    /// `player` is who the server knows this client as: its public id and name.
    Welcome {
        protocol: u32,
        server: String,
        player: Player,
    },
    Games(Vec<GameInfo>),
    /// The hall's rooms; `partial` while the server cannot reach the hall's other nodes.
    Rooms {
        rooms: Vec<RoomSummary>,
        partial: bool,
    },
    RoomCreated {
        room: RoomId,
    },
    /// The answer to a `CreateRoom` that made no room. It is not an `Error`, so a client
    /// waiting for its room cannot take another request's refusal for this one.
    RoomRefused {
        code: ErrorCode,
        message: String,
    },
    Seated {
        room: RoomId,
        seat: u8,
        token: SeatToken,
    },
    /// The full state of a room a client plays in or watches; sent on joining and after every
    /// change, so a client never needs to apply moves itself.
    State(RoomSnapshot),
    Left {
        room: RoomId,
    },
    /// The room is gone for this client, and `message` says why: it failed on the server (a
    /// bug), it closed as a request reached it, its auto match stopped, or this client's
    /// seat was taken over with no place left to watch from. It comes to whoever followed
    /// the room, or answers the request that reached it as it closed.
    RoomClosed {
        room: RoomId,
        message: String,
    },
    Records(Vec<RecordSummary>),
    Record(GameRecord),
    Brains(Vec<BrainSummary>),
    /// Part `part` of `parts` of the brain file `name`: the answer to `ExportBrain`.
    Brain {
        name: String,
        part: u32,
        parts: u32,
        json: String,
    },
    Error {
        code: ErrorCode,
        message: String,
    },
    /// The answer to `ListMySeats`, oldest room first.
    MySeats(Vec<HeldSeat>),
    /// This connection's `seat` of `room` was taken back by its player on another connection
    /// (a `JoinSeat` of theirs, from another window or machine): the token this connection
    /// holds for it plays no more. The connection stays in the room as a spectator, unless the
    /// room has all the spectators it takes (then `RoomClosed` follows). Version 19.
    SeatTakenBack {
        room: RoomId,
        seat: u8,
    },
}

/// A seat a player holds in an unfinished room, or that a rematch keeps for them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldSeat {
    pub room: RoomId,
    pub seat: u8,
    pub game: GameKind,
    /// Whether the game waits for this seat's move: its turn, every seat taken (a game with a
    /// seat open waits for an opponent, not for a move).
    #[serde(default)]
    pub to_move: bool,
    /// Not taken yet: a rematch keeps it for the player, to take with `JoinSeat` (version 18).
    #[serde(default)]
    pub kept: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInfo {
    pub kind: GameKind,
    pub name: String,
    pub description: String,
    pub seat_names: Vec<String>,
}

/// Who is in a seat right now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatState {
    /// A human seat nobody has taken yet.
    Open,
    /// A human seat that `player` took (`None` in a room stored before players were known);
    /// `connected` is false while they are away.
    Taken {
        connected: bool,
        player: Option<Player>,
    },
    /// The server's AI; `name` says which (an oracle's strength stays secret).
    Ai { move_ms: u32, name: String },
    /// A human seat nobody has taken yet, kept for `player`: a rematch keeps its seats for the
    /// players of the game it plays again, and only they may take them (version 17).
    Kept { player: Player },
}

impl SeatState {
    /// Whether nobody has taken the seat yet: open, or kept for a player.
    pub fn untaken(&self) -> bool {
        matches!(self, SeatState::Open | SeatState::Kept { .. })
    }

    /// The player the seat names: who took it, or whom it is kept for.
    pub fn player(&self) -> Option<&Player> {
        match self {
            SeatState::Taken { player, .. } => player.as_ref(),
            SeatState::Kept { player } => Some(player),
            SeatState::Open | SeatState::Ai { .. } => None,
        }
    }

    /// Whether player `me` took the seat (from whichever connection).
    pub fn taken_by(&self, me: Option<PlayerId>) -> bool {
        matches!(self, SeatState::Taken { player: Some(player), .. } if Some(player.id) == me)
    }

    /// Whether player `me` may take the seat: it is open, or kept for them.
    pub fn may_be_taken_by(&self, me: Option<PlayerId>) -> bool {
        match self {
            SeatState::Open => true,
            SeatState::Kept { player } => Some(player.id) == me,
            _ => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSummary {
    pub room: RoomId,
    pub game: GameKind,
    /// Who created the room (`None` for rooms made before players were known).
    pub creator: Option<Player>,
    pub seats: Vec<SeatState>,
    pub spectators: u32,
    pub version: u64,
    /// Turns played (`game::turns`: a Bricks drop with its answer is one, a give-up none).
    pub moves: u32,
    pub outcome: Option<Outcome>,
    /// The seat whose turn it is (`None` once the game is over, and in an auto match).
    #[serde(default)]
    pub to_move: Option<u8>,
    /// A finished room's rematch, once one of its players made it (as in its snapshot's
    /// `again.made`): the lobby shows the others that it waits for them.
    #[serde(default)]
    pub rematch: Option<RematchRoom>,
}

/// How many spectators a room's snapshot names.
pub const WATCHERS_SHOWN: usize = 16;

/// Everything a screen needs to draw a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSnapshot {
    pub room: RoomId,
    /// Goes up by one with every change to the room's game; moves must name the current one.
    pub version: u64,
    pub seats: Vec<SeatState>,
    pub spectators: u32,
    /// The spectators, at most [`WATCHERS_SHOWN`] of them.
    pub watchers: Vec<Player>,
    pub creator: Option<Player>,
    pub state: GameState,
    /// Every move from the start, so a late spectator sees the whole game.
    pub moves: Vec<GameMove>,
    /// In a puzzle played by a solver seat: the moves it has planned and not played yet. With
    /// `moves` they are its whole solution, which may be replayed at once while the room plays
    /// it step by step. Together with `moves` never longer than the game's move limit.
    pub plan_ahead: Vec<GameMove>,
    pub outcome: Option<Outcome>,
    /// The stored record, once the game is over and saved.
    pub record: Option<RecordId>,
    /// Once the game is over: the room that plays it again (same setup and seats; an oracle
    /// with a secret strength gets a new secret one). Not for an auto match.
    /// Boxed: a snapshot is the largest message as it is.
    pub again: Option<Box<Rematch>>,
}

/// A room like one that has ended: what its Play again asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    pub setup: GameSetup,
    pub seats: Vec<SeatSpec>,
    /// The room the first of its players to ask (`PlayAgain`) made: the others join its open
    /// seats instead of making rooms of their own. `None` until somebody asks.
    pub made: Option<RematchRoom>,
}

/// The room a player of a finished game made to play it again, and who made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchRoom {
    pub room: RoomId,
    pub by: Player,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSummary {
    pub id: RecordId,
    pub game: GameKind,
    /// A label per seat: a player's `Player::label`, or the AI as a room shows it, `AI 1 s
    /// (strong)` (records stored by older servers say `strong AI, 1000 ms`).
    pub seats: Vec<String>,
    /// The player who held each seat, beside `seats`: `None` for an AI or an empty seat, and
    /// for every seat of a game stored before players were kept (protocol 14). A label names
    /// a player as they were called then; the id still says who they are after a rename.
    pub players: Vec<Option<PlayerId>>,
    pub outcome: Outcome,
    /// Turns played (`game::turns`), as in `RoomSummary`.
    pub moves: u32,
    /// Seconds since the Unix epoch.
    pub finished_at: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub summary: RecordSummary,
    pub start: GameState,
    pub moves: Vec<GameMove>,
}

/// A brain of HER as the server lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrainSummary {
    pub name: String,
    pub dims: Dims,
    pub mirrors: bool,
    pub boxes: u32,
    pub beads: u64,
    /// Games it has finished since it was made or last reset.
    pub games: u64,
    /// Seconds since the Unix epoch.
    pub updated_at: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The frame could not be decoded, or was too large.
    BadFrame,
    /// The first message was not a matching `Hello`.
    Handshake,
    NoSuchRoom,
    NoSuchSeat,
    SeatTaken,
    /// The token does not belong to any seat of the room.
    BadToken,
    NotYourTurn,
    /// The move names an older version of the room than the current one.
    StaleVersion,
    IllegalMove,
    GameOver,
    BadRequest,
    NoSuchRecord,
    NoSuchBrain,
    /// The brain is being used by a running game or match.
    BrainBusy,
    /// A per-connection or per-room cap was reached (rooms a connection keeps open, spectators
    /// of a room); the message names it. Nothing changed.
    LimitReached,
    /// The server is at capacity (connections, AI rooms, auto matches); try again later.
    ServerBusy,
    /// The request needs a right this player does not have (another player's room or brain).
    NotYours,
    Internal,
}

#[cfg(test)]
mod tests;
