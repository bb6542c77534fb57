//! Additive pattern databases for classic boards: 1x1 tiles only, one blank, at most 25 cells
//! (the 24-puzzle, the 15-puzzle and everything smaller with at least two rows and columns).
//!
//! The tiles are split into disjoint groups ([`TableSpec`]: 7-8 or 6-6-3 on 4x4, 6-6-6-6 or
//! 5-5-5-5-4 on 5x5). For each
//! group a table gives, for every placement of its tiles, the fewest moves *of those tiles*
//! that bring them home while the other tiles are indistinguishable; moves of other tiles are
//! free. As every move moves one tile of one group, the tables' sum is a lower bound on the
//! whole. A table keeps, half a byte an entry, how far that bound exceeds the group's
//! Manhattan distance, halved (the two have the same parity): the 8-tile table of the 7-8
//! split has 16!/8! = 518,918,400 entries, 247 MiB.
//!
//! Reflection: on square boards the position mirrored across the main diagonal, each tile
//! renamed to the tile whose goal is the mirror of its goal, needs as many moves (the goal,
//! tiles in order with the blank last, mirrors onto itself: the blank's cell is on the
//! diagonal), so the larger of the two sums is a lower bound too. The mirrored position has the
//! same Manhattan distance, so the bound is Manhattan plus twice the larger sum of entries.
//!
//! Tables come from the process's [`TableStore`] (a mapped file of the cache folder) when it
//! keeps them; the small ones are built in the search otherwise, the 7-8 and 6-6-6-6 ones never
//! (minutes and gigabytes): a search without them uses the small ones and says so.

mod build;
mod rank;
mod spec;
mod store;
#[cfg(test)]
mod tests;

use std::sync::{Arc, Mutex, OnceLock};

use parlor_shared::klotski::Puzzle;

pub use build::{BuildProgress, build_tables};
use rank::{Placement, cell_bits, nibble, rank};
pub use spec::MAX_CELLS;
use spec::MAX_GROUPS;
pub use spec::TableSpec;
pub(crate) use spec::applies;
use store::table_store;
pub use store::{TableData, TableStore, set_table_store};

/// Where a piece's cell sits in the lookups: its group and the bit shift of its slot.
#[derive(Clone, Copy, Default)]
struct Slot {
    group: u8,
    shift: u8,
}

/// A position's placements (per group, direct and reflected) and what the tables say of them,
/// updated move by move: a move changes one placement of each lookup, so it costs two table
/// reads instead of all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Indices {
    direct: [Placement; MAX_GROUPS],
    reflected: [Placement; MAX_GROUPS],
    /// Each group's entry for its placement, and their sums.
    direct_entries: [u8; MAX_GROUPS],
    reflected_entries: [u8; MAX_GROUPS],
    manhattan: u32,
    direct_extra: u32,
    reflected_extra: u32,
}

impl Indices {
    /// Whether every tile is home.
    #[inline]
    pub fn at_goal(&self) -> bool {
        self.manhattan == 0
    }
}

/// The tables of one set, ready for lookups.
pub struct PatternDatabases {
    spec: TableSpec,
    data: TableData,
    cells: u32,
    /// Tiles of each group.
    tiles: [usize; MAX_GROUPS],
    /// Each piece's slot in the direct lookup.
    direct: [Slot; MAX_CELLS],
    /// On square boards, each cell's mirror across the main diagonal, and each piece's slot in
    /// the reflected lookup (where it stands in for the tile whose goal is its goal's mirror).
    reflect: Option<([u8; MAX_CELLS], [Slot; MAX_CELLS])>,
    /// `distance[piece][cell]`: Manhattan distance of the piece on `cell` from its goal.
    distance: [[u8; MAX_CELLS]; MAX_CELLS],
}

/// Which tables a search asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wanted {
    /// The best kept (7-8 on 4x4, 6-6-6-6 on 5x5), else those a search builds.
    Best,
    /// Those a search builds (6-6-3 on 4x4, 5-5-5-5-4 on 5x5).
    Small,
}

impl PatternDatabases {
    /// The tables for `puzzle`'s board, loaded or built on first use and kept for the
    /// process; `None` if they do not apply.
    pub(crate) fn for_puzzle(puzzle: &Puzzle, wanted: Wanted) -> Option<Arc<PatternDatabases>> {
        type Cache = Mutex<Vec<Arc<PatternDatabases>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        if !applies(puzzle) {
            return None;
        }
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let specs = match wanted {
            Wanted::Best => TableSpec::all(rows, cols),
            Wanted::Small => vec![TableSpec::on_demand(rows, cols)],
        };
        // Held while loading or building, so two searches needing the same tables get them once.
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut missing: Option<(TableSpec, String)> = None;
        for spec in specs {
            if let Some(databases) = cache.iter().find(|databases| databases.spec == spec) {
                return Some(Arc::clone(databases));
            }
            let kept = match table_store().map(|store| store.load(&spec)) {
                Some(Ok(data)) if data.lengths() == spec.table_bytes() => Ok(data),
                Some(Ok(_)) => Err("of other sizes".to_string()),
                Some(Err(why)) => Err(why),
                None => Err("not kept (no table store)".to_string()),
            };
            let data = match kept {
                Ok(data) => data,
                Err(why) if spec.built_in_search() => {
                    let data = TableData::built(build_tables(&spec, &|_| {}));
                    if let Some(store) = table_store() {
                        if missing.is_none() {
                            store.note(&format!(
                                "the {} pattern tables are {why}; this process built them \
                                 (and kept them)",
                                spec.label()
                            ));
                        }
                        store.save(&spec, &data);
                    }
                    data
                }
                Err(why) => {
                    missing = Some((spec, why));
                    continue;
                }
            };
            if let (Some((wanted, why)), Some(store)) = (&missing, table_store()) {
                store.note(&format!(
                    "the {} pattern tables are {why}; using the {} tables instead, a slower \
                     search (`client klotski tables build` builds the {} ones, once)",
                    wanted.label(),
                    spec.label(),
                    wanted.name()
                ));
            }
            let databases = Arc::new(PatternDatabases::new(spec, data));
            cache.push(Arc::clone(&databases));
            return Some(databases);
        }
        None
    }

    /// The databases of `spec` over `data` (of [`TableSpec::table_bytes`]).
    fn new(spec: TableSpec, data: TableData) -> PatternDatabases {
        let (rows, cols) = (spec.rows, spec.cols);
        let mut direct = [Slot::default(); MAX_CELLS];
        let mut tiles = [0; MAX_GROUPS];
        let bits = cell_bits(u32::from(spec.cells())) as u8;
        for (group, pieces) in spec.groups().iter().enumerate() {
            tiles[group] = pieces.len();
            for (slot, &piece) in pieces.iter().enumerate() {
                direct[usize::from(piece)] = Slot {
                    group: group as u8,
                    shift: bits * slot as u8,
                };
            }
        }
        let cells = rows * cols;
        let reflect = (rows == cols).then(|| {
            let mut mirror = [0u8; MAX_CELLS];
            let mut reflected = [Slot::default(); MAX_CELLS];
            for cell in 0..cells {
                mirror[usize::from(cell)] = (cell % cols) * cols + cell / cols;
            }
            for piece in 0..cells - 1 {
                reflected[usize::from(piece)] = direct[usize::from(mirror[usize::from(piece)])];
            }
            (mirror, reflected)
        });
        let mut distance = [[0u8; MAX_CELLS]; MAX_CELLS];
        for (piece, row) in distance.iter_mut().enumerate().take(usize::from(cells) - 1) {
            for (cell, entry) in row.iter_mut().enumerate().take(usize::from(cells)) {
                let (dr, dc) = (
                    (cell / usize::from(cols)).abs_diff(piece / usize::from(cols)),
                    (cell % usize::from(cols)).abs_diff(piece % usize::from(cols)),
                );
                *entry = (dr + dc) as u8;
            }
        }
        PatternDatabases {
            spec,
            data,
            cells: u32::from(cells),
            tiles,
            direct,
            reflect,
            distance,
        }
    }

    /// The set these tables are.
    pub fn spec(&self) -> &TableSpec {
        &self.spec
    }

    /// Lookups with the tables' bytes borrowed once (for a whole search).
    pub fn lookup(&self) -> Lookup<'_> {
        // Called for every move by the general searches: no allocation.
        let mut tables: [&[u8]; MAX_GROUPS] = [&[]; MAX_GROUPS];
        for (index, slot) in tables.iter_mut().enumerate().take(self.spec.groups().len()) {
            *slot = self.data.table(index);
        }
        Lookup {
            databases: self,
            tables,
        }
    }
}

/// The tables of one search.
pub struct Lookup<'a> {
    databases: &'a PatternDatabases,
    tables: [&'a [u8]; MAX_GROUPS],
}

impl Lookup<'_> {
    /// The indices of the position with these top-left cells (piece `i` = tile `i + 1`).
    pub fn indices(&self, tops: &[u8]) -> Indices {
        let databases = self.databases;
        let mut indices = Indices::default();
        for (piece, &top) in tops.iter().enumerate() {
            let slot = databases.direct[piece];
            indices.direct[usize::from(slot.group)] |= u32::from(top) << slot.shift;
            if let Some((mirror, reflected)) = &databases.reflect {
                let slot = reflected[piece];
                indices.reflected[usize::from(slot.group)] |=
                    u32::from(mirror[usize::from(top)]) << slot.shift;
            }
            indices.manhattan += u32::from(databases.distance[piece][usize::from(top)]);
        }
        for group in 0..databases.spec.groups().len() {
            indices.direct_entries[group] = self.entry(group, indices.direct[group]);
            indices.direct_extra += u32::from(indices.direct_entries[group]);
            if databases.reflect.is_some() {
                indices.reflected_entries[group] = self.entry(group, indices.reflected[group]);
                indices.reflected_extra += u32::from(indices.reflected_entries[group]);
            }
        }
        indices
    }

    /// `indices` after `piece` moved from cell `from` to cell `to`.
    #[inline]
    pub fn moved(&self, indices: &Indices, piece: usize, from: u8, to: u8) -> Indices {
        let mut next = self.moved_direct(indices, piece, from, to);
        self.moved_reflected(&mut next, piece, from, to);
        next
    }

    /// The first half of [`Lookup::moved`]: Manhattan and the direct lookup, all that
    /// [`Lookup::direct_value`] needs. The tile search reads the reflected table only for a
    /// child that the direct one leaves within the bound.
    #[inline]
    pub(crate) fn moved_direct(
        &self,
        indices: &Indices,
        piece: usize,
        from: u8,
        to: u8,
    ) -> Indices {
        let databases = self.databases;
        let mut next = *indices;
        let distance = &databases.distance[piece];
        next.manhattan = next.manhattan + u32::from(distance[usize::from(to)])
            - u32::from(distance[usize::from(from)]);
        let slot = databases.direct[piece];
        let group = usize::from(slot.group);
        next.direct[group] ^= u32::from(from ^ to) << slot.shift;
        next.direct_entries[group] = self.entry(group, next.direct[group]);
        next.direct_extra = next.direct_extra + u32::from(next.direct_entries[group])
            - u32::from(indices.direct_entries[group]);
        next
    }

    /// The second half of [`Lookup::moved`]: brings the reflected lookup of `next` (as
    /// [`Lookup::moved_direct`] left it, still before the move) to after the same move.
    #[inline]
    pub(crate) fn moved_reflected(&self, next: &mut Indices, piece: usize, from: u8, to: u8) {
        if let Some((mirror, reflected)) = &self.databases.reflect {
            let slot = reflected[piece];
            let group = usize::from(slot.group);
            let before = next.reflected_entries[group];
            let change = mirror[usize::from(from)] ^ mirror[usize::from(to)];
            next.reflected[group] ^= u32::from(change) << slot.shift;
            next.reflected_entries[group] = self.entry(group, next.reflected[group]);
            next.reflected_extra =
                next.reflected_extra + u32::from(next.reflected_entries[group]) - u32::from(before);
        }
    }

    /// The lower bound of the direct lookup alone, at most [`Lookup::value`] and of the same
    /// parity.
    #[inline]
    pub(crate) fn direct_value(&self, indices: &Indices) -> u32 {
        indices.manhattan + 2 * indices.direct_extra
    }

    /// The lower bound the indices give.
    #[inline]
    pub fn value(&self, indices: &Indices) -> u32 {
        indices.manhattan + 2 * indices.direct_extra.max(indices.reflected_extra)
    }

    #[inline]
    fn entry(&self, group: usize, placement: Placement) -> u8 {
        let databases = self.databases;
        let index = rank(placement, databases.tiles[group], databases.cells);
        nibble(self.tables[group], index)
    }
}
