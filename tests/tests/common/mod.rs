//! Helpers shared by the integration tests (`mod common;` in each test file that uses them:
//! they need dev-dependencies such as `rand`, so they stay out of the library): random draws
//! for the seeded property tests, and the stored fuzz inputs of the regression tests
//! (`fuzz_inputs`).

pub mod fuzz_inputs;

use rand::Rng;
use tumble::math::Vector;

/// A unit vector drawn uniformly on the sphere (rejection from the cube: kept when the draw's
/// length is in [0.1, 1), then normalised).
#[allow(dead_code)] // each test crate compiles this module; the regression tests draw nothing
pub fn unit_vector(rng: &mut impl Rng) -> Vector {
    loop {
        let v = Vector::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        if (0.1..1.0).contains(&v.norm()) {
            return v.normalize();
        }
    }
}

/// The number of cases a property test runs: the environment variable `var` if it holds a
/// number (to run more by hand), else `default`.
#[allow(dead_code)] // each test crate compiles this module; not every one counts cases
pub fn case_count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
