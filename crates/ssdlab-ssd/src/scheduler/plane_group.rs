//! Pages gathered for one multi-plane operation (program or plain read): pages of one die, at most
//! one per plane.

use crate::geometry::{PlaneIndex, Ppn};

#[derive(Debug, Default)]
pub struct PlaneGroup {
    pages: Vec<Ppn>,
    die: u32,
    /// The planes taken, as bits of their global index (the planes of one die have consecutive
    /// indices, so up to 64 planes per die the bits differ; beyond, a collision only ends a group
    /// early).
    planes: u64,
}

impl PlaneGroup {
    pub fn pages(&self) -> &[Ppn] {
        &self.pages
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Adds `ppn` (on `die`, in `plane`) if it fits: the group is empty, or it is on the group's
    /// die in a plane not yet taken. Returns false, leaving the group unchanged, otherwise.
    #[inline]
    pub fn add(&mut self, die: u32, plane: PlaneIndex, ppn: Ppn) -> bool {
        let bit = 1u64 << (plane.0 & 63);
        if self.pages.is_empty() {
            self.die = die;
            self.planes = 0;
        } else if die != self.die || self.planes & bit != 0 {
            return false;
        }
        self.pages.push(ppn);
        self.planes |= bit;
        true
    }

    pub fn clear(&mut self) {
        self.pages.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_takes_one_page_per_plane_of_one_die() {
        let mut group = PlaneGroup::default();
        assert!(group.add(3, PlaneIndex(6), Ppn(10)));
        assert!(group.add(3, PlaneIndex(7), Ppn(11)));
        assert!(!group.add(3, PlaneIndex(7), Ppn(12)), "plane taken");
        assert!(!group.add(4, PlaneIndex(8), Ppn(13)), "other die");
        assert_eq!(group.pages(), &[Ppn(10), Ppn(11)]);
        group.clear();
        assert!(group.is_empty() && group.add(4, PlaneIndex(8), Ppn(13)));
    }
}
