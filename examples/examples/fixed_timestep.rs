//! Fixed time step: an uneven frame clock (frames of 4 to 30 ms, seeded) drives
//! `World::advance`, which runs as many fixed 1/60 s steps as the accumulated time allows and
//! leaves `alpha` = the fraction of a step still pending; the picture is drawn at
//! `render_pose`, the previous and current step blended by `alpha` (Fiedler, "Fix Your
//! Timestep!"). One frame stalls for half a second: the accumulator takes at most
//! `max_frame_time` (0.1 s) of it, so only 6 steps run and the simulation falls behind the wall
//! clock instead of spiralling. Leaves `fixed_timestep.svg` (path, steps and alpha per frame,
//! simulated against real time).
//!
//! `cargo run --release -p tumble-examples --example fixed_timestep [-- --frames 90 --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use tumble::math::Vector;
use tumble::{Ball, BodyBuilder, World, WorldConfig};
use tumble_examples::view::{body_colour, draw_legend, legend_line, svg_canvas};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// Uneven frames driving `advance`; interpolation and the stall cap.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Number of frames (20 to 1000).
    #[arg(long, default_value_t = 90, value_parser = clap::value_parser!(u64).range(20..=1000))]
    frames: u64,
    /// Length of the one stalled frame, seconds (0 to 10).
    #[arg(long, default_value_t = 0.5)]
    stall: f64,
    /// Seed of the frame clock.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    #[command(flatten)]
    out: OutArgs,
}

fn main() -> ExitCode {
    run_example("fixed_timestep", || run(Args::parse()))
}

/// What one frame did.
struct Frame {
    real_end: f64,
    seconds: f64,
    steps: u32,
    alpha: f64,
    sim_time: f64,
    drawn: (f64, f64),
}

fn run(args: Args) -> ExampleResult {
    if !(0.0..=10.0).contains(&args.stall) {
        return Err(format!("--stall must be in [0, 10] s, got {}", args.stall).into());
    }
    let dir = out_dir("fixed_timestep", args.out.out.as_deref())?;
    let config = WorldConfig::default();
    let (dt, cap) = (f64::from(config.dt), f64::from(config.max_frame_time));
    // The world driven by the frame clock, and a twin stepped one fixed step at a time to
    // show every raw step state (the engine is deterministic, so the two agree step for step).
    let make = || -> ExampleResult<(World, tumble::BodyHandle)> {
        let mut world = World::new(config.clone())?;
        let ball = world.insert(
            BodyBuilder::dynamic(Ball::new(0.1)?)
                .translation(Vector::new(0.0, 1.0, 0.0))
                .linvel(Vector::new(2.0, 6.0, 0.0)),
        )?;
        Ok((world, ball))
    };
    let (mut world, ball) = make()?;
    let (mut twin, _) = make()?;
    let pos = |w: &World| {
        w.body(ball)
            .map(|b| (f64::from(b.translation().x), f64::from(b.translation().y)))
    };
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let n = args.frames as usize;
    let stall_frame = n / 2;
    let (mut real, mut steps_total) = (0.0f64, 0u64);
    let mut raw = vec![pos(&twin).unwrap_or_default()];
    let mut frames = Vec::with_capacity(n);
    for f in 0..n {
        let seconds = if f == stall_frame {
            args.stall
        } else {
            rng.gen_range(0.004..0.030)
        };
        real += seconds;
        let adv = world.advance(seconds as f32)?;
        for _ in 0..adv.steps {
            twin.step();
            raw.push(pos(&twin).unwrap_or_default());
        }
        steps_total += u64::from(adv.steps);
        let drawn = world.render_pose(ball).map_or((f64::NAN, f64::NAN), |p| {
            (f64::from(p.translation.x), f64::from(p.translation.y))
        });
        frames.push(Frame {
            real_end: real,
            seconds,
            steps: adv.steps,
            alpha: f64::from(adv.alpha),
            sim_time: steps_total as f64 * dt,
            drawn,
        });
    }

    let mut histogram = std::collections::BTreeMap::new();
    for fr in &frames {
        *histogram.entry(fr.steps).or_insert(0u32) += 1;
    }
    let stall = &frames[stall_frame];
    println!("fixed_timestep: {n} frames, {real:.3} s of wall clock, {steps_total} steps of 1/60 s = {:.3} s simulated", steps_total as f64 * dt);
    println!(
        "  steps per frame (how many frames): {}",
        histogram
            .iter()
            .map(|(s, c)| format!("{s} step(s): {c}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  stalled frame {stall_frame}: {:.3} s long, capped at max_frame_time = {cap:.2} s -> {} steps; simulation now {:.3} s behind the clock",
        stall.seconds,
        stall.steps,
        stall.real_end - stall.sim_time
    );
    let alphas: Vec<f64> = frames.iter().map(|f| f.alpha).collect();
    println!(
        "  alpha stayed in [{:.3}, {:.3}] (must be in [0, 1))",
        alphas.iter().copied().fold(f64::INFINITY, f64::min),
        alphas.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    );

    let path = dir.join("fixed_timestep.svg");
    let root = svg_canvas(&path, 1200, 1000)?;
    let areas = root.split_evenly((3, 1));
    // 1. The path: raw states against what the frames drew.
    let xs = raw
        .iter()
        .map(|p| p.0)
        .chain(frames.iter().map(|f| f.drawn.0));
    let ys = raw
        .iter()
        .map(|p| p.1)
        .chain(frames.iter().map(|f| f.drawn.1));
    let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (y0, y1) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let mut c = ChartBuilder::on(&areas[0])
        .margin(10)
        .caption("path of a thrown ball: step states (dots) and the interpolated pose drawn each frame (line)", ("sans-serif", 16))
        .x_label_area_size(32)
        .y_label_area_size(50)
        .build_cartesian_2d(x0 - 0.1..x1 + 0.1, y0 - 0.2..y1 + 0.2)?;
    c.configure_mesh().x_desc("x (m)").y_desc("y (m)").draw()?;
    let (blue, red) = (body_colour(0), body_colour(3));
    c.draw_series(LineSeries::new(
        frames.iter().map(|f| f.drawn),
        blue.stroke_width(1),
    ))?
    .label("render_pose at each frame")
    .legend(legend_line(blue));
    c.draw_series(
        frames
            .iter()
            .map(|f| Circle::new(f.drawn, 2, blue.filled())),
    )?;
    c.draw_series(raw.iter().map(|&p| Circle::new(p, 4, red.stroke_width(1))))?
        .label("every fixed step (1/60 s)")
        .legend(move |(x, y)| Circle::new((x + 8, y), 4, red.stroke_width(1)));
    draw_legend(&mut c, SeriesLabelPosition::LowerLeft)?;

    // 2. Steps per frame (bars) and alpha (line) against the frame index.
    let max_steps = frames.iter().map(|f| f.steps).max().unwrap_or(1).max(2);
    let mut c = ChartBuilder::on(&areas[1])
        .margin(10)
        .caption(
            "steps run per frame (bars, left) and alpha after the frame (line, right)",
            ("sans-serif", 16),
        )
        .x_label_area_size(32)
        .y_label_area_size(50)
        .right_y_label_area_size(50)
        .build_cartesian_2d(0.0..n as f64, 0.0..f64::from(max_steps) + 0.5)?
        .set_secondary_coord(0.0..n as f64, 0.0..1.0);
    c.configure_mesh()
        .x_desc("frame")
        .y_desc("steps")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    c.configure_secondary_axes().y_desc("alpha").draw()?;
    c.draw_series(frames.iter().enumerate().map(|(i, f)| {
        let colour = if i == stall_frame {
            red
        } else {
            RGBColor(160, 160, 160)
        };
        Rectangle::new(
            [(i as f64 + 0.1, 0.0), (i as f64 + 0.9, f64::from(f.steps))],
            colour.filled(),
        )
    }))?;
    c.draw_secondary_series(LineSeries::new(
        frames
            .iter()
            .enumerate()
            .map(|(i, f)| (i as f64 + 0.5, f.alpha)),
        blue.stroke_width(2),
    ))?;

    // 3. Simulated time against the wall clock: the stall cap shows as a step down from y = x.
    let mut c = ChartBuilder::on(&areas[2])
        .margin(10)
        .caption(
            format!(
                "simulated time against real time: the {:.1} s stall is capped at {cap:.2} s",
                args.stall
            ),
            ("sans-serif", 16),
        )
        .x_label_area_size(32)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..real, 0.0..real)?;
    c.configure_mesh()
        .x_desc("real time (s)")
        .y_desc("simulated time (s)")
        .draw()?;
    c.draw_series(LineSeries::new([(0.0, 0.0), (real, real)], BLACK.mix(0.3)))?
        .label("real time")
        .legend(legend_line(BLACK.mix(0.3)));
    let mut pts = vec![(0.0, 0.0)];
    pts.extend(frames.iter().map(|f| (f.real_end, f.sim_time)));
    c.draw_series(LineSeries::new(pts, blue.stroke_width(2)))?
        .label("steps × dt")
        .legend(legend_line(blue));
    draw_legend(&mut c, SeriesLabelPosition::UpperLeft)?;
    root.present()?;
    println!("  picture: {}", path.display());
    Ok(())
}
