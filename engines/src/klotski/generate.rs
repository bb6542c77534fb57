//! Random puzzles (the seed's bonus): solvable ones by scrambling the goal with legal moves, or
//! unsolvable ones on request, made so that a cheap invariant proves them `No`.
//!
//! Classic boards (1x1 tiles, one blank, at least 2x2) are drawn uniformly among the solvable
//! arrangements: a random permutation, two tiles swapped back if the parity is wrong. Other
//! boards are a random walk from the goal, which is solvable by construction.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use parlor_shared::klotski::prove_unsolvable;
use parlor_shared::klotski::{LayoutError, Position, Puzzle};
use parlor_shared::klotski::{MAX_CELLS, Shape};

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    pub rows: u32,
    pub cols: u32,
    pub blanks: u32,
    /// Blocks to tie (each 2x2, 1x2 or 2x1); the other numbers are 1x1.
    pub blocks: Vec<Shape>,
    pub seed: u64,
    /// Make a puzzle with no solution instead.
    pub unsolvable: bool,
    /// Random-walk length: boards that are not classic always walk (default: 100 steps a
    /// cell); classic ones are drawn uniformly unless a walk is given (a nearer start).
    pub walk: Option<u32>,
}

/// The classic 15-puzzle: 4x4, one blank, 1x1 tiles only, solvable, seed 0.
impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            rows: 4,
            cols: 4,
            blanks: 1,
            blocks: Vec::new(),
            seed: 0,
            unsolvable: false,
            walk: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error(
        "a board of {rows} x {cols} is refused: rows and columns must be at least 1 and the board at most {MAX_CELLS} cells"
    )]
    Size { rows: u32, cols: u32 },
    #[error("{blanks} blanks leave no numbers on a board of {cells} cells")]
    TooManyBlanks { blanks: u32, cells: usize },
    #[error("the blocks do not fit among the {numbers} numbers of the goal picture")]
    BlocksDoNotFit { numbers: usize },
    #[error("no unsolvable puzzle of this kind can be made: {0}")]
    NoUnsolvable(&'static str),
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

/// Attempts at placing the blocks at random before giving up.
const PLACEMENT_TRIES: usize = 200;

/// A random puzzle as asked.
pub fn generate(options: &GenerateOptions) -> Result<Puzzle, GenerateError> {
    let (rows, cols) = (options.rows, options.cols);
    let cells = rows as usize * cols as usize;
    if rows == 0 || cols == 0 || cells > MAX_CELLS {
        return Err(GenerateError::Size { rows, cols });
    }
    if options.blanks as usize >= cells {
        return Err(GenerateError::TooManyBlanks {
            blanks: options.blanks,
            cells,
        });
    }
    let numbers = cells - options.blanks as usize;
    let mut rng = StdRng::seed_from_u64(options.seed);
    let blocks = (0..PLACEMENT_TRIES)
        .find_map(|_| place_blocks(&mut rng, rows, cols, numbers, &options.blocks))
        .ok_or(GenerateError::BlocksDoNotFit { numbers })?;
    let goal_grid: Vec<u64> = (0..cells)
        .map(|cell| if cell < numbers { cell as u64 + 1 } else { 0 })
        .collect();
    let goal = Puzzle::new(rows, cols, &goal_grid, &blocks)?;
    let classic = rows >= 2 && cols >= 2 && options.blanks == 1 && blocks.is_empty();
    let puzzle = match options.walk {
        None if classic => shuffled(&mut rng, &goal)?,
        walk => {
            let steps = walk.unwrap_or(100 * cells as u32);
            goal.restarted(random_walk(&mut rng, &goal, steps))
        }
    };
    if options.unsolvable {
        spoiled(&mut rng, &puzzle)
    } else {
        Ok(puzzle)
    }
}

/// Block placements (label = top-left number) inside the goal picture's first `numbers` cells,
/// largest blocks first; `None` if this draw left no room for one.
fn place_blocks(
    rng: &mut StdRng,
    rows: u32,
    cols: u32,
    numbers: usize,
    shapes: &[Shape],
) -> Option<Vec<(u64, Shape)>> {
    let mut shapes = shapes.to_vec();
    shapes.sort_by_key(|shape| std::cmp::Reverse(shape.area()));
    let mut taken = vec![false; numbers];
    let mut blocks = Vec::with_capacity(shapes.len());
    for shape in shapes {
        let cells_of = |top: usize| -> Option<Vec<usize>> {
            let (row, col) = (top / cols as usize, top % cols as usize);
            if row + usize::from(shape.height()) > rows as usize
                || col + usize::from(shape.width()) > cols as usize
            {
                return None;
            }
            let cells: Vec<usize> = (0..usize::from(shape.height()))
                .flat_map(|dr| {
                    (0..usize::from(shape.width())).map(move |dc| top + dr * cols as usize + dc)
                })
                .collect();
            cells
                .iter()
                .all(|&cell| cell < numbers && !taken[cell])
                .then_some(cells)
        };
        let free: Vec<usize> = (0..numbers)
            .filter(|&top| cells_of(top).is_some())
            .collect();
        if free.is_empty() {
            return None;
        }
        let top = free[rng.random_range(0..free.len())];
        for cell in cells_of(top)? {
            taken[cell] = true;
        }
        blocks.push((top as u64 + 1, shape));
    }
    Some(blocks)
}

/// A uniformly random solvable arrangement of a classic board.
fn shuffled(rng: &mut StdRng, goal: &Puzzle) -> Result<Puzzle, GenerateError> {
    let mut grid: Vec<u64> = goal.grid(goal.start()).into_iter().map(u64::from).collect();
    for last in (1..grid.len()).rev() {
        grid.swap(last, rng.random_range(0..=last));
    }
    let puzzle = Puzzle::new(u32::from(goal.rows()), u32::from(goal.cols()), &grid, &[])?;
    if prove_unsolvable(&puzzle).is_none() {
        return Ok(puzzle);
    }
    // Swapping two tiles flips the permutation's parity and nothing else.
    let tiles: Vec<usize> = (0..grid.len())
        .filter(|&cell| grid[cell] != 0)
        .take(2)
        .collect();
    grid.swap(tiles[0], tiles[1]);
    Ok(Puzzle::new(
        u32::from(goal.rows()),
        u32::from(goal.cols()),
        &grid,
        &[],
    )?)
}

/// `steps` random legal moves from the start, never undoing the last move unless it is the
/// only one.
fn random_walk(rng: &mut StdRng, puzzle: &Puzzle, steps: u32) -> Position {
    let mut position = puzzle.start().clone();
    let mut last = None;
    for _ in 0..steps {
        let moves = puzzle.legal_moves(&position);
        let fresh: Vec<_> = moves
            .iter()
            .copied()
            .filter(|mv| Some((mv.label, mv.dir.opposite())) != last)
            .collect();
        let choices = if fresh.is_empty() { moves } else { fresh };
        let Some(&mv) = choices.get(rng.random_range(0..choices.len().max(1))) else {
            break; // nothing can move at all
        };
        position = puzzle.apply(&position, mv).unwrap_or(position);
        last = Some((mv.label, mv.dir));
    }
    position
}

/// `puzzle` made unsolvable: with one blank, two 1x1 tiles swapped (the parity rule then
/// fails); otherwise a block's second number swapped with a 1x1 tile (the block no longer fits
/// the goal). Each is proved `No` by an invariant.
fn spoiled(rng: &mut StdRng, puzzle: &Puzzle) -> Result<Puzzle, GenerateError> {
    let mut grid: Vec<u64> = puzzle
        .grid(puzzle.start())
        .into_iter()
        .map(u64::from)
        .collect();
    let singles: Vec<usize> = puzzle
        .pieces()
        .iter()
        .zip(puzzle.start().tops())
        .filter(|(piece, _)| piece.shape == Shape::Single)
        .map(|(_, &top)| usize::from(top))
        .collect();
    let blocks: Vec<(usize, Shape)> = puzzle
        .pieces()
        .iter()
        .zip(puzzle.start().tops())
        .filter(|(piece, _)| piece.shape != Shape::Single)
        .map(|(piece, &top)| (usize::from(top), piece.shape))
        .collect();
    let pick = |rng: &mut StdRng, from: &[usize]| from[rng.random_range(0..from.len())];
    if puzzle.blank_count() == 1 && singles.len() >= 2 {
        let first = pick(rng, &singles);
        let others: Vec<usize> = singles
            .iter()
            .copied()
            .filter(|&cell| cell != first)
            .collect();
        grid.swap(first, pick(rng, &others));
    } else if !blocks.is_empty() && !singles.is_empty() {
        let (top, shape) = blocks[rng.random_range(0..blocks.len())];
        // The block's second cell: right of the top-left, or below it for a 2x1.
        let second = if shape == Shape::Tall {
            top + usize::from(puzzle.cols())
        } else {
            top + 1
        };
        grid.swap(second, pick(rng, &singles));
    } else {
        return Err(GenerateError::NoUnsolvable(
            "it needs one blank and two 1x1 tiles, or a block and a 1x1 tile",
        ));
    }
    let labels: Vec<(u64, Shape)> = blocks
        .iter()
        .map(|&(top, shape)| (grid[top], shape))
        .collect();
    let spoiled = Puzzle::new(
        u32::from(puzzle.rows()),
        u32::from(puzzle.cols()),
        &grid,
        &labels,
    )?;
    debug_assert!(prove_unsolvable(&spoiled).is_some());
    Ok(spoiled)
}
