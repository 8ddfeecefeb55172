//! [`QueryFilter`]: which bodies a world query may report. Every query of
//! [`World`](crate::World) that looks for bodies takes one; [`QueryFilter::default`] lets every
//! body through.
//!
//! The tests run from the cheapest to the dearest: excluded handles, body kind, sensor flag,
//! collision groups, and the user's predicate last (so it is called only for bodies that passed
//! every other test). The same split as rapier's `QueryFilter` (flags, groups, excluded
//! colliders, predicate), written for Tumble's bodies.

use crate::body::{Body, BodyKind};
use crate::handle::BodyHandle;

/// What a query does with sensor bodies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SensorMode {
    /// Sensors are reported like solid bodies (the default).
    #[default]
    Include,
    /// Sensors are skipped.
    Exclude,
    /// Only sensors are reported.
    Only,
}

/// Which bodies a query may report. Built with chained calls:
///
/// ```
/// use tumble::{BodyHandle, QueryFilter};
/// let me = BodyHandle::invalid();
/// let not_tagged = |h: BodyHandle| h.index() % 2 == 0;
/// let filter = QueryFilter::new()
///     .exclude_body(me)
///     .exclude_sensors()
///     .exclude_dynamic()
///     .groups(0b01, 0b10)
///     .predicate(&not_tagged);
/// # let _ = filter;
/// ```
///
/// A body passes when it is none of the excluded handles, its kind is not excluded, the
/// [`SensorMode`] accepts it, the collision groups match (when set: the query's
/// `memberships & body.filter != 0` and `body.memberships & filter != 0`, the rule two bodies
/// obey in the simulation) and the predicate, if any, returns `true`.
#[derive(Clone, Copy, Default)]
pub struct QueryFilter<'a> {
    /// One body to skip (typically the one a ray or a character starts in).
    pub exclude_body: Option<BodyHandle>,
    /// More bodies to skip (any order; searched linearly, so keep it short).
    pub exclude_bodies: &'a [BodyHandle],
    /// Collision groups of the query, `(memberships, filter)`; `None` ignores groups.
    pub groups: Option<(u32, u32)>,
    /// What to do with sensors.
    pub sensors: SensorMode,
    /// Skip dynamic bodies.
    pub exclude_dynamic: bool,
    /// Skip kinematic bodies.
    pub exclude_kinematic: bool,
    /// Skip static bodies.
    pub exclude_static: bool,
    /// Called last, with the handle of a body that passed every other test: `false` skips it.
    pub predicate: Option<&'a dyn Fn(BodyHandle) -> bool>,
}

impl std::fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("exclude_body", &self.exclude_body)
            .field("exclude_bodies", &self.exclude_bodies)
            .field("groups", &self.groups)
            .field("sensors", &self.sensors)
            .field("exclude_dynamic", &self.exclude_dynamic)
            .field("exclude_kinematic", &self.exclude_kinematic)
            .field("exclude_static", &self.exclude_static)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl<'a> QueryFilter<'a> {
    /// A filter that lets every body through.
    pub fn new() -> Self {
        Self::default()
    }

    /// Skips body `h`.
    pub fn exclude_body(mut self, h: BodyHandle) -> Self {
        self.exclude_body = Some(h);
        self
    }

    /// Skips every body of `hs` (besides [`exclude_body`](Self::exclude_body)).
    pub fn exclude_bodies(mut self, hs: &'a [BodyHandle]) -> Self {
        self.exclude_bodies = hs;
        self
    }

    /// Only bodies whose collision groups match `(memberships, filter)` (see the type docs).
    pub fn groups(mut self, memberships: u32, filter: u32) -> Self {
        self.groups = Some((memberships, filter));
        self
    }

    /// Skips sensors.
    pub fn exclude_sensors(mut self) -> Self {
        self.sensors = SensorMode::Exclude;
        self
    }

    /// Reports sensors only.
    pub fn only_sensors(mut self) -> Self {
        self.sensors = SensorMode::Only;
        self
    }

    /// Skips dynamic bodies.
    pub fn exclude_dynamic(mut self) -> Self {
        self.exclude_dynamic = true;
        self
    }

    /// Skips kinematic bodies.
    pub fn exclude_kinematic(mut self) -> Self {
        self.exclude_kinematic = true;
        self
    }

    /// Skips static bodies.
    pub fn exclude_static(mut self) -> Self {
        self.exclude_static = true;
        self
    }

    /// Skips the bodies for which `f` returns `false`.
    pub fn predicate(mut self, f: &'a dyn Fn(BodyHandle) -> bool) -> Self {
        self.predicate = Some(f);
        self
    }

    /// True when body `b` (named `h`) passes the filter (see the type docs).
    pub(crate) fn accepts(&self, h: BodyHandle, b: &Body) -> bool {
        if self.exclude_body == Some(h) || self.exclude_bodies.contains(&h) {
            return false;
        }
        let kind_excluded = match b.kind {
            BodyKind::Dynamic => self.exclude_dynamic,
            BodyKind::Kinematic => self.exclude_kinematic,
            BodyKind::Static => self.exclude_static,
        };
        if kind_excluded {
            return false;
        }
        let sensor_ok = match self.sensors {
            SensorMode::Include => true,
            SensorMode::Exclude => !b.sensor,
            SensorMode::Only => b.sensor,
        };
        if !sensor_ok {
            return false;
        }
        if let Some((m, f)) = self.groups {
            if (m & b.filter) == 0 || (b.memberships & f) == 0 {
                return false;
            }
        }
        self.predicate.is_none_or(|p| p(h))
    }
}
