//! A room of HER's that the window opens by itself (the hidden `--open-room` option), for the
//! window tests and for showing the screens without clicking through the lobby: it creates the
//! room once connected (the app then joins or watches it as usual), plays the person's given
//! moves, and says when the screen is worth a screenshot.
//!
//! The text is words separated by spaces: `hexapawn` or `her-match`, then in any order a board
//! size (`4x4`), `slow` or `fast`, `mirrors`, a number of rounds and a pace per ply (`300ms`;
//! a match) and the person's moves (`b1-b2`, a game against HER), e.g. `hexapawn slow b1-b2`
//! or `her-match 3x3 300`; `replay` opens the stored game once it is over.

use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::{
    Dims, HexMove, HexSetup, MatchSetup, Move, PERSON_SEAT, Pace, PlayMode,
};
use parlor_shared::protocol::{ClientMsg, RecordId, RoomSnapshot, SeatSpec};

use super::room::acting_seat;
use crate::gui::room_view::HeldSeat;

/// HER's pause in fast mode when opened this way, in milliseconds.
const PAUSE_MS: u32 = 200;

#[derive(Debug, PartialEq)]
pub struct RoomScript {
    setup: GameSetup,
    seats: Vec<SeatSpec>,
    moves: Vec<Move>,
    created: bool,
    /// How many of `moves` have been sent.
    sent: usize,
    /// Open the stored game once it is over (`replay`), and whether it was asked for.
    replay: bool,
    replay_asked: bool,
}

impl RoomScript {
    pub fn parse(text: &str) -> Result<RoomScript, String> {
        let mut words = text.split_whitespace();
        let kind = words.next().unwrap_or_default();
        let (mut dims, mut mirrors, mut mode) = (Dims::HEXAPAWN, false, PlayMode::Slow);
        let (mut rounds, mut pace, mut moves) = (100, Pace::FullSpeed, Vec::new());
        let mut replay = false;
        for word in words {
            match word {
                "slow" => mode = PlayMode::Slow,
                "fast" => mode = PlayMode::Fast,
                "mirrors" => mirrors = true,
                "replay" => replay = true,
                _ if word.contains('x') && word.parse::<Dims>().is_ok() => {
                    dims = word.parse().map_err(|e| format!("{e}"))?;
                }
                _ if word.parse::<u64>().is_ok() => rounds = word.parse().unwrap_or(rounds),
                _ if word
                    .strip_suffix("ms")
                    .is_some_and(|ms| ms.parse::<u32>().is_ok()) =>
                {
                    let ms = word.trim_end_matches("ms").parse().unwrap_or_default();
                    pace = Pace::PerPly { ms };
                }
                _ => moves.push(word.parse::<Move>().map_err(|e| format!("{e}"))?),
            }
        }
        let (setup, seats) = match kind {
            "hexapawn" => {
                let setup = HexSetup {
                    dims,
                    mirrors,
                    mode,
                    brain: "HER".into(),
                };
                let seats = vec![SeatSpec::Human, SeatSpec::ai(PAUSE_MS)];
                (GameSetup::Hexapawn(setup), seats)
            }
            "her-match" => {
                let setup = MatchSetup {
                    dims,
                    mirrors,
                    rounds,
                    pace,
                    brains: ["HER A".into(), "HER B".into()],
                };
                (GameSetup::HerMatch(setup), Vec::new())
            }
            _ => return Err(format!("{kind:?} is not hexapawn or her-match")),
        };
        Ok(RoomScript {
            setup,
            seats,
            moves,
            created: false,
            sent: 0,
            replay,
            replay_asked: false,
        })
    }

    /// The room to create, the first time the app is connected.
    pub fn room_to_create(&mut self) -> Option<(GameSetup, Vec<SeatSpec>)> {
        (!std::mem::replace(&mut self.created, true))
            .then(|| (self.setup.clone(), self.seats.clone()))
    }

    /// The next of the person's moves, once the room waits for it.
    pub fn next_move(&mut self, snapshot: &RoomSnapshot, held: &[HeldSeat]) -> Option<ClientMsg> {
        let GameState::Hexapawn(game) = &snapshot.state else {
            return None;
        };
        let mv = *self.moves.get(self.sent)?;
        let person = held.iter().find(|h| h.seat == PERSON_SEAT)?;
        if game.plies.len() != self.sent || acting_seat(game) != Some(PERSON_SEAT) {
            return None;
        }
        self.sent += 1;
        Some(ClientMsg::Move {
            room: snapshot.room,
            token: person.token.clone(),
            version: snapshot.version,
            mv: GameMove::Hexapawn(HexMove::Play(mv)),
        })
    }

    /// The stored game to replay, once, when the room's game is over and stored.
    pub fn record_to_replay(&mut self, snapshot: &RoomSnapshot) -> Option<RecordId> {
        let record = snapshot
            .record
            .filter(|_| self.replay && !self.replay_asked)?;
        self.replay_asked = true;
        Some(record)
    }

    /// Whether the replay was asked for: then the replay is what the screen should show.
    pub fn ends_in_replay(&self) -> bool {
        self.replay
    }

    /// Whether the room shows what was asked: a game after all the moves, waiting for the
    /// person (or, in slow mode, showing HER's box); a match when it is over.
    pub fn done(&self, snapshot: Option<&RoomSnapshot>) -> bool {
        match snapshot.map(|s| &s.state) {
            Some(GameState::Hexapawn(game)) => {
                !self.replay
                    && game.plies.len() >= self.moves.len()
                    && (acting_seat(game) == Some(PERSON_SEAT) || game.winner().is_some())
            }
            Some(GameState::HerMatch(view)) => view.finished,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_set_the_room_and_the_moves() {
        let mut script = RoomScript::parse("hexapawn 4x4 fast b1-b2 mirrors").unwrap();
        let Some((GameSetup::Hexapawn(setup), seats)) = script.room_to_create() else {
            panic!("a Hexapawn room");
        };
        assert_eq!(setup.dims, Dims::OCTAPAWN);
        assert_eq!((setup.mode, setup.mirrors), (PlayMode::Fast, true));
        assert_eq!(seats.len(), 2);
        assert_eq!(script.moves, vec!["b1-b2".parse().unwrap()]);
        assert_eq!(script.room_to_create(), None);
        let mut script = RoomScript::parse("her-match 300 20ms").unwrap();
        assert!(matches!(
            script.room_to_create(),
            Some((GameSetup::HerMatch(MatchSetup { rounds: 300, pace: Pace::PerPly { ms: 20 }, .. }), seats))
                if seats.is_empty()
        ));
        assert!(!script.ends_in_replay());
        assert!(RoomScript::parse("hexapawn replay").unwrap().ends_in_replay());
        assert!(RoomScript::parse("chess").is_err());
        assert!(RoomScript::parse("hexapawn z9").is_err());
    }
}
