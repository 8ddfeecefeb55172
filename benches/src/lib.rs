//! Scenes and measurement helpers shared by Tumble's `stress` runner, `micro` benchmark and
//! criterion benches.

#![warn(missing_docs)]

pub mod measure;
pub mod plot;
pub mod recipe;
pub mod scenes;
pub mod sim;
