//! Playing a Numeric Klotski board by hand, as pure functions of the puzzle and position: which
//! slide a click on a piece, a click on a blank or an arrow key asks for, or why it is none,
//! and which piece a number typed on the keyboard picks.
//! The rules are shared's `Puzzle::apply`; the server checks every slide again.

use parlor_shared::klotski::{Dir, Move, MoveError, Position, Puzzle};

/// How far from a piece's centre (in cells, along the chosen direction) a click must be, and
/// how much nearer that direction than the next one, for a piece that may slide several ways.
const CLEAR_LEAN: f32 = 0.1;

/// "up", "down", "left", "right".
pub fn dir_word(dir: Dir) -> &'static str {
    match dir {
        Dir::Left => "left",
        Dir::Right => "right",
        Dir::Up => "up",
        Dir::Down => "down",
    }
}

/// A refused slide as a sentence: "5 U is blocked: ...".
pub fn refusal(error: &MoveError) -> String {
    format!("{error}.")
}

/// The directions piece `label` may slide in now, in `Dir::ALL` order.
pub fn open_dirs(puzzle: &Puzzle, position: &Position, label: u16) -> Vec<Dir> {
    Dir::ALL
        .into_iter()
        .filter(|&dir| puzzle.apply(position, Move { label, dir }).is_ok())
        .collect()
}

/// The slide a click on piece `label` asks for: its only open direction, or among several the
/// one the click leans towards. `lean` is the click's offset from the piece's centre in cells
/// (columns right, rows down).
pub fn slide_for_click(
    puzzle: &Puzzle,
    position: &Position,
    label: u16,
    lean: (f32, f32),
) -> Result<Move, String> {
    let dirs = open_dirs(puzzle, position, label);
    let slide = |dir| Move { label, dir };
    match dirs.as_slice() {
        [] => Err(format!(
            "Piece {label} cannot slide: no side of it has blanks all along."
        )),
        [only] => Ok(slide(*only)),
        _ => {
            let toward = |dir: Dir| {
                let (rows, cols) = dir.delta();
                cols as f32 * lean.0 + rows as f32 * lean.1
            };
            let mut ranked: Vec<(f32, Dir)> = dirs.iter().map(|&dir| (toward(dir), dir)).collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            let (best, dir) = ranked[0];
            if best >= CLEAR_LEAN && best - ranked[1].0 >= CLEAR_LEAN {
                return Ok(slide(dir));
            }
            let words: Vec<&str> = dirs.iter().map(|&dir| dir_word(dir)).collect();
            Err(format!(
                "Piece {label} can slide {}: click nearer that side, click the blank, or press an arrow key.",
                words.join(" or ")
            ))
        }
    }
}

/// The slides that would move a piece into blank `cell`.
fn slides_into(puzzle: &Puzzle, position: &Position, cell: u8) -> Vec<Move> {
    let geometry = puzzle.geometry();
    puzzle
        .legal_moves(position)
        .into_iter()
        .filter(|mv| {
            let Some(index) = puzzle.piece_index(mv.label) else {
                return false;
            };
            let (shape, top) = (puzzle.pieces()[index].shape, position.tops()[index]);
            geometry
                .step(shape, top, mv.dir)
                .is_some_and(|step| step.enter & (1 << cell) != 0)
        })
        .collect()
}

/// The slide a click on blank `cell` asks for: the picked piece's into it, or the only one.
pub fn slide_into_blank(
    puzzle: &Puzzle,
    position: &Position,
    cell: u8,
    picked: Option<u16>,
) -> Result<Move, String> {
    let slides = slides_into(puzzle, position, cell);
    if let Some(mv) = slides.iter().find(|mv| Some(mv.label) == picked) {
        return Ok(*mv);
    }
    match slides.as_slice() {
        [only] => Ok(*only),
        [] => Err("No piece can slide into that blank now.".into()),
        _ => {
            let labels: Vec<String> = slides.iter().map(|mv| mv.label.to_string()).collect();
            Err(format!(
                "Pieces {} can slide into that blank: click the one to move.",
                labels.join(" and ")
            ))
        }
    }
}

/// How long after a digit the next one still adds to the same number, in seconds.
const TYPING_PAUSE: f64 = 1.0;

/// A piece's number typed digit by digit ("12"): a digit typed soon after the last one goes
/// on with the same number while some piece carries a number that starts so.
#[derive(Debug, Default)]
pub struct TypedPiece {
    digits: String,
    at: f64,
}

impl TypedPiece {
    /// Reads this frame's `typed` characters at `now`: the label of the piece carrying the
    /// number typed, the reason no piece carries it, or `None` (no digit, or the start of a
    /// longer number only).
    pub fn read(
        &mut self,
        typed: &[char],
        now: f64,
        puzzle: &Puzzle,
    ) -> Option<Result<u16, String>> {
        let numbers = || puzzle.pieces().iter().flat_map(|piece| piece.numbers());
        let mut read = None;
        for &digit in typed.iter().filter(|c| c.is_ascii_digit()) {
            let longer = format!("{}{digit}", self.digits);
            let goes_on = now - self.at <= TYPING_PAUSE
                && !self.digits.is_empty()
                && numbers().any(|number| number.to_string().starts_with(&longer));
            self.digits = if goes_on { longer } else { digit.to_string() };
            self.at = now;
            let carrier = puzzle.pieces().iter().find(|piece| {
                piece
                    .numbers()
                    .iter()
                    .any(|number| number.to_string() == self.digits)
            });
            let started = numbers().any(|number| number.to_string().starts_with(&self.digits));
            read = match carrier {
                Some(piece) => Some(Ok(piece.label)),
                None if started => None,
                None => Some(Err(format!(
                    "No piece carries {} on this board.",
                    self.digits
                ))),
            };
        }
        read
    }
}

/// The slide an arrow key towards `dir` asks for: the picked piece that way.
pub fn slide_for_key(
    puzzle: &Puzzle,
    position: &Position,
    picked: Option<u16>,
    dir: Dir,
) -> Result<Move, String> {
    let label = picked
        .ok_or("Pick a piece first (click it or type its number): the arrow keys slide it.")?;
    let mv = Move { label, dir };
    puzzle
        .apply(position, mv)
        .map(|_| mv)
        .map_err(|error| refusal(&error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::klotski::parse_puzzle;

    /// 3x4 with a 2x1 block (6/10), a 2x2 block (3/4/7/8); blanks on cells 8 and 10:
    /// ```text
    /// 6  2  3  4
    /// 10 1  7  8
    /// .  5  .  9
    /// ```
    const BLOCKS: &str = "3 4\n6 2 3 4\n10 1 7 8\n0 5 0 9\n2\n6 2*1\n3 2*2\n";
    /// 3x3, blank in the middle: 5 in the middle of each side can slide into it.
    const CROSS: &str = "3 3\n1 2 3\n4 0 6\n7 8 5\n0\n";

    fn slide(label: u16, dir: Dir) -> Move {
        Move { label, dir }
    }

    #[test]
    fn a_piece_with_one_open_side_slides_there_wherever_it_is_clicked() {
        let puzzle = parse_puzzle(BLOCKS).unwrap();
        let start = puzzle.start();
        // 5 has blanks left and right: two ways. 6 (the 2x1 block) only down. 1 only down.
        assert_eq!(open_dirs(&puzzle, start, 6), [Dir::Down]);
        for lean in [(0.0, 0.0), (0.4, -0.4), (-0.3, 0.2)] {
            assert_eq!(
                slide_for_click(&puzzle, start, 6, lean),
                Ok(slide(6, Dir::Down))
            );
        }
        assert_eq!(open_dirs(&puzzle, start, 5), [Dir::Left, Dir::Right]);
    }

    #[test]
    fn with_several_open_sides_the_click_leans_towards_one_or_is_refused() {
        let puzzle = parse_puzzle(BLOCKS).unwrap();
        let start = puzzle.start();
        assert_eq!(
            slide_for_click(&puzzle, start, 5, (0.3, 0.1)),
            Ok(slide(5, Dir::Right))
        );
        assert_eq!(
            slide_for_click(&puzzle, start, 5, (-0.3, -0.2)),
            Ok(slide(5, Dir::Left))
        );
        let centre = slide_for_click(&puzzle, start, 5, (0.02, 0.3)).unwrap_err();
        assert_eq!(
            centre,
            "Piece 5 can slide left or right: click nearer that side, click the blank, or press an arrow key."
        );
        // 2 is shut in on every side.
        let shut = slide_for_click(&puzzle, start, 2, (0.3, 0.0)).unwrap_err();
        assert!(shut.starts_with("Piece 2 cannot slide"), "{shut}");
    }

    #[test]
    fn a_click_on_a_blank_moves_the_picked_piece_or_the_only_one_that_fits() {
        let puzzle = parse_puzzle(CROSS).unwrap();
        let start = puzzle.start();
        // Four pieces around the middle blank (cell 4): the picked one goes, else a refusal.
        assert_eq!(
            slide_into_blank(&puzzle, start, 4, Some(8)),
            Ok(slide(8, Dir::Up))
        );
        let several = slide_into_blank(&puzzle, start, 4, None).unwrap_err();
        assert!(
            several.starts_with("Pieces 2 and 4 and 6 and 8"),
            "{several}"
        );
        // A piece that cannot reach it does not count: 1 is picked, 2 is not the only one.
        assert!(slide_into_blank(&puzzle, start, 4, Some(1)).is_err());
        let blocks = parse_puzzle(BLOCKS).unwrap();
        // Blank 8 (row 2, column 0): 6 (down) and 5 (left) can enter; the picked one goes.
        assert_eq!(
            slide_into_blank(&blocks, blocks.start(), 8, Some(6)),
            Ok(slide(6, Dir::Down))
        );
        // Blank 10: 5 (right), 7's block cannot (needs two blanks), 9 (left).
        assert_eq!(
            slide_into_blank(&blocks, blocks.start(), 10, Some(9)),
            Ok(slide(9, Dir::Left))
        );
    }

    #[test]
    fn arrow_keys_move_the_picked_piece_and_say_why_not() {
        let puzzle = parse_puzzle(BLOCKS).unwrap();
        let start = puzzle.start();
        assert_eq!(
            slide_for_key(&puzzle, start, Some(9), Dir::Left),
            Ok(slide(9, Dir::Left))
        );
        assert_eq!(
            slide_for_key(&puzzle, start, Some(9), Dir::Right),
            Err("9 R would leave the board.".into())
        );
        assert_eq!(
            slide_for_key(&puzzle, start, Some(3), Dir::Down),
            Err("3 D is blocked: the cells it moves into are not all blank.".into())
        );
        let none = slide_for_key(&puzzle, start, None, Dir::Up).unwrap_err();
        assert!(none.starts_with("Pick a piece first"), "{none}");
    }

    #[test]
    fn a_typed_number_picks_the_piece_that_carries_it_digit_by_digit() {
        let blocks = parse_puzzle(BLOCKS).unwrap();
        let mut typed = TypedPiece::default();
        assert_eq!(typed.read(&['1'], 0.0, &blocks), Some(Ok(1)));
        assert_eq!(
            typed.read(&['0'], 0.5, &blocks),
            Some(Ok(6)),
            "10 is on block 6"
        );
        assert_eq!(
            typed.read(&['7'], 3.0, &blocks),
            Some(Ok(3)),
            "7 is on block 3"
        );
        assert_eq!(typed.read(&['x', ' '], 3.1, &blocks), None, "no digit");
        assert_eq!(
            typed.read(&['0'], 9.0, &blocks),
            Some(Err("No piece carries 0 on this board.".into()))
        );
        let fifteen = parse_puzzle("4 4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n0\n").unwrap();
        assert_eq!(
            typed.read(&['1', '2'], 20.0, &fifteen),
            Some(Ok(12)),
            "in one frame"
        );
        assert_eq!(typed.read(&['1'], 30.0, &fifteen), Some(Ok(1)));
        assert_eq!(
            typed.read(&['2'], 31.5, &fifteen),
            Some(Ok(2)),
            "after a pause a digit starts a new number"
        );
        assert_eq!(typed.read(&['9'], 40.0, &fifteen), Some(Ok(9)));
        assert_eq!(
            typed.read(&['9'], 40.2, &fifteen),
            Some(Ok(9)),
            "no 99 here: the digit starts anew"
        );
    }
}
