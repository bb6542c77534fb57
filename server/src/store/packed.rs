//! Brains as the store keeps them: their JSON file compressed with LZ4 (`lz4_flex`), a BLOB
//! (SQLite) or `bytea` (PostgreSQL) in the `brain` column. A full 8x8 brain's file is 29 MB of JSON, and an auto match rewrites
//! both of its brains whole every few seconds on the store's one writer, where every room's
//! moves wait behind it. Rows written before are JSON text and still read.

use anyhow::{Context, bail};
use rusqlite::types::ValueRef;

/// Far above any brain file (an import holds at most 64 MiB): a damaged row's stated size is
/// refused before it is allocated.
const MOST_UNPACKED_BYTES: usize = 256 * 1024 * 1024;

/// The brain file `json`, packed for the `brain` column.
pub fn pack(json: &str) -> Vec<u8> {
    lz4_flex::compress_prepend_size(json.as_bytes())
}

/// The brain file `packed` holds.
pub fn unpack(packed: &[u8]) -> anyhow::Result<String> {
    let stated = packed
        .first_chunk::<4>()
        .map(|size| u32::from_le_bytes(*size) as usize)
        .context("a packed brain too short to hold its size")?;
    if stated > MOST_UNPACKED_BYTES {
        bail!("a packed brain that says it holds {stated} bytes");
    }
    let json = lz4_flex::decompress_size_prepended(packed)?;
    Ok(String::from_utf8(json)?)
}

/// The brain file held by a SQLite `brain` column: packed, or JSON text in rows written
/// before brains were packed.
pub fn unpack_column(column: ValueRef<'_>) -> anyhow::Result<String> {
    match column {
        ValueRef::Text(text) => Ok(std::str::from_utf8(text)?.to_owned()),
        ValueRef::Blob(packed) => unpack(packed),
        other => bail!("a brain stored as {}", other.data_type()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_file_unpacks_to_itself_and_old_text_rows_still_read() {
        let json = r#"{"format":"parlor-hexapawn-brain","boxes":{}}"#.repeat(100);
        let packed = pack(&json);
        assert!(packed.len() < json.len() / 4, "{} bytes", packed.len());
        assert_eq!(unpack_column(ValueRef::Blob(&packed)).unwrap(), json);
        assert_eq!(
            unpack_column(ValueRef::Text(json.as_bytes())).unwrap(),
            json
        );
    }

    #[test]
    fn a_damaged_packed_brain_is_an_error_not_a_huge_allocation() {
        let huge = u32::MAX.to_le_bytes();
        let refused = unpack_column(ValueRef::Blob(&huge))
            .unwrap_err()
            .to_string();
        assert!(refused.contains("says it holds"), "{refused}");
        let mut cut = pack(&"brain ".repeat(1000));
        cut.truncate(cut.len() / 2);
        assert!(unpack_column(ValueRef::Blob(&cut)).is_err());
        assert!(unpack_column(ValueRef::Blob(&[1])).is_err());
        assert!(unpack_column(ValueRef::Integer(3)).is_err());
    }
}
