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
use std::collections::HashMap;

use ab_glyph::{Font as _, FontVec, PxScale, ScaleFont as _};
use macroquad::color::Color;
use macroquad::math::vec2;
use macroquad::text::TextDimensions;
use macroquad::texture::{DrawTextureParams, Texture2D, draw_texture_ex};

mod finder;

use finder::FontFinder;
pub use finder::font_file_with;

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

/// The fonts found for letters the window's own lacks, and the glyphs drawn in them.
struct Fallbacks {
    finder: FontFinder,
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
    with_fallbacks(|fallbacks| runs(text, |letter| fallbacks.finder.source_of(letter)))
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
            finder: FontFinder::new(),
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
            let glyph = rasterise(self.finder.font(font)?, letter, pixels.into());
            self.glyphs.insert(key, glyph);
        }
        self.glyphs.get(&key)
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
}
