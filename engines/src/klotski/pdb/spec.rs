//! Which tables a board gets: its tiles split into disjoint groups, each group a table.

use parlor_shared::klotski::Shape;
use parlor_shared::klotski::{Geometry, Puzzle};

use super::rank::cell_bits;

/// Cells of the largest board the tables cover: 5x5 (a cell fits in 5 bits).
pub const MAX_CELLS: usize = 25;
/// Groups at most: 24 tiles of 25 cells in the on-demand groups of five tiles.
pub(crate) const MAX_GROUPS: usize = 5;
/// Placements of the largest group of a table built within a search: six tiles of 16 cells
/// take 5.8 million, five of 25 cells 6.4 million, each built in about a second.
const ON_DEMAND_PLACEMENTS: usize = 8_000_000;
/// Tiles of the largest group of a table built within a search.
const ON_DEMAND_GROUP: usize = 6;

/// One set of additive tables for a board size: the tiles (by goal cell) of each group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSpec {
    pub rows: u8,
    pub cols: u8,
    /// The group sizes, "7-8" or "6-6-3".
    name: String,
    groups: Vec<Vec<u8>>,
}

impl TableSpec {
    /// The set of these groups of tiles (by goal cell) on a `rows` x `cols` board.
    pub(crate) fn new(rows: u8, cols: u8, groups: Vec<Vec<u8>>) -> TableSpec {
        let cells = u32::from(rows * cols);
        debug_assert!(cells as usize <= MAX_CELLS && groups.len() <= MAX_GROUPS);
        // A placement is one 32-bit word.
        debug_assert!((groups.iter()).all(|group| group.len() as u32 * cell_bits(cells) <= 32));
        let sizes: Vec<String> = groups.iter().map(|group| group.len().to_string()).collect();
        TableSpec {
            rows,
            cols,
            name: sizes.join("-"),
            groups,
        }
    }

    /// Korf and Felner's 7-8 split of the 15-puzzle for this project's goal (the blank last):
    /// the eight tiles of the top two rows, and the seven of the bottom two.
    pub fn seven_eight() -> TableSpec {
        TableSpec {
            name: "7-8".into(),
            ..TableSpec::new(4, 4, vec![(0..8).collect(), (8..15).collect()])
        }
    }

    /// A 6-6-6-6 split of the 24-puzzle in the manner of Korf and Felner, for this project's
    /// goal (the blank last, bottom right): three compact 2x3 blocks in the corners away from
    /// the blank, and the six tiles around the blank.
    pub fn six_six_six_six() -> TableSpec {
        TableSpec::new(
            5,
            5,
            vec![
                vec![0, 1, 2, 5, 6, 7],
                vec![3, 4, 8, 9, 13, 14],
                vec![10, 11, 15, 16, 20, 21],
                vec![12, 17, 18, 19, 22, 23],
            ],
        )
    }

    /// The tables a search builds for itself when no better ones are kept: 6-6-3 on 4x4
    /// (compact groups: two 2x3 blocks and the rest), elsewhere row-major runs of tiles as
    /// even as possible, each small enough to build in about a second.
    pub fn on_demand(rows: u8, cols: u8) -> TableSpec {
        let groups = if (rows, cols) == (4, 4) {
            vec![
                vec![0, 1, 4, 5, 8, 12],
                vec![2, 3, 6, 7, 10, 11],
                vec![9, 13, 14],
            ]
        } else {
            let cells = usize::from(rows * cols);
            let tiles = cells - 1;
            let most = (1..=ON_DEMAND_GROUP.min(tiles))
                .rev()
                .find(|&size| placements(cells, size) <= ON_DEMAND_PLACEMENTS)
                .unwrap_or(1);
            let size = tiles.div_ceil(tiles.div_ceil(most));
            let all: Vec<u8> = (0..tiles as u8).collect();
            all.chunks(size).map(<[u8]>::to_vec).collect()
        };
        TableSpec::new(rows, cols, groups)
    }

    /// Every set for a board size, best first: the kept ones, never built in a search (the 7-8
    /// tables on 4x4 and 6-6-6-6 on 5x5: minutes and gigabytes to build), then the on-demand ones.
    pub fn all(rows: u8, cols: u8) -> Vec<TableSpec> {
        let mut specs = Vec::new();
        match (rows, cols) {
            (4, 4) => specs.push(TableSpec::seven_eight()),
            (5, 5) => specs.push(TableSpec::six_six_six_six()),
            _ => {}
        }
        specs.push(TableSpec::on_demand(rows, cols));
        specs
    }

    /// Whether a search may build these tables itself when none are kept.
    pub fn built_in_search(&self) -> bool {
        (self.placements().into_iter()).all(|placements| placements <= ON_DEMAND_PLACEMENTS)
    }

    /// The group sizes, "7-8" or "6-6-3".
    pub fn name(&self) -> String {
        self.name.clone()
    }

    /// "4x4 7-8": the board and the split, as files and notes name them.
    pub fn label(&self) -> String {
        format!("{}x{} {}", self.rows, self.cols, self.name())
    }

    pub(crate) fn groups(&self) -> &[Vec<u8>] {
        &self.groups
    }

    pub(crate) fn cells(&self) -> u8 {
        self.rows * self.cols
    }

    /// The placements of each group's tiles: `cells! / (cells - tiles)!`.
    pub fn placements(&self) -> Vec<usize> {
        let cells = usize::from(self.cells());
        (self.groups.iter())
            .map(|group| placements(cells, group.len()))
            .collect()
    }

    /// The bytes of each table: half a byte a placement.
    pub fn table_bytes(&self) -> Vec<usize> {
        self.placements()
            .into_iter()
            .map(|placements| placements.div_ceil(2))
            .collect()
    }
}

/// The placements of `tiles` tiles on `cells` cells: `cells! / (cells - tiles)!`.
fn placements(cells: usize, tiles: usize) -> usize {
    (cells - tiles + 1..=cells).product()
}

/// Whether `puzzle` is a classic board the tables cover: 1x1 tiles numbered 1 to K in label
/// order (piece `i` is tile `i + 1`, whose goal is cell `i`), one blank, at least two rows and
/// columns, at most 25 cells.
pub(crate) fn applies(puzzle: &Puzzle) -> bool {
    let geometry: &Geometry = puzzle.geometry();
    puzzle.rows() >= 2
        && puzzle.cols() >= 2
        && geometry.cells() <= MAX_CELLS
        && puzzle.blank_count() == 1
        && (puzzle.pieces().iter().enumerate()).all(|(index, piece)| {
            piece.shape == Shape::Single && usize::from(piece.label) == index + 1
        })
}
