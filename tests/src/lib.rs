//! Integration tests across Tumble's crates live in `tests/`.
