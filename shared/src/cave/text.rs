//! The console picture of a cave, as in the seed: row 8 on top, labels on both sides.

use std::fmt;

use super::{Position, SIZE, Square};

const COLUMN_LABELS: &str = "    a b c d e f g h";

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{COLUMN_LABELS}")?;
        for row in (0..SIZE).rev() {
            write!(f, "{} |", row + 1)?;
            for col in 0..SIZE {
                let square = Square::new(col, row).expect("in range");
                let cell = self.at(square).map_or('-', |player| player.symbol());
                write!(f, " {cell}")?;
            }
            writeln!(f, " | {}", row + 1)?;
        }
        write!(f, "{COLUMN_LABELS}")
    }
}
