//! What a stage shows of the data it moves, for the integrity oracle (`oracle.rs`): the data each
//! read returns, the pages a stage writes of its own, and the consistency of what it holds. A
//! stage holds a `Witness` (handed to it when the path is built) and reports through it; what is
//! checked, counted and kept lives in the oracle alone. Without the oracle the witness watches
//! nothing: every call returns at once, and a stage skips the lookups a report needs
//! (`watching`).

use super::oracle::Oracle;
use std::cell::RefCell;
use std::rc::Rc;

/// A stage's view of the oracle (see the module). Cloning shares the same oracle.
#[derive(Clone, Default)]
pub(in crate::simulation) struct Witness(Option<Rc<RefCell<Oracle>>>);

impl Witness {
    pub(super) fn of(oracle: Option<&Rc<RefCell<Oracle>>>) -> Witness {
        Witness(oracle.cloned())
    }

    /// True when the data is watched (the oracle is on): the reports below are then worth their
    /// lookups.
    #[inline]
    pub(in crate::simulation) fn watching(&self) -> bool {
        self.0.is_some()
    }

    /// A read of `key` (a host page, or a sector where the stage keeps sectors) returned the data
    /// tagged `found` (None: no data), `from` where (for the first mismatch's message).
    #[inline]
    pub(in crate::simulation) fn returned(&self, key: u32, found: Option<u32>, from: &str) {
        if let Some(oracle) = &self.0 {
            oracle.borrow_mut().check(key, found, from);
        }
    }

    /// A page the stage writes of its own (not host data: a translation page, at `key` past the
    /// host's pages): its tag, which later reads of it must return (0 when not watched).
    pub(in crate::simulation) fn own_page_written(&self, key: u32) -> u32 {
        self.0.as_ref().map_or(0, |oracle| oracle.borrow_mut().tag_write(key))
    }

    /// A stage's own check of what it holds (a cache line against its flash copy, a store's
    /// invariants): when `holds` is false it counts as a mismatch, `describe`d.
    pub(in crate::simulation) fn consistent(&self, holds: bool, describe: impl FnOnce() -> String) {
        if let (false, Some(oracle)) = (holds, &self.0) {
            oracle.borrow_mut().mismatch(describe);
        }
    }
}
