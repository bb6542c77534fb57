//! The command-line tools, a folder per game (`client cave|bricks|ewn|hexapawn|klotski ...`),
//! and the hall's: `admin` (rooms of a hall) and `identity` (who you are); `levels` lists the
//! levels built in. `console` is the console modes' line reader.

pub mod admin;
pub mod bricks;
pub mod cave;
pub mod console;
pub mod ewn;
pub mod hexapawn;
pub mod identity;
pub mod klotski;
pub mod levels;
