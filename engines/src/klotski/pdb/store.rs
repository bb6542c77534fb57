//! Keeping tables between processes. Engines do no I/O: a program sets a [`TableStore`] (the
//! client and the server set one over the cache folder, which maps its files), and the tables
//! come back as [`TableData`], bytes owned by whatever holds them: a mapped file or a vector.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use super::spec::TableSpec;

/// The bytes of one set's tables: one owner (a mapped file, or the vectors of a build) and
/// where each table lies in it.
#[derive(Clone)]
pub struct TableData {
    owner: Arc<dyn AsRef<[u8]> + Send + Sync>,
    ranges: Vec<Range<usize>>,
}

impl std::fmt::Debug for TableData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableData({:?} bytes)", self.lengths())
    }
}

impl TableData {
    /// Tables at `ranges` of `owner`'s bytes (a mapped file: its header, then the tables).
    /// `None` when a range lies outside them.
    pub fn new(
        owner: Arc<dyn AsRef<[u8]> + Send + Sync>,
        ranges: Vec<Range<usize>>,
    ) -> Option<TableData> {
        let len = (*owner).as_ref().len();
        (ranges
            .iter()
            .all(|range| range.start <= range.end && range.end <= len))
        .then_some(TableData { owner, ranges })
    }

    /// Tables just built, one vector each.
    pub fn built(tables: Vec<Vec<u8>>) -> TableData {
        let mut ranges = Vec::with_capacity(tables.len());
        let mut bytes = Vec::with_capacity(tables.iter().map(Vec::len).sum());
        for table in tables {
            ranges.push(bytes.len()..bytes.len() + table.len());
            bytes.extend(table);
        }
        TableData {
            owner: Arc::new(bytes),
            ranges,
        }
    }

    /// Each table's length in bytes.
    pub fn lengths(&self) -> Vec<usize> {
        self.ranges.iter().map(Range::len).collect()
    }

    /// The tables' bytes, each.
    pub fn tables(&self) -> Vec<&[u8]> {
        (0..self.ranges.len())
            .map(|index| self.table(index))
            .collect()
    }

    /// Table `index`'s bytes.
    #[inline]
    pub fn table(&self, index: usize) -> &[u8] {
        &(*self.owner).as_ref()[self.ranges[index].clone()]
    }
}

/// Keeps the tables of a board size between processes.
pub trait TableStore: Send + Sync {
    /// The tables of `spec` as they were kept, or why there are none to use (not built yet,
    /// damaged, of another version): never trusted unchecked.
    fn load(&self, spec: &TableSpec) -> Result<TableData, String>;
    /// Keeps tables just built.
    fn save(&self, spec: &TableSpec, tables: &TableData);
    /// Tells the person something the search did about its tables (the client writes it to
    /// standard error, the server to its log).
    fn note(&self, text: &str);
}

static STORE: OnceLock<Box<dyn TableStore>> = OnceLock::new();

/// Sets the process's table store, once (a later call changes nothing).
pub fn set_table_store(store: Box<dyn TableStore>) {
    let _ = STORE.set(store);
}

pub(crate) fn table_store() -> Option<&'static dyn TableStore> {
    STORE.get().map(Box::as_ref)
}
