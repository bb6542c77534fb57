//! Memory that a server gives back. glibc's malloc serves a block above its mmap threshold
//! from a mapping of its own and unmaps it when it is freed; but each such free raises the
//! threshold to that block's size (up to 32 MiB), and from then on blocks of that size come
//! from the heap, where a freed block is rarely given back to the system. The strong Magnetic
//! Cave engine's tables (4 and 8 MiB, made for each game and dropped at its end) and HER's big
//! brains then fragment the heap: 345 AI games at 1 ms a move left a server at 472 MiB, still
//! growing, against the 200 MB that `ai::MAX_KEPT_CAVE_ENGINES` means to allow (426 MiB with
//! a single malloc arena, so the threads' arenas are not the cause). With the threshold fixed,
//! every block of a mebibyte or more has a mapping of its own: 13 MiB after the same games.
//!
//! The price: a block of a mebibyte or more now costs a fresh mapping and its page faults each
//! time it is made. Engines are kept between moves for that reason too: AI seats past
//! `ai::MAX_KEPT_CAVE_ENGINES` share their search thread's spare engine instead of building
//! 12 MB of tables for every move (about 4 ms a move with this threshold, against 0.5 ms).

/// Blocks this large or larger get a mapping of their own, given back when they are freed.
const OWN_MAPPING_FROM: i32 = 1 << 20;

/// Fixes malloc's mmap threshold for the whole process (the client's too, when it embeds the
/// server). Elsewhere than on glibc it does nothing.
pub(crate) fn give_big_blocks_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only sets a malloc parameter; glibc takes its own locks.
        let accepted = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_MAPPING_FROM) };
        if accepted != 1 {
            tracing::warn!("malloc refused a fixed mmap threshold; freed tables may stay mapped");
        }
    }
}
