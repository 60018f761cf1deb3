//! Page-level logical-to-physical mapping, stored sparsely.
//!
//! Memory grows with what the workload touches, not with the drive: the table is cut into chunks of
//! 256 entries (1 KiB) allocated on first write, indexed by a 4-byte slot per chunk. A 512 GiB drive
//! with 8 KiB pages needs 1 MiB of index; each touched chunk adds 1 KiB (4 bytes per logical page when
//! the footprint is dense).

use crate::geometry::{Lpn, Ppn};

const CHUNK_BITS: u32 = 8;
const CHUNK: usize = 1 << CHUNK_BITS;
const UNMAPPED: u32 = u32::MAX;
const NO_CHUNK: u32 = u32::MAX;

#[derive(Debug, Clone)]
pub struct MappingTable {
    index: Vec<u32>,
    chunks: Vec<[u32; CHUNK]>,
    mapped: u64,
}

impl MappingTable {
    pub fn new(logical_pages: u64) -> Self {
        let slots = logical_pages.div_ceil(CHUNK as u64) as usize;
        MappingTable { index: vec![NO_CHUNK; slots], chunks: Vec::new(), mapped: 0 }
    }

    #[inline]
    pub fn get(&self, lpn: Lpn) -> Option<Ppn> {
        let slot = *self.index.get((lpn.0 >> CHUNK_BITS) as usize)?;
        if slot == NO_CHUNK {
            return None;
        }
        let value = self.chunks[slot as usize][lpn.0 as usize & (CHUNK - 1)];
        (value != UNMAPPED).then_some(Ppn(value))
    }

    /// Maps `lpn` to `ppn`; returns the previous mapping. `lpn` must be within the logical space
    /// (the FTL checks before calling).
    #[inline]
    pub fn set(&mut self, lpn: Lpn, ppn: Ppn) -> Option<Ppn> {
        let index_slot = (lpn.0 >> CHUNK_BITS) as usize;
        let mut slot = self.index[index_slot];
        if slot == NO_CHUNK {
            slot = self.chunks.len() as u32;
            self.chunks.push([UNMAPPED; CHUNK]);
            self.index[index_slot] = slot;
        }
        let entry = &mut self.chunks[slot as usize][lpn.0 as usize & (CHUNK - 1)];
        let previous = *entry;
        *entry = ppn.0;
        if previous == UNMAPPED {
            self.mapped += 1;
            None
        } else {
            Some(Ppn(previous))
        }
    }

    pub fn mapped_pages(&self) -> u64 {
        self.mapped
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.index.capacity() * 4 + self.chunks.capacity() * CHUNK * 4) as u64
    }

    /// Every mapped (lpn, ppn), in logical order.
    pub fn iter(&self) -> impl Iterator<Item = (Lpn, Ppn)> + '_ {
        self.index.iter().enumerate().filter(|(_, &slot)| slot != NO_CHUNK).flat_map(move |(index_slot, &slot)| {
            self.chunks[slot as usize]
                .iter()
                .enumerate()
                .filter(|(_, &value)| value != UNMAPPED)
                .map(move |(offset, &value)| (Lpn(((index_slot << CHUNK_BITS) + offset) as u32), Ppn(value)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_count() {
        let mut table = MappingTable::new(10_000);
        assert_eq!(table.get(Lpn(5)), None);
        assert_eq!(table.set(Lpn(5), Ppn(9)), None);
        assert_eq!(table.set(Lpn(5), Ppn(10)), Some(Ppn(9)));
        table.set(Lpn(9_999), Ppn(1));
        assert_eq!(table.get(Lpn(5)), Some(Ppn(10)));
        assert_eq!(table.mapped_pages(), 2);
        assert_eq!(table.iter().collect::<Vec<_>>(), vec![(Lpn(5), Ppn(10)), (Lpn(9_999), Ppn(1))]);
        assert_eq!(table.get(Lpn(20_000)), None);
    }
}
