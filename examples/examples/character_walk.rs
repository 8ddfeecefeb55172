//! A kinematic character walks a level: a floor with two crates in the way, a 20° ramp,
//! three stairs of 25 cm, a gap crossed on a platform that shuttles back and forth, a ledge
//! with a third crate, and three small steps down of 15 cm. The character is a kinematic
//! capsule (1.6 m tall) moved by `CharacterController::move_shape` and
//! `World::set_next_kinematic_pose`; it pushes the crates with `apply_pushes`, rides the
//! platform by adding the platform's motion while standing on it, and waits at the platform's
//! edge while a ray cast ahead (skipping its own body) finds no ground.
//!
//! Leaves `character_walk.svg`: the level seen from the side (x right, y up), the character's
//! path (its feet) coloured by what it was doing, the platform at a few times, and the crates
//! where they started (outlined) and ended (filled).
//!
//! `cargo run --release -p tumble-examples --example character_walk [-- --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use std::process::ExitCode;
use tumble::character::{Autostep, CharacterController};
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble::{BodyBuilder, BodyHandle, Capsule, Cuboid, QueryFilter, Shape, World, WorldConfig};
use tumble_examples::view::{body_colour, draw_legend, legend_line, svg_canvas};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// A character walking a level of ramp, stairs and a moving platform.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    #[command(flatten)]
    out: OutArgs,
}

const HALF_HEIGHT: Real = 0.5;
const RADIUS: Real = 0.3;
const SPEED: Real = 2.0;
const STEPS: usize = 1500;
/// The platform's centre shuttles along x between these, sinusoidally.
const PLATFORM_X: (Real, Real) = (11.0, 13.0);
const PLATFORM_PERIOD: Real = 6.0;
const PLATFORM_TOP: Real = 1.75;

fn main() -> ExitCode {
    run_example("character_walk", || run(Args::parse()))
}

/// A static box (side-view corners kept for the picture).
struct Level {
    world: World,
    /// Side-view outlines (x, y) of the static parts.
    outlines: Vec<Vec<(f64, f64)>>,
}

impl Level {
    fn solid(&mut self, half: Vector, pose: Isometry) -> ExampleResult {
        self.world
            .insert(BodyBuilder::fixed(Cuboid::new(half)?).pose(pose))?;
        self.outlines.push(side_outline(&half, &pose));
        Ok(())
    }

    /// A block with its top at `top` over `x0..x1`, reaching down to y = −1.
    fn block(&mut self, x0: Real, x1: Real, top: Real) -> ExampleResult {
        let half = Vector::new(0.5 * (x1 - x0), 0.5 * (top + 1.0), 3.0);
        let centre = Vector::new(0.5 * (x0 + x1), 0.5 * (top - 1.0), 0.0);
        self.solid(half, Isometry::translation(centre.x, centre.y, centre.z))
    }
}

/// The outline of a box (half-extents `half` at `pose`) seen along an axis: the convex hull
/// (Andrew's monotone chain) of its eight corners projected on coordinates `u` and `v`
/// (0 = x, 1 = y, 2 = z).
fn outline(half: &Vector, pose: &Isometry, u: usize, v: usize) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = (0..8)
        .map(|i| {
            let s = |bit: usize| if i & (1 << bit) == 0 { -1.0 } else { 1.0 };
            let p = pose * Point::new(s(0) * half.x, s(1) * half.y, s(2) * half.z);
            (f64::from(p[u]), f64::from(p[v]))
        })
        .collect();
    pts.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Side view (x, y).
fn side_outline(half: &Vector, pose: &Isometry) -> Vec<(f64, f64)> {
    outline(half, pose, 0, 1)
}

fn platform_x(t: Real) -> Real {
    let (a, b) = PLATFORM_X;
    let phase = (t / PLATFORM_PERIOD * std::f32::consts::TAU).sin();
    0.5 * (a + b) + 0.5 * (b - a) * phase
}

/// What the character did on a step, for the colour of its path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Doing {
    Walking,
    Airborne,
    Riding,
    Waiting,
}

fn run(args: Args) -> ExampleResult {
    let dir = out_dir("character_walk", args.out.out.as_deref())?;
    let config = WorldConfig::default();
    let dt = config.dt;
    let mut level = Level {
        world: World::new(config)?,
        outlines: Vec::new(),
    };
    // Floor, then a 20° ramp up to a plateau at 1 m.
    level.block(-2.0, 4.0, 0.0)?;
    let ramp = (20.0 as Real).to_radians();
    let ramp_len = 1.0 / ramp.sin();
    let along = Vector::new(ramp.cos(), ramp.sin(), 0.0);
    let normal = Vector::new(-ramp.sin(), ramp.cos(), 0.0);
    let centre = Vector::new(4.0, 0.0, 0.0) + along * (0.5 * ramp_len) - normal * 0.25;
    level.solid(
        Vector::new(0.5 * ramp_len, 0.25, 3.0),
        Isometry::from_parts(
            centre.into(),
            Rotation::from_axis_angle(&Vector::z_axis(), ramp),
        ),
    )?;
    let plateau = 4.0 + ramp_len * ramp.cos();
    level.block(plateau - 0.05, plateau + 2.0, 1.0)?;
    // Three stairs of 25 cm, 50 cm deep, up to 1.75 m.
    let mut x = plateau + 2.0;
    for k in 1..=3 {
        level.block(x, x + 0.5, 1.0 + 0.25 * k as Real)?;
        x += 0.5;
    }
    let gap = (x, PLATFORM_X.1 + 1.0);
    // The ledge beyond the gap, then three steps down of 15 cm.
    level.block(gap.1, gap.1 + 4.0, PLATFORM_TOP)?;
    let mut x = gap.1 + 4.0;
    for k in 1..=3 {
        level.block(x, x + 0.6, PLATFORM_TOP - 0.15 * k as Real)?;
        x += 0.6;
    }
    level.block(x, x + 3.0, PLATFORM_TOP - 0.45)?;
    let end_x = x + 2.0;
    let Level {
        mut world,
        outlines,
    } = level;

    let platform_half = Vector::new(1.0, 0.1, 1.5);
    let platform = world.insert(
        BodyBuilder::kinematic(Cuboid::new(platform_half)?).translation(Vector::new(
            platform_x(0.0),
            PLATFORM_TOP - platform_half.y,
            0.0,
        )),
    )?;
    let crate_half = 0.3;
    let crate_at = [(1.5, 0.0), (2.4, 0.0), (gap.1 + 1.5, PLATFORM_TOP)];
    let mut crates = Vec::new();
    for &(cx, floor) in &crate_at {
        crates.push(
            world.insert(
                BodyBuilder::dynamic(Cuboid::new(Vector::repeat(crate_half))?)
                    .translation(Vector::new(cx, floor + crate_half, 0.0))
                    .density(150.0)
                    .friction(0.4),
            )?,
        );
    }

    let shape: Shape = Capsule::new(HALF_HEIGHT, RADIUS)?.into();
    let stand = HALF_HEIGHT + RADIUS + 0.01;
    let me = world
        .insert(BodyBuilder::kinematic(shape.clone()).translation(Vector::new(0.0, stand, 0.0)))?;
    let controller = CharacterController {
        autostep: Some(Autostep {
            max_height: 0.3,
            min_width: 0.15,
            include_dynamic: false,
        }),
        snap_to_ground: Some(0.25),
        mass: 80.0,
        ..CharacterController::default()
    };
    let skip_me = [me];
    let filter = QueryFilter::new()
        .exclude_bodies(&skip_me)
        .exclude_sensors();
    let mut collisions = Vec::new();
    let mut path: Vec<((f64, f64), Doing)> = Vec::new();
    let mut top_path: Vec<(f64, f64)> = Vec::new();
    let mut platform_seen: Vec<f64> = Vec::new();
    let (mut vy, mut grounded_on): (Real, Option<BodyHandle>) = (0.0, None);
    let (mut pushes, mut steps_up, mut max_drop) = (0usize, 0usize, 0.0 as Real);
    for k in 0..STEPS {
        let t_next = (k + 1) as Real * dt;
        let p_next = Vector::new(platform_x(t_next), PLATFORM_TOP - platform_half.y, 0.0);
        world.set_next_kinematic_pose(platform, Isometry::translation(p_next.x, p_next.y, 0.0))?;
        let pose = world.body(me).ok_or("character gone")?.pose();
        // Wait at an edge while a ray from just ahead of the feet finds no ground within 0.6 m.
        let ahead = pose.translation.vector + Vector::new(RADIUS + 0.2, -stand + 0.3, 0.0);
        let ground_ahead = world
            .cast_ray(Point::from(ahead), -Vector::y(), 0.6, &filter)?
            .is_some();
        let walk = if ground_ahead || grounded_on.is_none() {
            SPEED
        } else {
            0.0
        };
        vy = if grounded_on.is_some() {
            -9.81 * dt
        } else {
            vy - 9.81 * dt
        };
        let mut desired = Vector::new(walk, vy, 0.0) * dt;
        let riding = grounded_on == Some(platform);
        if riding {
            desired += world.body(platform).ok_or("platform gone")?.linvel() * dt;
        }
        let m =
            controller.move_shape(&world, dt, &shape, &pose, desired, &filter, &mut collisions)?;
        steps_up += m.stepped as usize;
        max_drop = max_drop.max(m.snapped);
        grounded_on = m.ground;
        let mut next = pose;
        next.translation.vector += m.translation;
        world.set_next_kinematic_pose(me, next)?;
        pushes += controller.apply_pushes(&mut world, &collisions)?;
        world.step();
        let feet = next.translation.vector.y - stand;
        let doing = if walk == 0.0 {
            Doing::Waiting
        } else if riding {
            Doing::Riding
        } else if m.grounded {
            Doing::Walking
        } else {
            Doing::Airborne
        };
        path.push((
            (f64::from(next.translation.vector.x), f64::from(feet)),
            doing,
        ));
        top_path.push((
            f64::from(next.translation.vector.x),
            f64::from(next.translation.vector.z),
        ));
        if k % 90 == 0 {
            platform_seen.push(f64::from(p_next.x));
        }
        if next.translation.vector.x > end_x {
            break;
        }
    }
    let (last, _) = *path.last().ok_or("no step")?;
    println!(
        "character_walk: {} steps, ended at x = {:.2} m, feet at y = {:.2} m; {steps_up} steps \
         climbed, largest snap down {:.2} m, {pushes} pushes",
        path.len(),
        last.0,
        last.1,
        max_drop
    );
    for (i, &c) in crates.iter().enumerate() {
        let b = world.body(c).ok_or("crate gone")?;
        println!(
            "  crate {i}: from x = {:.2} to x = {:.2} m",
            crate_at[i].0,
            b.translation().x
        );
    }

    let file = dir.join("character_walk.svg");
    let root = svg_canvas(&file, 1400, 760)?;
    let (side, top_area) = root.split_vertically(520);
    let x_range = -1.0..f64::from(end_x) + 1.0;
    let mut chart = ChartBuilder::on(&side)
        .margin(14)
        .caption(
            "kinematic character (capsule 1.6 m): ramp 20°, stairs 25 cm, moving platform, \
             steps down 15 cm; path of its feet, side view",
            ("sans-serif", 18),
        )
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(x_range.clone(), -0.5..4.5)?;
    chart
        .configure_mesh()
        .x_desc("x (m)")
        .y_desc("y (m)")
        .draw()?;
    let grey = RGBColor(170, 170, 170);
    chart.draw_series(
        outlines
            .iter()
            .map(|o| Polygon::new(o.clone(), grey.mix(0.6).filled())),
    )?;
    let ph = (f64::from(platform_half.x), f64::from(platform_half.y));
    let top = f64::from(PLATFORM_TOP);
    chart
        .draw_series(platform_seen.iter().map(|&px| {
            Rectangle::new(
                [(px - ph.0, top - 2.0 * ph.1), (px + ph.0, top)],
                body_colour(2).mix(0.25).filled(),
            )
        }))?
        .label("platform, every 1.5 s")
        .legend(|(x, y)| {
            Rectangle::new(
                [(x, y - 4), (x + 16, y + 4)],
                body_colour(2).mix(0.4).filled(),
            )
        });
    let h = f64::from(crate_half);
    let crate_colour = body_colour(4);
    chart
        .draw_series(crate_at.iter().map(|&(cx, floor)| {
            let (cx, floor) = (f64::from(cx), f64::from(floor));
            Rectangle::new(
                [(cx - h, floor), (cx + h, floor + 2.0 * h)],
                crate_colour.stroke_width(1),
            )
        }))?
        .label("crates at the start (outline) and end (filled)")
        .legend(move |(x, y)| Rectangle::new([(x, y - 4), (x + 16, y + 4)], crate_colour.filled()));
    let crate_poses: Vec<Isometry> = crates
        .iter()
        .filter_map(|&c| world.body(c).map(|b| b.pose()))
        .collect();
    let crate_box = Vector::repeat(crate_half);
    chart.draw_series(
        crate_poses
            .iter()
            .map(|p| Polygon::new(side_outline(&crate_box, p), crate_colour.mix(0.8).filled())),
    )?;
    for (doing, name, colour) in [
        (Doing::Walking, "walking (grounded)", body_colour(0)),
        (Doing::Airborne, "airborne", RED),
        (Doing::Riding, "riding the platform", body_colour(1)),
        (Doing::Waiting, "waiting at the edge", BLACK),
    ] {
        let pts: Vec<(f64, f64)> = path.iter().filter(|p| p.1 == doing).map(|p| p.0).collect();
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 2, colour.filled())))?
            .label(name)
            .legend(legend_line(colour.stroke_width(3)));
    }
    draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;

    // Top view: x right, z up the picture; where the crates went sideways.
    let mut chart = ChartBuilder::on(&top_area)
        .margin(14)
        .caption(
            "top view (x, z): the path and the crates",
            ("sans-serif", 16),
        )
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(x_range, -3.0..3.0)?;
    chart
        .configure_mesh()
        .x_desc("x (m)")
        .y_desc("z (m)")
        .draw()?;
    chart.draw_series(crate_at.iter().map(|&(cx, _)| {
        let cx = f64::from(cx);
        Rectangle::new([(cx - h, -h), (cx + h, h)], crate_colour.stroke_width(1))
    }))?;
    chart.draw_series(
        crate_poses
            .iter()
            .map(|p| Polygon::new(outline(&crate_box, p, 0, 2), crate_colour.mix(0.8).filled())),
    )?;
    chart.draw_series(LineSeries::new(top_path, body_colour(0).stroke_width(2)))?;
    root.present()?;
    println!("  picture: {}", file.display());
    Ok(())
}
