//! The lobby's forms for HER's rooms. "Hexapawn with HER": the board, mirrors, slow or fast
//! mode, the brain's name and HER's pause; its creator plays White. "HER against HER": the
//! board, mirrors, rounds, pace and the two brains; its creator watches. The server's brains
//! are listed under the brain's name: a click takes one (with its board), and a name the server
//! knows for another board is refused here.

use macroquad::math::Rect;
use parlor_shared::game::{GameKind, GameSetup};
use parlor_shared::hexapawn::{
    BrainRef, Dims, HexSetup, MatchSetup, Pace, PlayMode, check_brain_name,
};
use parlor_shared::protocol::{BrainSummary, SeatSpec};
use serde::{Deserialize, Serialize};

use crate::gui::describe::{count_of, count_s, seconds, wrap_by};
use crate::gui::key_focus;
use crate::gui::lobby_choices::recall_text;
use crate::gui::text_field::{FieldEvent, TextField};
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, FormArea, Input, LINE_HEIGHT, TEXT, button_enabled,
    button_width, fit_to_width, label, text_width, toggle,
};

const SIZES: [(u8, u8); 4] = [(3, 3), (3, 4), (4, 4), (5, 5)];
/// HER's pause before each move in fast mode. The course wants its answer within a quarter
/// second, so none is the default; a pause to let people follow is a choice.
const PAUSES_MS: [u32; 4] = [NO_PAUSE_MS, 200, 1000, 2000];
/// The least a seat's time may be: HER answers as soon as it has drawn its bead.
const NO_PAUSE_MS: u32 = 1;
const ROUNDS: [u64; 4] = [100, 1000, 10_000, 100_000];
/// What tells an auto match's two default brains apart.
const MATCH_BRAINS: [&str; 2] = [" A", " B"];
const PACES: [Pace; 4] = [
    Pace::FullSpeed,
    Pace::PerPly { ms: 100 },
    Pace::PerPly { ms: 300 },
    Pace::PerPly { ms: 1000 },
];
/// Where the choices start, right of their row's name.
const CHOICES_X: f32 = 100.0;
const ROW: f32 = BUTTON_HEIGHT + 6.0;
/// The most brains offered as buttons, and the width their rows take.
const MAX_KNOWN: usize = 8;
const KNOWN_WIDTH: f32 = 290.0;

pub struct HexLobbyForm {
    dims: Dims,
    mirrors: bool,
    mode: PlayMode,
    brain: TextField,
    pause_ms: u32,
    rounds: u64,
    pace: Pace,
    brains: [TextField; 2],
    /// The server's brains; `None` until asked for.
    known: Option<Vec<BrainSummary>>,
}

/// What the window keeps of the forms for its next run (`lobby_choices.rs`): both rooms' choices,
/// since they share the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexChoices {
    dims: Dims,
    mirrors: bool,
    mode: PlayMode,
    brain: String,
    pause_ms: u32,
    rounds: u64,
    pace: Pace,
    brains: [String; 2],
}

/// What the form asks of the lobby.
#[derive(Debug, PartialEq)]
pub enum FormAction {
    Create(GameSetup, Vec<SeatSpec>),
    /// Ask the server for its brains.
    ListBrains,
}

impl Default for HexLobbyForm {
    fn default() -> Self {
        HexLobbyForm {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            mode: PlayMode::Slow,
            brain: TextField::new(default_brain(Dims::HEXAPAWN, false, "")),
            pause_ms: NO_PAUSE_MS,
            rounds: 1000,
            pace: Pace::FullSpeed,
            brains: MATCH_BRAINS
                .map(|which| TextField::new(default_brain(Dims::HEXAPAWN, false, which))),
            known: None,
        }
    }
}

impl HexLobbyForm {
    pub fn choices(&self) -> HexChoices {
        HexChoices {
            dims: self.dims,
            mirrors: self.mirrors,
            mode: self.mode,
            brain: self.brain.text.clone(),
            pause_ms: self.pause_ms,
            rounds: self.rounds,
            pace: self.pace,
            brains: self.brains.each_ref().map(|field| field.text.clone()),
        }
    }

    /// Takes the kept `choices` that the form offers; the rest stays as it is. A brain's name
    /// is the server's to judge, as a typed one is, and so is its board.
    pub fn recall(&mut self, choices: &HexChoices) {
        // Any board `Dims` reads as: a known brain's board may be one the buttons do not offer.
        let board = (self.dims, self.mirrors);
        (self.dims, self.mirrors) = (choices.dims, choices.mirrors);
        self.follow_board(board);
        self.mode = choices.mode;
        let fields = std::iter::once(&mut self.brain).chain(&mut self.brains);
        let kept = std::iter::once(&choices.brain).chain(&choices.brains);
        for (field, kept) in fields.zip(kept) {
            recall_text(field, kept);
        }
        if PAUSES_MS.contains(&choices.pause_ms) {
            self.pause_ms = choices.pause_ms;
        }
        if ROUNDS.contains(&choices.rounds) {
            self.rounds = choices.rounds;
        }
        if PACES.contains(&choices.pace) {
            self.pace = choices.pace;
        }
    }

    /// The server's brains arrived.
    pub fn set_brains(&mut self, brains: Vec<BrainSummary>) {
        self.known = Some(brains);
    }

    /// Asks again next time the form shows (brains learn in every game).
    pub fn forget_brains(&mut self) {
        self.known = None;
    }

    /// After the board was `before` (size, mirrors): a brain still named by default for that
    /// board takes the default name for this one, since a brain learns one board only and the
    /// old name would be refused here.
    fn follow_board(&mut self, (dims, mirrors): (Dims, bool)) {
        if (dims, mirrors) == (self.dims, self.mirrors) {
            return;
        }
        let renamed = |field: &mut TextField, which| {
            if field.text.trim() == default_brain(dims, mirrors, which) {
                field.text = default_brain(self.dims, self.mirrors, which);
            }
        };
        renamed(&mut self.brain, "");
        for (field, which) in self.brains.iter_mut().zip(MATCH_BRAINS) {
            renamed(field, which);
        }
    }

    /// Why the brain `name` cannot play on this board: the server has it for another one, or
    /// it is a new brain whose name the server would refuse.
    fn misfit(&self, name: &str) -> Result<(), String> {
        // Before the server's list came, the server judges.
        let Some(known) = &self.known else {
            return Ok(());
        };
        match known.iter().find(|brain| brain.name == name) {
            Some(brain) if (brain.dims, brain.mirrors) != (self.dims, self.mirrors) => {
                Err(format!(
                    "{name} is a {} brain: choose that board or another name",
                    describe(brain)
                ))
            }
            Some(_) => Ok(()),
            // A brain the server does not have yet is made under this name.
            None => BrainRef::parse_new(name).map(|_| ()),
        }
    }

    /// The room the form describes for `kind` (Hexapawn or HerMatch), or why it cannot be.
    pub fn room(&self, kind: GameKind) -> Result<(GameSetup, Vec<SeatSpec>), String> {
        if kind == GameKind::HerMatch {
            let setup = MatchSetup {
                dims: self.dims,
                mirrors: self.mirrors,
                rounds: self.rounds,
                pace: self.pace,
                brains: self
                    .brains
                    .each_ref()
                    .map(|field| field.text.trim().to_string()),
            };
            setup.check()?;
            setup.brains.iter().try_for_each(|name| self.misfit(name))?;
            return Ok((GameSetup::HerMatch(setup), Vec::new()));
        }
        let brain = self.brain.text.trim().to_string();
        check_brain_name(&brain)?;
        self.misfit(&brain)?;
        let setup = HexSetup {
            dims: self.dims,
            mirrors: self.mirrors,
            mode: self.mode,
            brain,
        };
        // In slow mode the person sends HER's moves too, so a pause chosen for fast mode (and
        // kept while the mode was switched) would only be shown, never waited.
        let pause_ms = match self.mode {
            PlayMode::Slow => NO_PAUSE_MS,
            PlayMode::Fast => self.pause_ms,
        };
        let seats = vec![SeatSpec::Human, SeatSpec::ai(pause_ms)];
        Ok((GameSetup::Hexapawn(setup), seats))
    }

    /// Draws the form for `kind` in `area`; returns the room to create when Create is
    /// clicked, or the wish to know the server's brains.
    pub fn update(
        &mut self,
        input: &Input,
        kind: GameKind,
        area: &FormArea,
        connected: bool,
    ) -> Option<FormAction> {
        let (x, mut y, width) = (area.x, area.top, area.width);
        let ask = (self.known.is_none() && connected).then(|| {
            self.known = Some(Vec::new());
            FormAction::ListBrains
        });
        let sizes =
            SIZES.map(|(r, c)| (Dims::new(r, c).expect("a valid size"), format!("{r}x{c}")));
        let board = (self.dims, self.mirrors);
        // Enter in a brain field creates the room, as Create does.
        let mut submitted = false;
        y = choices(input, x, y, "Board", &sizes, &mut self.dims);
        let mirrors = [
            (false, "apart".to_string()),
            (true, "share a box".to_string()),
        ];
        y = choices(input, x, y, "Mirrors", &mirrors, &mut self.mirrors);
        let mirrored = match self.mirrors {
            false => "mirror images: a box each",
            true => "mirror images: one box for both",
        };
        let mirrored = fit_to_width(mirrored, width - CHOICES_X);
        label(&mirrored, x + CHOICES_X, y + 14.0, DIM_TEXT);
        y += 24.0;
        self.follow_board(board);
        if kind == GameKind::HerMatch {
            let rounds = ROUNDS.map(|n| (n, n.to_string()));
            y = choices(input, x, y, "Rounds", &rounds, &mut self.rounds);
            let paces = PACES.map(|pace| (pace, pace_name(pace)));
            y = choices(input, x, y, "Per ply", &paces, &mut self.pace);
            for (index, field) in self.brains.iter_mut().enumerate() {
                let entered;
                (y, entered) = text_row(input, x, y, &format!("Brain {}", index + 1), field);
                submitted |= entered;
            }
        } else {
            let modes = [
                (PlayMode::Slow, "slow: see its box".to_string()),
                (PlayMode::Fast, "fast".to_string()),
            ];
            y = choices(input, x, y, "Mode", &modes, &mut self.mode);
            let entered;
            (y, entered) = text_row(input, x, y, "Brain", &mut self.brain);
            submitted |= entered;
            y = self.known_brains(input, x, y);
            if self.mode == PlayMode::Fast {
                let pauses = PAUSES_MS.map(|ms| (ms, pause_name(ms)));
                y = choices(input, x, y, "HER waits", &pauses, &mut self.pause_ms);
            }
        }
        let room = self.room(kind);
        let text = if kind == GameKind::HerMatch {
            "Create and watch"
        } else {
            "Create room"
        };
        let rect = Rect::new(x, area.create_y, button_width(text), BUTTON_HEIGHT);
        key_focus::part();
        let clicked = button_enabled(input, rect, text, connected && room.is_ok());
        let (note, color) = match &room {
            Err(reason) => (reason.as_str(), ERROR_TEXT),
            Ok(_) if kind == GameKind::HerMatch => ("The server keeps both brains.", DIM_TEXT),
            Ok(_) => ("You play White and move first.", DIM_TEXT),
        };
        let beside = rect.w + 10.0;
        let (lines, above) = note_lines(note, width - beside, width, text_width);
        let (note_x, mut baseline) = match above {
            false => (x + beside, area.create_y + 19.0),
            true => (
                x,
                area.create_y - 8.0 - (lines.len() as f32 - 1.0) * LINE_HEIGHT,
            ),
        };
        // A note above the button that would run into the rows is left to the rows.
        if !above || baseline - 16.0 > y {
            for line in &lines {
                label(line, note_x, baseline, color);
                baseline += LINE_HEIGHT;
            }
        }
        let create = room.ok().filter(|_| clicked || (submitted && connected));
        let action = create.map(|(setup, seats)| FormAction::Create(setup, seats));
        action.or(ask)
    }

    /// The server's brains as buttons (a click takes the brain and its board) and what the
    /// typed one is; returns the next row's top.
    fn known_brains(&mut self, input: &Input, x: f32, y: f32) -> f32 {
        let known = self.known.as_deref().unwrap_or_default();
        let typed = self.brain.text.trim();
        let about = match known.iter().find(|brain| brain.name == typed) {
            Some(brain) => format!(
                "{}, {}, {}, {}",
                describe(brain),
                count_of(brain.boxes, "box", "boxes"),
                count_s(brain.beads, "bead"),
                count_s(brain.games, "game")
            ),
            None if BrainRef::parse_new(typed).is_ok() => "a new brain, empty".into(),
            None => "not a name for a new brain".into(),
        };
        label(&about, x + CHOICES_X, y + 14.0, DIM_TEXT);
        let mut y = y + 24.0;
        if known.is_empty() {
            return y;
        }
        label("Known", x, y + 20.0, TEXT);
        let mut bx = x + CHOICES_X;
        let mut taken = None;
        for brain in known.iter().take(MAX_KNOWN) {
            let w = button_width(&brain.name);
            if bx + w > x + CHOICES_X + KNOWN_WIDTH && bx > x + CHOICES_X {
                bx = x + CHOICES_X;
                y += ROW;
            }
            let rect = Rect::new(bx, y, w, BUTTON_HEIGHT);
            if toggle(input, rect, &brain.name, brain.name == typed) {
                taken = Some((brain.name.clone(), brain.dims, brain.mirrors));
            }
            bx += w + 6.0;
        }
        if let Some((name, dims, mirrors)) = taken {
            (self.brain.text, self.dims, self.mirrors) = (name, dims, mirrors);
        }
        y + ROW
    }
}

/// A brain's board and mirror setting, e.g. "3x3" or "4x4 mirrored".
fn describe(brain: &BrainSummary) -> String {
    let mirrors = if brain.mirrors { " mirrored" } else { "" };
    format!("{}{mirrors}", brain.dims)
}

/// The name a brain gets by default on a board of `dims` (with `mirrors` sharing a box):
/// "HER" on the course's 3x3, as the course calls it, and the board said otherwise, since a
/// brain learns one board; `which` tells an auto match's two apart (" A", " B").
fn default_brain(dims: Dims, mirrors: bool, which: &str) -> String {
    let board = match (dims == Dims::HEXAPAWN, mirrors) {
        (true, false) => String::new(),
        (true, true) => " mirrored".into(),
        (false, false) => format!(" {dims}"),
        (false, true) => format!(" {dims} mirrored"),
    };
    format!("HER{which}{board}")
}

fn pause_name(ms: u32) -> String {
    match ms {
        NO_PAUSE_MS => "no pause".into(),
        ms => seconds(ms),
    }
}

fn pace_name(pace: Pace) -> String {
    match pace {
        Pace::FullSpeed => "fastest".into(),
        Pace::PerPly { ms } => seconds(ms),
    }
}

/// A row of toggles named `name`, one per option; returns the next row's top.
fn choices<T: Copy + PartialEq>(
    input: &Input,
    x: f32,
    y: f32,
    name: &str,
    options: &[(T, String)],
    current: &mut T,
) -> f32 {
    label(name, x, y + 20.0, TEXT);
    let mut bx = x + CHOICES_X;
    for (value, text) in options {
        let rect = Rect::new(bx, y, button_width(text), BUTTON_HEIGHT);
        if toggle(input, rect, text, *current == *value) {
            *current = *value;
        }
        bx += rect.w + 6.0;
    }
    y + ROW
}

/// A named text field; returns the next row's top, and whether Enter was pressed in it.
fn text_row(input: &Input, x: f32, y: f32, name: &str, field: &mut TextField) -> (f32, bool) {
    label(name, x, y + 20.0, TEXT);
    let event = field.update(input, Rect::new(x + CHOICES_X, y, 200.0, BUTTON_HEIGHT));
    (y + ROW, event == FieldEvent::Submitted)
}

/// The note of the Create button in lines, and whether they go above it: beside it when the
/// note fits in the `beside` width right of the button, else wrapped to the column's `width`
/// above it. `measure` gives a text's width.
fn note_lines(
    note: &str,
    beside: f32,
    width: f32,
    measure: impl Fn(&str) -> f32,
) -> (Vec<String>, bool) {
    if measure(note) <= beside {
        (vec![note.to_string()], false)
    } else {
        (wrap_by(note, |line| measure(line) <= width), true)
    }
}

#[cfg(test)]
mod tests;
