//! Letters the window's embedded font lacks (Chinese, Japanese and Korean among them) drawn in
//! a font of the machine's that has them, found the first time such a letter is drawn: every
//! player's name must read as it was typed, and fonts for every script would make the client
//! many times its size. A letter no font found has is drawn as the embedded font's empty box,
//! as before. Scripts that join or reorder their letters (Arabic, Hebrew, the Indic scripts)
//! get their letters but not their shaping: the letters stand apart, left to right.
//!
//! The fallback fonts are drawn a glyph at a time with `ab_glyph`, which reads a glyph's
//! outline when it is first drawn: macroquad's fontdue reads every outline of a font when it
//! loads it, which for a font of 50,000 Chinese letters costs over 100 MB and a third of a
//! second. Each glyph drawn is kept as a small texture.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ab_glyph::{Font as _, FontVec, PxScale, ScaleFont as _};
use macroquad::color::Color;
use macroquad::math::vec2;
use macroquad::text::TextDimensions;
use macroquad::texture::{DrawTextureParams, Texture2D, draw_texture_ex};

/// Which font draws a letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// The window's own font (`crate::font`), also for letters no font has.
    Window,
    /// The `n`th fallback font loaded.
    Fallback(usize),
}

/// `text` cut into runs of letters drawn by the same font, in order. A combining mark (an
/// accent typed after its letter) stays in its letter's run, so that the two are drawn by one
/// font.
pub fn runs(text: &str, mut source_of: impl FnMut(char) -> Source) -> Vec<(&str, Source)> {
    let mut runs: Vec<(&str, Source)> = Vec::new();
    let mut start = 0;
    let mut current = None;
    for (at, letter) in text.char_indices() {
        let source = match current {
            Some(source) if unicode_normalization::char::is_combining_mark(letter) => source,
            _ => source_of(letter),
        };
        if current.is_some_and(|current| current != source) {
            runs.push((&text[start..at], current.unwrap()));
            start = at;
        }
        current = Some(source);
    }
    if let Some(source) = current {
        runs.push((&text[start..], source));
    }
    runs
}

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

/// One letter of a fallback font at one size, as drawn, in the screen's pixels: its image (none
/// for a letter with no outline, a space say) and its size, where that sits from the pen on
/// the baseline, and how far the pen then moves.
struct Glyph {
    image: Option<Texture2D>,
    left: f32,
    top: f32,
    width: f32,
    height: f32,
    advance: f32,
}

/// The most glyphs kept as textures: past it they are all dropped and drawn again as they come
/// (a lobby of names in a thousand letters must not fill the video memory). macroquad keeps a
/// weak handle of every texture made (a few bytes, for atlases this window never builds), so
/// each glyph drawn again adds one: growth bounded by the names a person scrolls through.
const MOST_GLYPHS_KEPT: usize = 4096;

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
struct Fallbacks {
    window: Coverage,
    candidates: Vec<Candidate>,
    /// Whether [`KNOWN_FONT_FILES`] were looked at.
    known_read: bool,
    /// When fontconfig was last asked, at most [`MOST_FONTCONFIG_ASKS`] times.
    asked_at: VecDeque<Instant>,
    /// Every letter met, and which font draws it.
    chosen: HashMap<char, Source>,
    /// Fallback glyphs drawn, by letter, size in the screen's pixels and font.
    glyphs: HashMap<(char, u16, usize), Glyph>,
}

thread_local! {
    /// The window's thread draws all text; fonts belong to it.
    static FALLBACKS: RefCell<Option<Fallbacks>> = const { RefCell::new(None) };
}

fn with_fallbacks<T>(work: impl FnOnce(&mut Fallbacks) -> T) -> T {
    FALLBACKS.with(|cell| work(cell.borrow_mut().get_or_insert_with(Fallbacks::new)))
}

/// `text` cut into runs by the font that draws them.
pub fn runs_of(text: &str) -> Vec<(&str, Source)> {
    // Nearly every text is ASCII, which the window's font has.
    if text.is_ascii() {
        return vec![(text, Source::Window)];
    }
    with_fallbacks(|fallbacks| runs(text, |letter| fallbacks.source_of(letter)))
}

/// Draws `run` in fallback font `font` at `size` with the pen on the baseline at `x`, `y`;
/// what it covers.
pub fn draw_run(run: &str, font: usize, x: f32, y: f32, size: f32, color: Color) -> TextDimensions {
    let dpi = dpi_scale();
    // On the screen's pixels, as macroquad puts its own glyphs, so that none is blurred.
    let on_pixels = |at: f32| (at * dpi).round() / dpi;
    with_fallbacks(|fallbacks| {
        let mut pen = x;
        for letter in run.chars() {
            let Some(glyph) = fallbacks.glyph(letter, size, font) else {
                continue;
            };
            if let Some(image) = &glyph.image {
                let params = DrawTextureParams {
                    dest_size: Some(vec2(glyph.width / dpi, glyph.height / dpi)),
                    ..Default::default()
                };
                let (left, top) = (
                    on_pixels(pen + glyph.left / dpi),
                    on_pixels(y + glyph.top / dpi),
                );
                draw_texture_ex(image, left, top, color, params);
            }
            pen += glyph.advance / dpi;
        }
        fallbacks.measure_run(run, font, size)
    })
}

/// What [`draw_run`] covers.
pub fn measure_run(run: &str, font: usize, size: f32) -> TextDimensions {
    with_fallbacks(|fallbacks| fallbacks.measure_run(run, font, size))
}

/// The screen's pixels to a logical pixel (2 on a HiDPI screen): text is drawn at that many
/// times its size, as macroquad draws its own.
fn dpi_scale() -> f32 {
    macroquad::miniquad::window::dpi_scale()
}

impl Fallbacks {
    fn new() -> Fallbacks {
        Fallbacks {
            window: Coverage::of(crate::font::DEJAVU_SANS).unwrap_or(Coverage(vec![0; 1])),
            candidates: Vec::new(),
            known_read: false,
            asked_at: VecDeque::new(),
            chosen: HashMap::new(),
            glyphs: HashMap::new(),
        }
    }

    fn measure_run(&mut self, run: &str, font: usize, size: f32) -> TextDimensions {
        let (mut width, mut above, mut below) = (0.0f32, 0.0f32, 0.0f32);
        for letter in run.chars() {
            if let Some(glyph) = self.glyph(letter, size, font) {
                width += glyph.advance;
                if glyph.image.is_some() {
                    above = above.max(-glyph.top);
                    below = below.max(glyph.top + glyph.height);
                }
            }
        }
        let dpi = dpi_scale();
        TextDimensions {
            width: width / dpi,
            height: (above + below) / dpi,
            offset_y: above / dpi,
        }
    }

    /// `letter` of fallback font `font` at `size` (logical pixels), drawn now on the screen's
    /// pixels if it was not yet.
    fn glyph(&mut self, letter: char, size: f32, font: usize) -> Option<&Glyph> {
        let pixels = (size * dpi_scale()).ceil() as u16;
        let key = (letter, pixels, font);
        if !self.glyphs.contains_key(&key) {
            if self.glyphs.len() >= MOST_GLYPHS_KEPT {
                self.glyphs.clear();
            }
            let glyph = rasterise(self.candidates[font].font.as_ref()?, letter, pixels.into());
            self.glyphs.insert(key, glyph);
        }
        self.glyphs.get(&key)
    }

    fn source_of(&mut self, letter: char) -> Source {
        if let Some(&source) = self.chosen.get(&letter) {
            return source;
        }
        let (source, settled) = self.find(letter);
        // A letter fontconfig could not be asked about yet is looked for again later.
        if settled {
            self.chosen.insert(letter, source);
        }
        source
    }

    /// Which font draws `letter`, and whether that is settled.
    fn find(&mut self, letter: char) -> (Source, bool) {
        match self.find_now(letter) {
            Some(source) => (source, true),
            None => (Source::Window, false),
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
        let small_enough = std::fs::metadata(path)
            .is_ok_and(|meta| meta.is_file() && meta.len() <= LARGEST_FONT_FILE);
        if !small_enough {
            return;
        }
        if let Some(coverage) = std::fs::read(path).ok().as_deref().and_then(Coverage::of) {
            self.candidates.push(Candidate {
                path: path.to_path_buf(),
                coverage,
                font: None,
            });
        }
    }
}

/// `letter` of `font` at `size` (pixels to the em, as macroquad's sizes are), as a texture
/// of white whose alpha is the outline's coverage, for the draw's colour to tint.
fn rasterise(font: &FontVec, letter: char, size: f32) -> Glyph {
    let em = font.units_per_em().unwrap_or(1000.0);
    let scale = PxScale::from(size * font.height_unscaled() / em);
    let id = font.glyph_id(letter);
    let advance = font.as_scaled(scale).h_advance(id);
    let outlined = font.outline_glyph(id.with_scale(scale));
    let drawable = |glyph: &ab_glyph::OutlinedGlyph| {
        let bounds = glyph.px_bounds();
        bounds.width() >= 1.0 && bounds.height() >= 1.0
    };
    let Some(outlined) = outlined.filter(drawable) else {
        let (image, left, top, width, height) = (None, 0.0, 0.0, 0.0, 0.0);
        return Glyph {
            image,
            left,
            top,
            width,
            height,
            advance,
        };
    };
    let bounds = outlined.px_bounds();
    let (width, height) = (bounds.width() as usize, bounds.height() as usize);
    let mut pixels = vec![0u8; width * height * 4];
    outlined.draw(|x, y, coverage| {
        let at = (y as usize * width + x as usize) * 4;
        if let Some(pixel) = pixels.get_mut(at..at + 4) {
            let alpha = (coverage.clamp(0.0, 1.0) * 255.0).round() as u8;
            pixel.copy_from_slice(&[255, 255, 255, alpha]);
        }
    });
    let image = Texture2D::from_rgba8(width as u16, height as u16, &pixels);
    Glyph {
        image: Some(image),
        left: bounds.min.x,
        top: bounds.min.y,
        width: width as f32,
        height: height as f32,
        advance,
    }
}

/// A font file of the machine's that has `letter`, as the window would find one: what the
/// window tests need to know whether this machine can show a name in Chinese.
pub fn font_file_with(letter: char) -> Option<PathBuf> {
    let known = KNOWN_FONT_FILES.iter().map(PathBuf::from);
    (known.chain(ask_fontconfig(letter))).find(|path| {
        let coverage = std::fs::read(path).ok().as_deref().and_then(Coverage::of);
        coverage.is_some_and(|coverage| coverage.has(letter))
    })
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

    fn by_script(letter: char) -> Source {
        if letter.is_ascii() {
            Source::Window
        } else {
            Source::Fallback(0)
        }
    }

    #[test]
    fn text_is_cut_where_the_font_changes_and_marks_stay_with_their_letter() {
        assert_eq!(runs("", by_script), vec![]);
        assert_eq!(runs("Ada", by_script), vec![("Ada", Source::Window)]);
        assert_eq!(
            runs("Li 王芳 #3f", by_script),
            vec![
                ("Li ", Source::Window),
                ("王芳", Source::Fallback(0)),
                (" #3f", Source::Window),
            ]
        );
        // An `e` and a combining acute accent are one letter to the eye.
        assert_eq!(
            runs("王e\u{301}", by_script),
            vec![("王", Source::Fallback(0)), ("e\u{301}", Source::Window)]
        );
    }

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
        let mut fallbacks = Fallbacks::new();
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
