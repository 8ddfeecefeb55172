//! The solver against physics and against rapier3d 0.36 on the same set-ups (60 Hz, default
//! configuration, the figures of rapier measured with its default integration parameters):
//! stacks that stand, heavy bodies on light ones, friction that opposes sliding, angular
//! momentum of free bodies, bounces with the right restitution, and drawing between steps.

mod common;
use common::*;
use tumble::math::{Isometry, Matrix, Real, Rotation, Vector};
use tumble::narrowphase::shape::{Cuboid, Shape};
use tumble::{BodyBuilder, BodyHandle, World, WorldConfig};

const DT: Real = 1.0 / 60.0;

/// A world with default configuration and gravity (0, −9.81, 0).
fn world() -> World {
    World::new(WorldConfig::default()).unwrap()
}

/// Steps `w` for `seconds` of simulated time.
fn run(w: &mut World, seconds: Real) {
    for _ in 0..(seconds / DT).round() as usize {
        w.step();
    }
}

fn centre(w: &World, h: BodyHandle) -> Vector {
    w.body(h).unwrap().translation()
}

/// A tower of `n` unit cubes (mass 1 kg, friction 0.6) on a floor, faces touching; returns
/// the cubes bottom-up.
fn tower(w: &mut World, n: usize) -> Vec<BodyHandle> {
    add_floor(w, 0.6, 0.0);
    (0..n)
        .map(|k| {
            w.insert(
                cuboid(Vector::repeat(0.5), Vector::new(0.0, 0.5 + k as Real, 0.0)).friction(0.6),
            )
            .unwrap()
        })
        .collect()
}

/// (how far the top cube sank, the largest horizontal drift of a cube), metres, after
/// `seconds` of a tower of `n` cubes, without sleeping: what is measured is the solver's own
/// motion of the tower (a tower of 5 sways by about ±1.5 mm at the top with a period of a
/// quarter second), which an island falling asleep after half a second would freeze at
/// whatever phase it had then.
fn tower_sag_and_drift(n: usize, seconds: Real) -> (Real, Real) {
    let mut w = World::new(WorldConfig {
        sleep: false,
        ..WorldConfig::default()
    })
    .unwrap();
    let cubes = tower(&mut w, n);
    let start: Vec<Vector> = cubes.iter().map(|&c| centre(&w, c)).collect();
    run(&mut w, seconds);
    let top = *cubes.last().unwrap();
    let sag = start.last().unwrap().y - centre(&w, top).y;
    let drift = cubes
        .iter()
        .zip(&start)
        .map(|(&c, s)| {
            let d = centre(&w, c) - s;
            (d.x * d.x + d.z * d.z).sqrt()
        })
        .fold(0.0, Real::max);
    (sag, drift)
}

/// Stacks of 5, 10 and 20 unit cubes stand for 5 s and sag less than rapier's stacks
/// (0.6 / 2.5 / 10.6 cm; Tumble 0.17 / 0.69 / 2.8 cm). They drift sideways less than 1 mm
/// (5 and 10 cubes; rapier ≤ 6 mm) and 1 cm (20 cubes; measured 7.9 mm).
#[test]
fn stacks_of_5_10_20_cubes_stand_and_sag_less_than_rapier() {
    for (n, rapier_sag, max_drift) in [(5, 0.006, 1e-3), (10, 0.025, 1e-3), (20, 0.106, 0.01)] {
        let (sag, drift) = tower_sag_and_drift(n, 5.0);
        println!("stack of {n}: sag {sag:.4} m (rapier {rapier_sag}), drift {drift:.5} m");
        assert!(
            sag < rapier_sag,
            "stack of {n}: sag {sag} m (rapier {rapier_sag})"
        );
        assert!(drift < max_drift, "stack of {n}: drift {drift} m");
    }
}

/// A square pyramid of unit cubes (layers of b², (b−1)², … cubes, pitch 1.01) stands: the cube
/// that moves most in 10 s moves less than rapier's 0.7 cm (measured 0.21 cm).
#[test]
fn pyramid_of_base_10_stands() {
    let b = 10;
    let mut w = world();
    add_floor(&mut w, 0.6, 0.0);
    let mut cubes = Vec::new();
    for k in 0..b {
        let side = b - k;
        for iz in 0..side {
            for ix in 0..side {
                let off = (side - 1) as Real / 2.0;
                let at = Vector::new(
                    (ix as Real - off) * 1.01,
                    0.5 + k as Real,
                    (iz as Real - off) * 1.01,
                );
                cubes.push((
                    w.insert(cuboid(Vector::repeat(0.5), at).friction(0.6))
                        .unwrap(),
                    at,
                ));
            }
        }
    }
    run(&mut w, 10.0);
    let moved = cubes
        .iter()
        .map(|&(c, at)| (centre(&w, c) - at).norm())
        .fold(0.0, Real::max);
    println!("pyramid base {b}: max displacement {moved:.4} m");
    assert!(moved < 0.007, "max displacement {moved} m");
}

/// A cube of `density` kg/m³ (a unit cube: that many kg) resting on a 1 kg cube on the floor,
/// after 5 s: (how far the heavy cube moved, how far the light one sank), metres; the heavy
/// cube must still be on top of the light one (less than 10 cm aside).
fn heavy_on_light(density: Real) -> (Real, Real) {
    let mut w = world();
    add_floor(&mut w, 0.6, 0.0);
    let light = w
        .insert(cuboid(Vector::repeat(0.5), Vector::new(0.0, 0.5, 0.0)).friction(0.6))
        .unwrap();
    let heavy = w
        .insert(
            cuboid(Vector::repeat(0.5), Vector::new(0.0, 1.5, 0.0))
                .friction(0.6)
                .density(density),
        )
        .unwrap();
    run(&mut w, 5.0);
    let moved = (centre(&w, heavy) - Vector::new(0.0, 1.5, 0.0)).norm();
    let sunk = 0.5 - centre(&w, light).y;
    let apart = centre(&w, heavy) - centre(&w, light);
    let aside = apart.x.hypot(apart.z);
    println!(
        "{density} kg on 1 kg: heavy moved {moved:.4} m, {aside:.4} m aside of the light cube; \
         light sank {sunk:.4} m"
    );
    assert!(
        apart.y > 0.8 && aside < 0.1,
        "the heavy cube fell off: {apart:?}"
    );
    (moved, sunk)
}

/// A 100 kg cube resting on a 1 kg cube on the floor: the light cube holds it (rapier: stable);
/// the heavy cube moves less than 3 cm in 5 s (measured 1.6 cm: the soft contacts' deflection
/// `W/(m·ω²)`).
#[test]
fn hundred_kilogram_cube_rests_on_one_kilogram_cube() {
    let (moved, _) = heavy_on_light(100.0);
    assert!(moved < 0.03, "heavy cube moved {moved} m");
}

/// A 1 000 kg cube on a 1 kg cube on the floor stays stacked: after 5 s the heavy cube is
/// still on top, within 10 cm sideways of the light one (measured 3.9 cm), and the light cube has
/// sunk into the floor by the soft contact's static deflection `W/(m·ω²)` within 10 %: W the
/// weight it carries (1 001 kg·g), m its own mass (1 kg: against the static floor the contact
/// moves the light cube only), ω = 2π·60 Hz (`contact_hertz`, which is also the cap of a
/// quarter of the substep rate): 6.9 cm, measured 7.0 cm. The soft step's stiffness scales
/// with the effective mass of the contact, as in Box2D v3's; more substeps raise the cap
/// (8 substeps: 1.7 cm). (The 100 kg cube of the test above sinks its light cube by the same
/// law: 0.69 cm predicted, 0.67 cm measured.)
#[test]
fn tonne_on_one_kilogram_cube_stays_stacked_and_sinks_by_the_soft_deflection() {
    let (_, sunk) = heavy_on_light(1000.0);
    let omega = 2.0 * std::f32::consts::PI * 60.0;
    let predicted = 1001.0 * 9.81 / (1.0 * omega * omega);
    assert!(
        (sunk - predicted).abs() < 0.1 * predicted,
        "light cube sank {sunk} m, the soft deflection is {predicted} m"
    );
}

/// A cube resting on the floor sinks less than 0.1 mm (measured 0.069 mm; rapier 0.07 mm).
#[test]
fn cube_resting_on_the_floor_sinks_less_than_a_tenth_of_a_millimetre() {
    let mut w = world();
    add_floor(&mut w, 0.6, 0.0);
    let c = w
        .insert(cuboid(Vector::repeat(0.5), Vector::new(0.0, 0.5, 0.0)).friction(0.6))
        .unwrap();
    run(&mut w, 5.0);
    let sunk = 0.5 - centre(&w, c).y;
    println!("resting cube sank {sunk:.6} m");
    assert!(sunk < 1e-4, "sank {sunk} m");
}

/// A cube sliding down a 30° incline with μ = 0.3: it slides straight (sideways drift under
/// 1 mm, turning under 0.1°) and accelerates at `g(sin θ − μ cos θ)` within 1 %.
#[test]
fn cube_slides_straight_down_an_incline_at_the_coulomb_acceleration() {
    let theta: Real = 30.0_f32.to_radians();
    let mu = 0.3;
    let mut w = world();
    // The incline: a static slab rotated about z, its top face through the origin.
    let tilt = Rotation::from_axis_angle(&Vector::z_axis(), theta);
    let slab_centre = tilt * Vector::new(0.0, -0.5, 0.0);
    w.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(50.0, 0.5, 5.0)).unwrap())
            .translation(slab_centre)
            .rotation(tilt)
            .friction(mu),
    )
    .unwrap();
    let start = tilt * Vector::new(0.0, 0.5, 0.0);
    let c = w
        .insert(
            cuboid(Vector::new(0.5, 0.5, 0.5), start)
                .rotation(tilt)
                .friction(mu),
        )
        .unwrap();
    // Let it settle onto the slope, then time the slide.
    run(&mut w, 0.5);
    let down = tilt * -Vector::x();
    let side = Vector::z();
    let (p0, v0) = (centre(&w, c), w.body(c).unwrap().linvel().dot(&down));
    let q0 = w.body(c).unwrap().rotation();
    let seconds = 2.0;
    run(&mut w, seconds);
    let (p1, v1) = (centre(&w, c), w.body(c).unwrap().linvel().dot(&down));
    let a = (v1 - v0) / seconds;
    let expected = 9.81 * (theta.sin() - mu * theta.cos());
    let drift = (p1 - p0).dot(&side).abs();
    let turn = w.body(c).unwrap().rotation().angle_to(&q0).to_degrees();
    println!("incline: a = {a:.4} (expected {expected:.4}), drift {drift:.5} m, turn {turn:.3}°");
    assert!(
        (a - expected).abs() < 0.01 * expected,
        "a = {a}, expected {expected}"
    );
    assert!(drift < 1e-3, "drift {drift} m");
    assert!(turn < 0.1, "turned {turn}°");
}

/// Angular momentum `I_world·ω` of a free cuboid of half-extents (0.1, 0.3, 0.6), density 1.
fn angular_momentum(w: &World, h: BodyHandle, local_inertia: &Matrix) -> Vector {
    let b = w.body(h).unwrap();
    let r = b.rotation().to_rotation_matrix();
    r.matrix() * local_inertia * r.matrix().transpose() * b.angvel()
}

fn free_box(w: &mut World, omega: Vector) -> (BodyHandle, Matrix) {
    let he = Vector::new(0.1, 0.3, 0.6);
    let shape = Shape::from(Cuboid::new(he).unwrap());
    let (_, inertia) = tumble::mass_properties(&shape, 1.0);
    let h = w
        .insert(cuboid(he, Vector::new(0.0, 5.0, 0.0)).angvel(omega))
        .unwrap();
    (h, inertia)
}

/// A free cuboid of half-extents (0.1, 0.3, 0.6) spun about (1, 2, 3) rad/s without gravity
/// keeps its angular momentum within 0.1 % for 10 s (measured 0.005 %; rapier 0.65 %).
#[test]
fn free_spinning_cuboid_keeps_its_angular_momentum() {
    let mut w = world_with_gravity(Vector::zeros());
    let (h, inertia) = free_box(&mut w, Vector::new(1.0, 2.0, 3.0));
    let l0 = angular_momentum(&w, h, &inertia);
    let mut worst: Real = 0.0;
    for _ in 0..600 {
        w.step();
        let l = angular_momentum(&w, h, &inertia);
        worst = worst.max((l - l0).norm() / l0.norm());
    }
    println!("angular momentum: worst relative error {worst:.5}");
    assert!(worst < 1e-3, "angular momentum off by {}", worst);
}

/// The same cuboid spun about its intermediate axis (y) with a small perturbation flips
/// within 10 s (the tennis-racket effect): its y-axis turns through more than 90°.
#[test]
fn cuboid_spun_about_its_intermediate_axis_flips() {
    let mut w = world_with_gravity(Vector::zeros());
    let (h, _) = free_box(&mut w, Vector::new(0.01, 5.0, 0.01));
    let mut flipped = false;
    for _ in 0..600 {
        w.step();
        let y = w.body(h).unwrap().rotation() * Vector::y();
        flipped |= y.y < 0.0;
    }
    assert!(flipped, "never flipped");
}

/// Height of the next apex of a ball bouncing on the floor (restitution `e` for both).
fn apexes(e: Real, drop: Real, steps: usize) -> Vec<Real> {
    let mut w = world();
    add_floor(&mut w, 0.0, e);
    let r = 0.1;
    let b = w
        .insert(
            ball(r, Vector::new(0.0, drop + r, 0.0))
                .restitution(e)
                .friction(0.0),
        )
        .unwrap();
    let mut out = Vec::new();
    let mut prev_v = 0.0;
    for _ in 0..steps {
        w.step();
        let v = w.body(b).unwrap().linvel().y;
        if prev_v > 0.0 && v <= 0.0 {
            out.push(centre(&w, b).y - r);
        }
        prev_v = v;
    }
    out
}

/// A ball dropped from 1 m with e = 0.25, 0.5, 0.75 rises to within 3 % of `e²·h` (measured
/// 1.3, 0.2 and 0.2 % below; rapier 8.3, 3.5 and 2.3 % below).
#[test]
fn bounce_apex_matches_e_squared() {
    for e in [0.25, 0.5, 0.75] {
        let first = apexes(e, 1.0, 200)[0];
        let expected = e * e;
        println!("e = {e}: apex {first:.4} (e² = {expected})");
        assert!(
            (first - expected).abs() < 0.03 * expected,
            "e = {e}: apex {first}"
        );
    }
}

/// A ball with e = 1 keeps its apex within 1 % over 10 000 steps (measured 0.9985 m first,
/// 0.9902 m last; rapier loses 2 %).
#[test]
fn elastic_ball_keeps_its_apex() {
    let a = apexes(1.0, 1.0, 10_000);
    let (first, last) = (a[0], *a.last().unwrap());
    println!(
        "e = 1: first apex {first:.4}, last {last:.4}, {} bounces",
        a.len()
    );
    assert!(
        (first - 1.0).abs() < 0.01 && (last - 1.0).abs() < 0.01,
        "{first} … {last}"
    );
}

/// Four balls with e = 1 in a closed box without gravity (restitution at every approach speed:
/// threshold 0) keep their kinetic energy within 0.1 % for 10 s.
#[test]
fn elastic_balls_in_a_box_keep_their_energy() {
    let mut w = World::new(WorldConfig {
        gravity: Vector::zeros(),
        restitution_threshold: 0.0,
        ..WorldConfig::default()
    })
    .unwrap();
    add_closed_box(&mut w, 2.0, 1.0, 0.0);
    let balls: Vec<BodyHandle> = [
        (Vector::new(-1.0, 0.0, 0.0), Vector::new(3.0, 0.7, 0.0)),
        (Vector::new(1.0, 0.1, 0.0), Vector::new(-3.0, 0.2, 0.5)),
        (Vector::new(0.0, 1.0, 0.5), Vector::new(0.4, -2.5, 1.0)),
        (Vector::new(0.0, -1.0, -0.5), Vector::new(-0.6, 2.0, -1.5)),
    ]
    .iter()
    .map(|&(at, v)| {
        w.insert(ball(0.3, at).linvel(v).restitution(1.0).friction(0.0))
            .unwrap()
    })
    .collect();
    let energy = |w: &World| -> Real {
        balls
            .iter()
            .map(|&b| {
                let v = w.body(b).unwrap();
                0.5 * v.mass() * v.linvel().norm_squared()
            })
            .sum()
    };
    let e0 = energy(&w);
    run(&mut w, 10.0);
    let e1 = energy(&w);
    println!("elastic balls: kinetic energy {e0:.4} → {e1:.4}");
    assert!((e1 - e0).abs() < 1e-3 * e0, "energy {e0} → {e1}");
}

/// A body turning by 10⁻⁴ rad per step is drawn half-way between its last two rotations at
/// alpha = 0.5, and exactly at its current pose at alpha = 1.
#[test]
fn render_pose_blends_small_rotations() {
    let q0 = Rotation::identity();
    let q1 = Rotation::from_axis_angle(&Vector::y_axis(), 1e-4);
    let (p0, p1) = (
        Isometry::from_parts(Vector::zeros().into(), q0),
        Isometry::from_parts(Vector::new(1.0, 2.0, 3.0).into(), q1),
    );
    let half = tumble::interpolate_pose(&p0, &p1, 0.5);
    let angle = half.rotation.angle_to(&q0);
    assert!((angle - 0.5e-4).abs() < 1e-6, "angle {angle}");
    assert_eq!(tumble::interpolate_pose(&p0, &p1, 1.0), p1);
    assert_eq!(tumble::interpolate_pose(&p0, &p1, 0.0), p0);
}
