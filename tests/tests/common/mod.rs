//! Random draws shared by the seeded property tests (`mod common;` in each test file that
//! uses them: the helpers need `rand`, a dev-dependency, so they stay out of the library).

use rand::Rng;
use tumble::math::Vector;

/// A unit vector drawn uniformly on the sphere (rejection from the cube: kept when the draw's
/// length is in [0.1, 1), then normalised).
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
