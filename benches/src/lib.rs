//! Scenes and measurement helpers shared by Tumble's `stress` runner, `micro` benchmark and
//! criterion benches.

pub mod recipe;
