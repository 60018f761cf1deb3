//! The data-integrity oracle: every read must return the latest write ("no data lost").

use std::collections::HashMap;

/// Checks that every read returns the latest write: each host page write gets a fresh tag, stored
/// with the data in the physical page and carried by GC; a read compares the stored tag with the one
/// remembered here.
pub(in crate::simulation::data_path) struct Oracle {
    pub(in crate::simulation::data_path) expected: HashMap<u32, u32>,
    /// Host pages deleted since their last write, with the tag they held: a read may find the old
    /// data (the delete never reached the FTL) or nothing (it was trimmed), never another page's.
    deleted: HashMap<u32, u32>,
    next_tag: u32,
    pub(in crate::simulation::data_path) reads_checked: u64,
    pub(in crate::simulation::data_path) mismatches: u64,
    pub(in crate::simulation::data_path) first_mismatch: Option<String>,
}

impl Oracle {
    pub(in crate::simulation::data_path) fn new() -> Self {
        Oracle {
            expected: HashMap::new(),
            deleted: HashMap::new(),
            next_tag: 1,
            reads_checked: 0,
            mismatches: 0,
            first_mismatch: None,
        }
    }

    pub(in crate::simulation::data_path) fn tag_write(&mut self, host_page: u32) -> u32 {
        let tag = self.next_tag;
        self.next_tag = self.next_tag.wrapping_add(1).max(1);
        self.expected.insert(host_page, tag);
        self.deleted.remove(&host_page);
        tag
    }

    /// Deleted host pages (sorted) and the tag each held.
    pub(in crate::simulation::data_path) fn deleted_pages(&self) -> Vec<(u32, u32)> {
        let mut pages: Vec<(u32, u32)> = self.deleted.iter().map(|(&k, &v)| (k, v)).collect();
        pages.sort_unstable();
        pages
    }

    /// Host page `host_page` was deleted.
    pub(in crate::simulation::data_path) fn delete(&mut self, host_page: u32) {
        if let Some(tag) = self.expected.remove(&host_page) {
            self.deleted.insert(host_page, tag);
        }
    }

    pub(in crate::simulation::data_path) fn check(&mut self, host_page: u32, found: Option<u32>, context: &str) {
        self.reads_checked += 1;
        let expected = self.expected.get(&host_page).copied();
        let deleted_and_acceptable =
            expected.is_none() && found.is_some() && self.deleted.get(&host_page).copied() == found;
        if expected != found && !deleted_and_acceptable {
            self.mismatches += 1;
            if self.first_mismatch.is_none() {
                self.first_mismatch =
                    Some(format!("host page {host_page} ({context}): expected tag {expected:?}, read {found:?}"));
            }
        }
    }
}
