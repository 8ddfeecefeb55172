//! What one measured run records and how it is reported: per-step stage times, the summary
//! statistics of the peer harness (median, mean, min, max ms per counted step), the JSON line
//! in the peer's form, the CSV of per-step times and the text summary table.
//!
//! Counting follows shared/peers/rapier-bench/README.md: warm-up steps are not recorded; each
//! counted step is the time of the engine call only (for `gas`: broad + narrow phase only).

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

/// Median, mean, minimum and maximum of a sample (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Median (mean of the two middle values for an even count).
    pub median: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl Stats {
    /// The statistics of `values`; all zero for an empty sample. NaN values are ignored.
    pub fn of(values: &[f64]) -> Self {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
        if v.is_empty() {
            return Self::default();
        }
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Self {
            median,
            mean: v.iter().sum::<f64>() / n as f64,
            min: v[0],
            max: v[n - 1],
        }
    }
}

/// Milliseconds in a duration, as f64.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The times of the counted steps of one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// Names of the stages, in step order.
    pub stage_names: Vec<&'static str>,
    /// Wall time of each counted step (engine call only), milliseconds.
    pub step_ms: Vec<f64>,
    /// `stage_ms[k][i]`: time of stage `i` in counted step `k`, milliseconds.
    pub stage_ms: Vec<Vec<f64>>,
}

impl Timeline {
    /// An empty timeline for these stages.
    pub fn new(stage_names: Vec<&'static str>) -> Self {
        Self {
            stage_names,
            ..Self::default()
        }
    }

    /// Records one counted step: its total and its stage times (one per stage name).
    pub fn push(&mut self, total: Duration, stages: &[Duration]) {
        self.step_ms.push(ms(total));
        self.stage_ms.push(stages.iter().copied().map(ms).collect());
    }

    /// Statistics of the per-step totals.
    pub fn step_stats(&self) -> Stats {
        Stats::of(&self.step_ms)
    }

    /// Median milliseconds of each stage, in stage order.
    pub fn stage_medians(&self) -> Vec<(&'static str, f64)> {
        self.stage_names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let column: Vec<f64> = self
                    .stage_ms
                    .iter()
                    .map(|row| row.get(i).copied().unwrap_or(0.0))
                    .collect();
                (*name, Stats::of(&column).median)
            })
            .collect()
    }

    /// Writes the CSV: a header `step,total_ms,<stage>_ms,...`, then one row per counted step
    /// (step numbered from 0 after the warm-up).
    pub fn write_csv(&self, mut out: impl Write) -> io::Result<()> {
        let mut header = String::from("step,total_ms");
        for name in &self.stage_names {
            let _ = write!(header, ",{name}_ms");
        }
        writeln!(out, "{header}")?;
        for (k, (total, stages)) in self.step_ms.iter().zip(&self.stage_ms).enumerate() {
            let mut row = format!("{k},{total:.6}");
            for s in stages {
                let _ = write!(row, ",{s:.6}");
            }
            writeln!(out, "{row}")?;
        }
        Ok(())
    }
}

/// The state of the world after the last counted step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EndState {
    /// Broad-phase pairs of the last step.
    pub bp_pairs: usize,
    /// Pairs with at least one contact point (gas: pairs with centre distance < 1).
    pub pairs: usize,
    /// Contact points of the last step.
    pub contacts: usize,
    /// Dynamic bodies whose centre left the scene's region.
    pub escaped: usize,
    /// Highest centre of a dynamic body (metres); 0 when there is none.
    pub max_body_y: f64,
    /// FNV-1a 64 hash of the state (see the engine's `state_hash`).
    pub hash: u64,
    /// The scene's own figures (empty for the scenes that report none).
    pub fidelity: Fidelity,
}

/// The figures by which the peer README judges how well a scene was simulated, each present
/// only for the scenes that report it (see each scene's "Reported" list in
/// shared/peers/rapier-bench/README.md).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fidelity {
    /// Number of dynamic bodies.
    pub bodies: Option<usize>,
    /// Dynamic bodies awake after the last step (neither asleep nor frozen).
    pub awake: Option<usize>,
    /// The largest distance between a dynamic body's centre after the last step and at t = 0
    /// (metres).
    pub max_displacement: Option<f64>,
    /// How far the top cube sank (`pyramid`), or the mean over the towers of how far the top
    /// cube sank (`stacks`), metres.
    pub top_drop: Option<f64>,
    /// Towers whose top cube moved more than 0.5 m horizontally (`stacks`).
    pub fallen: Option<usize>,
    /// Number of towers (`stacks`).
    pub towers: Option<usize>,
    /// Angle the turning box has turned through about its spin axis (`tumbler`), radians.
    pub box_angle_rad: Option<f64>,
    /// Distance of the turning box's centre from where it started (`tumbler`), metres.
    pub box_centre_drift: Option<f64>,
    /// Whether the engine let bodies sleep (`WorldConfig::sleep`).
    pub sleep: Option<bool>,
    /// The largest distance between a joint's two world anchors (`joint_grid`), metres.
    pub max_joint_error: Option<f64>,
    /// The mean of that distance over the joints (`joint_grid`), metres.
    pub mean_joint_error: Option<f64>,
    /// Mean over the bottom row of how far its balls sank (`joint_grid`), metres.
    pub bottom_row_drop: Option<f64>,
    /// Number of joints (`joint_grid`).
    pub joints: Option<usize>,
    /// The grid's side (`joint_grid`).
    pub grid_side: Option<usize>,
}

/// One JSON line in the form of the peer harness's output.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Always "tumble".
    pub engine: &'static str,
    /// The engine crate's version.
    pub version: &'static str,
    /// Scene name.
    pub scene: &'static str,
    /// Number of dynamic bodies (gas: balls).
    pub n: usize,
    /// Counted steps.
    pub steps: usize,
    /// Warm-up steps (not counted).
    pub warmup: usize,
    /// Rayon threads.
    pub threads: usize,
    /// Broad phase name.
    pub broadphase: String,
    /// Median ms per counted step.
    pub ms_per_step_median: f64,
    /// Mean ms per counted step.
    pub ms_per_step_mean: f64,
    /// Fastest counted step, ms.
    pub ms_per_step_min: f64,
    /// Slowest counted step, ms.
    pub ms_per_step_max: f64,
    /// Pairs with ≥ 1 contact point after the last step (gas: centre distance < 1).
    pub pairs_last_step: usize,
    /// Contact points after the last step.
    pub contacts_last_step: usize,
    /// Pairs the broad phase handed to the narrow phase in the last step.
    pub bp_pairs_last_step: usize,
    /// Dynamic bodies outside the scene's region (must be 0).
    pub escaped_bodies: usize,
    /// Highest dynamic body centre, metres.
    pub max_body_y: f64,
    /// Dynamic bodies awake after the last step (neither asleep nor frozen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub awake_bodies_last_step: Option<usize>,
    /// Largest distance of a dynamic body from its start (metres).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_displacement: Option<f64>,
    /// How far the top cube sank (`stacks`: mean over the towers), metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_drop: Option<f64>,
    /// Towers whose top moved more than 0.5 m horizontally.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallen: Option<usize>,
    /// Number of towers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub towers: Option<usize>,
    /// Angle the turning box has turned through, radians.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub box_angle_rad: Option<f64>,
    /// Distance of the turning box's centre from its start, metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub box_centre_drift: Option<f64>,
    /// Number of dynamic bodies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bodies: Option<usize>,
    /// Whether bodies could sleep (`WorldConfig::sleep`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep: Option<bool>,
    /// Largest distance between a joint's two world anchors, metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_joint_error: Option<f64>,
    /// Mean distance between a joint's two world anchors, metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_joint_error: Option<f64>,
    /// Mean sinking of the bottom row, metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottom_row_drop: Option<f64>,
    /// Number of joints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joints: Option<usize>,
    /// The grid's side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid_side: Option<usize>,
    /// Median ms per stage, in step order.
    #[serde(serialize_with = "ordered_map")]
    pub stages: Vec<(&'static str, f64)>,
    /// State hash as 16 hex digits.
    pub hash: String,
    /// Recipe seed.
    pub seed: u64,
    /// Scene construction time (untimed otherwise), ms.
    pub setup_ms: f64,
    /// What was timed.
    pub api: &'static str,
}

fn ordered_map<S: Serializer>(v: &[(&'static str, f64)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(v.len()))?;
    for (k, x) in v {
        map.serialize_entry(k, &round4(*x))?;
    }
    map.end()
}

/// Rounds to 4 decimals, as the peer prints its milliseconds.
pub fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// Rounds to 6 decimals (the fidelity figures: sinking and drift of a few millimetres).
pub fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// What the run measured, to be turned into a [`Report`].
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// Scene name.
    pub scene: &'static str,
    /// Number of dynamic bodies.
    pub n: usize,
    /// Warm-up steps.
    pub warmup: usize,
    /// Rayon threads.
    pub threads: usize,
    /// Broad phase name.
    pub broadphase: String,
    /// Recipe seed.
    pub seed: u64,
    /// Scene construction time, ms.
    pub setup_ms: f64,
    /// What was timed.
    pub api: &'static str,
}

impl Report {
    /// The report of a run.
    pub fn new(info: &RunInfo, timeline: &Timeline, end: &EndState) -> Self {
        let s = timeline.step_stats();
        let f = end.fidelity;
        Self {
            engine: "tumble",
            version: tumble_version(),
            scene: info.scene,
            n: info.n,
            steps: timeline.step_ms.len(),
            warmup: info.warmup,
            threads: info.threads,
            broadphase: info.broadphase.clone(),
            ms_per_step_median: round4(s.median),
            ms_per_step_mean: round4(s.mean),
            ms_per_step_min: round4(s.min),
            ms_per_step_max: round4(s.max),
            pairs_last_step: end.pairs,
            contacts_last_step: end.contacts,
            bp_pairs_last_step: end.bp_pairs,
            escaped_bodies: end.escaped,
            max_body_y: round4(end.max_body_y),
            awake_bodies_last_step: f.awake,
            max_displacement: f.max_displacement.map(round6),
            top_drop: f.top_drop.map(round6),
            fallen: f.fallen,
            towers: f.towers,
            box_angle_rad: f.box_angle_rad.map(round6),
            box_centre_drift: f.box_centre_drift.map(round6),
            bodies: f.bodies,
            sleep: f.sleep,
            max_joint_error: f.max_joint_error.map(round6),
            mean_joint_error: f.mean_joint_error.map(round6),
            bottom_row_drop: f.bottom_row_drop.map(round6),
            joints: f.joints,
            grid_side: f.grid_side,
            stages: timeline.stage_medians(),
            hash: format!("{:016x}", end.hash),
            seed: info.seed,
            setup_ms: round4(info.setup_ms),
            api: info.api,
        }
    }

    /// The report as one JSON line (no trailing newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// A human-readable summary table (several lines, ending in a newline).
    pub fn summary_table(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "scene {} | n {} | {} steps after {} warm-up | {} thread(s) | broad phase {}",
            self.scene, self.n, self.steps, self.warmup, self.threads, self.broadphase
        );
        let _ = writeln!(
            t,
            "ms per step: median {:.3}  mean {:.3}  min {:.3}  max {:.3}",
            self.ms_per_step_median,
            self.ms_per_step_mean,
            self.ms_per_step_min,
            self.ms_per_step_max
        );
        let total: f64 = self.stages.iter().map(|(_, x)| x).sum();
        let _ = writeln!(t, "{:<22} {:>12} {:>8}", "stage", "median ms", "share");
        for (name, x) in &self.stages {
            let share = if total > 0.0 { 100.0 * x / total } else { 0.0 };
            let _ = writeln!(t, "{name:<22} {x:>12.3} {share:>7.1}%");
        }
        let _ = writeln!(
            t,
            "last step: {} broad-phase pairs, {} touching pairs, {} contact points",
            self.bp_pairs_last_step, self.pairs_last_step, self.contacts_last_step
        );
        let _ = writeln!(
            t,
            "escaped bodies {} | max body y {:.3} m | state hash {} | set-up {:.1} ms",
            self.escaped_bodies, self.max_body_y, self.hash, self.setup_ms
        );
        let figures = self.fidelity_figures();
        if !figures.is_empty() {
            let _ = writeln!(t, "fidelity: {figures}");
        }
        t
    }

    /// The scene's fidelity figures as `name value` pairs joined by " | " (empty when the
    /// scene reports none).
    pub fn fidelity_figures(&self) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.bodies {
            parts.push(format!("bodies {n}"));
        }
        if let Some(n) = self.awake_bodies_last_step {
            parts.push(format!("awake {n}"));
        }
        let metres = [
            ("max displacement", self.max_displacement),
            ("top drop", self.top_drop),
            ("box centre drift", self.box_centre_drift),
            ("max joint error", self.max_joint_error),
            ("mean joint error", self.mean_joint_error),
            ("bottom row drop", self.bottom_row_drop),
        ];
        for (name, x) in metres {
            if let Some(x) = x {
                parts.push(format!("{name} {x:.4} m"));
            }
        }
        if let Some(n) = self.fallen {
            parts.push(format!("fallen {n} of {} towers", self.towers.unwrap_or(0)));
        }
        if let Some(n) = self.joints {
            parts.push(format!("joints {n}"));
        }
        if let Some(a) = self.box_angle_rad {
            parts.push(format!("box angle {a:.4} rad"));
        }
        if let Some(s) = self.sleep {
            parts.push(format!("sleep {}", if s { "on" } else { "off" }));
        }
        parts.join(" | ")
    }
}

/// The `tumble` crate's version (the workspace's version, shared by every package).
pub fn tumble_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// FNV-1a 64 over a sequence of f32 bit patterns (little-endian bytes), the hash the peer
/// comparison uses; kept here for states the engine does not hash itself (e.g. `gas`).
pub fn fnv1a_f32(values: impl IntoIterator<Item = f32>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    for v in values {
        for byte in v.to_bits().to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(PRIME);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_odd_and_even_samples() {
        let s = Stats::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.mean, s.min, s.max), (2.0, 2.0, 1.0, 3.0));
        let s = Stats::of(&[4.0, 1.0, 2.0, 3.0]);
        assert_eq!(s.median, 2.5);
        assert_eq!(Stats::of(&[]), Stats::default());
    }

    #[test]
    fn fnv1a_of_nothing_is_the_offset_basis_and_of_bytes_matches_the_spec() {
        assert_eq!(fnv1a_f32([]), 0xcbf2_9ce4_8422_2325);
        // FNV-1a 64 of the 4 bytes 00 00 80 3f (1.0f32), folded by hand from the definition.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in [0x00u8, 0x00, 0x80, 0x3f] {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        assert_eq!(fnv1a_f32([1.0]), h);
    }

    #[test]
    fn json_line_has_the_peer_fields_and_ordered_stages() {
        let mut tl = Timeline::new(vec!["broad", "narrow"]);
        tl.push(
            Duration::from_millis(3),
            &[Duration::from_millis(1), Duration::from_millis(2)],
        );
        let info = RunInfo {
            scene: "balls",
            n: 10,
            warmup: 0,
            threads: 1,
            broadphase: "grid".into(),
            seed: 42,
            setup_ms: 0.0,
            api: "World::step",
        };
        let line = Report::new(&info, &tl, &EndState::default()).to_json_line();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["engine"], "tumble");
        assert_eq!(v["ms_per_step_median"], 3.0);
        assert_eq!(v["stages"]["narrow"], 2.0);
        assert!(line.find("\"broad\"").unwrap() < line.find("\"narrow\"").unwrap());
        let mut csv = Vec::new();
        tl.write_csv(&mut csv).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        assert!(csv.starts_with("step,total_ms,broad_ms,narrow_ms\n0,3.0"));
    }
}
