//! A room the window opens by itself (the hidden `--open-room` option), for the window tests
//! and for showing the screens without clicking through the lobby: it creates the room once
//! connected (the app then joins or watches it as usual), plays the given moves by clicking
//! where a person would, and says when the screen is worth a screenshot.
//!
//! The text is words separated by spaces: the game first, then its own words (Hexapawn's in
//! `hexapawn::HexScript`, Numeric Klotski's in `klotski::KlotskiScript`, Magnetic Cave's in
//! `cave::scripted::CaveScript`, EWN's in `ewn::EwnScript`), and anywhere `replay`, which opens the stored game once
//! it is over, `reconnecting`, which waits until the link to the server is lost and the
//! client is trying again (the room must stay on the screen meanwhile), and `resume`, which
//! creates no room but takes back the first seat the player holds, as the lobby's Resume
//! button does (a window opened again after the last one died), and `rematch`, which presses
//! Play again once the finished room names the room another player made to play it again, and
//! is done in that room once every seat is taken, and `resign`, which presses Resign twice once
//! the game's own words are played, and is done once the game is over. A text that does not
//! parse is an error before the window opens.

use std::fmt::Debug;

use macroquad::math::Vec2;
use parlor_shared::game::{GameKind, GameSetup};
use parlor_shared::protocol::{self, RecordId, RoomId, RoomSnapshot, SeatSpec, SeatState};

use super::board_play::HeldSeat;
use super::bricks::scripted::BricksScript;
use super::cave::scripted::CaveScript;
use super::ewn::EwnScript;
use super::hexapawn::HexScript;
use super::klotski::KlotskiScript;
use super::room_view::{play_again_rect, resign_rect};
use super::scripted_game::ScriptedGame;

/// How long the lobby's first answer is given for the lists that follow it.
const LOBBY_SETTLE_SECONDS: f64 = 1.0;

/// The game a lobby script's form word names.
fn lobby_form(word: &str) -> Result<GameKind, String> {
    Ok(match word {
        "cave" => GameKind::Cave,
        "bricks" => GameKind::Bricks,
        "ewn" => GameKind::Ewn,
        "klotski" => GameKind::Klotski,
        "hexapawn" => GameKind::Hexapawn,
        "her-match" => GameKind::HerMatch,
        _ => return Err(format!("{word:?} is not a game of the lobby's form")),
    })
}

#[derive(Debug)]
pub struct RoomScript {
    /// `None` for the lobby.
    game: Option<Box<dyn ScriptedGame>>,
    /// With `lobby`: the game whose creation form to show.
    lobby_form: Option<GameKind>,
    created: bool,
    /// Open the stored game once it is over (`replay`), and whether it was asked for.
    replay: bool,
    replay_asked: bool,
    /// Done only while the client is reconnecting (`reconnecting`).
    reconnecting: bool,
    /// Take back a seat the player holds instead of creating a room (`resume`); false once
    /// asked.
    resume: bool,
    /// Press Play again for another player's rematch (`rematch`), and the room it was
    /// pressed in.
    rematch: bool,
    rematch_from: Option<RoomId>,
    /// Press Resign, and confirm it (`resign`): the clicks on it so far.
    resign: bool,
    resign_clicks: u8,
    /// The room and version seen done first, and when.
    done_since: Option<((RoomId, u64), f64)>,
    /// Why the server refused the room to create, if it did: the script cannot go on.
    refused: Option<String>,
}

impl RoomScript {
    pub fn parse(text: &str) -> Result<RoomScript, String> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let mut take = |flag: &str| {
            let count = words.len();
            words.retain(|&word| word != flag);
            words.len() < count
        };
        let (replay, reconnecting, resume) = (take("replay"), take("reconnecting"), take("resume"));
        let (rematch, resign) = (take("rematch"), take("resign"));
        let games = "bricks, cave, ewn, hexapawn, her-match or klotski";
        if let ["lobby", form @ ..] = &words[..] {
            let form = match form {
                [] => None,
                [name] => Some(lobby_form(name)?),
                _ => return Err("lobby takes at most the game of its form".into()),
            };
            return Ok(RoomScript {
                game: None,
                lobby_form: form,
                created: true,
                replay: false,
                replay_asked: false,
                reconnecting: false,
                resume: false,
                rematch: false,
                rematch_from: None,
                resign: false,
                resign_clicks: 0,
                done_since: None,
                refused: None,
            });
        }
        let Some((&kind, words)) = words.split_first() else {
            return Err(format!("a game first: {games}"));
        };
        let game: Box<dyn ScriptedGame> = match kind {
            "hexapawn" | "her-match" => Box::new(HexScript::parse(kind, words, replay)?),
            "klotski" => Box::new(KlotskiScript::parse(words)?),
            "cave" => Box::new(CaveScript::parse(words)?),
            "ewn" => Box::new(EwnScript::parse(words)?),
            "bricks" => Box::new(BricksScript::parse(words)?),
            _ => return Err(format!("{kind:?} is not {games}")),
        };
        Ok(RoomScript {
            game: Some(game),
            lobby_form: None,
            created: false,
            replay,
            replay_asked: false,
            reconnecting,
            resume,
            rematch,
            rematch_from: None,
            resign,
            resign_clicks: 0,
            done_since: None,
            refused: None,
        })
    }

    /// The server refused a room, saying `why`: the script's own, if it asked for one.
    pub fn room_refused(&mut self, why: &str) {
        if self.created && self.game.is_some() && !self.resume {
            self.refused = Some(why.to_string());
        }
    }

    /// Why the script cannot go on, if it cannot.
    pub fn failure(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// The room to create, the first time the app is connected (none with `resume`).
    pub fn room_to_create(&mut self) -> Option<(GameSetup, Vec<SeatSpec>)> {
        let first = !std::mem::replace(&mut self.created, true);
        let game = self.game.as_ref().filter(|_| first && !self.resume)?;
        Some(game.room())
    }

    /// With `resume`, the first of the player's seats, once.
    pub fn seat_to_resume(&mut self, seats: &[protocol::HeldSeat]) -> Option<(RoomId, u8)> {
        let first = seats.first().filter(|_| self.resume)?;
        self.resume = false;
        Some((first.room, first.seat))
    }

    /// Where to click next on a `screen_w` x `screen_h` window in the room of `snapshot`.
    pub fn click(
        &mut self,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
        screen_w: f32,
        screen_h: f32,
    ) -> Option<Vec2> {
        let named = snapshot
            .again
            .as_ref()
            .is_some_and(|again| again.made.is_some());
        if self.rematch && self.rematch_from.is_none() && named && !held.is_empty() {
            self.rematch_from = Some(snapshot.room);
            return Some(play_again_rect().center());
        }
        let game = self.game.as_mut()?;
        let click = game.click(snapshot, held, screen_w, screen_h);
        let played = click.is_none() && game.done(snapshot) && snapshot.outcome.is_none();
        if self.resign && played && self.resign_clicks < 2 && !held.is_empty() {
            self.resign_clicks += 1;
            return Some(resign_rect().center());
        }
        click
    }

    /// The stored game to replay, once, when the room's game is over and stored.
    pub fn record_to_replay(&mut self, snapshot: &RoomSnapshot) -> Option<RecordId> {
        let record = snapshot
            .record
            .filter(|_| self.replay && !self.replay_asked)?;
        self.replay_asked = true;
        Some(record)
    }

    /// Whether the room is only done while the client is reconnecting.
    pub fn waits_for_reconnecting(&self) -> bool {
        self.reconnecting
    }

    /// Whether the replay was asked for: then the replay is what the screen should show.
    pub fn ends_in_replay(&self) -> bool {
        self.replay
    }

    /// Whether the room shows what was asked at `now` (in seconds): the game says its state is
    /// there, and that state has been on the screen for the game's settling time. Never with
    /// `replay`, whose screen is the replay.
    pub fn done(&mut self, snapshot: Option<&RoomSnapshot>, now: f64) -> bool {
        let Some(game) = &self.game else {
            return false;
        };
        let done = match (self.rematch, self.resign) {
            (true, _) => snapshot.filter(|s| self.in_rematch(s)),
            (false, true) => snapshot.filter(|s| s.outcome.is_some()),
            (false, false) => snapshot.filter(|s| !self.replay && game.done(s)),
        };
        let seen = done.map(|s| (s.room, s.version));
        if self.done_since.map(|(seen, _)| seen) != seen {
            self.done_since = seen.map(|seen| (seen, now));
        }
        self.done_since
            .is_some_and(|(_, since)| now - since >= game.settle_seconds())
    }

    /// With `rematch`: whether `snapshot` is the room Play again led to, every seat taken.
    fn in_rematch(&self, snapshot: &RoomSnapshot) -> bool {
        let taken = |seat: &SeatState| matches!(seat, SeatState::Taken { .. });
        self.rematch_from.is_some_and(|from| from != snapshot.room)
            && snapshot.seats.iter().all(taken)
    }

    /// With `lobby`: the game whose creation form to show.
    pub fn lobby_form(&self) -> Option<GameKind> {
        self.lobby_form
    }

    /// With `lobby`: whether the lobby shows what the server said at `now` (in seconds), given
    /// whether it has answered (`answered`): a moment after its first answer, so its lists of
    /// rooms and stored games are in too.
    pub fn lobby_done(&mut self, answered: bool, now: f64) -> bool {
        if self.game.is_some() || !answered {
            return false;
        }
        let since = *self.done_since.get_or_insert(((0, 0), now));
        now - since.1 >= LOBBY_SETTLE_SECONDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_of_the_scripted_room_ends_the_script_but_one_before_it_was_asked_does_not() {
        let mut script = RoomScript::parse("cave classic a1").unwrap();
        script.room_refused("an older room's refusal");
        assert_eq!(script.failure(), None, "nothing asked yet");
        assert!(script.room_to_create().is_some());
        script.room_refused("No new room: you have 4 rooms with AI seats open");
        assert_eq!(
            script.failure(),
            Some("No new room: you have 4 rooms with AI seats open")
        );
        let mut lobby = RoomScript::parse("lobby cave").unwrap();
        lobby.room_refused("somebody else's form");
        assert_eq!(lobby.failure(), None, "a lobby script makes no room");
    }

    #[test]
    fn the_first_word_picks_the_game_and_replay_may_stand_anywhere() {
        let mut script = RoomScript::parse("replay hexapawn 4x4").unwrap();
        assert!(script.ends_in_replay());
        assert!(matches!(
            script.room_to_create(),
            Some((GameSetup::Hexapawn(_), _))
        ));
        assert_eq!(script.room_to_create(), None, "created once");
        let script = RoomScript::parse("her-match 300").unwrap();
        assert!(!script.ends_in_replay());
        assert_eq!(
            RoomScript::parse("chess").unwrap_err(),
            "\"chess\" is not bricks, cave, ewn, hexapawn, her-match or klotski"
        );
        let mut cave = RoomScript::parse("cave classic a1").unwrap();
        assert!(matches!(
            cave.room_to_create(),
            Some((GameSetup::Cave, seats)) if seats.len() == 2
        ));
        assert!(
            RoomScript::parse("  ")
                .unwrap_err()
                .contains("a game first")
        );
        assert!(RoomScript::parse("replay").is_err());
        let mut resume = RoomScript::parse("cave resume classic").unwrap();
        assert_eq!(resume.room_to_create(), None, "resumes, creates nothing");
        let held = protocol::HeldSeat {
            room: 4,
            seat: 0,
            game: parlor_shared::game::GameKind::Cave,
            to_move: true,
            kept: false,
        };
        assert_eq!(resume.seat_to_resume(&[]), None);
        assert_eq!(
            resume.seat_to_resume(std::slice::from_ref(&held)),
            Some((4, 0))
        );
        assert_eq!(resume.seat_to_resume(&[held]), None, "once");
        let mut rematch = RoomScript::parse("cave rematch resume").unwrap();
        assert!(rematch.rematch && rematch.seat_to_resume(&[]).is_none());
        assert!(!RoomScript::parse("cave").unwrap().rematch);
        assert!(RoomScript::parse("cave classic a1 resign").unwrap().resign);
        assert!(!RoomScript::parse("cave classic a1").unwrap().resign);
        let script = RoomScript::parse("hexapawn reconnecting b1-b2").unwrap();
        assert!(script.waits_for_reconnecting() && !script.ends_in_replay());
        assert!(
            !RoomScript::parse("hexapawn")
                .unwrap()
                .waits_for_reconnecting()
        );
    }
}
