use std::time::{Duration, SystemTime};

use parlor_engines::klotski::build_tables;

use super::*;

fn small() -> (TableSpec, Vec<Vec<u8>>) {
    let spec = TableSpec::on_demand(3, 3);
    let tables = build_tables(&spec, &|_| {});
    (spec, tables)
}

fn slices(tables: &[Vec<u8>]) -> Vec<&[u8]> {
    tables.iter().map(Vec::as_slice).collect()
}

fn mapped(cache: &TableCache, spec: &TableSpec) -> Result<Vec<Vec<u8>>, String> {
    (cache.map(spec)).map(|data| data.tables().iter().map(|table| table.to_vec()).collect())
}

#[test]
fn kept_tables_come_back_mapped_and_damaged_foreign_or_other_files_are_refused() {
    let folder = tempfile::tempdir().unwrap();
    let cache = TableCache::new(folder.path());
    let (spec, tables) = small();
    assert_eq!(mapped(&cache, &spec).unwrap_err(), "not built yet");
    let path = cache.write(&spec, &slices(&tables)).unwrap();
    assert!(
        path.ends_with("klotski-tables-3x3-4-4.bin"),
        "{}",
        path.display()
    );
    assert_eq!(mapped(&cache, &spec).unwrap(), tables);
    let status = cache.status();
    assert_eq!(status.len(), 1);
    assert_eq!(status[0].usable.as_deref(), Ok("3x3 4-4"));

    // One byte of a table changed: the file's time changes with it, so its record no longer
    // matches, the whole file is checked, and it is deleted as damaged.
    let good = std::fs::read(&path).unwrap();
    let mut bytes = good.clone();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(mapped(&cache, &spec).unwrap_err().contains("damaged"));
    assert!(
        !path.exists(),
        "a damaged file is deleted, so it is built again"
    );

    // Cut short, another program's file, another version, another split under this name.
    std::fs::write(&path, &good[..100]).unwrap();
    assert!(mapped(&cache, &spec).unwrap_err().contains("cut short"));
    std::fs::write(&path, b"some other program's file".repeat(200)).unwrap();
    assert_eq!(
        mapped(&cache, &spec).unwrap_err(),
        "not Parlor's table file"
    );
    let mut other_version = good.clone();
    other_version[format::MAGIC.len()] = 1;
    std::fs::write(&path, &other_version).unwrap();
    assert_eq!(mapped(&cache, &spec).unwrap_err(), "of format 1, not 2");
    let other = TableSpec::on_demand(2, 4);
    let other_tables = build_tables(&other, &|_| {});
    let other_path = cache.write(&other, &slices(&other_tables)).unwrap();
    std::fs::rename(&other_path, &path).unwrap();
    assert!(mapped(&cache, &spec).unwrap_err().contains("2x4"));
    assert!(
        cache.status()[0].usable.is_ok(),
        "a 2x4 file is fine as such"
    );
    assert_eq!(cache.clear().unwrap(), 1);
    assert!(cache.status().is_empty());
}

fn set_modified(path: &Path, time: SystemTime) {
    let file = File::options().write(true).open(path).unwrap();
    file.set_modified(time).unwrap();
}

#[test]
fn a_file_changed_behind_its_record_is_found_by_status() {
    let folder = tempfile::tempdir().unwrap();
    let cache = TableCache::new(folder.path());
    let (spec, tables) = small();
    let path = cache.write(&spec, &slices(&tables)).unwrap();
    // A byte changed and the file's time set back: what the record cannot see (a failing
    // disk would do the same). Mapping trusts it; `status` reads every byte and does not.
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    set_modified(&path, modified);
    assert!(cache.map(&spec).is_ok());
    assert!(
        cache.status()[0]
            .usable
            .as_ref()
            .unwrap_err()
            .contains("damaged")
    );
    // Once the time moves on (any write through the file system), mapping checks it whole.
    let file = File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() + Duration::from_secs(5))
        .unwrap();
    drop(file);
    assert!(cache.map(&spec).unwrap_err().contains("damaged"));
}

#[test]
fn a_file_without_a_record_is_checked_whole_once_and_recorded() {
    let folder = tempfile::tempdir().unwrap();
    let cache = TableCache::new(folder.path());
    let (spec, tables) = small();
    let path = cache.write(&spec, &slices(&tables)).unwrap();
    let record = stamp::path_of(&path);
    assert!(record.exists(), "writing verifies and records");
    std::fs::remove_file(&record).unwrap();
    assert_eq!(mapped(&cache, &spec).unwrap(), tables);
    assert!(
        record.exists(),
        "the first process to check it whole records it"
    );
}
