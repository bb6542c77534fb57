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

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde::de::{DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::board::{Move, Position, Status};
use super::her::{Brain, Matchbox};
use super::text::{parse_rows, push_rows_text, rows_text};
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

    /// The brain file as compact JSON: the text `serde_json::to_string(&self.to_file())` gives,
    /// written straight from the boxes. As a [`BrainFile`] a full 8x8 brain is a million small
    /// strings and maps: building and dropping them took 0.44 s of the 0.65 s it took to write
    /// such a brain for the store, with an auto match rewriting both of its brains every few
    /// seconds. Positions and moves need no escaping: they are written with `H`, `O`, `.`,
    /// `/`, letters, digits, `-` and `x`.
    pub fn to_compact_json(&self) -> String {
        // Every box's position text, one after the other in one buffer (they are all as long),
        // then the boxes sorted by it.
        let mut positions = String::new();
        let mut boxes: Vec<(usize, &Matchbox)> = Vec::with_capacity(self.boxes.len());
        for (&key, matchbox) in self.boxes.iter() {
            boxes.push((positions.len(), matchbox));
            push_rows_text(
                &mut positions,
                &Position::from_key(self.dims, key),
                'H',
                'O',
            );
        }
        let width = positions.len().checked_div(boxes.len()).unwrap_or(0);
        let position = |start: usize| &positions[start..start + width];
        boxes.sort_unstable_by(|a, b| position(a.0).cmp(position(b.0)));

        let header = serde_json::json!({
            "format": BRAIN_FORMAT, "version": BRAIN_FORMAT_VERSION,
            "size": self.dims.to_string(), "mirrors": self.mirrors,
        });
        let mut out = String::with_capacity(boxes.len() * (width + 64) + 128);
        write!(
            out,
            r#"{{"format":{},"version":{},"size":{},"mirrors":{},"boxes":{{"#,
            header["format"], header["version"], header["size"], header["mirrors"]
        )
        .expect("a String takes any text");
        // A box's moves, written one after the other in one buffer, then sorted by their text.
        let mut moves = String::new();
        let mut order: Vec<(usize, usize, u32)> = Vec::new();
        for (i, &(start, matchbox)) in boxes.iter().enumerate() {
            moves.clear();
            order.clear();
            for (slot, mv) in matchbox.moves.iter().enumerate() {
                let from = moves.len();
                write!(moves, "{mv}").expect("a String takes any text");
                order.push((from, moves.len(), matchbox.beads >> slot & 1));
            }
            order.sort_unstable_by(|a, b| moves[a.0..a.1].cmp(&moves[b.0..b.1]));
            let comma = if i == 0 { "" } else { "," };
            write!(out, r#"{comma}"{}":{{"#, position(start)).expect("a String takes any text");
            for (j, &(from, to, beads)) in order.iter().enumerate() {
                let comma = if j == 0 { "" } else { "," };
                write!(out, r#"{comma}"{}":{beads}"#, &moves[from..to])
                    .expect("a String takes any text");
            }
            out.push('}');
        }
        out.push_str("}}");
        out
    }

    /// The brain as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // A map of strings to numbers always serialises.
        serde_json::to_string_pretty(&self.to_file()).unwrap_or_default()
    }

    /// Reads a brain from JSON, checking every box (see [`Brain::from_file`]). The boxes are
    /// checked as they are read, straight into the brain: a file of many small bogus boxes
    /// (an import may be 64 MiB) is refused at its first, instead of first taking gigabytes
    /// as a map of strings.
    pub fn from_json(text: &str) -> Result<Brain, HexapawnError> {
        let not_a_file = |error| bad(format!("not a Hexapawn brain file: {error}"));
        // The header first, wherever the boxes stand: they are read against its size.
        let header: Header = serde_json::from_str(text).map_err(not_a_file)?;
        let (dims, mirrors) = check_header(&header.format, header.version, &header.size)
            .map(|dims| (dims, header.mirrors))?;
        let mut boxes = BoxesRead {
            brain: Brain::new(dims, mirrors),
            refusal: None,
        };
        let mut reader = serde_json::Deserializer::from_str(text);
        let read = FileSeed(&mut boxes)
            .deserialize(&mut reader)
            .and_then(|()| reader.end());
        match (read, boxes.refusal) {
            (_, Some(refusal)) => Err(refusal),
            (Err(error), None) => Err(not_a_file(error)),
            (Ok(()), None) => Ok(boxes.brain),
        }
    }

    /// A brain from a file, refused with the reason when the format or version is unknown, the
    /// size is not a board, or a box is not a live position with HER to move, does not list
    /// exactly its legal moves, or holds other than 0 or 1 beads for a move.
    pub fn from_file(file: &BrainFile) -> Result<Brain, HexapawnError> {
        let dims = check_header(&file.format, file.version, &file.size)?;
        let mut brain = Brain::new(dims, file.mirrors);
        for (text, beads) in &file.boxes {
            let read = BoxRead::new(dims, file.mirrors, text).and_then(|mut matchbox| {
                for (move_text, &count) in beads {
                    matchbox.bead(move_text, count)?;
                }
                matchbox.finish()
            });
            brain.add_box(text, read)?;
        }
        Ok(brain)
    }

    /// Adds a box read from the file's `text`, or refuses it (a box listed twice, too).
    fn add_box(
        &mut self,
        text: &str,
        read: Result<(u128, Matchbox), String>,
    ) -> Result<(), HexapawnError> {
        let in_box = |error: String| bad(format!("box {text:?}: {error}"));
        let (key, matchbox) = read.map_err(in_box)?;
        let beads = matchbox.bead_count();
        if self.boxes.insert(key, matchbox).is_some() {
            return Err(in_box(
                "listed twice (with mirrors merged, a position and its mirror image are one box)"
                    .to_string(),
            ));
        }
        self.beads += u64::from(beads);
        Ok(())
    }
}

/// The board size of a file whose format, version and size are known, or why not.
fn check_header(format: &str, version: u32, size: &str) -> Result<Dims, HexapawnError> {
    if format != BRAIN_FORMAT {
        return Err(bad(format!(
            "the format is {format:?}, not {BRAIN_FORMAT:?}"
        )));
    }
    if version != BRAIN_FORMAT_VERSION {
        return Err(bad(format!(
            "version {version} of the brain format is unknown; this program reads version \
             {BRAIN_FORMAT_VERSION}"
        )));
    }
    size.parse().map_err(|error| bad(format!("size: {error}")))
}

/// One box of a file being read: its position, and the moves listed so far.
struct BoxRead {
    dims: Dims,
    written: Position,
    mirrored: bool,
    view: Position,
    matchbox: Matchbox,
    listed: u32,
}

impl BoxRead {
    /// The box of position `text`, with no move listed yet.
    fn new(dims: Dims, mirrors: bool, text: &str) -> Result<BoxRead, String> {
        let (found, her, opponent) =
            parse_rows(text, 'H', 'O').map_err(|error| error.to_string())?;
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
        Ok(BoxRead {
            dims,
            written,
            mirrored,
            view,
            matchbox,
            listed: 0,
        })
    }

    /// One move of the box and its beads.
    fn bead(&mut self, move_text: &str, count: u32) -> Result<(), String> {
        let mv: Move = move_text
            .parse()
            .map_err(|error: HexapawnError| error.to_string())?;
        self.written.check(mv).map_err(|error| error.to_string())?;
        let mv = if self.mirrored {
            mv.mirrored(self.dims)
        } else {
            mv
        };
        let Some(slot) = self.matchbox.moves.iter().position(|&m| m == mv) else {
            return Err(format!("{move_text} is not one of the box's moves"));
        };
        if self.listed >> slot & 1 == 1 {
            return Err(format!("{move_text} is listed twice"));
        }
        self.listed |= 1 << slot;
        match count {
            0 => Ok(()),
            1 => {
                self.matchbox.beads |= 1 << slot;
                Ok(())
            }
            _ => Err(format!(
                "{count} beads for {move_text}; a box holds one bead per move at most"
            )),
        }
    }

    /// The box's key in the brain and its contents, once every legal move is listed.
    fn finish(self) -> Result<(u128, Matchbox), String> {
        if self.listed != super::her::full_beads(self.matchbox.moves.len()) {
            let missing: Vec<String> = (self.matchbox.moves.iter().enumerate())
                .filter(|&(slot, _)| self.listed >> slot & 1 == 0)
                .map(|(_, &mv)| {
                    let mv = if self.mirrored {
                        mv.mirrored(self.dims)
                    } else {
                        mv
                    };
                    mv.to_string()
                })
                .collect();
            return Err(format!(
                "{} missing; list every legal move, with 0 beads for a confiscated one",
                missing.join(", ")
            ));
        }
        Ok((self.view.key(), self.matchbox))
    }
}

/// A brain file's fields but its boxes, which are skipped without being kept.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    format: String,
    version: u32,
    size: String,
    mirrors: bool,
    #[serde(rename = "boxes")]
    _boxes: IgnoredAny,
}

/// The brain the boxes go into as they are read, and the first box refused (the reader's own
/// error then only says where it stopped).
struct BoxesRead {
    brain: Brain,
    refusal: Option<HexapawnError>,
}

/// Reads a whole file (its header is already checked), handing `boxes` to [`BoxesSeed`].
struct FileSeed<'a>(&'a mut BoxesRead);

/// Reads the `boxes` object straight into the brain.
struct BoxesSeed<'a>(&'a mut BoxesRead);

/// Reads one box's moves into a [`BoxRead`].
struct BoxSeed(BoxRead);

impl<'de> DeserializeSeed<'de> for FileSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FileSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a Hexapawn brain file")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(field) = map.next_key::<Cow<'de, str>>()? {
            if field == "boxes" {
                map.next_value_seed(BoxesSeed(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for BoxesSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for BoxesSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("boxes: positions and their moves")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let read = &mut *self.0;
        while let Some(text) = map.next_key::<Cow<'de, str>>()? {
            let (dims, mirrors) = (read.brain.dims, read.brain.mirrors);
            let matchbox = match BoxRead::new(dims, mirrors, &text) {
                Ok(matchbox) => map.next_value_seed(BoxSeed(matchbox))?,
                Err(error) => Err(error),
            };
            if let Err(refusal) = read.brain.add_box(&text, matchbox) {
                read.refusal = Some(refusal);
                return Err(A::Error::custom("a box is refused"));
            }
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for BoxSeed {
    type Value = Result<(u128, Matchbox), String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for BoxSeed {
    type Value = Result<(u128, Matchbox), String>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a box: moves and their beads")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self::Value, A::Error> {
        while let Some((move_text, count)) = map.next_entry::<Cow<'de, str>, u32>()? {
            // The first wrong move refuses the box; the rest of it is read past, not kept.
            if let Err(error) = self.0.bead(&move_text, count) {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                return Ok(Err(error));
            }
        }
        Ok(self.0.finish())
    }
}
