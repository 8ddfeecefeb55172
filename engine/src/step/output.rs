//! What a step leaves for the user to read until the next one: its stage times, its events and
//! its counts.

use crate::events::Event;
use crate::stage::StageTimes;

/// Counts from the last step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counts {
    /// Candidate pairs (contact and sensor) after filtering.
    pub pairs: usize,
    /// Contact points in the contact cache.
    pub contacts: usize,
    /// Pairs in the contact cache.
    pub contact_pairs: usize,
    /// Pairs in the contact cache whose bodies touch.
    pub touching_pairs: usize,
}

/// The results of the last step that are not part of the world's state (nothing here is
/// snapshotted).
#[derive(Default)]
pub(crate) struct StepOutput {
    /// Wall-clock time of each stage.
    pub times: StageTimes,
    /// Contact and sensor events, in pair order.
    pub events: Vec<Event>,
    pub counts: Counts,
}
