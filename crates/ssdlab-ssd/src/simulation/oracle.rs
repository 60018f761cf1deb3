//! The data-integrity oracle: every read must return the latest write ("no data lost").

use std::collections::HashMap;

/// Checks that every read returns the latest write: each host page write gets a fresh tag, stored
/// with the data in the physical page and carried by GC; a read compares the stored tag with the one
/// remembered here.
pub(super) struct Oracle {
    pub(super) expected: HashMap<u32, u32>,
    next_tag: u32,
    pub(super) reads_checked: u64,
    pub(super) mismatches: u64,
    pub(super) first_mismatch: Option<String>,
}

impl Oracle {
    pub(super) fn new() -> Self {
        Oracle { expected: HashMap::new(), next_tag: 1, reads_checked: 0, mismatches: 0, first_mismatch: None }
    }

    pub(super) fn tag_write(&mut self, host_page: u32) -> u32 {
        let tag = self.next_tag;
        self.next_tag = self.next_tag.wrapping_add(1).max(1);
        self.expected.insert(host_page, tag);
        tag
    }

    pub(super) fn check(&mut self, host_page: u32, found: Option<u32>, context: &str) {
        self.reads_checked += 1;
        let expected = self.expected.get(&host_page).copied();
        if expected != found {
            self.mismatches += 1;
            if self.first_mismatch.is_none() {
                self.first_mismatch = Some(format!("host page {host_page} ({context}): expected tag {expected:?}, read {found:?}"));
            }
        }
    }
}
