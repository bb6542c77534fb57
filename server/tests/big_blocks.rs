//! Big blocks a server frees go back to the system: the strong Magnetic Cave engine's tables,
//! made for every game and dropped at its end, must not pile up in malloc's heap (see
//! `server/src/big_blocks.rs`). Its own test binary, since it reads the process's memory.

/// The process's resident memory, in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Makes a table as big as a strong engine's df-pn table, fills it, and drops it.
fn use_a_table() {
    let table = vec![1u8; 8 << 20];
    std::hint::black_box(&table);
}

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn a_started_server_gives_freed_tables_back_to_the_system() {
    let config = parlor_server::ServerConfig::new(([127, 0, 0, 1], 0).into(), None);
    let _server = parlor_server::start_in_background(config).unwrap();
    // The first free is what raises glibc's own threshold above the table's size: after it,
    // an unfixed malloc keeps the next table in its heap when it is freed.
    use_a_table();
    let before = resident_kib();
    for _ in 0..4 {
        use_a_table();
    }
    let after = resident_kib();
    assert!(
        after < before + 4 * 1024,
        "{} KiB more after the tables were freed",
        after - before
    );
}
