//! The static open box of the `balls` and `boxes` scenes (peer README, scene `balls`):
//! inner side `W = s·h + 2`, half-width `a = W/2`, wall thickness 1,
//! wall height `H = 2·(1.0 + (layers − 1)·h) + 10`;
//! ground: half-extents (a+1, 0.5, a+1) centred (0, −0.5, 0) — top face at y = 0;
//! walls at x = ±(a+0.5): half-extents (0.5, H/2, a+1), centre (±(a+0.5), H/2, 0);
//! walls at z = ±(a+0.5): half-extents (a+1, H/2, 0.5), centre (0, H/2, ±(a+0.5)).
//! Inner wall faces are at x = ±a, z = ±a; all colliders friction 0.5, restitution 0.5.

use super::{BodySpec, Region};

/// The container: an open box whose floor's top face is at y = 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Container {
    /// Half the inner side `a` (metres): inner wall faces at x = ±a and z = ±a.
    pub half_width: f64,
    /// Wall height `H` (metres), from y = 0.
    pub height: f64,
}

impl Container {
    /// The container of a lattice with side `s`, spacing `h` and `layers` layers (peer README).
    pub fn for_lattice(side: usize, spacing: f64, layers: usize) -> Self {
        let inner = side as f64 * spacing + 2.0;
        let height = 2.0 * (1.0 + (layers.max(1) - 1) as f64 * spacing) + 10.0;
        Self {
            half_width: inner / 2.0,
            height,
        }
    }

    /// The five static cuboids, in the order ground, wall −x, wall +x, wall −z, wall +z.
    pub fn colliders(&self) -> [BodySpec; 5] {
        let a = self.half_width;
        let h2 = self.height / 2.0;
        let wall = a + 0.5;
        [
            BodySpec::static_cuboid([a + 1.0, 0.5, a + 1.0], [0.0, -0.5, 0.0]),
            BodySpec::static_cuboid([0.5, h2, a + 1.0], [-wall, h2, 0.0]),
            BodySpec::static_cuboid([0.5, h2, a + 1.0], [wall, h2, 0.0]),
            BodySpec::static_cuboid([a + 1.0, h2, 0.5], [0.0, h2, -wall]),
            BodySpec::static_cuboid([a + 1.0, h2, 0.5], [0.0, h2, wall]),
        ]
    }

    /// The inside of the container: |x| ≤ a, |z| ≤ a, y ≥ 0 (no lid). A body centre outside
    /// it has escaped (through a wall or the floor).
    pub fn inside(&self) -> Region {
        let a = self.half_width;
        Region {
            min: [-a, 0.0, -a],
            max: [a, f64::INFINITY, a],
        }
    }
}
