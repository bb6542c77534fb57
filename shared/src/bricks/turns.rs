//! Dropping Bricks as a two-seat game for rooms: seat 0 is the agent, who drops; seat 1 is
//! the answering side, who says Safe or Broken. A drop waits for its answer, so turns follow
//! the game rather than strict alternation.

use serde::{Deserialize, Serialize};

use super::{Answer, BricksError, Setup, State, Status};

/// The agent's seat.
pub const AGENT_SEAT: u8 = 0;
/// The answering side's seat.
pub const ANSWERER_SEAT: u8 = 1;

/// One move of either side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BricksMove {
    /// The agent drops a brick from this height.
    Drop(u64),
    /// The answering side tells how the brick fared.
    Answer(Answer),
}

/// Whose move it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    Agent,
    /// The answerer must judge the drop from this height.
    Answerer {
        height: u64,
    },
    Over(Status),
    /// The player in `seat` gave the game up: the other seat won.
    Resigned {
        seat: u8,
    },
}

/// The whole game: the start, the seed's state, a drop waiting for its answer, and the seat
/// that resigned, if one did. One read from a peer is checked like one played here
/// (`BricksGameWire`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BricksGameWire", into = "BricksGameWire")]
pub struct BricksGame {
    setup: Setup,
    state: State,
    pending_drop: Option<u64>,
    resigned: Option<u8>,
}

/// A game as it travels: the same fields, checked on the way in, since a peer may send any
/// numbers and the screens divide and index by them (a height of 0 would make the window's
/// tower panic).
/// `resigned` is absent (read as none) in games stored before resigning existed.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct BricksGameWire {
    setup: Setup,
    state: State,
    pending_drop: Option<u64>,
    #[serde(default)]
    resigned: Option<u8>,
}

impl From<BricksGame> for BricksGameWire {
    fn from(game: BricksGame) -> BricksGameWire {
        BricksGameWire {
            setup: game.setup,
            state: game.state,
            pending_drop: game.pending_drop,
            resigned: game.resigned,
        }
    }
}

impl TryFrom<BricksGameWire> for BricksGame {
    type Error = String;

    fn try_from(wire: BricksGameWire) -> Result<BricksGame, String> {
        let Setup {
            height,
            drops,
            bricks,
        } = wire.setup;
        let setup = Setup::new(height, drops, bricks).map_err(|error| error.to_string())?;
        let state = wire.state;
        let fits = state.min_safe() <= state.max_safe()
            && state.max_safe() <= height
            && state.drops_left() <= drops
            && state.bricks_left() <= bricks;
        if !fits {
            return Err(format!("the state {state} does not fit the setup"));
        }
        if let Some(drop) = wire.pending_drop
            && !state.drop_range().is_ok_and(|range| range.contains(&drop))
        {
            return Err(format!("a drop from {drop} cannot be waiting in {state}"));
        }
        if let Some(seat) = wire.resigned {
            if seat != AGENT_SEAT && seat != ANSWERER_SEAT {
                return Err(format!(
                    "a Dropping Bricks game has no seat {seat} to resign"
                ));
            }
            if state.status() != Status::Playing {
                return Err(format!("nobody resigns once {state}"));
            }
        }
        Ok(BricksGame {
            setup,
            state,
            pending_drop: wire.pending_drop,
            resigned: wire.resigned,
        })
    }
}

impl BricksGame {
    pub fn new(setup: Setup) -> BricksGame {
        BricksGame {
            setup,
            state: State::start(setup),
            pending_drop: None,
            resigned: None,
        }
    }

    pub fn setup(&self) -> Setup {
        self.setup
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn pending_drop(&self) -> Option<u64> {
        self.pending_drop
    }

    pub fn turn(&self) -> Turn {
        if let Some(seat) = self.resigned {
            return Turn::Resigned { seat };
        }
        match (self.state.status(), self.pending_drop) {
            (Status::Playing, None) => Turn::Agent,
            (Status::Playing, Some(height)) => Turn::Answerer { height },
            (over, _) => Turn::Over(over),
        }
    }

    /// The seat to move, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<u8> {
        match self.turn() {
            Turn::Agent => Some(AGENT_SEAT),
            Turn::Answerer { .. } => Some(ANSWERER_SEAT),
            Turn::Over(_) | Turn::Resigned { .. } => None,
        }
    }

    /// The seat that won, once the game is over: the agent when the strength is known, the
    /// answering side when the drops or bricks ran out first, the other seat's player when one
    /// resigned.
    pub fn winner(&self) -> Option<u8> {
        match self.turn() {
            Turn::Over(Status::Won { .. }) => Some(AGENT_SEAT),
            Turn::Over(_) => Some(ANSWERER_SEAT),
            Turn::Resigned { seat } => Some(1 - seat),
            Turn::Agent | Turn::Answerer { .. } => None,
        }
    }

    /// The game after the player in `seat` resigns, on their turn or not (a drop waiting for
    /// its answer stays unanswered); refused once the game is over.
    pub fn resign(&self, seat: u8) -> Result<BricksGame, BricksMoveError> {
        if seat != AGENT_SEAT && seat != ANSWERER_SEAT {
            return Err(BricksMoveError::NoSuchSeat(seat));
        }
        match self.turn() {
            Turn::Over(status) => Err(BricksMoveError::Rules(BricksError::GameOver(status))),
            Turn::Resigned { .. } => Err(BricksMoveError::Resigned),
            Turn::Agent | Turn::Answerer { .. } => Ok(BricksGame {
                resigned: Some(seat),
                ..*self
            }),
        }
    }

    /// The game after `mv`, or why it is refused; a move out of turn is refused too.
    pub fn play(&self, mv: BricksMove) -> Result<BricksGame, BricksMoveError> {
        match (self.turn(), mv) {
            (Turn::Over(status), _) => Err(BricksMoveError::Rules(BricksError::GameOver(status))),
            (Turn::Resigned { .. }, _) => Err(BricksMoveError::Resigned),
            (Turn::Agent, BricksMove::Drop(height)) => {
                let range = self.state.drop_range()?;
                if !range.contains(&height) {
                    return Err(BricksError::DropOutOfRange {
                        height,
                        low: *range.start(),
                        high: *range.end(),
                    }
                    .into());
                }
                Ok(BricksGame {
                    pending_drop: Some(height),
                    ..*self
                })
            }
            (Turn::Answerer { height }, BricksMove::Answer(answer)) => Ok(BricksGame {
                state: self.state.after(height, answer)?,
                pending_drop: None,
                ..*self
            }),
            (Turn::Agent, BricksMove::Answer(_)) => Err(BricksMoveError::NoDropToAnswer),
            (Turn::Answerer { height }, BricksMove::Drop(_)) => {
                Err(BricksMoveError::AwaitingAnswer(height))
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BricksMoveError {
    #[error(transparent)]
    Rules(#[from] BricksError),
    #[error("there is no drop to answer yet")]
    NoDropToAnswer,
    #[error("the drop from height {0} still waits for its answer")]
    AwaitingAnswer(u64),
    #[error("the game is over: a player resigned")]
    Resigned,
    #[error("a Dropping Bricks game has no seat {0}")]
    NoSuchSeat(u8),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(height: u64, drops: u64, bricks: u32) -> BricksGame {
        BricksGame::new(Setup::new(height, drops, bricks).unwrap())
    }

    #[test]
    fn drops_wait_for_answers_and_the_answers_move_the_state() {
        let start = game(10, 4, 2);
        assert_eq!(start.seat_to_move(), Some(AGENT_SEAT));
        assert_eq!(
            start.play(BricksMove::Answer(Answer::Safe)),
            Err(BricksMoveError::NoDropToAnswer)
        );
        let dropped = start.play(BricksMove::Drop(4)).unwrap();
        assert_eq!(dropped.turn(), Turn::Answerer { height: 4 });
        assert_eq!(
            dropped.play(BricksMove::Drop(5)),
            Err(BricksMoveError::AwaitingAnswer(4))
        );
        let safe = dropped.play(BricksMove::Answer(Answer::Safe)).unwrap();
        assert_eq!((safe.state().min_safe(), safe.state().drops_left()), (4, 3));
        assert!(matches!(
            safe.play(BricksMove::Drop(4)),
            Err(BricksMoveError::Rules(BricksError::DropOutOfRange { .. }))
        ));
    }

    #[test]
    fn a_game_read_from_a_peer_is_checked_like_one_played() {
        let waiting = game(10, 4, 2).play(BricksMove::Drop(4)).unwrap();
        let json = serde_json::to_string(&waiting).unwrap();
        assert_eq!(
            json,
            r#"{"setup":{"height":10,"drops":4,"bricks":2},"state":{"min_safe":0,"max_safe":10,"drops_left":4,"bricks_left":2},"pending_drop":4,"resigned":null}"#
        );
        assert_eq!(serde_json::from_str::<BricksGame>(&json).unwrap(), waiting);
        // A game stored before resigning existed has no `resigned`.
        let stored_before = json.replace(r#","resigned":null"#, "");
        assert_eq!(
            serde_json::from_str::<BricksGame>(&stored_before).unwrap(),
            waiting
        );
        for (bad, why) in [
            (json.replace(r#""height":10"#, r#""height":0"#), "height"),
            (
                json.replace(r#""max_safe":10"#, r#""max_safe":11"#),
                "does not fit",
            ),
            (
                json.replace(r#""min_safe":0"#, r#""min_safe":12"#),
                "does not fit",
            ),
            (
                json.replace(r#""drops_left":4"#, r#""drops_left":5"#),
                "does not fit",
            ),
            (
                json.replace(r#""bricks_left":2"#, r#""bricks_left":3"#),
                "does not fit",
            ),
            (
                json.replace(r#""pending_drop":4"#, r#""pending_drop":0"#),
                "cannot be waiting",
            ),
            (
                json.replace(r#""resigned":null"#, r#""resigned":2"#),
                "no seat 2",
            ),
        ] {
            let error = serde_json::from_str::<BricksGame>(&bad)
                .unwrap_err()
                .to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }

    #[test]
    fn a_golden_game_ends_with_the_strength_known() {
        // H = 3, one brick: drop 1 safe, 2 safe, 3 broken: the strength is 2.
        let mut g = game(3, 3, 1);
        for mv in [
            BricksMove::Drop(1),
            BricksMove::Answer(Answer::Safe),
            BricksMove::Drop(2),
            BricksMove::Answer(Answer::Safe),
            BricksMove::Drop(3),
            BricksMove::Answer(Answer::Broken),
        ] {
            g = g.play(mv).unwrap();
        }
        assert_eq!(g.turn(), Turn::Over(Status::Won { strength: 2 }));
        assert_eq!(g.seat_to_move(), None);
        assert!(matches!(
            g.play(BricksMove::Drop(1)),
            Err(BricksMoveError::Rules(BricksError::GameOver(_)))
        ));
    }

    #[test]
    fn either_seat_resigns_on_its_turn_or_not_and_the_other_wins() {
        let dropped = game(10, 4, 2).play(BricksMove::Drop(4)).unwrap();
        for (seat, winner) in [(AGENT_SEAT, ANSWERER_SEAT), (ANSWERER_SEAT, AGENT_SEAT)] {
            let resigned = dropped.resign(seat).unwrap();
            assert_eq!(resigned.turn(), Turn::Resigned { seat });
            assert_eq!(
                (resigned.seat_to_move(), resigned.winner()),
                (None, Some(winner))
            );
            assert_eq!(
                resigned.play(BricksMove::Answer(Answer::Safe)),
                Err(BricksMoveError::Resigned)
            );
            assert_eq!(resigned.resign(winner), Err(BricksMoveError::Resigned));
            let json = serde_json::to_string(&resigned).unwrap();
            assert_eq!(serde_json::from_str::<BricksGame>(&json).unwrap(), resigned);
        }
        assert_eq!(dropped.resign(2), Err(BricksMoveError::NoSuchSeat(2)));
        // A game already decided takes no resignation, and one read so is refused.
        let mut over = game(1, 1, 1);
        for mv in [BricksMove::Drop(1), BricksMove::Answer(Answer::Broken)] {
            over = over.play(mv).unwrap();
        }
        assert_eq!(over.winner(), Some(AGENT_SEAT));
        assert!(matches!(
            over.resign(ANSWERER_SEAT),
            Err(BricksMoveError::Rules(BricksError::GameOver(_)))
        ));
        let json = serde_json::to_string(&over)
            .unwrap()
            .replace(r#""resigned":null"#, r#""resigned":1"#);
        let error = serde_json::from_str::<BricksGame>(&json).unwrap_err();
        assert!(error.to_string().contains("nobody resigns"), "{error}");
    }
}
