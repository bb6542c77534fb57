//! A room's AI seats: a search started on the AI pool when an AI is to move (or the next move
//! of its plan played after its pause), and its answer played through the same checks as a
//! person's move.

use std::collections::VecDeque;

use parlor_shared::game::GameMove;
use parlor_shared::protocol::SeatSpec;
use tracing::warn;

use super::{Room, RoomCommand};
use crate::ai;

impl Room {
    /// When an AI seat is to move, plays the next move of its plan after its pause, or starts
    /// a search on a blocking thread.
    pub(super) fn maybe_start_ai(&mut self) {
        let Some(seat) = self.state.seat_to_move() else {
            return;
        };
        let SeatSpec::Ai { move_ms, kind } = self.seats[seat as usize].spec else {
            return;
        };
        if self.ai_thinking == Some(self.version)
            || self.her.as_ref().is_some_and(|her| !her.moves_by_itself())
        {
            return;
        }
        let Some(inbox) = self.inbox.upgrade() else {
            return;
        };
        self.ai_thinking = Some(self.version);
        let (state, version) = (self.state.clone(), self.version);
        let (budget, seed) = (ai::clamp_budget(move_ms), self.seed ^ version);
        let (paced, lane) = (ai::uses_whole_budget(self.game), ai::lane(self.game));
        let planned = std::mem::take(&mut self.ai_plan);
        let planner = planned.is_empty().then(|| {
            self.seats[seat as usize]
                .planner
                .take()
                .unwrap_or_else(|| ai::Planner::new(kind))
        });
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let (plan, planner) = match planner {
                Some(mut planner) => {
                    let search = ai::pool::run(lane, move || {
                        let plan = planner.plan(&state, seed, budget);
                        (plan, planner)
                    });
                    match search.await {
                        Some((plan, planner)) => (plan, Some((seat, planner))),
                        None => (Vec::new(), None),
                    }
                }
                None => (planned.into(), None),
            };
            if paced {
                tokio::time::sleep_until(started + budget).await;
            }
            // The room may be gone; then nobody needs the answer.
            let _ = inbox
                .send(RoomCommand::AiMoved {
                    version,
                    plan,
                    planner,
                })
                .await;
        });
    }

    pub(super) async fn ai_moved(
        &mut self,
        version: u64,
        plan: Vec<GameMove>,
        planner: Option<(u8, ai::Planner)>,
    ) {
        if let Some((seat, planner)) = planner
            && self.state.outcome().is_none()
        {
            self.seats[seat as usize].planner.get_or_insert(planner);
        }
        if self.ai_thinking == Some(version) {
            self.ai_thinking = None;
        }
        let Some(seat) = self.state.seat_to_move() else {
            return;
        };
        let mut plan = VecDeque::from(plan);
        let Some(mv) = plan.pop_front() else {
            return warn!(room = self.id, "AI found no move in an unfinished game");
        };
        // Kept before the move, which starts the AI again for the next one.
        self.ai_plan = plan;
        if let Err((code, message)) = self.try_move(seat, version, mv).await {
            self.ai_plan.clear();
            warn!(room = self.id, ?code, message, "AI move refused");
        }
    }
}
