//! Shared helpers of Tumble's example simulations: the output folder with clear errors
//! ([`output`]), a small 3D → 2D projection and a painter's-algorithm renderer of balls and
//! boxes into SVG ([`view`]), joints placed in world coordinates and their errors
//! ([`joints`]), and the common `main` wrapper ([`run_example`]).
//!
//! Every example runs with `cargo run --release -p tumble-examples --example NAME [-- --out DIR]`
//! and leaves its pictures in `out/NAME/` unless `--out` says otherwise.

#![warn(missing_docs)]

pub mod joints;
pub mod output;
pub mod view;

pub use output::{out_dir, OutArgs};

use std::error::Error;
use std::process::ExitCode;

/// The error every example's `run` returns: any error, shown as one line.
pub type ExampleResult<T = ()> = Result<T, Box<dyn Error>>;

/// Runs an example's body and turns an error into one clear line on stderr and exit code 1
/// (never a panic backtrace).
pub fn run_example(name: &str, body: impl FnOnce() -> ExampleResult) -> ExitCode {
    match body() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: error: {e}");
            ExitCode::FAILURE
        }
    }
}
