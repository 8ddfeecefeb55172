//! Ragdoll: a figure of eleven bodies — a capsule torso, a ball head, capsule upper and lower
//! arms, thighs and shins — walks off the top of a staircase of static boxes at 2 m/s and
//! tumbles down it (it starts tipping forward, as someone who tripped). The neck, shoulders and hips are spherical joints with a cone limit on the
//! limb's swing and twist limits about it; the elbows and knees are revolute joints about the
//! figure's left–right axis with angle limits (elbows bend forward, knees backward).
//!
//! Prints when the figure reached the foot of the stairs, the joints' errors (the largest
//! distance between a joint's two world anchors, at the end and at worst), and how far any
//! limit was overshot: an elbow or knee past its angle limits, a limb's axis outside its cone.
//! Leaves `ragdoll.svg`: a side view of the stairs with the figure's pose each time its torso
//! has moved 0.6 m, coloured from blue (early) to red (late) and labelled with the time, and the
//! path of the torso's centre.
//!
//! `cargo run --release -p tumble-examples --example ragdoll [-- --speed 2 --tip 1.5 --seconds 5 --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use std::process::ExitCode;
use tumble::math::{Real, Rotation, Vector};
use tumble::{
    Ball, BodyBuilder, BodyHandle, Capsule, Cuboid, JointBuilder, JointHandle, Shape, World,
    WorldConfig,
};
use tumble_examples::joints::{all_finite, anchor_gap, largest_gap, placed};
use tumble_examples::view::{draw_items, label, snapshot, svg_canvas, Camera, Look, Viewport};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// A ragdoll tumbling down a staircase.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Walking speed at the top of the stairs, m/s (0 to 10).
    #[arg(long, default_value_t = 2.0)]
    speed: f64,
    /// Forward tipping rate at the start, rad/s (0 to 10).
    #[arg(long, default_value_t = 1.5)]
    tip: f64,
    /// Simulated seconds (1 to 60).
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    #[command(flatten)]
    out: OutArgs,
}

/// Number of steps, their rise and run, metres.
const STEPS: usize = 8;
const RISE: Real = 0.3;
const RUN: Real = 0.5;
/// Distance the torso travels between two poses in the picture, metres.
const POSE_EVERY: Real = 0.6;

fn main() -> ExitCode {
    run_example("ragdoll", || run(Args::parse()))
}

/// What a joint keeps, for the overshoot figures.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Limit {
    /// A hinge's angle within `[lower, upper]`, rad.
    Hinge(Real, Real),
    /// A ball joint's swing of the axis within a cone, rad.
    Cone(Real),
}

/// A joint of the figure with what its limits should hold: the axis in A's frame and the
/// relative rotation of its bodies at insert (the zero of its angles).
struct Tracked {
    name: &'static str,
    handle: JointHandle,
    a: BodyHandle,
    b: BodyHandle,
    axis_a: Vector,
    rest: Rotation,
    limit: Limit,
}

impl Tracked {
    /// How far the joint is past its limit now, rad (0 within it).
    fn overshoot(&self, world: &World) -> Real {
        let (Some(a), Some(b)) = (world.body(self.a), world.body(self.b)) else {
            return 0.0;
        };
        let rel = a.rotation().inverse() * b.rotation();
        match self.limit {
            Limit::Hinge(lo, hi) => {
                // The twist of the rotation since insert about the axis (A's frame).
                let d = rel * self.rest.inverse();
                let q = d.quaternion();
                let angle = 2.0 * q.imag().dot(&self.axis_a).atan2(q.w);
                let angle = (angle + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
                    - std::f32::consts::PI;
                (lo - angle).max(angle - hi).max(0.0)
            }
            Limit::Cone(cone) => {
                // B's copy of the axis, in A's frame.
                let b_axis = rel * (self.rest.inverse() * self.axis_a);
                let swing = self.axis_a.dot(&b_axis).clamp(-1.0, 1.0).acos();
                (swing - cone).max(0.0)
            }
        }
    }
}

/// One body of the figure: its name, shape and centre when standing with its feet at the
/// origin, facing +x (z is its left–right axis).
fn parts() -> ExampleResult<Vec<(&'static str, Shape, Vector)>> {
    let cap = |h, r| -> ExampleResult<Shape> { Ok(Capsule::new(h, r)?.into()) };
    let mut out = vec![
        ("torso", cap(0.2, 0.14)?, Vector::new(0.0, 1.16, 0.0)),
        ("head", Ball::new(0.11)?.into(), Vector::new(0.0, 1.66, 0.0)),
    ];
    // Left (+z) then right (−z).
    for z in [1.0, -1.0] {
        out.push((
            "upper arm",
            cap(0.13, 0.05)?,
            Vector::new(0.0, 1.22, 0.24 * z),
        ));
        out.push((
            "forearm",
            cap(0.12, 0.045)?,
            Vector::new(0.0, 0.86, 0.24 * z),
        ));
        out.push(("thigh", cap(0.14, 0.07)?, Vector::new(0.0, 0.62, 0.09 * z)));
        out.push(("shin", cap(0.13, 0.06)?, Vector::new(0.0, 0.20, 0.09 * z)));
    }
    Ok(out)
}

fn run(args: Args) -> ExampleResult {
    if !(1.0..=60.0).contains(&args.seconds)
        || !(0.0..=10.0).contains(&args.speed)
        || !(0.0..=10.0).contains(&args.tip)
    {
        return Err("--seconds must be in [1, 60], --speed and --tip in [0, 10]".into());
    }
    let dir = out_dir("ragdoll", args.out.out.as_deref())?;
    let mut world = World::new(WorldConfig::default())?;

    // The stairs, 6 m wide (z), going down towards +x: a landing at the top, STEPS steps, a
    // floor.
    let top = STEPS as Real * RISE;
    let mut stairs = Vec::new();
    let mut block = |x0: Real, x1: Real, y: Real| -> ExampleResult {
        let half = Vector::new((x1 - x0) / 2.0, (y + 0.5) / 2.0, 3.0);
        stairs.push(
            world.insert(
                BodyBuilder::fixed(Cuboid::new(half)?)
                    .translation(Vector::new((x0 + x1) / 2.0, y - half.y, 0.0))
                    .friction(0.7),
            )?,
        );
        Ok(())
    };
    block(-2.0, 0.0, top)?;
    for i in 1..STEPS {
        block(
            (i - 1) as Real * RUN,
            i as Real * RUN,
            top - i as Real * RISE,
        )?;
    }
    let foot_x = (STEPS - 1) as Real * RUN;
    block(foot_x, foot_x + 4.0, 0.0)?;

    // The figure, standing on the landing 0.3 m before its edge, moving as one rigid body:
    // forward at `speed` and tipping forward about its feet at `tip`.
    let origin = Vector::new(-0.3, top + 0.005, 0.0);
    let spin = Vector::new(0.0, 0.0, -args.tip as Real);
    let mut bodies = Vec::new();
    for (_, shape, centre) in parts()? {
        bodies.push(
            world.insert(
                BodyBuilder::dynamic(shape)
                    .translation(origin + centre)
                    .linvel(Vector::new(args.speed as Real, 0.0, 0.0) + spin.cross(&centre))
                    .angvel(spin)
                    .density(1000.0)
                    .friction(0.5),
            )?,
        );
    }
    let torso = bodies[0];
    let at = |x: Real, y: Real, z: Real| origin + Vector::new(x, y, z);
    let mut tracked = Vec::new();
    let mut joint = |world: &mut World,
                     name: &'static str,
                     a: BodyHandle,
                     b: BodyHandle,
                     point: Vector,
                     axis: Vector,
                     limit: Limit|
     -> ExampleResult {
        let builder = match limit {
            Limit::Hinge(lo, hi) => {
                placed(world, JointBuilder::revolute, a, b, point, axis)?.limits(lo, hi)
            }
            Limit::Cone(cone) => placed(world, JointBuilder::spherical, a, b, point, axis)?
                .cone_limit(cone)
                .twist_limits(-0.5, 0.5),
        };
        let (ra, rb) = (
            world.body(a).ok_or("body missing")?.rotation(),
            world.body(b).ok_or("body missing")?.rotation(),
        );
        let handle = world.insert_joint(builder)?;
        tracked.push(Tracked {
            name,
            handle,
            a,
            b,
            axis_a: ra.inverse_transform_vector(&axis),
            rest: ra.inverse() * rb,
            limit,
        });
        Ok(())
    };
    let down = -Vector::y();
    joint(
        &mut world,
        "neck",
        torso,
        bodies[1],
        at(0.0, 1.53, 0.0),
        Vector::y(),
        Limit::Cone(0.6),
    )?;
    for (k, z) in [1.0, -1.0].into_iter().enumerate() {
        let [upper, fore, thigh, shin] = [0, 1, 2, 3].map(|i| bodies[2 + 4 * k + i]);
        joint(
            &mut world,
            "shoulder",
            torso,
            upper,
            at(0.0, 1.40, 0.24 * z),
            down,
            Limit::Cone(1.5),
        )?;
        joint(
            &mut world,
            "elbow",
            upper,
            fore,
            at(0.0, 1.03, 0.24 * z),
            Vector::z(),
            Limit::Hinge(0.0, 2.5),
        )?;
        joint(
            &mut world,
            "hip",
            torso,
            thigh,
            at(0.0, 0.82, 0.09 * z),
            down,
            Limit::Cone(1.3),
        )?;
        joint(
            &mut world,
            "knee",
            thigh,
            shin,
            at(0.0, 0.40, 0.09 * z),
            Vector::z(),
            Limit::Hinge(-2.4, 0.0),
        )?;
    }

    let dt = f64::from(world.config().dt);
    let steps = (args.seconds / dt).round() as usize;
    let mut poses = Vec::new();
    let mut last_pose: Option<Vector> = None;
    let mut path = Vec::new();
    let mut reached_foot = None;
    let (mut worst_gap, mut worst_at) = (0.0f32, 0.0);
    let mut overshoot: Vec<(&str, Real)> = Vec::new();
    let mut finite = true;
    for k in 0..=steps {
        let t = k as f64 * dt;
        if let Some(b) = world.body(torso) {
            let p = b.translation();
            let moved = last_pose.map_or(Real::INFINITY, |q| (p - q).norm());
            if moved >= POSE_EVERY || (k == steps && moved > 0.1) {
                poses.push((t, snapshot(&world, &bodies, |_, _| Look::Solid(BLACK))));
                last_pose = Some(p);
            }
            path.push((p.x, p.y));
            if reached_foot.is_none() && p.x > foot_x && p.y < 1.0 {
                reached_foot = Some(t);
            }
        }
        let (gap, _) = largest_gap(&world);
        if gap > worst_gap || gap.is_nan() {
            (worst_gap, worst_at) = (gap, t);
        }
        for j in &tracked {
            let o = j.overshoot(&world);
            match overshoot.iter_mut().find(|(n, _)| *n == j.name) {
                Some(e) => e.1 = e.1.max(o),
                None => overshoot.push((j.name, o)),
            }
        }
        finite &= all_finite(&world);
        if k < steps {
            world.step();
        }
    }

    let mass: Real = bodies
        .iter()
        .filter_map(|h| world.body(*h))
        .map(|b| b.mass())
        .sum();
    println!(
        "ragdoll: 11 bodies ({mass:.3} kg), 5 spherical and 4 revolute joints, {STEPS} steps of \
         {RISE} × {RUN} m, walking off at {} m/s tipping at {} rad/s; {steps} steps of {dt:.4} s",
        args.speed, args.tip
    );
    match reached_foot {
        Some(t) => println!("  torso past the last step and below 1 m at t = {t:.2} s"),
        None => println!("  the torso did not reach the foot of the stairs"),
    }
    let end = world.body(torso).map(|b| b.translation());
    if let Some(p) = end {
        println!(
            "  torso at the end: x = {:.2} m, y = {:.2} m, z = {:.2} m",
            p.x, p.y, p.z
        );
    }
    println!(
        "  joint errors (largest distance between a joint's two world anchors): {:.2} mm at \
         the end, {:.2} mm at worst (t = {worst_at:.2} s); all poses finite: {finite}",
        1e3 * largest_gap(&world).0,
        1e3 * worst_gap
    );
    let per_kind: Vec<String> = ["neck", "shoulder", "elbow", "hip", "knee"]
        .iter()
        .map(|name| {
            let gap = tracked
                .iter()
                .filter(|j| j.name == *name)
                .map(|j| anchor_gap(&world, j.handle))
                .fold(0.0, Real::max);
            format!("{name} {:.2}", 1e3 * gap)
        })
        .collect();
    println!(
        "  anchor gaps at the end by joint (mm): {}",
        per_kind.join(", ")
    );
    let limits: Vec<String> = overshoot
        .iter()
        .map(|(n, o)| format!("{n} {:.1}°", o.to_degrees()))
        .collect();
    println!(
        "  largest overshoot of a limit over the run (elbow, knee: hinge angle; neck, \
         shoulder, hip: cone): {}",
        limits.join(", ")
    );

    // Picture: the stairs, then the poses in time order (later ones on top), then the path.
    let file = dir.join("ragdoll.svg");
    let (width, height) = (1300u32, 720u32);
    let root = svg_canvas(&file, width, height)?;
    let camera = Camera::front();
    let stair_items = snapshot(&world, &stairs, |_, _| Look::Solid(RGBColor(200, 200, 200)));
    let bounds = [
        [-1.2, -0.2, 0.0],
        [f64::from(foot_x) + 2.6, f64::from(top) + 2.1, 0.0],
    ];
    let viewport = Viewport::fit(&camera, &bounds, width, height, 24.0);
    draw_items(&root, &camera, &viewport, &stair_items)?;
    let last = poses.len().max(2) - 1;
    for (i, (t, items)) in poses.iter().enumerate() {
        let f = i as f64 / last as f64;
        let colour = RGBColor((40.0 + 200.0 * f) as u8, 70, (230.0 - 190.0 * f) as u8);
        let items: Vec<_> = items
            .iter()
            .cloned()
            .map(|mut it| {
                it.look = Look::Solid(colour);
                it
            })
            .collect();
        draw_items(&root, &camera, &viewport, &items)?;
        if let Some(head) = items.get(1) {
            let p = head.pose.translation.vector;
            let (x, y) =
                viewport.pixel(camera.project([f64::from(p.x), f64::from(p.y) + 0.2, 0.0]));
            label(&root, &format!("{t:.1}"), (x - 8, y - 14), 12)?;
        }
    }
    let pts: Vec<(i32, i32)> = path
        .iter()
        .map(|&(x, y)| viewport.pixel(camera.project([f64::from(x), f64::from(y), 0.0])))
        .collect();
    root.draw(&PathElement::new(pts, BLACK.mix(0.6).stroke_width(1)))?;
    label(
        &root,
        &format!(
            "ragdoll down {STEPS} steps, side view: a pose every {POSE_EVERY} m of the torso's \
             travel (blue early → red late, time in seconds above the head), the torso's path in black"
        ),
        (14, 10),
        16,
    )?;
    root.present()?;
    println!("  picture: {}", file.display());
    Ok(())
}
