//! Integration tests live in `tests/tests/`; the `loadgen` load generator in `src/bin/loadgen/`.
//! The library itself has no code.
