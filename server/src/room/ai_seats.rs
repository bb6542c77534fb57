//! A room's AI seats: a search started on the AI pool when an AI is to move (or the next move
//! of its plan played after its pause), and its answer played through the same checks as a
//! person's move.

use std::collections::VecDeque;

use parlor_shared::game::GameMove;
use parlor_shared::protocol::{ErrorCode, SeatSpec};
use tracing::{error, warn};

use super::{Room, RoomCommand};
use crate::ai;

impl Room {
    /// When an AI seat is to move, plays the next move of its plan after its pause, or starts
    /// a search on the AI pool.
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
        let (budget, seed) = (parlor_engines::clamp_budget(move_ms), self.seed ^ version);
        let (paced, lane) = (ai::uses_whole_budget(self.game), ai::lane(self.game));
        // The pool shares its threads fairly between addresses and their players: the room's
        // work is its creator's.
        let owner = ai::pool::Owner {
            address: self.creator_address,
            player: self.creator.as_ref().map(|creator| creator.id),
        };
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
                    let search = ai::pool::run(lane, owner, move || {
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
        if self.ai_thinking != Some(version) {
            // An answer for a state the room has left: nobody needs it.
            return;
        }
        self.ai_thinking = None;
        let Some(seat) = self.state.seat_to_move() else {
            return;
        };
        let mut plan = VecDeque::from(plan);
        let Some(mv) = plan.pop_front() else {
            return self.ai_failed(seat, "found no move");
        };
        // Kept before the move, which starts the AI again for the next one.
        self.ai_plan = plan;
        match self.try_move(seat, version, mv).await {
            Ok(()) => {}
            // The store refused the move: it stays first in the plan, played again later.
            Err((ErrorCode::Internal, _)) => {
                self.ai_plan.push_front(mv);
                self.store_retry_at =
                    Some(tokio::time::Instant::now() + self.lifetimes.store_retry);
            }
            Err((code, message)) => {
                self.ai_plan.clear();
                warn!(room = self.id, ?code, message, "AI move refused");
                self.ai_failed(seat, "made a move the rules refuse");
            }
        }
    }

    /// An AI seat that cannot move (a bug: its search failed, or it broke the rules) would hold
    /// the game for ever, so the room closes as a failed room does, telling whoever follows it.
    /// Its rows stay in the store: a restart tries again.
    fn ai_failed(&mut self, seat: u8, what: &str) {
        error!(
            room = self.id,
            seat, what, "an AI seat failed; the room closes"
        );
        let message = format!(
            "room {} closed: its AI in seat {seat} {what} (a bug on the server); it is tried \
             again when the server restarts",
            self.id
        );
        self.closing_now = Some(super::ClosingWords {
            message,
            asker: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::GameSetup;
    use parlor_shared::klotski::{KlotskiBoard, parse_puzzle};
    use parlor_shared::protocol::{AiKind, ServerMsg};

    use super::*;
    use crate::audience::TestFollower;
    use crate::hall::Hall;
    use crate::store::Store;

    /// A Klotski room one slide from solved, its solver seat taking `move_ms` a move.
    async fn one_slide_from_solved(hall: &Hall, move_ms: u32) -> u64 {
        let board = KlotskiBoard::of(&parse_puzzle("2 3\n1 2 3\n4 0 5\n0\n").unwrap());
        let solver = SeatSpec::Ai {
            move_ms,
            kind: AiKind::Standard,
        };
        hall.create_room(
            GameSetup::Klotski(board),
            vec![solver],
            &crate::audience::test_player(1),
        )
        .await
        .unwrap()
    }

    /// A Klotski room whose solver seat answers only after its 3 s pace, watched by a follower;
    /// its AI's answer for version 0 is then `answer`.
    async fn ai_answers(answer: Vec<GameMove>) -> (Hall, Store, u64, TestFollower) {
        let store = Store::in_memory().unwrap();
        let hall = Hall::new(store.clone(), crate::Limits::default().room_lifetimes());
        let id = one_slide_from_solved(&hall, 3_000).await;
        let follower = TestFollower::new(1);
        let inbox = hall.room(id).unwrap().inbox;
        inbox.send(follower.watch()).await.unwrap();
        // An answer for a version the room has left is passed over.
        let stale = RoomCommand::AiMoved {
            version: 5,
            plan: Vec::new(),
            planner: None,
        };
        inbox.send(stale).await.unwrap();
        let (version, plan, planner) = (0, answer, None);
        let answer = RoomCommand::AiMoved {
            version,
            plan,
            planner,
        };
        inbox.send(answer).await.unwrap();
        (hall, store, id, follower)
    }

    async fn assert_closed_for(follower: &TestFollower, hall: &Hall, id: u64, what: &str) {
        let told = follower.next_reply().await;
        assert!(
            matches!(&told, ServerMsg::RoomClosed { room, message } if *room == id && message.contains(what)),
            "{told:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(hall.room(id).is_none(), "the room is still open");
    }

    #[tokio::test]
    async fn an_ai_seat_that_finds_no_move_closes_the_room_and_a_restart_tries_again() {
        let (hall, store, id, follower) = ai_answers(Vec::new()).await;
        assert_closed_for(&follower, &hall, id, "found no move").await;
        assert_eq!(store.load_rooms().unwrap().rooms.len(), 1);
    }

    #[tokio::test]
    async fn an_ai_move_the_store_refuses_is_played_again_once_the_store_is_back() {
        let store = Store::in_memory().unwrap();
        let lifetimes = crate::limits::RoomLifetimes {
            store_retry: std::time::Duration::from_millis(20),
            ..crate::Limits::default().room_lifetimes()
        };
        let hall = Hall::new(store.clone(), lifetimes);
        store.rename_table("room_moves", "room_moves_away");
        let id = one_slide_from_solved(&hall, 50).await;
        let mut summary = hall.room(id).unwrap().summary;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(
            summary.borrow().version,
            0,
            "no move shown that is not stored"
        );
        assert!(hall.room(id).is_some(), "the room waits for its store");

        store.rename_table("room_moves_away", "room_moves");
        let solved = summary.wait_for(|s| s.outcome.is_some());
        tokio::time::timeout(std::time::Duration::from_secs(10), solved)
            .await
            .expect("the AI's move is played once the store is back")
            .unwrap();
        crate::eventually("the solved game was never stored", || {
            !store.list(None).unwrap().is_empty()
        })
        .await;
    }

    #[tokio::test]
    async fn an_ai_seat_that_breaks_the_rules_closes_the_room() {
        let wrong_game = GameMove::Cave("a1".parse().unwrap());
        let (hall, _store, id, follower) = ai_answers(vec![wrong_game]).await;
        assert_closed_for(&follower, &hall, id, "made a move the rules refuse").await;
    }
}
