//! PNG files the client writes (screenshots, charts, plots) are checked before the work that
//! makes them: a path that cannot be written fails at once, not after a long run.

use std::path::Path;

use anyhow::{Context, bail};
use plotters::drawing::DrawingAreaErrorKind;
use plotters_backend::DrawingErrorKind;
use plotters_bitmap::BitMapBackendError;

/// What drawing a chart or plot into a PNG file fails with.
pub type ChartError = DrawingAreaErrorKind<BitMapBackendError>;

/// A chart's error as its plain reason: the message of the io error when the file could not be
/// written, rather than plotters' debug text (`backend error: Drawing backend error:
/// ImageError(IoError(Custom { .. }))`).
pub fn chart_error(error: ChartError) -> anyhow::Error {
    let reason = match error {
        DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(backend)) => {
            match backend {
                BitMapBackendError::IOError(error) => error.to_string(),
                BitMapBackendError::ImageError(error) => error.to_string(),
                other => other.to_string(),
            }
        }
        other => other.to_string(),
    };
    anyhow::Error::msg(reason)
}

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
