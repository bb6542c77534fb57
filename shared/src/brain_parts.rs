//! A brain file travels in numbered parts. HER's brains outgrow a frame: an Octapawn (4x4)
//! brain after 2,000 rounds of self-play is about 236 KB of JSON, a 6x6 one 3.2 MB, and a
//! frame holds 64 KiB. So `ExportBrain` is answered, and `ImportBrain` sent, as parts of at
//! most [`PART_BYTES`] each, which joined in order make the file.

use crate::codec::MAX_FRAME_BYTES;
use crate::protocol::{ClientMsg, ServerMsg};

/// What one part's text may take as a JSON string on the wire (quotes, backslashes and control
/// characters escaped), leaving room in a frame for the message around it.
pub const PART_BYTES: usize = MAX_FRAME_BYTES * 3 / 4;
/// The largest brain file that travels: as large as a file the client reads.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;
/// The most parts one file may be sent in: enough for [`MAX_FILE_BYTES`] of text that escapes
/// to twice its length (a brain file's quotes escape; its letters and digits do not).
pub const MAX_PARTS: u32 = (2 * MAX_FILE_BYTES / PART_BYTES + 1) as u32;

/// What `c` takes inside a JSON string, as serde_json writes it.
fn escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if u32::from(c) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

/// `text` cut into parts of at most [`PART_BYTES`] once escaped, at character boundaries; an
/// empty text is one empty part.
pub fn split(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut start, mut escaped) = (0, 0);
    for (at, c) in text.char_indices() {
        if escaped + escaped_len(c) > PART_BYTES {
            parts.push(&text[start..at]);
            (start, escaped) = (at, 0);
        }
        escaped += escaped_len(c);
    }
    parts.push(&text[start..]);
    parts
}

/// `text`'s parts as [`split`] cuts them, each with its number and the count:
/// `(part, parts, text)`, as the messages that carry them name them.
fn numbered(text: &str) -> impl Iterator<Item = (u32, u32, &str)> {
    let parts = split(text);
    let count = parts.len() as u32;
    (0..count)
        .zip(parts)
        .map(move |(part, text)| (part, count, text))
}

/// The `ImportBrain` requests that send the brain file `json` to be stored as `name`.
pub fn import_requests<'a>(name: &'a str, json: &'a str) -> impl Iterator<Item = ClientMsg> + 'a {
    numbered(json).map(move |(part, parts, text)| ClientMsg::ImportBrain {
        name: name.to_owned(),
        part,
        parts,
        json: text.to_owned(),
    })
}

/// The `Brain` answers that carry the brain file `json` of the brain `name`.
pub fn export_answers<'a>(name: &'a str, json: &'a str) -> impl Iterator<Item = ServerMsg> + 'a {
    numbered(json).map(move |(part, parts, text)| ServerMsg::Brain {
        name: name.to_owned(),
        part,
        parts,
        json: text.to_owned(),
    })
}

/// One part as it arrives: part `part` of `parts` of the file `name`.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    pub name: &'a str,
    pub part: u32,
    pub parts: u32,
    pub text: &'a str,
}

impl<'a> Part<'a> {
    /// The part an `ImportBrain` request carries.
    pub fn of_import(request: &'a ClientMsg) -> Option<Part<'a>> {
        match request {
            ClientMsg::ImportBrain {
                name,
                part,
                parts,
                json,
            } => Some(Part::new(name, *part, *parts, json)),
            _ => None,
        }
    }

    /// The part a `Brain` answer carries.
    pub fn of_export(answer: &'a ServerMsg) -> Option<Part<'a>> {
        match answer {
            ServerMsg::Brain {
                name,
                part,
                parts,
                json,
            } => Some(Part::new(name, *part, *parts, json)),
            _ => None,
        }
    }

    fn new(name: &'a str, part: u32, parts: u32, text: &'a str) -> Part<'a> {
        Part {
            name,
            part,
            parts,
            text,
        }
    }
}

/// A file being joined from parts that arrive in order.
#[derive(Debug)]
pub struct Assembly {
    name: String,
    parts: u32,
    next: u32,
    text: String,
}

impl Assembly {
    /// The name and part count of the file being joined.
    pub fn file(&self) -> (String, u32) {
        (self.name.clone(), self.parts)
    }

    /// Takes `part` into the file under way in `slot`: part 0 begins a new one (replacing any
    /// unfinished file), a later part must continue it. Returns the file's name and text once
    /// its last part is in. A refused part leaves `slot` empty: the file is dropped.
    pub fn take(
        slot: &mut Option<Assembly>,
        part: Part,
    ) -> Result<Option<(String, String)>, String> {
        let taken = Assembly::joined(slot.take(), part);
        match taken {
            Ok(assembly) if assembly.next == assembly.parts => {
                Ok(Some((assembly.name, assembly.text)))
            }
            Ok(assembly) => {
                *slot = Some(assembly);
                Ok(None)
            }
            Err(refusal) => Err(refusal),
        }
    }

    fn joined(under_way: Option<Assembly>, part: Part) -> Result<Assembly, String> {
        if part.parts == 0 || part.parts > MAX_PARTS || part.part >= part.parts {
            return Err(format!(
                "part {} of {}: a file travels in 1 to {MAX_PARTS} parts, numbered from 0",
                part.part, part.parts
            ));
        }
        let mut assembly = match under_way {
            _ if part.part == 0 => Assembly {
                name: part.name.to_owned(),
                parts: part.parts,
                next: 0,
                // The parts but the last are about as long as the first: room for them all at
                // once, so the text does not grow to twice the file by doubling.
                text: String::with_capacity(
                    (part.parts as usize)
                        .saturating_mul(part.text.len())
                        .min(MAX_FILE_BYTES),
                ),
            },
            Some(assembly)
                if assembly.name == part.name
                    && assembly.parts == part.parts
                    && assembly.next == part.part =>
            {
                assembly
            }
            Some(assembly) => {
                return Err(format!(
                    "part {} of {} of {:?} came while part {} of {} of {:?} was due",
                    part.part, part.parts, part.name, assembly.next, assembly.parts, assembly.name
                ));
            }
            None => {
                return Err(format!(
                    "part {} of {:?} came, but no file was begun with part 0",
                    part.part, part.name
                ));
            }
        };
        if assembly.text.len() + part.text.len() > MAX_FILE_BYTES {
            return Err(format!(
                "the file is over {} MiB, larger than any brain that travels",
                MAX_FILE_BYTES >> 20
            ));
        }
        assembly.text.push_str(part.text);
        assembly.next += 1;
        Ok(assembly)
    }
}

#[cfg(test)]
mod tests;
