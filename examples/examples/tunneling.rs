//! Tunnelling: a ball 4 cm across flies at 30 m/s and at 300 m/s into a wall 5 cm thick, at
//! 60 steps per second, with continuous collision off and on (`WorldConfig::ccd`, and the
//! body's `.ccd(true)`). At 60 Hz the ball moves 0.5 m or 5 m per step, 10 or 100 times the
//! wall's thickness: without continuous collision no step ever sees it overlap the wall.
//! Leaves `tunneling.svg`: x over time for the four runs, the wall as a grey band.
//!
//! `cargo run --release -p tumble-examples --example tunneling [-- --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use std::process::ExitCode;
use tumble::math::Vector;
use tumble::{Ball, BodyBuilder, Cuboid, World, WorldConfig};
use tumble_examples::view::{body_colour, draw_legend, legend_line, svg_canvas};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// A fast ball against a thin wall, continuous collision off and on.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    #[command(flatten)]
    out: OutArgs,
}

const RADIUS: f32 = 0.02;
const WALL_HALF: f32 = 0.025;
/// Start so that no step lands the 30 m/s ball inside the wall: without continuous collision
/// it goes from x = −0.2 to x = +0.3 in one step.
const START_X: f32 = -3.2;
const STEPS: usize = 24;
/// The chart shows x in [−VIEW, VIEW]; a ball beyond is drawn at the edge.
const VIEW: f64 = 4.0;

fn main() -> ExitCode {
    run_example("tunneling", || run(Args::parse()))
}

/// One run: the ball's x after each step (starting with the initial x).
fn fly(speed: f32, ccd: bool) -> ExampleResult<Vec<f64>> {
    let config = WorldConfig {
        ccd,
        gravity: Vector::zeros(),
        ..WorldConfig::default()
    };
    let mut world = World::new(config)?;
    world.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(WALL_HALF, 2.0, 2.0))?)
            .translation(Vector::new(0.0, 1.0, 0.0)),
    )?;
    let ball = world.insert(
        BodyBuilder::dynamic(Ball::new(RADIUS)?)
            .translation(Vector::new(START_X, 1.0, 0.0))
            .linvel(Vector::new(speed, 0.0, 0.0))
            .restitution(0.5)
            .ccd(true),
    )?;
    let mut xs = Vec::with_capacity(STEPS + 1);
    for k in 0..=STEPS {
        let x = world
            .body(ball)
            .map_or(f64::NAN, |b| f64::from(b.translation().x));
        xs.push(x);
        if k < STEPS {
            world.step();
        }
    }
    Ok(xs)
}

fn run(args: Args) -> ExampleResult {
    let dir = out_dir("tunneling", args.out.out.as_deref())?;
    let dt = f64::from(WorldConfig::default().dt);
    let mut runs = Vec::new();
    println!(
        "tunneling: ball {:.0} cm across, wall {:.0} cm thick at x = 0, dt = 1/60 s, {STEPS} steps",
        2.0 * RADIUS * 100.0,
        2.0 * WALL_HALF * 100.0
    );
    println!(
        "  {:>9} {:>5} {:>10} {:>14}  result",
        "speed m/s", "ccd", "m per step", "final x (m)"
    );
    for speed in [30.0f32, 300.0] {
        for ccd in [false, true] {
            let xs = fly(speed, ccd)?;
            let last = *xs.last().unwrap_or(&f64::NAN);
            let result = if last > 0.0 {
                "TUNNELLED through the wall"
            } else {
                "stopped by the wall"
            };
            println!(
                "  {speed:>9.0} {:>5} {:>10.2} {last:>14.3}  {result}",
                if ccd { "on" } else { "off" },
                f64::from(speed) * dt
            );
            runs.push((speed, ccd, xs));
        }
    }

    let path = dir.join("tunneling.svg");
    let root = svg_canvas(&path, 1100, 600)?;
    let t_end = STEPS as f64 * dt;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .caption(
            "ball 4 cm across at 30 and 300 m/s against a 5 cm wall, 60 Hz: x after each step",
            ("sans-serif", 18),
        )
        .x_label_area_size(38)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..t_end, -VIEW..VIEW)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("x of the ball centre (m)")
        .draw()?;
    let wall = f64::from(WALL_HALF);
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(0.0, -wall), (t_end, wall)],
            RGBColor(150, 150, 150).filled(),
        )))?
        .label("wall (5 cm)")
        .legend(|(x, y)| {
            Rectangle::new(
                [(x, y - 4), (x + 16, y + 4)],
                RGBColor(150, 150, 150).filled(),
            )
        });
    for (i, (speed, ccd, xs)) in runs.iter().enumerate() {
        let colour = body_colour(i);
        let style = if *ccd {
            colour.stroke_width(3)
        } else {
            colour.stroke_width(1)
        };
        let pts: Vec<(f64, f64)> = xs
            .iter()
            .enumerate()
            .map(|(k, &x)| (k as f64 * dt, x.clamp(-VIEW, VIEW)))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), style))?
            .label(format!(
                "{speed:.0} m/s, continuous collision {}",
                if *ccd { "on" } else { "off" }
            ))
            .legend(legend_line(style));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
    }
    draw_legend(&mut chart, SeriesLabelPosition::LowerRight)?;
    root.present()?;
    println!(
        "  picture: {} (positions beyond ±{VIEW} m drawn at the edge)",
        path.display()
    );
    Ok(())
}
