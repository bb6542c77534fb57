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
    assert_eq!(
        cache.status()[0].usable.as_ref().unwrap_err(),
        "holds the 2x4 4-3 tables under another name: not used",
        "a 2x4 file is fine as such, but not under the 3x3 tables' name"
    );
    assert_eq!(cache.clear().unwrap(), 1);
    assert!(cache.status().is_empty());
}

fn set_modified(path: &Path, time: SystemTime) {
    let file = File::options().write(true).open(path).unwrap();
    file.set_modified(time).unwrap();
}

/// Changes a byte of the file at `path` and sets its time back: what the record cannot see
/// (a failing disk would do the same).
fn damage_behind_the_record(path: &Path) {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(path, &bytes).unwrap();
    set_modified(path, modified);
}

#[test]
fn a_file_changed_behind_its_record_is_found_by_status_and_deleted() {
    let folder = tempfile::tempdir().unwrap();
    let cache = TableCache::new(folder.path());
    let (spec, tables) = small();
    let path = cache.write(&spec, &slices(&tables)).unwrap();
    damage_behind_the_record(&path);
    // Mapping trusts the record; `status` reads every byte, and deletes the file so that no
    // search trusts it again.
    assert!(cache.map(&spec).is_ok());
    let usable = cache.status().remove(0).usable;
    assert!(
        usable.as_ref().unwrap_err().contains("damaged"),
        "{usable:?}"
    );
    assert!(usable.unwrap_err().contains("deleted"));
    assert!(!path.exists());
    assert_eq!(mapped(&cache, &spec).unwrap_err(), "not built yet");

    // Once the time moves on (any write through the file system), mapping checks it whole.
    let path = cache.write(&spec, &slices(&tables)).unwrap();
    damage_behind_the_record(&path);
    set_modified(&path, SystemTime::now() + Duration::from_secs(5));
    assert!(cache.map(&spec).unwrap_err().contains("damaged"));
}

/// `status` deletes a file whose header is damaged as it deletes one whose tables are.
#[test]
fn a_table_file_with_a_damaged_header_is_deleted_by_status() {
    let folder = tempfile::tempdir().unwrap();
    let cache = TableCache::new(folder.path());
    let (spec, tables) = small();
    let path = cache.write(&spec, &slices(&tables)).unwrap();
    let written = std::fs::read(&path).unwrap();
    for damage in [b"junk".to_vec(), written[..written.len() - 1].to_vec()] {
        std::fs::write(&path, damage).unwrap();
        let usable = cache.status().remove(0).usable;
        assert!(usable.unwrap_err().contains("deleted"));
        assert!(!path.exists(), "deleted, to be built again");
    }
}

#[test]
fn a_cache_checking_whole_refuses_a_file_damaged_behind_its_record_at_once() {
    let folder = tempfile::tempdir().unwrap();
    let (spec, tables) = small();
    let path = TableCache::new(folder.path())
        .write(&spec, &slices(&tables))
        .unwrap();
    let checking = TableCache::new(folder.path()).checking_whole();
    assert_eq!(
        mapped(&checking, &spec).unwrap(),
        tables,
        "a sound file is used"
    );
    damage_behind_the_record(&path);
    assert!(checking.map(&spec).unwrap_err().contains("damaged"));
    assert!(!path.exists(), "deleted, to be built again");
}

/// Builds of the same tables at once each write a file of their own (the last rename wins),
/// what builds cut short leave is cleared, and a folder where the file should be is refused
/// in words.
#[test]
fn writers_at_once_do_not_collide_and_clear_takes_their_leftovers() {
    let folder = tempfile::tempdir().unwrap();
    let cache = TableCache::new(folder.path());
    let (spec, tables) = small();
    std::thread::scope(|scope| {
        let writers: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| cache.write(&spec, &slices(&tables))))
            .collect();
        for writer in writers {
            writer.join().unwrap().unwrap();
        }
    });
    assert_eq!(mapped(&cache, &spec).unwrap(), tables);
    let leftover = folder.path().join("klotski-tables-3x3-4-4.bin.1234-0.new");
    std::fs::write(&leftover, b"cut short").unwrap();
    assert_eq!(cache.clear().unwrap(), 1);
    assert!(!leftover.exists());
    assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 0);

    std::fs::create_dir(cache.file(&spec)).unwrap();
    let refused = mapped(&cache, &spec).unwrap_err();
    assert!(refused.ends_with("is not a file"), "{refused}");
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
