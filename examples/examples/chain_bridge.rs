//! Chain bridge: a rope bridge of capsule planks (each lying across the bridge, along z) hung
//! between two fixed posts, every plank hinged to the next by a revolute joint about z; a
//! heavy box is dropped on its middle. The deck, 5 % longer than the gap, starts at rest in
//! the shape a hanging chain of planks takes (a discrete catenary), then takes the box.
//!
//! Prints the sag at the middle (the lowest plank centre below the posts' hinges) before the
//! drop, at its deepest and at the end — the deck sinks a few centimetres more than the
//! rigid-link shape at first, as its joints open by millimetres under the tension, and sways
//! gently after — and the joints' errors (the largest distance between the two world anchors
//! of a joint, and the sum over the deck before the drop). Leaves `chain_bridge.svg`: on top, a side view of the
//! deck (the line through the hinges) at several times, coloured from blue (early) to red
//! (late), the box drawn at each; below, the sag at the middle over time.
//!
//! `cargo run --release -p tumble-examples --example chain_bridge [-- --planks 24 --box-mass 8 --seconds 6 --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use std::f32::consts::FRAC_PI_2;
use std::process::ExitCode;
use tumble::math::{Real, Rotation, Vector};
use tumble::{BodyBuilder, BodyHandle, Capsule, Cuboid, JointBuilder, World, WorldConfig};
use tumble_examples::joints::{all_finite, anchor_gap, largest_gap, placed};
use tumble_examples::view::{draw_legend, svg_canvas};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// A rope bridge of hinged planks and a heavy box dropped on it.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Number of planks (4 to 100).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(4..=100))]
    planks: u32,
    /// Mass of the box in plank masses (0.1 to 100).
    #[arg(long, default_value_t = 8.0)]
    box_mass: f64,
    /// Simulated seconds (2 to 60).
    #[arg(long, default_value_t = 6.0)]
    seconds: f64,
    #[command(flatten)]
    out: OutArgs,
}

/// Gap between the posts' hinges, metres.
const SPAN: Real = 5.0;
/// The deck is this much longer than the span, so the bridge hangs with some slack.
const SLACK: Real = 1.05;
/// Plank radius and half-width (the capsule's half-height), metres.
const PLANK_RADIUS: Real = 0.07;
const PLANK_HALF_WIDTH: Real = 0.6;
/// Half-extent of the box, metres, and the time it is dropped, seconds.
const BOX_HALF: Real = 0.3;
/// Density of the planks, kg/m³ (wood).
const PLANK_DENSITY: Real = 600.0;
const DROP_AT: f64 = 1.5;

/// The deck at one time: the time, the hinges' (x, y), and the box's pose once dropped.
type Snap = (f64, Vec<(f64, f64)>, Option<tumble::math::Isometry>);

fn main() -> ExitCode {
    run_example("chain_bridge", || run(Args::parse()))
}

/// The `n + 1` hinge points of a deck of `n` equal links hanging between `(±SPAN/2, 0)` at
/// rest: a chain of bars weighted at their middles hangs with the slope of link `i` growing
/// linearly along the chain, `tan θᵢ = k·(i + ½ − n/2)` (a discrete catenary); `k` is found by
/// bisection so that the links span the gap.
fn hanging_points(n: usize) -> Vec<Vector> {
    let link = SLACK * SPAN / n as Real;
    let slope = |k: Real, i: usize| k * (i as Real + 0.5 - n as Real / 2.0);
    let span = |k: Real| -> Real { (0..n).map(|i| link / slope(k, i).hypot(1.0)).sum() };
    let (mut lo, mut hi) = (0.0, 1.0);
    while span(hi) > SPAN {
        hi *= 2.0;
    }
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if span(mid) > SPAN {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut p = Vector::new(-SPAN / 2.0, 0.0, 0.0);
    let mut out = vec![p];
    for i in 0..n {
        let (dx, dy) = (1.0, slope(lo, i));
        p += Vector::new(dx, dy, 0.0) * (link / dx.hypot(dy));
        out.push(p);
    }
    out
}

/// The deck's side profile: the world x and y of every hinge, post to post.
fn profile(world: &World, hinges: &[(BodyHandle, Vector)]) -> Vec<(f64, f64)> {
    hinges
        .iter()
        .filter_map(|(h, local)| {
            let p = world.body(*h)?.pose() * tumble::math::Point::from(*local);
            Some((f64::from(p.x), f64::from(p.y)))
        })
        .collect()
}

fn run(args: Args) -> ExampleResult {
    if !(2.0..=60.0).contains(&args.seconds) || !(0.1..=100.0).contains(&args.box_mass) {
        return Err("--seconds must be in [2, 60] and --box-mass in [0.1, 100]".into());
    }
    let dir = out_dir("chain_bridge", args.out.out.as_deref())?;
    let n = args.planks as usize;
    let mut world = World::new(WorldConfig::default())?;

    // Two posts, their top inner edges at the hinge points (±SPAN/2, 0).
    let post_half = Vector::new(0.2, 1.5, PLANK_HALF_WIDTH + PLANK_RADIUS);
    let mut posts = Vec::new();
    for side in [-1.0, 1.0] {
        posts.push(
            world.insert(
                BodyBuilder::fixed(Cuboid::new(post_half)?).translation(Vector::new(
                    side * (SPAN / 2.0 + post_half.x),
                    -post_half.y,
                    0.0,
                )),
            )?,
        );
    }
    // The planks: capsules along z (the capsule's axis is its local y, turned onto z), one
    // per link of the arc, centred on the link's middle.
    let points = hanging_points(n);
    let across = Rotation::from_axis_angle(&Vector::x_axis(), FRAC_PI_2);
    let plank = Capsule::new(PLANK_HALF_WIDTH, PLANK_RADIUS)?;
    let mut planks = Vec::new();
    for w in points.windows(2) {
        planks.push(
            world.insert(
                BodyBuilder::dynamic(plank)
                    .translation((w[0] + w[1]) / 2.0)
                    .rotation(across)
                    .density(PLANK_DENSITY)
                    .friction(0.8),
            )?,
        );
    }
    let plank_mass = world.body(planks[0]).map_or(1.0, |b| b.mass());
    // Hinges about z: post – plank 0 – plank 1 – … – plank n−1 – post. The deck is drawn
    // through them, each hinge read from the body on its right (the left post for the last).
    let chain: Vec<BodyHandle> = std::iter::once(posts[0])
        .chain(planks.iter().copied())
        .chain(std::iter::once(posts[1]))
        .collect();
    let mut hinges = Vec::new();
    for (i, pair) in chain.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let jb = placed(&world, JointBuilder::revolute, a, b, points[i], Vector::z())?;
        let (body, local) = if i < n {
            let pose = world.body(b).map(|v| v.pose()).ok_or("plank missing")?;
            (b, pose.inverse_transform_point(&points[i].into()).coords)
        } else {
            let pose = world.body(a).map(|v| v.pose()).ok_or("plank missing")?;
            (a, pose.inverse_transform_point(&points[i].into()).coords)
        };
        hinges.push((body, local));
        world.insert_joint(jb)?;
    }

    let dt = f64::from(world.config().dt);
    let steps = (args.seconds / dt).round() as usize;
    let drop_step = (DROP_AT / dt).round() as usize;
    let middle = planks[n / 2];
    let sag = |w: &World| -> f64 {
        planks
            .iter()
            .filter_map(|h| w.body(*h))
            .map(|b| -f64::from(b.translation().y))
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let snap_times = [0.0, 1.4, 1.8, 2.0, 2.3, 3.0, args.seconds];
    let mut snaps: Vec<Snap> = Vec::new();
    let mut sags = Vec::with_capacity(steps + 1);
    let mut cube = None;
    let mut total_gap_at_drop = 0.0;
    let (mut worst_gap, mut worst_at) = (0.0, 0.0);
    let mut finite = true;
    for k in 0..=steps {
        let t = k as f64 * dt;
        if k == drop_step {
            total_gap_at_drop = world
                .joints()
                .map(|(h, _)| f64::from(anchor_gap(&world, h)))
                .sum();
            let above = world.body(middle).map_or(0.0, |b| b.translation().y) + 1.5;
            let volume = 8.0 * BOX_HALF.powi(3);
            cube = Some(
                world.insert(
                    BodyBuilder::dynamic(Cuboid::new(Vector::repeat(BOX_HALF))?)
                        .translation(Vector::new(0.0, above, 0.0))
                        .density(args.box_mass as Real * plank_mass / volume)
                        .friction(0.8),
                )?,
            );
        }
        if snap_times
            .iter()
            .any(|&s| (s - t).abs() < dt / 2.0 || (k == steps && s >= t))
            && snaps.len() < snap_times.len()
        {
            let box_pose = cube.and_then(|c| world.body(c)).map(|b| b.pose());
            snaps.push((t, profile(&world, &hinges), box_pose));
        }
        sags.push((t, sag(&world)));
        let (gap, _) = largest_gap(&world);
        if f64::from(gap) > worst_gap || gap.is_nan() {
            (worst_gap, worst_at) = (f64::from(gap), t);
        }
        finite &= all_finite(&world);
        if k < steps {
            world.step();
        }
    }

    // The deck sinks a little at the start as its joints take up the tension (each opens by a
    // few millimetres) and swings gently: the sag before the drop is the mean over a second.
    let second = (1.0 / dt).round() as usize;
    let window = &sags[drop_step.saturating_sub(second)..drop_step.max(1)];
    let before = window.iter().map(|s| s.1).sum::<f64>() / window.len() as f64;
    let (deepest_t, deepest) =
        sags.iter()
            .skip(drop_step)
            .fold(
                (0.0, f64::NEG_INFINITY),
                |m, &(t, s)| {
                    if s > m.1 {
                        (t, s)
                    } else {
                        m
                    }
                },
            );
    let end = sags[steps].1;
    let (end_gap, _) = largest_gap(&world);
    let box_y = cube
        .and_then(|c| world.body(c))
        .map_or(f64::NAN, |b| f64::from(b.translation().y));
    println!(
        "chain_bridge: {n} planks of {plank_mass:.3} kg over a {SPAN} m gap, box of {:.2} kg \
         ({} plank masses) dropped at t = {DROP_AT} s; {steps} steps of {dt:.4} s",
        args.box_mass as Real * plank_mass,
        args.box_mass
    );
    println!(
        "  sag at the middle: {:.3} m before the drop (mean over a second; {:.3} m at the start), \
         deepest {deepest:.3} m at t = {deepest_t:.2} s, {end:.3} m at the end",
        before, sags[0].1
    );
    println!(
        "  the joints' gaps add up to {:.1} mm just before the drop (the deck that much longer)",
        1e3 * total_gap_at_drop
    );
    println!(
        "  box centre at the end: y = {box_y:.3} m ({})",
        if box_y > -5.0 {
            "on the deck"
        } else {
            "fell off"
        }
    );
    println!(
        "  joint errors (largest distance between a joint's two world anchors): {:.2} mm at \
         the end, {:.2} mm at worst (t = {worst_at:.2} s); all poses finite: {finite}",
        1e3 * f64::from(end_gap),
        1e3 * worst_gap
    );

    // Picture: the deck at several times on top, the sag over time below.
    let path = dir.join("chain_bridge.svg");
    let root = svg_canvas(&path, 1100, 820)?;
    let (top, bottom) = root.split_vertically(520);
    let x_range = -(SPAN as f64) / 2.0 - 0.6..SPAN as f64 / 2.0 + 0.6;
    let low = -sags.iter().map(|s| s.1).fold(0.0, f64::max) - 0.4;
    let mut side = ChartBuilder::on(&top)
        .margin(14)
        .caption(
            "chain bridge, side view: the deck through its hinges (blue early → red late) and the box",
            ("sans-serif", 18),
        )
        .x_label_area_size(32)
        .y_label_area_size(50)
        .build_cartesian_2d(x_range, low..1.9)?;
    side.configure_mesh()
        .x_desc("x (m)")
        .y_desc("y (m)")
        .draw()?;
    for side_x in [-1.0, 1.0] {
        let inner = side_x * SPAN as f64 / 2.0;
        let outer = inner + side_x * 0.4;
        side.draw_series(std::iter::once(Rectangle::new(
            [(inner.min(outer), 0.0), (inner.max(outer), low)],
            RGBColor(170, 170, 170).filled(),
        )))?;
    }
    let last = snaps.len().max(2) - 1;
    for (i, (t, deck, box_pose)) in snaps.iter().enumerate() {
        let f = i as f64 / last as f64;
        let colour = RGBColor((40.0 + 200.0 * f) as u8, 60, (230.0 - 190.0 * f) as u8);
        side.draw_series(LineSeries::new(
            deck.iter().copied(),
            colour.stroke_width(2),
        ))?
        .label(format!("t = {t:.1} s"))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2)));
        side.draw_series(deck.iter().map(|&p| Circle::new(p, 2, colour.filled())))?;
        if let Some(pose) = box_pose {
            let corners: Vec<(f64, f64)> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|&(sx, sy)| {
                    let p = pose * tumble::math::Point::new(sx * BOX_HALF, sy * BOX_HALF, 0.0);
                    (f64::from(p.x), f64::from(p.y))
                })
                .collect();
            side.draw_series(std::iter::once(Polygon::new(
                corners.clone(),
                colour.mix(0.15).filled(),
            )))?;
            let mut closed = corners;
            closed.push(closed[0]);
            side.draw_series(std::iter::once(PathElement::new(closed, colour)))?;
        }
    }
    draw_legend(&mut side, SeriesLabelPosition::UpperRight)?;
    let smax = sags.iter().map(|s| s.1).fold(0.0, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(&bottom)
        .margin(14)
        .caption(
            "sag at the middle: lowest plank centre below the posts' hinges",
            ("sans-serif", 16),
        )
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..args.seconds, 0.0..smax)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("sag (m)")
        .draw()?;
    chart.draw_series(LineSeries::new(sags.iter().copied(), BLUE.stroke_width(2)))?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(DROP_AT, 0.0), (DROP_AT, smax)],
        BLACK.mix(0.4),
    )))?;
    chart.draw_series(std::iter::once(Text::new(
        "box dropped",
        (DROP_AT + 0.05, smax * 0.92),
        ("sans-serif", 14).into_font(),
    )))?;
    root.present()?;
    println!("  picture: {}", path.display());
    Ok(())
}
