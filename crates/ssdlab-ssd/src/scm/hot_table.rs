//! Seed 001's LRU table of recent write addresses: addresses enter at the front in write order
//! (first in, first out when the table is full); a write to an address still in the table moves it
//! back to the front. A write that finds its address in the table is to hot data.
//!
//! O(1) per write: a map from address to entry and a doubly linked list through the entries.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};

const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Entry {
    address: u32,
    newer: u32,
    older: u32,
}

#[derive(Debug, Clone)]
pub struct HotTable {
    capacity: u32,
    /// Fixed hash keys: the same run lays the table out the same way (see `ScmStore::pages`).
    index: HashMap<u32, u32, BuildHasherDefault<DefaultHasher>>,
    entries: Vec<Entry>,
    newest: u32,
    oldest: u32,
}

impl HotTable {
    pub fn new(capacity: u32) -> Self {
        HotTable {
            capacity: capacity.max(1),
            index: HashMap::with_capacity_and_hasher(capacity as usize, BuildHasherDefault::default()),
            entries: Vec::with_capacity(capacity as usize),
            newest: NONE,
            oldest: NONE,
        }
    }

    pub fn contains(&self, address: u32) -> bool {
        self.index.contains_key(&address)
    }

    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Records a write to `address`; returns whether it was in the table (hot) before.
    pub fn touch(&mut self, address: u32) -> bool {
        if let Some(&entry) = self.index.get(&address) {
            self.unlink(entry);
            self.push_front(entry);
            return true;
        }
        let entry = if (self.entries.len() as u32) < self.capacity {
            self.entries.push(Entry { address, newer: NONE, older: NONE });
            self.entries.len() as u32 - 1
        } else {
            // Full: the oldest address leaves and its entry is reused.
            let entry = self.oldest;
            self.unlink(entry);
            self.index.remove(&self.entries[entry as usize].address);
            self.entries[entry as usize].address = address;
            entry
        };
        self.index.insert(address, entry);
        self.push_front(entry);
        false
    }

    fn unlink(&mut self, entry: u32) {
        let Entry { newer, older, .. } = self.entries[entry as usize];
        if newer == NONE {
            self.newest = older;
        } else {
            self.entries[newer as usize].older = older;
        }
        if older == NONE {
            self.oldest = newer;
        } else {
            self.entries[older as usize].newer = newer;
        }
    }

    fn push_front(&mut self, entry: u32) {
        self.entries[entry as usize].newer = NONE;
        self.entries[entry as usize].older = self.newest;
        if self.newest != NONE {
            self.entries[self.newest as usize].newer = entry;
        }
        self.newest = entry;
        if self.oldest == NONE {
            self.oldest = entry;
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.entries.capacity() * 12 + self.index.capacity() * 9) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_in_first_out_until_a_rewrite_moves_an_address_to_the_front() {
        let mut table = HotTable::new(3);
        assert!(!table.touch(1));
        assert!(!table.touch(2));
        assert!(!table.touch(3));
        assert!(table.touch(1), "1 is still in the table: hot");
        // Full: 4 pushes out the oldest, which is now 2 (1 moved to the front).
        assert!(!table.touch(4));
        assert!(!table.contains(2));
        assert!(table.contains(1) && table.contains(3) && table.contains(4));
        assert!(!table.touch(5));
        assert!(!table.contains(3));
        assert_eq!(table.len(), 3);
    }

    #[test]
    fn matches_a_naive_lru_on_a_random_sequence() {
        let mut table = HotTable::new(8);
        let mut naive: Vec<u32> = Vec::new();
        let mut state = 12345u64;
        for _ in 0..5000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let address = (state >> 33) as u32 % 20;
            let was = naive.contains(&address);
            naive.retain(|&a| a != address);
            naive.insert(0, address);
            naive.truncate(8);
            assert_eq!(table.touch(address), was);
        }
        for address in 0..20 {
            assert_eq!(table.contains(address), naive.contains(&address));
        }
    }
}
