//! HER's brain as JSON: a stable, human-readable file to export, keep and import.
//!
//! ```json
//! {
//!   "format": "parlor-hexapawn-brain",
//!   "version": 1,
//!   "size": "3x3",
//!   "mirrors": false,
//!   "boxes": {
//!     ".OO/O../HHH": { "b1-b2": 1, "b1xa2": 0, "c1-c2": 1 }
//!   }
//! }
//! ```
//!
//! - `size` is ROWSxCOLS; `mirrors` says whether a position and its mirror image share a box.
//! - `boxes` maps each matchbox's position to its moves and their beads (0 or 1: HER starts a
//!   box with one bead per legal move and only ever removes beads). Every legal move of the
//!   position is listed, a confiscated one with 0.
//! - A box's position is written as HER sees it: `H` for HER's pawns, `O` for its opponent's,
//!   `.` for empty squares, rows from the top down separated by `/`, HER to move. HER's pawns
//!   move up the board, from row 1 towards the top row, whether HER plays White or Black; the
//!   moves are written on that board (`a1-a2` straight, `b2xc3` a capture). So a box HER uses as
//!   Black shows the board upside down, with HER's pawns at the bottom.
//! - With `mirrors`, a box is written for the one of the position and its mirror image that the
//!   brain keeps; reading accepts either, and refuses a file that lists both.
//! - Boxes are sorted by their position text, moves by their move text, so the same brain always
//!   gives the same file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::board::{Move, Position, Status};
use super::her::{Brain, Matchbox};
use super::text::{parse_rows, rows_text};
use super::{Dims, HexapawnError, Side};

/// The `format` every brain file carries.
pub const BRAIN_FORMAT: &str = "parlor-hexapawn-brain";
/// The version of the format this code writes and reads.
pub const BRAIN_FORMAT_VERSION: u32 = 1;

/// A brain file as it is read and written; [`Brain::from_file`] checks it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrainFile {
    pub format: String,
    pub version: u32,
    pub size: String,
    pub mirrors: bool,
    /// Position (as HER sees it) -> move -> beads.
    pub boxes: BTreeMap<String, BTreeMap<String, u32>>,
}

fn bad(why: String) -> HexapawnError {
    HexapawnError::BadBrain(why)
}

impl Brain {
    /// The brain as a [`BrainFile`], e.g. to embed in a larger JSON document.
    pub fn to_file(&self) -> BrainFile {
        let boxes = self
            .boxes
            .iter()
            .map(|(&key, matchbox)| {
                let view = Position::from_key(self.dims, key);
                let beads = matchbox
                    .moves
                    .iter()
                    .enumerate()
                    .map(|(slot, mv)| (mv.to_string(), matchbox.beads >> slot & 1))
                    .collect();
                (rows_text(&view, 'H', 'O'), beads)
            })
            .collect();
        BrainFile {
            format: BRAIN_FORMAT.to_string(),
            version: BRAIN_FORMAT_VERSION,
            size: self.dims.to_string(),
            mirrors: self.mirrors,
            boxes,
        }
    }

    /// The brain as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // A map of strings to numbers always serialises.
        serde_json::to_string_pretty(&self.to_file()).unwrap_or_default()
    }

    /// Reads a brain from JSON, checking every box (see [`Brain::from_file`]).
    pub fn from_json(text: &str) -> Result<Brain, HexapawnError> {
        let file: BrainFile = serde_json::from_str(text)
            .map_err(|error| bad(format!("not a Hexapawn brain file: {error}")))?;
        Brain::from_file(&file)
    }

    /// A brain from a file, refused with the reason when the format or version is unknown, the
    /// size is not a board, or a box is not a live position with HER to move, does not list
    /// exactly its legal moves, or holds other than 0 or 1 beads for a move.
    pub fn from_file(file: &BrainFile) -> Result<Brain, HexapawnError> {
        if file.format != BRAIN_FORMAT {
            return Err(bad(format!(
                "the format is {:?}, not {BRAIN_FORMAT:?}",
                file.format
            )));
        }
        if file.version != BRAIN_FORMAT_VERSION {
            return Err(bad(format!(
                "version {} of the brain format is unknown; this program reads version \
                 {BRAIN_FORMAT_VERSION}",
                file.version
            )));
        }
        let dims: Dims = file
            .size
            .parse()
            .map_err(|error| bad(format!("size: {error}")))?;
        let mut brain = Brain::new(dims, file.mirrors);
        for (text, beads) in &file.boxes {
            let in_box = |error: String| bad(format!("box {text:?}: {error}"));
            let (key, matchbox) = read_box(dims, file.mirrors, text, beads).map_err(in_box)?;
            brain.beads += u64::from(matchbox.bead_count());
            if brain.boxes.insert(key, matchbox).is_some() {
                return Err(in_box(
                    "listed twice (with mirrors merged, a position and its mirror image are \
                     one box)"
                        .to_string(),
                ));
            }
        }
        Ok(brain)
    }
}

/// One box of a file: its key in the brain and its contents.
fn read_box(
    dims: Dims,
    mirrors: bool,
    text: &str,
    beads: &BTreeMap<String, u32>,
) -> Result<(u128, Matchbox), String> {
    let (found, her, opponent) = parse_rows(text, 'H', 'O').map_err(|error| error.to_string())?;
    if found != dims {
        return Err(format!("a {found} board in a {dims} brain"));
    }
    let written = Position::from_bitboards(dims, her, opponent, Side::White)
        .map_err(|error| error.to_string())?;
    if let over @ Status::Won { .. } = written.status() {
        let over = over
            .to_string()
            .replace("White", "HER")
            .replace("Black", "its opponent");
        return Err(format!("not a position HER moves in: {over}"));
    }
    let mirrored = mirrors && written.mirrored().key() < written.key();
    let view = if mirrored {
        written.mirrored()
    } else {
        written
    };
    let mut matchbox = Matchbox::new(&view);
    matchbox.beads = 0;
    let mut listed = 0u32;
    for (move_text, &count) in beads {
        let mv: Move = move_text
            .parse()
            .map_err(|error: HexapawnError| error.to_string())?;
        written.check(mv).map_err(|error| error.to_string())?;
        let mv = if mirrored { mv.mirrored(dims) } else { mv };
        let Some(slot) = matchbox.moves.iter().position(|&m| m == mv) else {
            return Err(format!("{move_text} is not one of the box's moves"));
        };
        if listed >> slot & 1 == 1 {
            return Err(format!("{move_text} is listed twice"));
        }
        listed |= 1 << slot;
        match count {
            0 => {}
            1 => matchbox.beads |= 1 << slot,
            _ => {
                return Err(format!(
                    "{count} beads for {move_text}; a box holds one bead per move at most"
                ));
            }
        }
    }
    if listed != super::her::full_beads(matchbox.moves.len()) {
        let missing: Vec<String> = matchbox
            .moves
            .iter()
            .enumerate()
            .filter(|&(slot, _)| listed >> slot & 1 == 0)
            .map(|(_, &mv)| {
                let mv = if mirrored { mv.mirrored(dims) } else { mv };
                mv.to_string()
            })
            .collect();
        return Err(format!(
            "{} missing; list every legal move, with 0 beads for a confiscated one",
            missing.join(", ")
        ));
    }
    Ok((view.key(), matchbox))
}
