//! Page-level logical-to-physical mapping, stored sparsely.
//!
//! Memory grows with what the workload touches, not with the drive: the table is cut into chunks of
//! 256 entries (1 KiB) allocated on first write, indexed by a 4-byte slot per chunk. A 512 GiB drive
//! with 8 KiB pages needs 1 MiB of index; each touched chunk adds 1 KiB (4 bytes per logical page when
//! the footprint is dense).
//!
//! Generic over the page-number newtypes so the same sparse table serves the FTL (logical ->
//! physical) and host-side middleware (host logical -> scrambled logical and back).

use crate::geometry::{Lpn, Ppn};
use std::marker::PhantomData;

/// A 32-bit page number newtype that can key or fill a [`MappingTable`].
pub trait PageNumber: Copy {
    fn from_raw(raw: u32) -> Self;
    fn raw(self) -> u32;
}

impl PageNumber for Lpn {
    #[inline]
    fn from_raw(raw: u32) -> Self {
        Lpn(raw)
    }
    #[inline]
    fn raw(self) -> u32 {
        self.0
    }
}

impl PageNumber for Ppn {
    #[inline]
    fn from_raw(raw: u32) -> Self {
        Ppn(raw)
    }
    #[inline]
    fn raw(self) -> u32 {
        self.0
    }
}

const CHUNK_BITS: u32 = 8;
const CHUNK: usize = 1 << CHUNK_BITS;
const UNMAPPED: u32 = u32::MAX;
/// Chunk 0 is a permanent all-unmapped chunk that every untouched index slot points at: lookups
/// need no branch, and the index starts as zeroed memory the OS commits only where written (a
/// 4 TiB drive's 8 MiB index costs nothing for the parts a workload never touches).
const NO_CHUNK: u32 = 0;

/// Sparse map from page numbers `K` (below the size given at construction) to page numbers `V`.
#[derive(Debug, Clone)]
pub struct MappingTable<K = Lpn, V = Ppn> {
    index: Vec<u32>,
    chunks: Vec<[u32; CHUNK]>,
    mapped: u64,
    types: PhantomData<(K, V)>,
}

impl<K: PageNumber, V: PageNumber> MappingTable<K, V> {
    pub fn new(keys: u64) -> Self {
        let slots = keys.div_ceil(CHUNK as u64) as usize;
        MappingTable { index: vec![NO_CHUNK; slots], chunks: vec![[UNMAPPED; CHUNK]], mapped: 0, types: PhantomData }
    }

    #[inline]
    pub fn get(&self, key: K) -> Option<V> {
        let key = key.raw();
        let slot = *self.index.get((key >> CHUNK_BITS) as usize)?;
        let value = self.chunks[slot as usize][key as usize & (CHUNK - 1)];
        (value != UNMAPPED).then(|| V::from_raw(value))
    }

    /// Starts loading `key`'s entry into the cache (a hint; no effect on the table).
    #[inline]
    pub fn prefetch(&self, key: K) {
        let key = key.raw();
        if let Some(&slot) = self.index.get((key >> CHUNK_BITS) as usize) {
            if slot != NO_CHUNK {
                super::block_manager::prefetch_read(
                    self.chunks[slot as usize].as_ptr().wrapping_add(key as usize & (CHUNK - 1)),
                );
            }
        }
    }

    /// Maps `key` to `value`; returns the previous mapping. `key` must be below the size given at
    /// construction (callers check before calling).
    #[inline]
    pub fn set(&mut self, key: K, value: V) -> Option<V> {
        let key = key.raw();
        let index_slot = (key >> CHUNK_BITS) as usize;
        let mut slot = self.index[index_slot];
        if slot == NO_CHUNK {
            slot = self.chunks.len() as u32;
            self.chunks.push([UNMAPPED; CHUNK]);
            self.index[index_slot] = slot;
        }
        let entry = &mut self.chunks[slot as usize][key as usize & (CHUNK - 1)];
        let previous = *entry;
        *entry = value.raw();
        if previous == UNMAPPED {
            self.mapped += 1;
            None
        } else {
            Some(V::from_raw(previous))
        }
    }

    /// Unmaps `key`; returns what it mapped to.
    #[inline]
    pub fn remove(&mut self, key: K) -> Option<V> {
        let key = key.raw();
        let slot = *self.index.get((key >> CHUNK_BITS) as usize)?;
        if slot == NO_CHUNK {
            return None;
        }
        let entry = &mut self.chunks[slot as usize][key as usize & (CHUNK - 1)];
        let previous = std::mem::replace(entry, UNMAPPED);
        (previous != UNMAPPED).then(|| {
            self.mapped -= 1;
            V::from_raw(previous)
        })
    }

    pub fn mapped_pages(&self) -> u64 {
        self.mapped
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.index.capacity() * 4 + self.chunks.capacity() * CHUNK * 4) as u64
    }

    /// Every mapped (lpn, ppn), in logical order.
    pub fn iter(&self) -> impl Iterator<Item = (K, V)> + '_ {
        self.index.iter().enumerate().filter(|(_, &slot)| slot != NO_CHUNK).flat_map(move |(index_slot, &slot)| {
            self.chunks[slot as usize].iter().enumerate().filter(|(_, &value)| value != UNMAPPED).map(
                move |(offset, &value)| (K::from_raw(((index_slot << CHUNK_BITS) + offset) as u32), V::from_raw(value)),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_count() {
        let mut table: MappingTable = MappingTable::new(10_000);
        assert_eq!(table.get(Lpn(5)), None);
        assert_eq!(table.set(Lpn(5), Ppn(9)), None);
        assert_eq!(table.set(Lpn(5), Ppn(10)), Some(Ppn(9)));
        table.set(Lpn(9_999), Ppn(1));
        assert_eq!(table.get(Lpn(5)), Some(Ppn(10)));
        assert_eq!(table.mapped_pages(), 2);
        assert_eq!(table.iter().collect::<Vec<_>>(), vec![(Lpn(5), Ppn(10)), (Lpn(9_999), Ppn(1))]);
        assert_eq!(table.get(Lpn(20_000)), None);
        assert_eq!(table.remove(Lpn(5)), Some(Ppn(10)));
        assert_eq!(table.remove(Lpn(5)), None);
        assert_eq!(table.mapped_pages(), 1);
    }
}
