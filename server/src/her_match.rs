//! An auto match room: two HERs play each other on a thread of their own while any number of
//! connections watch. The thread publishes the match's view into a `watch` channel (which keeps
//! only the latest), at every ply when paced, at most every [`THROTTLE`] at full speed; the
//! room's task sends each new view to its audience. A spectator arriving late gets the latest
//! view at once. Both brains are stored after every round, in one transaction.

use std::time::{Duration, Instant};

use parlor_shared::game::{GameKind, GameState};
use parlor_shared::hexapawn::{
    AutoConfig, AutoMatch, BoxView, Brain, MAX_CURVE_POINTS, MatchSetup, MatchView, Pace, Side,
    thin_curve,
};
use parlor_shared::protocol::{ErrorCode, RoomId, RoomSnapshot, RoomSummary, ServerMsg};
use tokio::sync::{mpsc, watch};
use tracing::{info, warn};

use crate::audience::Audience;
use crate::hall::BrainClaim;
use crate::room::{ROOM_INBOX, RoomCommand, RoomHandle};
use crate::store::{BrainUse, Store};

/// The most often watchers hear of a match at full speed.
pub const THROTTLE: Duration = Duration::from_millis(100);

/// What an auto match starts with.
pub struct MatchInit {
    pub id: RoomId,
    pub setup: MatchSetup,
    pub brains: [Brain; 2],
    pub seed: u64,
    pub store: Store,
    /// Keeps the brains from other rooms, imports and resets until the match ends.
    pub claim: BrainClaim,
}

/// Starts the match's thread and its room's task; returns the room's handle.
pub fn spawn_match(init: MatchInit) -> anyhow::Result<RoomHandle> {
    let id = init.id;
    let first_view = view_of(&init.setup, None);
    let (views_tx, views_rx) = watch::channel(first_view.clone());
    std::thread::Builder::new()
        .name(format!("her-match-{id}"))
        .spawn(move || play_match(init, views_tx))?;
    let (inbox_tx, inbox_rx) = mpsc::channel(ROOM_INBOX);
    let room = MatchRoom {
        id,
        version: 0,
        view: first_view,
        audience: Audience::default(),
        summary: watch::Sender::new(summary_of(id, 0, 0, None)),
    };
    let summary = room.summary.subscribe();
    tokio::spawn(room.run(inbox_rx, views_rx));
    Ok(RoomHandle {
        inbox: inbox_tx,
        summary,
    })
}

/// The match itself, on its own thread.
fn play_match(init: MatchInit, views: watch::Sender<MatchView>) {
    let MatchInit {
        id,
        setup,
        brains,
        seed,
        store,
        claim,
    } = init;
    info!(room = id, rounds = setup.rounds, "auto match starts");
    let config = AutoConfig {
        dims: setup.dims,
        mirrors: setup.mirrors,
        rounds: setup.rounds,
        seed,
    };
    let mut game = AutoMatch::with_brains(config, brains);
    let mut published = Instant::now();
    let paced = matches!(setup.pace, Pace::PerPly { .. });
    while game.rounds_played() < setup.rounds {
        // Only a paced match shows its plies; at full speed a view is made only to publish.
        let between_rounds = paced.then(|| view_of(&setup, Some(&game)));
        let round = game.play_round_watched(|position, mover, brain| {
            if let (Pace::PerPly { ms }, Some(between_rounds)) = (setup.pace, &between_rounds) {
                let white = if position.to_move() == Side::White {
                    mover
                } else {
                    1 - mover
                };
                views.send_replace(MatchView {
                    position: *position,
                    white: white as u8,
                    matchbox: BoxView::of(brain, position),
                    ..between_rounds.clone()
                });
                std::thread::sleep(Duration::from_millis(u64::from(ms)));
            }
        });
        let brains = [0, 1].map(|her| BrainUse {
            name: &setup.brains[her],
            brain: game.her(her).brain(),
        });
        if let Err(error) = store.save_brains(&brains) {
            warn!(room = id, %error, "could not store the brains; the match stops");
            break;
        }
        if paced || published.elapsed() >= THROTTLE {
            views.send_replace(MatchView {
                position: round.end,
                white: round.first as u8,
                ..view_of(&setup, Some(&game))
            });
            published = Instant::now();
        }
    }
    let mut last = view_of(&setup, Some(&game));
    if let Some(round) = last.last_round {
        last.position = round.end;
        last.white = round.first as u8;
    }
    last.finished = true;
    views.send_replace(last);
    info!(room = id, rounds = game.rounds_played(), "auto match over");
    drop(claim);
}

/// The view of `game` between rounds (or of the match about to start).
fn view_of(setup: &MatchSetup, game: Option<&AutoMatch>) -> MatchView {
    let mut view = MatchView::new(setup.clone());
    let Some(game) = game else {
        return view;
    };
    let (curve, rounds_per_point) = thin_curve(
        game.curve(),
        parlor_shared::hexapawn::CURVE_WINDOW,
        MAX_CURVE_POINTS,
    );
    let brains = [game.her(0).brain(), game.her(1).brain()];
    view.rounds_played = game.rounds_played();
    view.stats = game.stats();
    view.last_round = game.last_round();
    view.curve = curve;
    view.rounds_per_point = rounds_per_point;
    view.boxes = brains.map(|brain| brain.boxes() as u32);
    view.beads = brains.map(Brain::beads);
    view
}

fn summary_of(
    room: RoomId,
    version: u64,
    spectators: u32,
    view: Option<&MatchView>,
) -> RoomSummary {
    RoomSummary {
        room,
        game: GameKind::HerMatch,
        seats: Vec::new(),
        spectators,
        version,
        moves: view.map_or(0, |view| view.rounds_played.min(u64::from(u32::MAX)) as u32),
        outcome: view.and_then(MatchView::outcome),
    }
}

struct MatchRoom {
    id: RoomId,
    /// Goes up with every view sent.
    version: u64,
    view: MatchView,
    audience: Audience,
    summary: watch::Sender<RoomSummary>,
}

impl MatchRoom {
    async fn run(
        mut self,
        mut inbox: mpsc::Receiver<RoomCommand>,
        mut views: watch::Receiver<MatchView>,
    ) {
        let mut playing = true;
        loop {
            tokio::select! {
                command = inbox.recv() => match command {
                    Some(command) => self.handle(command),
                    None => break,
                },
                changed = views.changed(), if playing => match changed {
                    Ok(()) => {
                        self.view = views.borrow_and_update().clone();
                        self.version += 1;
                        self.broadcast(None);
                    }
                    // The match's thread is done and its last view was sent.
                    Err(_) => playing = false,
                },
            }
        }
    }

    fn handle(&mut self, command: RoomCommand) {
        let refuse = |who: &crate::audience::Subscriber| {
            who.error(
                ErrorCode::NoSuchSeat,
                "an auto match has no seats: its HERs play each other; watch it instead",
            )
        };
        match command {
            RoomCommand::Watch { who } => {
                self.audience.insert(who.clone());
                self.broadcast(Some(who.id));
                who.send(ServerMsg::State(self.snapshot()));
            }
            RoomCommand::Leave { conn } => {
                if let Some(who) = self.audience.remove(conn) {
                    who.send(ServerMsg::Left { room: self.id });
                    self.broadcast(None);
                }
            }
            RoomCommand::Join { who, .. }
            | RoomCommand::Reclaim { who, .. }
            | RoomCommand::Move { who, .. } => refuse(&who),
            RoomCommand::AiMoved { .. } | RoomCommand::Recorded { .. } => {}
        }
    }

    fn snapshot(&self) -> RoomSnapshot {
        RoomSnapshot {
            room: self.id,
            version: self.version,
            seats: Vec::new(),
            spectators: self.audience.len() as u32,
            state: GameState::HerMatch(self.view.clone()),
            moves: Vec::new(),
            outcome: self.view.outcome(),
            record: None,
        }
    }

    /// Publishes the lobby summary and sends the view to everyone but `skip`.
    fn broadcast(&mut self, skip: Option<u64>) {
        let spectators = self.audience.len() as u32;
        self.summary.send_replace(summary_of(
            self.id,
            self.version,
            spectators,
            Some(&self.view),
        ));
        let snapshot = self.snapshot();
        for gone in self
            .audience
            .send_all(skip, || ServerMsg::State(snapshot.clone()))
        {
            self.audience.remove(gone);
        }
    }
}
