//! PNG files the client writes (screenshots, charts, plots) are checked before the work that
//! makes them: a path that cannot be written fails at once, not after a long run.

use std::path::Path;

use anyhow::{Context, bail};

/// Refuses `path` for the `what` (e.g. "chart") unless it ends in `.png` and can be written.
/// Nothing is written yet: the image replaces any old file once it is whole (`out_file`).
pub fn check_png_path(path: &Path, what: &str) -> anyhow::Result<()> {
    if !path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("png"))
    {
        bail!("the {what} path {} must end in .png", path.display());
    }
    crate::out_file::check_writable(path)
        .with_context(|| format!("cannot write the {what} {}", path.display()))
}
