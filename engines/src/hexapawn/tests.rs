//! The solver's values against plain minimax (`solver`), and what training HER against the
//! exploiter ends with (`training`).

mod solver;
mod training;

use parlor_shared::hexapawn::{Dims, Position};

fn hexapawn_start() -> Position {
    Position::start(Dims::HEXAPAWN)
}
