//! Parlor's window (macroquad): a lobby, the board of each game for players and spectators
//! (a folder per game: `cave`, `bricks`, `ewn`, `hexapawn`, `klotski`), and a replay
//! view for stored games.
//!
//! The window is started from ordinary functions with `Window::from_config` rather than
//! `#[macroquad::main]`, because the binary also has console modes that must not open one.

mod app;
mod arrival;
mod board_cursor;
mod board_play;
pub mod bricks;
mod canvas;
pub mod cave;
mod confirm;
pub(crate) mod describe;
pub mod ewn;
mod fallback_fonts;
mod game_view;
pub mod hexapawn;
mod key_focus;
pub mod klotski;
mod layout_audit;
mod lobby;
mod lobby_choices;
mod move_list;
pub(crate) mod pacing;
mod replay_view;
mod room_view;
mod scripted;
mod scripted_game;
mod seats;
mod takeback;
mod text_field;
mod wake;
mod widgets;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use anyhow::{Context, bail};
use macroquad::input::{is_quit_requested, prevent_quit};
use macroquad::shapes::draw_rectangle;
use macroquad::texture::get_screen_data;
use macroquad::time::get_time;
use macroquad::window::{Conf, clear_background, next_frame, screen_height, screen_width};
use parlor_server::ServerConfig;
use parlor_shared::bricks::{BricksMove, Setup};
use parlor_shared::cave::Square;
use parlor_shared::ewn::{EwnMove, LevelSpec};
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::klotski::{KlotskiBoard, KlotskiMove, Move, Puzzle};

use self::app::{App, Startup};
/// Whether this machine has a font for letters the window's own lacks, for the window tests.
pub use self::fallback_fonts::font_file_with;
use self::pacing::FrameClock;
use self::replay_view::{ReplayAction, ReplayView};
use self::widgets::{BACKGROUND, DIM_TEXT, Input, PANEL, heading, label};
/// The colour of a refusal's reason, sampled by the window tests.
pub use self::widgets::{ERROR_TEXT, GOOD_TEXT, TOP_BAR_HEIGHT, side_panel_x};
use crate::identity::Identity;

/// The window's first size, which fits a 1366x768 laptop screen with its taskbar and the
/// window's title bar; the window may then be resized, and everything is laid out for the size
/// it has. Tests that click cells or sample their colours find the board's place from it (see
/// [`cave::board::board_layout`]), or from the size they ask for with `--window-size`.
pub const WINDOW_WIDTH: i32 = 1200;
pub const WINDOW_HEIGHT: i32 = 680;
/// Frames drawn before a screenshot, so that the window is mapped and fonts are cached.
const SCREENSHOT_FRAME: u32 = 5;

pub struct GuiOptions {
    /// The server to join; `None` starts an embedded one.
    pub server: Option<String>,
    /// The embedded server's data directory.
    pub data_dir: PathBuf,
    /// The name to go by from now on (`--name`), kept with the identity once nothing else
    /// refuses the window.
    pub name: Option<String>,
    /// A room that the window opens by itself (see [`scripted::RoomScript`]).
    pub open_room: Option<String>,
    /// With `open_room`: save the window as PNG once the room shows what was asked, and quit.
    pub screenshot: Option<PathBuf>,
    /// The window's first size, instead of [`WINDOW_WIDTH`] x [`WINDOW_HEIGHT`].
    pub window_size: Option<(i32, i32)>,
    /// With `screenshot`: write what the screenshot's frame drew where, and the problems
    /// found in it, as JSON (see [`layout_audit`]).
    pub layout_report: Option<PathBuf>,
    /// The longest time between quiet frames, instead of [`pacing::QUIET_FRAME`].
    pub quiet_frame: Option<std::time::Duration>,
}

/// A `--server` option as typed, made a WebSocket URL as the lobby's address box makes it (a
/// bare `host:port` gets `ws://` in front); refused when blank. Shared with the subcommands
/// that take a server.
pub(crate) fn server_option(typed: &str) -> anyhow::Result<String> {
    match describe::server_url(typed) {
        Some(url) => Ok(url),
        None => bail!(
            "--server needs an address such as ws://192.168.1.20:7878 (a port is 1 to 65535), \
             not {typed:?}"
        ),
    }
}

/// How long a scripted room may take to get where it was asked, in seconds.
const SCRIPT_SECONDS: f64 = 60.0;

/// The full app. Without `server` it starts an embedded server storing games in `data_dir`
/// and connects to it; if that fails the window says why and the user may connect elsewhere.
pub fn run(options: GuiOptions) -> anyhow::Result<ExitCode> {
    let script = options
        .open_room
        .as_deref()
        .map(scripted::RoomScript::parse);
    let script = script
        .transpose()
        .map_err(|e| anyhow::anyhow!("--open-room: {e}"))?;
    // The display first: without one nothing else matters, and its error says what to use.
    check_display(HALL_CONSOLE)?;
    let screenshot = options
        .screenshot
        .as_deref()
        .map(writable_png_path)
        .transpose()?;
    let joined = options.server.as_deref().map(server_option).transpose()?;
    // The last step that may refuse the command: the identity is made, or renamed, only for
    // a window that gets this far.
    let (identity, identity_file) = Identity::for_window(options.name.as_deref())?;
    let choices_file = parlor_home::Home::locate()?.lobby_choices_file();
    let (startup, embedded) = match joined {
        Some(url) => (Startup::Connect(url), None),
        None => {
            let addr = "127.0.0.1:0".parse().expect("a valid socket address");
            let config = ServerConfig::new(addr, Some(options.data_dir));
            match parlor_server::start_in_background(config) {
                Ok(server) => (Startup::Connect(server.url()), Some(server)),
                Err(error) => {
                    tracing::warn!("embedded server failed: {error:#}");
                    let why = format!("the embedded server did not start: {error:#}");
                    (Startup::Failed(why), None)
                }
            }
        }
    };
    let saved: Rc<RefCell<anyhow::Result<()>>> = Rc::new(RefCell::new(Ok(())));
    let saved_in_window = saved.clone();
    let layout_report = options.layout_report;
    if layout_report.is_some() {
        layout_audit::enable();
    }
    let conf = window_conf("Parlor", options.window_size);
    let logical_size = options.window_size.unwrap_or((WINDOW_WIDTH, WINDOW_HEIGHT));
    macroquad::Window::from_config(conf, async move {
        widgets::use_window_font();
        size_in_logical_pixels(logical_size);
        let mut app = App::new(startup, identity, Some(identity_file))
            .with_kept_choices(choices_file)
            .with_script(script);
        let quiet_frame = options.quiet_frame.unwrap_or(pacing::QUIET_FRAME);
        let (mut done_frames, mut clock) = (0, FrameClock::new(quiet_frame));
        // Closing the window ends this loop rather than the process (which some platforms end
        // with their last window), so that the store is flushed below.
        prevent_quit();
        loop {
            if is_quit_requested() {
                break;
            }
            clock.before_frame(app.network());
            clear_background(BACKGROUND);
            canvas::begin_frame();
            layout_audit::start_frame();
            let input = app.scripted_input().unwrap_or_else(Input::gather);
            key_focus::start_frame(key_focus::RingKeys::pressed(), input.clicked);
            app.frame(&input);
            if let Some(path) = screenshot.as_deref() {
                // Taken once the screen is what was asked and nothing on it moves.
                done_frames = if app.script_done() && !pacing::is_animating() {
                    done_frames + 1
                } else {
                    0
                };
                if done_frames >= SCREENSHOT_FRAME {
                    let report = layout_report.as_deref().map(write_layout_report);
                    *saved_in_window.borrow_mut() =
                        save_screenshot(path).and(report.unwrap_or(Ok(())));
                    break;
                }
                if let Some(why) = app.script_failure() {
                    *saved_in_window.borrow_mut() = Err(anyhow::anyhow!("{why}"));
                    break;
                }
                if get_time() > SCRIPT_SECONDS {
                    *saved_in_window.borrow_mut() = Err(anyhow::anyhow!(
                        "the room was not ready in {SCRIPT_SECONDS} s"
                    ));
                    break;
                }
            }
            // A scripted run plays and takes its screenshot as fast as it can.
            let busy = screenshot.is_some() || app.script_playing();
            clock.after_frame(&input, busy);
            next_frame().await;
        }
        // The embedded server's last writes go from its log into games.db, which alone then
        // holds everything (the server itself ends with the process, which ends now).
        if let Some(server) = embedded {
            server.seal_store();
        }
    });
    saved.replace(Ok(()))?;
    Ok(ExitCode::SUCCESS)
}

/// Opens the replay view of a local Magnetic Cave game (`moves` from the empty board),
/// positioned at the last move. With `screenshot`, saves the window as PNG after a few frames
/// and returns instead of waiting for the user.
pub fn show_cave_game(moves: Vec<Square>, screenshot: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let moves: Vec<GameMove> = moves.into_iter().map(GameMove::Cave).collect();
    show_game(
        "Magnetic Cave game",
        GameSetup::Cave,
        moves,
        screenshot,
        CAVE_CONSOLE,
    )
}

/// Opens the replay view of a local Dropping Bricks game (`moves` from the start of `setup`),
/// positioned at the last move, like [`show_cave_game`].
pub fn show_bricks_game(
    setup: Setup,
    moves: Vec<BricksMove>,
    screenshot: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let moves: Vec<GameMove> = moves.into_iter().map(GameMove::Bricks).collect();
    let setup = bricks::game_setup(setup);
    show_game(
        "Dropping Bricks game",
        setup,
        moves,
        screenshot,
        BRICKS_CONSOLE,
    )
}

/// Opens the replay view of a checked EWN moves.txt (`moves` from the level's start), at the
/// start so that Next steps through it; `player` is the file's player name.
pub fn show_ewn_game(
    level: LevelSpec,
    player: &str,
    moves: Vec<EwnMove>,
    screenshot: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let moves: Vec<GameMove> = moves.into_iter().map(GameMove::Ewn).collect();
    let setup = GameSetup::Ewn(level);
    let mut view = ReplayView::new(
        "EWN moves.txt",
        vec![player.to_string()],
        setup.start()?,
        moves,
    )
    .map_err(anyhow::Error::msg)?;
    view.first();
    show_view(view, "EWN moves.txt", screenshot, EWN_CONSOLE)
}

/// Opens the replay view of slides played on a Numeric Klotski puzzle (the view a finished
/// room's record opens in) at step `start`, like [`show_cave_game`].
pub fn show_klotski_game(
    puzzle: &Puzzle,
    moves: Vec<Move>,
    start: klotski::StartStep,
    screenshot: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let step = start.resolve(moves.len())?;
    let moves = moves
        .into_iter()
        .map(|mv| GameMove::Klotski(KlotskiMove::Slide(mv)));
    let setup = GameSetup::Klotski(KlotskiBoard::of(puzzle));
    // Not a room's game: a solution longer than a room's step limit is shown whole.
    let start = match setup.start()? {
        GameState::Klotski(game) => GameState::Klotski(game.without_step_limit()),
        other => other,
    };
    let title = "Numeric Klotski moves";
    let mut view =
        ReplayView::new(title, Vec::new(), start, moves.collect()).map_err(anyhow::Error::msg)?;
    view.first();
    (0..step).for_each(|_| view.next());
    show_view(view, title, screenshot, KLOTSKI_CONSOLE)
}

/// The replay view of a local game in a window of its own. An illegal move is refused before
/// the window opens; without a display the error points to `console` (see [`check_display`]).
fn show_game(
    title: &str,
    setup: GameSetup,
    moves: Vec<GameMove>,
    screenshot: Option<PathBuf>,
    console: &str,
) -> anyhow::Result<ExitCode> {
    let view =
        ReplayView::new(title, Vec::new(), setup.start()?, moves).map_err(anyhow::Error::msg)?;
    show_view(view, title, screenshot, console)
}

fn show_view(
    mut view: ReplayView,
    title: &str,
    screenshot: Option<PathBuf>,
    console: &str,
) -> anyhow::Result<ExitCode> {
    check_display(console)?;
    let screenshot = screenshot.as_deref().map(writable_png_path).transpose()?;
    run_window(&format!("Parlor - {title}"), screenshot, move |input| {
        let closing = view.update(input, "Quit") == Some(ReplayAction::Close);
        draw_title_bar("Replay of a local game; Escape or Quit closes the window");
        closing
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A window of its own titled `title`: each frame clears it and calls `frame` with the frame's
/// input, which draws and says whether to close; frames are paced (`pacing`). With `screenshot` (checked by [`writable_png_path`]), saves the
/// window as PNG after a few frames and closes it.
fn run_window(
    title: &str,
    screenshot: Option<String>,
    mut frame: impl FnMut(&Input) -> bool + 'static,
) -> anyhow::Result<()> {
    let saved: Rc<RefCell<anyhow::Result<()>>> = Rc::new(RefCell::new(Ok(())));
    let saved_in_window = saved.clone();
    macroquad::Window::from_config(window_conf(title, None), async move {
        widgets::use_window_font();
        let (mut frames, mut clock) = (0, FrameClock::new(pacing::QUIET_FRAME));
        loop {
            clock.before_frame(None);
            clear_background(BACKGROUND);
            canvas::begin_frame();
            let input = Input::gather();
            key_focus::start_frame(key_focus::RingKeys::pressed(), input.clicked);
            let closing = frame(&input);
            frames += 1;
            if let Some(path) = screenshot.as_deref().filter(|_| frames >= SCREENSHOT_FRAME) {
                *saved_in_window.borrow_mut() = save_screenshot(path);
                break;
            }
            if closing {
                break;
            }
            clock.after_frame(&input, screenshot.is_some());
            next_frame().await;
        }
    });
    saved.replace(Ok(()))
}

/// A resizable window of `size` (or the first size), drawn at the screen's own resolution:
/// on a HiDPI screen everything is laid out in logical pixels and drawn sharp.
fn window_conf(title: &str, size: Option<(i32, i32)>) -> Conf {
    let (width, height) = size.unwrap_or((WINDOW_WIDTH, WINDOW_HEIGHT));
    Conf {
        window_title: title.to_string(),
        window_width: width,
        window_height: height,
        window_resizable: true,
        high_dpi: true,
        ..Conf::default()
    }
}

/// Asks for the window's first size in logical pixels where the platform made it in physical
/// ones: on X11 a HiDPI screen (`Xft.dpi` over 96) would otherwise give a window of half the
/// size, laid out for a screen of half the width. Where the platform already counts logical
/// pixels (macOS), the window has its size and nothing changes.
fn size_in_logical_pixels((width, height): (i32, i32)) {
    let (width, height) = (width as f32, height as f32);
    if screen_width() < width * 0.9 || screen_height() < height * 0.9 {
        macroquad::window::request_new_screen_size(width, height);
    }
}

/// Writes what this frame drew where, and the layout problems in it, to `path` as JSON.
fn write_layout_report(path: &Path) -> anyhow::Result<()> {
    let drawn = layout_audit::frame();
    let screen = [canvas::canvas_width(), canvas::canvas_height()];
    let report = layout_audit::Report {
        screen,
        problems: layout_audit::problems(&drawn, screen),
        drawn,
    };
    std::fs::write(path, serde_json::to_string_pretty(&report)?)
        .with_context(|| format!("cannot write the layout report {}", path.display()))
}

/// What each window's game offers in the terminal instead, for the error without a display.
const HALL_CONSOLE: &str = "the games are played in the terminal with `client cave`, `client \
     bricks`, `client hexapawn`, `client ewn` and `client klotski` (see `client --help`)";
const CAVE_CONSOLE: &str = "`client cave console` plays Magnetic Cave in the terminal";
const BRICKS_CONSOLE: &str = "`client bricks play` plays Dropping Bricks in the terminal";
const EWN_CONSOLE: &str = "without --gui, `client ewn view` checks the file in the terminal";
pub(crate) const KLOTSKI_CONSOLE: &str =
    "`client klotski terminal` prints the answer in the terminal";

/// The window library panics without an X display; say so as an error instead, pointing to
/// `console`, the game's terminal command.
fn check_display(console: &str) -> anyhow::Result<()> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none_or(|display| display.is_empty())
    {
        bail!("no X display (DISPLAY is not set); {console}");
    }
    Ok(())
}

/// Checks before opening the window that a screenshot can be written to `path`, because
/// macroquad's PNG export panics on failure and takes only UTF-8 paths.
fn writable_png_path(path: &Path) -> anyhow::Result<String> {
    let text = path
        .to_str()
        .with_context(|| format!("the screenshot path {} is not UTF-8", path.display()))?;
    crate::png_file::check_png_path(path, "screenshot")?;
    Ok(text.to_string())
}

fn save_screenshot(path: &str) -> anyhow::Result<()> {
    // Checked moments ago by `writable_png_path`; a failure now is a disk error, which the
    // exporter reports by panicking, so it is caught and returned instead.
    std::panic::catch_unwind(|| get_screen_data().export_png(path))
        .map_err(|_| anyhow::anyhow!("cannot write the screenshot {path}"))
}

/// The bar across the top when there is no app around the screen (the lone replay).
fn draw_title_bar(subtitle: &str) {
    draw_rectangle(
        0.0,
        0.0,
        canvas::canvas_width(),
        widgets::TOP_BAR_HEIGHT,
        PANEL,
    );
    heading("Parlor", 16.0, 38.0);
    label(subtitle, 140.0, 36.0, DIM_TEXT);
}
