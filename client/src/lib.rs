//! Parlor's client: the macroquad window (`gui`, a folder per game), its network thread
//! (`net`), and the command-line tools (`cli`, a folder per game: console play, engine mode,
//! solvers, benches). The `client` binary is a thin command line over these; being a library
//! lets the window tests reuse the board geometry.

pub mod builtin_levels;
pub mod cli;
pub mod font;
pub mod gui;
pub mod identity;
pub mod level_files;
pub mod net;
pub mod out_file;
pub mod png_file;
pub mod seed;
pub mod text_file;
