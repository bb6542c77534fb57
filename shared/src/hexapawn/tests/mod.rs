//! Hexapawn's tests: golden games and text forms (`rules`), properties of the rules over random
//! games (`properties`), HER (`her`), its brain file (`brain_json`) and auto mode (`auto`); the
//! solver's are in `parlor-engines`.

mod auto;
mod brain_json;
mod her;
mod properties;
mod rules;

use super::{Dims, Move, Position};

/// Plays moves written as text from `start`, failing the test on an illegal one.
fn play_all(start: Position, moves: &str) -> Position {
    moves.split_whitespace().fold(start, |position, text| {
        let mv: Move = text.parse().unwrap();
        position
            .play(mv)
            .unwrap_or_else(|error| panic!("{text} in {}: {error}", position.to_text()))
    })
}

fn hexapawn_start() -> Position {
    Position::start(Dims::HEXAPAWN)
}
