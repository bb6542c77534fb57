//! The lobby's choices kept from one run of the window to the next (`lobby_choices.rs`): read
//! as the window opens, written each time the person makes a room.

use std::path::PathBuf;

use super::App;
use crate::gui::lobby_choices::LobbyChoices;

impl App {
    /// The app with the lobby's choices kept in `path` from the last run, and keeping them
    /// there; what of the file did not read is said.
    pub fn with_kept_choices(mut self, path: PathBuf) -> App {
        let (kept, note) = LobbyChoices::read(&path);
        self.lobby.recall(&kept);
        if let Some(bricks) = &kept.bricks {
            self.bricks_setup.recall(bricks);
        }
        if let Some(note) = note {
            tracing::warn!("{note}");
            self.say(note, true);
        }
        self.choices_file = Some(path);
        self
    }

    /// Keeps the lobby's choices for the next run, as a room is made of them. A file that
    /// cannot be written is said once, and not tried again this run.
    pub(super) fn keep_choices(&mut self) {
        let Some(path) = &self.choices_file else {
            return;
        };
        let choices = LobbyChoices {
            bricks: Some(self.bricks_setup.choices()),
            ..self.lobby.choices()
        };
        if let Err(error) = choices.write(path) {
            self.choices_file = None;
            self.say(
                format!("Your lobby choices are not kept for next time: {error:#}"),
                true,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::app::Startup;
    use crate::identity::Identity;
    use parlor_shared::game::GameKind;

    fn app() -> App {
        App::new(Startup::Failed(String::new()), Identity::fresh(), None)
    }

    #[test]
    fn a_room_made_keeps_the_forms_for_the_next_window() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("lobby.json");
        let mut first = app().with_kept_choices(path.clone());
        first.lobby.choose_game(GameKind::HerMatch);
        first.keep_choices();
        let next = app().with_kept_choices(path.clone());
        assert_eq!(next.lobby.choices(), first.lobby.choices());
        assert_eq!(next.lobby.choices().game, Some(GameKind::HerMatch));
        assert!(next.notice.is_none(), "nothing to say of a good file");
    }

    #[test]
    fn a_file_that_cannot_be_written_is_said_once() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the folder should be: nothing can be written under it.
        std::fs::write(dir.path().join("config"), "").unwrap();
        let mut app = app().with_kept_choices(dir.path().join("config").join("lobby.json"));
        app.keep_choices();
        let said = app.notice.take().expect("said");
        assert!(said.text.contains("not kept"), "{}", said.text);
        app.keep_choices();
        assert!(app.notice.is_none(), "said once");
    }
}
