//! Per-page records kept by page number, sparsely: the store of the DRAM stages' caches (the data
//! cache's lines, the mapping-table cache's entries; issue 50).
//!
//! Why not a hash map of page -> slot beside a slab of records: a lookup then costs two random
//! memory accesses (the index, then the slot), and the records of one request's pages lie wherever
//! their slots happened to be free. Here a record lives at its page's place in a chunk of `CHUNK`
//! consecutive pages: the pages of one request share a chunk (often one cache line), and the chunk
//! index (4 bytes per chunk of pages) is small enough to stay in the processor's caches. A chunk
//! is handed back when its last record goes, and reused, so memory follows the records held: at
//! most `CHUNK` record places per record (pages far apart), about one when a workload's pages
//! cluster, plus the index (committed by the OS only where pages are used). The owner picks
//! `CHUNK`: larger chunks make a smaller index (fewer cache misses on it), smaller ones waste less
//! where records are sparse.
//!
//! What it leaves out: iteration in page order (no caller needs it).

/// A record the store can keep: it says whether it is held (a default record is not), so that a
/// lookup reads the record's own cache line only.
pub(in crate::simulation) trait PageRecord: Copy + Default {
    fn is_held(&self) -> bool;
    fn set_held(&mut self, held: bool);
}

/// Records of type `T` by page number, in chunks of `CHUNK` pages (see the module).
#[derive(Debug, Clone)]
pub(in crate::simulation) struct PageStore<T, const CHUNK: usize> {
    /// Per group of `CHUNK` pages: 1 + the number of its chunk; 0: no record in the group.
    index: Vec<u32>,
    /// The chunks' records, chunk after chunk.
    records: Vec<T>,
    /// Records held per chunk (a chunk is handed back at 0); apart from the records, so small
    /// that it stays cached.
    held_in_chunk: Vec<u16>,
    /// Chunks holding no record, to reuse.
    free_chunks: Vec<u32>,
    len: usize,
}

impl<T: PageRecord, const CHUNK: usize> PageStore<T, CHUNK> {
    const BITS: u32 = CHUNK.trailing_zeros();

    /// A store for pages below `pages` (a page past it grows the index when inserted).
    pub(in crate::simulation) fn new(pages: u64) -> PageStore<T, CHUNK> {
        const { assert!(CHUNK.is_power_of_two() && CHUNK <= 1 << 15, "a chunk counts its records in 16 bits") };
        // Zeroed memory: the OS commits the index's pages only where a record is put.
        PageStore {
            index: vec![0; pages.div_ceil(CHUNK as u64) as usize],
            records: Vec::new(),
            held_in_chunk: Vec::new(),
            free_chunks: Vec::new(),
            len: 0,
        }
    }

    /// The place in `records` of `page`'s record; None when no record of its group is held.
    #[inline]
    fn place(&self, page: u32) -> Option<usize> {
        let chunk = *self.index.get((page >> Self::BITS) as usize)?;
        (chunk != 0).then(|| (chunk - 1) as usize * CHUNK + (page as usize & (CHUNK - 1)))
    }

    #[inline]
    pub(in crate::simulation) fn get(&self, page: u32) -> Option<&T> {
        let record = &self.records[self.place(page)?];
        record.is_held().then_some(record)
    }

    #[inline]
    pub(in crate::simulation) fn get_mut(&mut self, page: u32) -> Option<&mut T> {
        let place = self.place(page)?;
        let record = &mut self.records[place];
        record.is_held().then_some(record)
    }

    #[inline]
    pub(in crate::simulation) fn contains(&self, page: u32) -> bool {
        self.get(page).is_some()
    }

    /// Puts `record` at `page` (replacing a record held there).
    pub(in crate::simulation) fn insert(&mut self, page: u32, mut record: T) {
        let group = (page >> Self::BITS) as usize;
        if group >= self.index.len() {
            self.index.resize(group + 1, 0);
        }
        let chunk = match self.index[group] {
            0 => {
                let chunk = match self.free_chunks.pop() {
                    Some(chunk) => chunk as usize,
                    None => {
                        self.records.resize(self.records.len() + CHUNK, T::default());
                        self.held_in_chunk.push(0);
                        self.held_in_chunk.len() - 1
                    }
                };
                self.index[group] = chunk as u32 + 1;
                chunk
            }
            chunk => (chunk - 1) as usize,
        };
        let slot = &mut self.records[chunk * CHUNK + (page as usize & (CHUNK - 1))];
        if !slot.is_held() {
            self.held_in_chunk[chunk] += 1;
            self.len += 1;
        }
        record.set_held(true);
        *slot = record;
    }

    /// Removes `page`'s record; returns it.
    pub(in crate::simulation) fn remove(&mut self, page: u32) -> Option<T> {
        let place = self.place(page)?;
        let slot = &mut self.records[place];
        if !slot.is_held() {
            return None;
        }
        let record = *slot;
        slot.set_held(false);
        self.len -= 1;
        let chunk = place / CHUNK;
        self.held_in_chunk[chunk] -= 1;
        if self.held_in_chunk[chunk] == 0 {
            self.index[(page >> Self::BITS) as usize] = 0;
            self.free_chunks.push(chunk as u32);
        }
        Some(record)
    }

    /// Starts loading `page`'s record into the processor's caches (a hint; reads the index, so
    /// it waits when the index's line is not cached: see [`PageStore::prefetch_index`]).
    #[inline]
    pub(in crate::simulation) fn prefetch(&self, page: u32) {
        if let Some(place) = self.place(page) {
            crate::ftl::block_manager::prefetch_read(self.records.as_ptr().wrapping_add(place));
        }
    }

    /// Starts loading the index word of `page`'s chunk (a hint that never waits).
    #[inline]
    pub(in crate::simulation) fn prefetch_index(&self, page: u32) {
        let group = (page >> Self::BITS) as usize;
        if group < self.index.len() {
            crate::ftl::block_manager::prefetch_read(self.index.as_ptr().wrapping_add(group));
        }
    }

    #[inline]
    pub(in crate::simulation) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(in crate::simulation) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the store takes: its index and its chunks.
    pub(in crate::simulation) fn memory_bytes(&self) -> u64 {
        (self.index.capacity() * 4
            + self.records.capacity() * std::mem::size_of::<T>()
            + self.held_in_chunk.capacity() * 2
            + self.free_chunks.capacity() * 4) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::{PageRecord, PageStore};
    use std::collections::{HashMap, HashSet};

    const CHUNK: usize = 8;

    /// A test record: a value and the held flag.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    struct Value(u64, bool);

    impl PageRecord for Value {
        fn is_held(&self) -> bool {
            self.1
        }
        fn set_held(&mut self, held: bool) {
            self.1 = held;
        }
    }

    fn value(raw: u64) -> Value {
        Value(raw, true)
    }

    fn chunks_in_use<const N: usize>(store: &PageStore<Value, N>) -> usize {
        store.held_in_chunk.len() - store.free_chunks.len()
    }

    #[test]
    fn records_by_page_and_chunks_handed_back_and_reused() {
        let mut store: PageStore<Value, CHUNK> = PageStore::new(100);
        assert!(store.is_empty());
        store.insert(3, Value(30, false));
        store.insert(5, value(50));
        store.insert(64, value(640));
        // The store marks what it keeps held, whatever the record said.
        assert_eq!((store.get(3), store.get(5), store.get(4)), (Some(&value(30)), Some(&value(50)), None));
        assert_eq!(store.get(64), Some(&value(640)));
        assert_eq!(store.len(), 3);
        store.get_mut(5).unwrap().0 += 1;
        assert_eq!(store.remove(5), Some(value(51)));
        assert_eq!(store.remove(5), None);
        assert_eq!(store.remove(3), Some(value(30)));
        // Pages 0..8's chunk is free again: the next group to need one takes it.
        assert_eq!(store.held_in_chunk.len(), 2);
        store.insert(17, value(170));
        assert_eq!(store.held_in_chunk.len(), 2);
        assert_eq!(store.get(17), Some(&value(170)));
        assert_eq!(store.get(3), None);
        // A page past the size given grows the index.
        store.insert(1000, value(1));
        assert_eq!(store.get(1000), Some(&value(1)));
        assert_eq!(store.get(100_000), None);
        assert_eq!(store.len(), 3);
        assert_eq!(chunks_in_use(&store), 3);
    }

    #[test]
    fn agrees_with_a_hash_map_on_a_random_mix() {
        // A fixed pseudo-random walk of inserts, removes and lookups over 400 pages.
        let mut store: PageStore<Value, CHUNK> = PageStore::new(400);
        let mut reference = HashMap::new();
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for step in 0..20_000u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let page = (state % 400) as u32;
            match state >> 62 {
                0 | 1 => {
                    store.insert(page, value(step));
                    reference.insert(page, value(step));
                }
                2 => assert_eq!(store.remove(page), reference.remove(&page)),
                _ => assert_eq!(store.get(page), reference.get(&page)),
            }
            assert_eq!(store.len(), reference.len());
        }
        // Chunks follow the records: one per group of pages with a record, no more.
        let groups: HashSet<u32> = reference.keys().map(|page| page / CHUNK as u32).collect();
        assert_eq!(chunks_in_use(&store), groups.len());
    }
}
