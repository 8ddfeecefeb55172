//! Windmill: four blades — two crossed bars welded together by a fixed joint — on a revolute
//! joint about z in front of a fixed tower, driven by a velocity motor at a target speed with
//! a bounded torque, while a stream of balls falls onto them. Each ball that lands on a blade
//! pushes it on or holds it back; the motor answers with up to its largest torque to hold the speed.
//!
//! Prints the target speed and the measured angular speed of the blades (mean, lowest and
//! highest over the last two thirds of the run, once the motor has spun them up), the motor's
//! mean torque, and the joints' errors (the largest distance between a joint's two world
//! anchors). Balls are removed once they fall below the blades. Leaves `windmill.svg`: on the
//! left, the front view with every ball's path traced and the blades at the end; on the right, the blades' angular speed over time against the
//! target.
//!
//! `cargo run --release -p tumble-examples --example windmill [-- --speed 1.5 --torque 400 --balls 40 --seconds 8 --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::FRAC_PI_2;
use std::process::ExitCode;
use tumble::math::{Real, Rotation, Vector};
use tumble::{Ball, BodyBuilder, Cuboid, JointBuilder, World, WorldConfig};
use tumble_examples::joints::{all_finite, anchor_gap, placed};
use tumble_examples::view::{
    body_colour, draw_items, draw_legend, label, legend_line, snapshot, svg_canvas, Camera, Look,
    Viewport,
};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// A motor-driven windmill hit by falling balls.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Target angular speed of the blades, rad/s (−10 to 10; positive turns counter-clockwise
    /// in the picture).
    #[arg(long, default_value_t = 1.5, allow_hyphen_values = true)]
    speed: f64,
    /// Largest motor torque, N·m (0 to 1e6).
    #[arg(long, default_value_t = 1500.0)]
    torque: f64,
    /// Number of balls dropped (0 to 500).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=500))]
    balls: u32,
    /// Simulated seconds (2 to 60).
    #[arg(long, default_value_t = 8.0)]
    seconds: f64,
    #[command(flatten)]
    out: OutArgs,
}

/// Blade half-length, half-thickness (in the picture) and half-depth (along z), metres.
const BLADE: [Real; 3] = [2.0, 0.1, 0.3];
const BALL_RADIUS: Real = 0.15;
/// Densities of the blades and the balls (light wood), kg/m³.
const BLADE_DENSITY: Real = 300.0;
const BALL_DENSITY: Real = 500.0;
/// Balls are dropped from this height, one every `seconds / (balls + 2)`.
const DROP_HEIGHT: Real = 3.5;
/// Balls that fall below this height have passed the blades and are removed.
const GONE_Y: Real = -3.0;

fn main() -> ExitCode {
    run_example("windmill", || run(Args::parse()))
}

fn run(args: Args) -> ExampleResult {
    if !(2.0..=60.0).contains(&args.seconds)
        || !(-10.0..=10.0).contains(&args.speed)
        || !(0.0..=1e6).contains(&args.torque)
    {
        return Err(
            "--seconds must be in [2, 60], --speed in [-10, 10] and --torque in [0, 1e6]".into(),
        );
    }
    let dir = out_dir("windmill", args.out.out.as_deref())?;
    let mut world = World::new(WorldConfig::default())?;
    // The tower stands behind the blades (z < −BLADE[2]), so it never touches them.
    let tower = world.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(0.25, -GONE_Y / 2.0, 0.2))?)
            .translation(Vector::new(0.0, GONE_Y / 2.0, -BLADE[2] - 0.25)),
    )?;
    let bar = Cuboid::new(Vector::new(BLADE[0], BLADE[1], BLADE[2]))?;
    let blade_a = world.insert(
        BodyBuilder::dynamic(bar)
            .density(BLADE_DENSITY)
            .friction(0.6),
    )?;
    let blade_b = world.insert(
        BodyBuilder::dynamic(bar)
            .density(BLADE_DENSITY)
            .rotation(Rotation::from_axis_angle(&Vector::z_axis(), FRAC_PI_2))
            .friction(0.6),
    )?;
    let weld = world.insert_joint(JointBuilder::fixed(blade_a, blade_b))?;
    let hub = world.insert_joint(
        placed(
            &world,
            JointBuilder::revolute,
            tower,
            blade_a,
            Vector::zeros(),
            Vector::z(),
        )?
        .motor(args.speed as Real, args.torque as Real),
    )?;
    let blade_mass = world.body(blade_a).map_or(0.0, |b| b.mass());

    let dt = f64::from(world.config().dt);
    let steps = (args.seconds / dt).round() as usize;
    let every = steps / (args.balls as usize + 2).max(1);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut balls = Vec::new();
    let mut paths: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut speeds = Vec::with_capacity(steps + 1);
    let mut torques = Vec::new();
    let mut passed = 0;
    let (mut worst_gap, mut finite) = (0.0f32, true);
    for k in 0..=steps {
        if balls.len() < args.balls as usize && every > 0 && k % every == every / 2 {
            let x = rng.gen_range(-1.9..1.9);
            let z = rng.gen_range(-0.15..0.15);
            balls.push(
                world.insert(
                    BodyBuilder::dynamic(Ball::new(BALL_RADIUS)?)
                        .translation(Vector::new(x, DROP_HEIGHT, z))
                        .density(BALL_DENSITY)
                        .friction(0.6)
                        .restitution(0.3),
                )?,
            );
            paths.push(Vec::new());
        }
        for (h, path) in balls.iter().zip(&mut paths) {
            let Some(y) = world.body(*h).map(|b| {
                let t = b.translation();
                path.push((f64::from(t.x), f64::from(t.y)));
                t.y
            }) else {
                continue;
            };
            if y < GONE_Y {
                world.remove(*h)?;
                passed += 1;
            }
        }
        let w = world.body(blade_a).map_or(0.0, |b| b.angvel().z);
        speeds.push((k as f64 * dt, f64::from(w)));
        if let Some(j) = world.joint(hub) {
            torques.push(f64::from(j.torque().z));
        }
        worst_gap = worst_gap
            .max(anchor_gap(&world, hub))
            .max(anchor_gap(&world, weld));
        finite &= all_finite(&world);
        if k < steps {
            world.step();
        }
    }

    let settled = &speeds[steps / 3..];
    let mean = settled.iter().map(|s| s.1).sum::<f64>() / settled.len() as f64;
    let lo = settled.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
    let hi = settled
        .iter()
        .map(|s| s.1)
        .fold(f64::NEG_INFINITY, f64::max);
    let near = settled
        .iter()
        .filter(|s| (s.1 - args.speed).abs() <= 0.05 * args.speed.abs())
        .count() as f64
        / settled.len() as f64;
    let mean_torque =
        torques[steps / 3..].iter().sum::<f64>() / (torques.len() - steps / 3).max(1) as f64;
    println!(
        "windmill: blades of 2 × {blade_mass:.2} kg, motor target {:.3} rad/s with at most {} \
         N·m, {} balls of {:.3} kg; {steps} steps of {dt:.4} s",
        args.speed,
        args.torque,
        balls.len(),
        BALL_DENSITY * 4.0 / 3.0 * std::f32::consts::PI * BALL_RADIUS.powi(3)
    );
    println!(
        "  angular speed over the last {:.1} s: mean {mean:.4} rad/s ({:+.2} % of the target), \
         lowest {lo:.4}, highest {hi:.4}; within 5 % of the target {:.0} % of the time",
        (steps - steps / 3) as f64 * dt,
        100.0 * (mean - args.speed) / args.speed.abs().max(1e-9),
        100.0 * near
    );
    println!(
        "  mean motor torque on the blades {mean_torque:.1} N·m (negative: braking the balls' \
         pull); balls past the blades (removed below y = {GONE_Y} m) {passed} of {}",
        balls.len()
    );
    println!(
        "  joint errors (largest distance between a joint's two world anchors, over the run): \
         {:.3} mm; all poses finite: {finite}",
        1e3 * worst_gap
    );

    // Picture: the traces (front view) on the left, the speed over time on the right.
    let path = dir.join("windmill.svg");
    let root = svg_canvas(&path, 1400, 620)?;
    let (left, right) = root.split_horizontally(700);
    let camera = Camera::front();
    let fixed = [tower];
    let mut items = snapshot(&world, &fixed, |_, _| Look::Solid(RGBColor(190, 190, 190)));
    items.extend(snapshot(&world, &[blade_a, blade_b], |i, _| {
        Look::Solid(body_colour(i))
    }));
    items.extend(snapshot(&world, &balls, |_, _| {
        Look::Solid(RGBColor(120, 120, 120))
    }));
    let bounds = [
        [-5.0, GONE_Y as f64, 0.0],
        [5.0, DROP_HEIGHT as f64 + 0.3, 0.0],
    ];
    let viewport = Viewport::fit(&camera, &bounds, 700, 620, 20.0);
    draw_items(&left, &camera, &viewport, &items)?;
    for (i, trace) in paths.iter().enumerate() {
        let colour = body_colour(i + 2).mix(0.7);
        let pts: Vec<(i32, i32)> = trace
            .iter()
            .map(|&(x, y)| viewport.pixel(camera.project([x, y, 0.0])))
            .collect();
        left.draw(&PathElement::new(pts, colour.stroke_width(1)))?;
    }
    left.draw(&Circle::new(
        viewport.pixel(camera.project([0.0; 3])),
        4,
        BLACK.filled(),
    ))?;
    label(
        &left,
        "front view: ball paths, blades and balls at the end",
        (12, 8),
        15,
    )?;

    let (smin, smax) = speeds
        .iter()
        .fold((args.speed.min(0.0), args.speed.max(0.0)), |m, s| {
            (m.0.min(s.1), m.1.max(s.1))
        });
    let pad = 0.1 * (smax - smin).max(0.1);
    let mut chart = ChartBuilder::on(&right)
        .margin(14)
        .caption("angular speed of the blades", ("sans-serif", 18))
        .x_label_area_size(38)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..args.seconds, smin - pad..smax + pad)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("rad/s")
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            speeds.iter().copied(),
            BLUE.stroke_width(2),
        ))?
        .label("measured")
        .legend(legend_line(BLUE.stroke_width(2)));
    let target = args.speed;
    chart
        .draw_series(LineSeries::new(
            [(0.0, target), (args.seconds, target)],
            RED.stroke_width(1),
        ))?
        .label(format!("target {target} rad/s"))
        .legend(legend_line(RED.stroke_width(1)));
    draw_legend(&mut chart, SeriesLabelPosition::LowerRight)?;
    root.present()?;
    println!("  picture: {}", path.display());
    Ok(())
}
