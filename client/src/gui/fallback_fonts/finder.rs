//! Which font draws a letter the window's own lacks: first well-known font files of the
//! operating systems, then fontconfig's answer for the letter, each file kept once read with
//! the letters it has, and read whole (for its glyphs) only once one of them is drawn.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ab_glyph::FontVec;

use super::Source;

/// The letters a font file maps to glyphs (its Unicode character maps), one bit each.
struct Coverage(Vec<u64>);

impl Coverage {
    /// The letters of the first font in `bytes` (a collection's first), if it parses and
    /// draws its letters with outlines: a font of bitmaps only (colour emoji) would draw
    /// nothing here, where a box at least shows that a letter is there.
    fn of(bytes: &[u8]) -> Option<Coverage> {
        let face = ttf_parser::Face::parse(bytes, 0).ok()?;
        let tables = face.tables();
        if tables.glyf.is_none() && tables.cff.is_none() && tables.cff2.is_none() {
            return None;
        }
        let mut bits = vec![0u64; (char::MAX as usize >> 6) + 1];
        let tables = face.tables().cmap?.subtables;
        for subtable in tables.into_iter().filter(|table| table.is_unicode()) {
            subtable.codepoints(|point| {
                if let Some(word) = bits.get_mut(point as usize >> 6) {
                    *word |= 1 << (point & 63);
                }
            });
        }
        Some(Coverage(bits))
    }

    /// The letters of the font file at `path`, if it is one this reads (no larger than
    /// [`LARGEST_FONT_FILE`]).
    fn of_file(path: &Path) -> Option<Coverage> {
        let small_enough = std::fs::metadata(path)
            .is_ok_and(|meta| meta.is_file() && meta.len() <= LARGEST_FONT_FILE);
        if !small_enough {
            return None;
        }
        Coverage::of(&std::fs::read(path).ok()?)
    }

    fn has(&self, letter: char) -> bool {
        let point = letter as usize;
        self.0[point >> 6] & (1 << (point & 63)) != 0
    }
}

/// A font file of the machine's that was looked at, and, once one of its letters is drawn, the
/// font read from it.
struct Candidate {
    path: PathBuf,
    coverage: Coverage,
    font: Option<FontVec>,
}

/// The most letters fontconfig is asked about in [`FONTCONFIG_ASKS_WITHIN`]: each question is
/// a process of its own (about 12 ms here) on the window's thread, and other players' names
/// choose the letters, so a name in a hundred rare letters must not stall the window. Past
/// it, letters no font found so far has are drawn as boxes until fontconfig may be asked
/// again. A letter is asked about once: a font found then draws the others it has.
const MOST_FONTCONFIG_ASKS: usize = 16;
const FONTCONFIG_ASKS_WITHIN: Duration = Duration::from_secs(60);

/// Whether a font could have `letter`: not one of the private use areas, whose letters mean
/// what each font makes them mean, nor a noncharacter.
fn has_a_meaning(letter: char) -> bool {
    let point = letter as u32;
    let private = matches!(point, 0xE000..=0xF8FF | 0xF0000..);
    let noncharacter = matches!(point, 0xFDD0..=0xFDEF) || point & 0xFFFE == 0xFFFE;
    !(private || noncharacter)
}

/// Font files larger than this are not read: no font of one script is near it.
const LARGEST_FONT_FILE: u64 = 64 << 20;

/// Where operating systems keep fonts with the letters DejaVu Sans lacks, most used first.
/// Fontconfig is also asked (`fc-match`) where there is one.
const KNOWN_FONT_FILES: &[&str] = &[
    // Debian and Ubuntu (fonts-noto-cjk, fonts-droid-fallback, fonts-wqy-*).
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    // Fedora and Arch.
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    // macOS.
    "/System/Library/Fonts/Hiragino Sans GB.ttc",
    "/System/Library/Fonts/AppleSDGothicNeo.ttc",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    // Windows.
    "C:\\Windows\\Fonts\\msyh.ttc",
    "C:\\Windows\\Fonts\\msgothic.ttc",
    "C:\\Windows\\Fonts\\malgun.ttf",
    "C:\\Windows\\Fonts\\seguisym.ttf",
];

/// The window's font's letters and the fallback fonts found so far.
pub(super) struct FontFinder {
    window: Coverage,
    candidates: Vec<Candidate>,
    /// Whether [`KNOWN_FONT_FILES`] were looked at.
    known_read: bool,
    /// When fontconfig was last asked, at most [`MOST_FONTCONFIG_ASKS`] times.
    asked_at: VecDeque<Instant>,
    /// Every letter met, and which font draws it.
    chosen: HashMap<char, Source>,
}

impl FontFinder {
    pub(super) fn new() -> FontFinder {
        FontFinder {
            window: Coverage::of(crate::font::DEJAVU_SANS).unwrap_or(Coverage(vec![0; 1])),
            candidates: Vec::new(),
            known_read: false,
            asked_at: VecDeque::new(),
            chosen: HashMap::new(),
        }
    }

    /// Fallback font `n`, once loaded.
    pub(super) fn font(&self, n: usize) -> Option<&FontVec> {
        self.candidates.get(n)?.font.as_ref()
    }

    /// Which font draws `letter`.
    pub(super) fn source_of(&mut self, letter: char) -> Source {
        if let Some(&source) = self.chosen.get(&letter) {
            return source;
        }
        match self.find_now(letter) {
            Some(source) => {
                self.chosen.insert(letter, source);
                source
            }
            // Fontconfig could not be asked about it yet: looked for again later.
            None => Source::Window,
        }
    }

    /// Which font draws `letter`; `None` while fontconfig cannot be asked about it yet.
    fn find_now(&mut self, letter: char) -> Option<Source> {
        if let Some(source) = self.find_without_fontconfig(letter) {
            return Some(source);
        }
        let now = Instant::now();
        while (self.asked_at.front()).is_some_and(|&at| now - at > FONTCONFIG_ASKS_WITHIN) {
            self.asked_at.pop_front();
        }
        if self.asked_at.len() >= MOST_FONTCONFIG_ASKS {
            return None;
        }
        self.asked_at.push_back(now);
        if let Some(path) = ask_fontconfig(letter)
            && !self.candidates.iter().any(|known| known.path == path)
        {
            self.look_at(&path);
        }
        Some(self.loaded_with(letter).unwrap_or(Source::Window))
    }

    /// The window's font, or a fallback font already found, for `letter`, if one has it.
    fn find_without_fontconfig(&mut self, letter: char) -> Option<Source> {
        let plain = letter.is_whitespace() || letter.is_control() || self.window.has(letter);
        if plain || !has_a_meaning(letter) {
            return Some(Source::Window);
        }
        if !self.known_read {
            self.known_read = true;
            for path in KNOWN_FONT_FILES {
                self.look_at(Path::new(path));
            }
        }
        self.loaded_with(letter)
    }

    /// The first candidate with `letter`, its font loaded now if it was not yet.
    fn loaded_with(&mut self, letter: char) -> Option<Source> {
        let n = self
            .candidates
            .iter()
            .position(|c| c.coverage.has(letter))?;
        let candidate = &mut self.candidates[n];
        if candidate.font.is_none() {
            let read = std::fs::read(&candidate.path).map_err(|error| error.to_string());
            match read.and_then(|bytes| FontVec::try_from_vec(bytes).map_err(|e| e.to_string())) {
                Ok(font) => {
                    let path = candidate.path.display();
                    tracing::info!(font = %path, "letters the window's font lacks are drawn in this one");
                    candidate.font = Some(font);
                }
                Err(error) => {
                    let path = candidate.path.display();
                    tracing::warn!(font = %path, %error, "a font did not load");
                    candidate.coverage = Coverage(vec![0; candidate.coverage.0.len()]);
                    return self.loaded_with(letter);
                }
            }
        }
        Some(Source::Fallback(n))
    }

    /// Keeps the font file at `path` as a candidate when it is there and its letters can be
    /// read.
    fn look_at(&mut self, path: &Path) {
        if let Some(coverage) = Coverage::of_file(path) {
            self.candidates.push(Candidate {
                path: path.to_path_buf(),
                coverage,
                font: None,
            });
        }
    }
}

/// A font file of the machine's that has `letter`, as the window would find one: what the
/// window tests need to know whether this machine can show a name in Chinese.
pub fn font_file_with(letter: char) -> Option<PathBuf> {
    let known = KNOWN_FONT_FILES.iter().map(PathBuf::from);
    (known.chain(ask_fontconfig(letter)))
        .find(|path| Coverage::of_file(path).is_some_and(|coverage| coverage.has(letter)))
}

/// The font file fontconfig would draw `letter` with, where there is fontconfig (Linux and
/// the BSDs); the caller checks that it has the letter, since fontconfig names its best font
/// even when none has it.
fn ask_fontconfig(letter: char) -> Option<PathBuf> {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return None;
    }
    let charset = format!(":charset={:x}", letter as u32);
    let output = std::process::Command::new("fc-match")
        .args(["--format=%{file}", &charset])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|output| output.status.success())?;
    let path = String::from_utf8(output.stdout).ok()?;
    (!path.is_empty()).then(|| PathBuf::from(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_of_private_use_and_noncharacters_are_looked_for_in_no_font() {
        for letter in [
            '\u{E000}',
            '\u{F8FF}',
            '\u{F0000}',
            '\u{10FFFD}',
            '\u{FDD0}',
        ] {
            assert!(!has_a_meaning(letter), "{:x}", letter as u32);
        }
        for letter in ['\u{FFFF}', '\u{1FFFE}'] {
            assert!(!has_a_meaning(letter), "{:x}", letter as u32);
        }
        for letter in ['王', 'A', '\u{D7FF}', '\u{F900}', '\u{FFFD}', '\u{1F600}'] {
            assert!(has_a_meaning(letter), "{:x}", letter as u32);
        }
    }

    /// A name in letters of a hundred blocks asks fontconfig about a few of them only.
    #[test]
    fn fontconfig_is_asked_about_a_bounded_number_of_letters_a_minute() {
        let mut fallbacks = FontFinder::new();
        // Blocks of the Supplementary Multilingual Plane that DejaVu Sans lacks.
        for block in 0x100..0x164u32 {
            if let Some(letter) = char::from_u32(block << 8 | 0x41) {
                fallbacks.source_of(letter);
            }
        }
        assert!(fallbacks.asked_at.len() <= MOST_FONTCONFIG_ASKS);
        // The letters not asked about are not settled: looked for again once it may be.
        let unasked = char::from_u32(0x163 << 8 | 0x41).unwrap();
        assert!(!fallbacks.chosen.contains_key(&unasked));
    }

    #[test]
    fn the_window_font_has_latin_greek_and_cyrillic_but_not_chinese() {
        let window = Coverage::of(crate::font::DEJAVU_SANS).expect("DejaVu Sans parses");
        for letter in ['A', 'é', 'ß', 'Ω', 'Ж', '€'] {
            assert!(window.has(letter), "{letter}");
        }
        for letter in ['王', 'あ', '한'] {
            assert!(!window.has(letter), "{letter}");
        }
        assert!(Coverage::of(b"not a font").is_none());
    }
}
