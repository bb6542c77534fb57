//! The one font of the window and of the PNG charts (learning curves, bench charts): DejaVu
//! Sans, embedded, so that every machine draws the same text at the same widths, with or
//! without fonts of its own. Its licence is `assets/fonts/LICENSE-DejaVu.txt`.

use std::sync::OnceLock;

use plotters::style::FontStyle;

/// DejaVu Sans 2.37, as Debian's fonts-dejavu-core ships it.
pub const DEJAVU_SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// Registers the font as plotters' "sans-serif", once per process; whether it could be.
pub fn font_available() -> bool {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    *REGISTERED.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, DEJAVU_SANS).is_ok()
    })
}
