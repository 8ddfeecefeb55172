//! The contacts of one body, without a pass over every pair.
//!
//! The contact cache is sorted by `(a.index, b.index)` with `a.index < b.index`. The pairs in
//! which the body is `a` form one run of the cache, found by binary search: O(log pairs). The
//! pairs in which it is `b` are scattered; for them the world keeps an index by `b`, a counting
//! sort of the cache's positions by `b.index` (per slot, the start of its run in one array),
//! built on the first call after each step in O(pairs + slots) and shared by every later call
//! until the next step. So one call costs O(log pairs + its own contacts) once the index
//! exists.

use crate::contact::{ContactIndex, ContactInfo, ContactPair};
use crate::error::WorldError;
use crate::handle::BodyHandle;
use crate::world::World;

/// The contact pairs of one body, from [`World::contacts_of`]: ordered by the other body's
/// handle.
pub struct ContactsOf<'a> {
    contacts: &'a [ContactPair],
    body: BodyHandle,
    /// Positions of the pairs where the body is `b` (still to be yielded).
    as_b: std::slice::Iter<'a, u32>,
    /// Range of the cache where the body is `a` (still to be yielded).
    as_a: std::ops::Range<usize>,
}

impl<'a> Iterator for ContactsOf<'a> {
    type Item = ContactInfo<'a>;

    fn next(&mut self) -> Option<ContactInfo<'a>> {
        let info = |c: &'a ContactPair| ContactInfo {
            a: c.a,
            b: c.b,
            manifold: &c.manifold,
            touching: c.touching,
        };
        for &k in self.as_b.by_ref() {
            let c = &self.contacts[k as usize];
            if c.b == self.body {
                return Some(info(c));
            }
        }
        for k in self.as_a.by_ref() {
            let c = &self.contacts[k];
            if c.a == self.body {
                return Some(info(c));
            }
        }
        None
    }
}

impl World {
    /// The contact pairs (touching and speculative) of body `h` after the last step, each as
    /// [`World::contacts`] shows it (`a` the lower handle, normal from `a` to `b`: check which
    /// side `h` is on), ordered by the other body's handle. O(log pairs + the body's pairs),
    /// after an index built once per step (see the module docs). Errors on a stale handle.
    pub fn contacts_of(&self, h: BodyHandle) -> Result<ContactsOf<'_>, WorldError> {
        self.get(h)?;
        let contacts = &self.state.contacts;
        let index = self
            .contact_index
            .get_or_init(|| ContactIndex::build(contacts, self.state.slots.len()));
        let i = h.index() as usize;
        let as_b = match (index.start.get(i), index.start.get(i + 1)) {
            (Some(&s), Some(&e)) => &index.order[s as usize..e as usize],
            _ => &[],
        };
        let lo = contacts.partition_point(|c| c.a.index() < h.index());
        let hi = lo + contacts[lo..].partition_point(|c| c.a.index() == h.index());
        Ok(ContactsOf {
            contacts,
            body: h,
            as_b: as_b.iter(),
            as_a: lo..hi,
        })
    }
}
