//! The broad phase's typed errors.

use crate::handle::ProxyHandle;
use std::fmt;

/// Why a broad-phase call was refused. Nothing is changed when an error is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseError {
    /// An AABB had a NaN or infinite coordinate (the handle being updated, or `None` on insert).
    NonFiniteAabb(Option<ProxyHandle>),
    /// An AABB had `mins > maxs` on some axis.
    InvertedAabb,
    /// The handle's slot was freed (and maybe reused) since the handle was issued.
    StaleHandle(ProxyHandle),
    /// The handle names a slot this broad phase never allocated.
    UnknownHandle(ProxyHandle),
    /// More proxies than the structure can index (the payload is the limit).
    TooManyProxies(usize),
    /// A user-set parameter (e.g. the grid's cell size) was not finite and positive.
    InvalidParameter(&'static str),
}

impl fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteAabb(Some(h)) => write!(
                f,
                "AABB for proxy {h:?} has a NaN or infinite coordinate: check the body's pose and shape"
            ),
            Self::NonFiniteAabb(None) => write!(
                f,
                "AABB has a NaN or infinite coordinate: check the body's pose and shape"
            ),
            Self::InvertedAabb => {
                write!(f, "AABB has mins > maxs on some axis: build it with Aabb::new")
            }
            Self::StaleHandle(h) => write!(
                f,
                "proxy handle {h:?} was removed: drop it after calling remove"
            ),
            Self::UnknownHandle(h) => write!(
                f,
                "proxy handle {h:?} was not issued by this broad phase: use the handle insert returned"
            ),
            Self::TooManyProxies(n) => {
                write!(f, "more than {n} proxies: split the scene into several worlds")
            }
            Self::InvalidParameter(what) => {
                write!(f, "{what} must be finite and positive")
            }
        }
    }
}

impl std::error::Error for BroadPhaseError {}
