//! Integration tests across Tumble's crates live in `tests/`.

#![warn(missing_docs)]

pub mod fuzz_checks;
