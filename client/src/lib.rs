//! Parlor's client: the macroquad window (`gui`), its network thread (`net`), and Magnetic
//! Cave's console play, engine mode and viewer (`cave_cli`). The `client` binary is a thin
//! command line over these; being a library lets the window tests reuse the board geometry.

pub mod admin_cli;
pub mod bricks_cli;
pub mod builtin_levels;
pub mod cave_arena;
pub mod cave_cli;
pub mod chart_font;
pub mod console;
pub mod ewn_cli;
pub mod gui;
pub mod hexapawn_cli;
pub mod identity;
pub mod identity_cli;
pub mod klotski_cli;
pub mod level_files;
pub mod net;
pub mod out_file;
pub mod png_file;
pub mod seed;
pub mod text_file;
