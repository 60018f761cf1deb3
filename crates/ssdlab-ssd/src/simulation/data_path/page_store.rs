//! Per-page records kept by page number, sparsely: the store of the DRAM stages' caches (the data
//! cache's lines, the mapping-table cache's entries; issue 50).
//!
//! Why not a hash map of page -> slot beside a slab of records: a lookup then costs two random
//! memory accesses (the index, then the slot), and the records of one request's pages lie wherever
//! their slots happened to be free. Here a record lives at its page's place in a chunk of
//! [`CHUNK`] consecutive pages: the pages of one request share a chunk (often one cache line), and
//! the chunk index (4 bytes per [`CHUNK`] pages) is small enough to stay in the processor's caches.
//! A chunk is handed back when its last record goes, and reused, so memory follows the records
//! held: at most [`CHUNK`] record places per record (pages far apart), about one when a workload's
//! pages cluster, plus the index (committed by the OS only where pages are used).
//!
//! What it leaves out: iteration in page order (no caller needs it).

/// Pages per chunk: 8 (a request of 4-64 KiB spans one or two chunks of 8 KiB pages).
const CHUNK_BITS: u32 = 3;
const CHUNK: usize = 1 << CHUNK_BITS;

/// A chunk's records and which of them are held (bit i: page `first + i`).
#[derive(Debug, Clone, Copy)]
struct Chunk<T> {
    records: [T; CHUNK],
    held: u8,
}

/// Records of type `T` by page number (see the module).
#[derive(Debug, Clone)]
pub(in crate::simulation) struct PageStore<T> {
    /// Per group of [`CHUNK`] pages: 1 + the number of its chunk; 0: no record in the group.
    index: Vec<u32>,
    chunks: Vec<Chunk<T>>,
    /// Chunks holding no record, to reuse.
    free_chunks: Vec<u32>,
    len: usize,
}

impl<T: Copy + Default> PageStore<T> {
    /// A store for pages below `pages` (a page past it grows the index when inserted).
    pub(in crate::simulation) fn new(pages: u64) -> PageStore<T> {
        // Zeroed memory: the OS commits the index's pages only where a record is put.
        PageStore { index: vec![0; pages.div_ceil(CHUNK as u64) as usize], chunks: Vec::new(), free_chunks: Vec::new(), len: 0 }
    }

    /// The chunk of `page` and the page's place in it; None when no record of its group is held.
    #[inline]
    fn locate(&self, page: u32) -> Option<(usize, usize)> {
        let chunk = *self.index.get((page >> CHUNK_BITS) as usize)?;
        (chunk != 0).then(|| ((chunk - 1) as usize, page as usize & (CHUNK - 1)))
    }

    #[inline]
    pub(in crate::simulation) fn get(&self, page: u32) -> Option<&T> {
        let (chunk, place) = self.locate(page)?;
        let chunk = &self.chunks[chunk];
        (chunk.held & (1 << place) != 0).then(|| &chunk.records[place])
    }

    #[inline]
    pub(in crate::simulation) fn get_mut(&mut self, page: u32) -> Option<&mut T> {
        let (chunk, place) = self.locate(page)?;
        let chunk = &mut self.chunks[chunk];
        (chunk.held & (1 << place) != 0).then(|| &mut chunk.records[place])
    }

    #[inline]
    pub(in crate::simulation) fn contains(&self, page: u32) -> bool {
        self.get(page).is_some()
    }

    /// Puts `record` at `page` (replacing a record held there); returns it in place.
    pub(in crate::simulation) fn insert(&mut self, page: u32, record: T) -> &mut T {
        let group = (page >> CHUNK_BITS) as usize;
        if group >= self.index.len() {
            self.index.resize(group + 1, 0);
        }
        let chunk = match self.index[group] {
            0 => {
                let chunk = match self.free_chunks.pop() {
                    Some(chunk) => chunk as usize,
                    None => {
                        self.chunks.push(Chunk { records: [T::default(); CHUNK], held: 0 });
                        self.chunks.len() - 1
                    }
                };
                self.index[group] = chunk as u32 + 1;
                chunk
            }
            chunk => (chunk - 1) as usize,
        };
        let place = page as usize & (CHUNK - 1);
        let chunk = &mut self.chunks[chunk];
        if chunk.held & (1 << place) == 0 {
            chunk.held |= 1 << place;
            self.len += 1;
        }
        chunk.records[place] = record;
        &mut chunk.records[place]
    }

    /// Removes `page`'s record; returns it.
    pub(in crate::simulation) fn remove(&mut self, page: u32) -> Option<T> {
        let (chunk_number, place) = self.locate(page)?;
        let chunk = &mut self.chunks[chunk_number];
        if chunk.held & (1 << place) == 0 {
            return None;
        }
        chunk.held &= !(1 << place);
        self.len -= 1;
        let record = chunk.records[place];
        if chunk.held == 0 {
            self.index[(page >> CHUNK_BITS) as usize] = 0;
            self.free_chunks.push(chunk_number as u32);
        }
        Some(record)
    }

    /// Starts loading `page`'s record into the processor's caches (a hint).
    #[inline]
    pub(in crate::simulation) fn prefetch(&self, page: u32) {
        if let Some((chunk, place)) = self.locate(page) {
            crate::ftl::block_manager::prefetch_read(&self.chunks[chunk].records[place] as *const T);
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
        (self.index.capacity() * 4 + self.chunks.capacity() * std::mem::size_of::<Chunk<T>>() + self.free_chunks.capacity() * 4)
            as u64
    }
}

#[cfg(test)]
mod tests {
    use super::{PageStore, CHUNK};
    use std::collections::HashMap;

    #[test]
    fn records_by_page_and_chunks_handed_back_and_reused() {
        let mut store: PageStore<u64> = PageStore::new(100);
        assert!(store.is_empty());
        store.insert(3, 30);
        store.insert(5, 50);
        store.insert(64, 640);
        assert_eq!((store.get(3), store.get(5), store.get(4), store.get(64)), (Some(&30), Some(&50), None, Some(&640)));
        assert_eq!(store.len(), 3);
        *store.get_mut(5).unwrap() += 1;
        assert_eq!(store.remove(5), Some(51));
        assert_eq!(store.remove(5), None);
        assert_eq!(store.remove(3), Some(30));
        // Pages 0..8's chunk is free again: the next group to need one takes it.
        assert_eq!(store.chunks.len(), 2);
        store.insert(17, 170);
        assert_eq!(store.chunks.len(), 2);
        assert_eq!(store.get(17), Some(&170));
        assert_eq!(store.get(3), None);
        // A page past the size given grows the index.
        store.insert(1000, 1);
        assert_eq!(store.get(1000), Some(&1));
        assert_eq!(store.get(100_000), None);
        assert_eq!(store.len(), 3);
    }

    #[test]
    fn agrees_with_a_hash_map_on_a_random_mix() {
        // A fixed pseudo-random walk of inserts, removes and lookups over 400 pages.
        let mut store: PageStore<u32> = PageStore::new(400);
        let mut reference = HashMap::new();
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for step in 0..20_000u32 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let page = (state % 400) as u32;
            match state >> 62 {
                0 | 1 => {
                    store.insert(page, step);
                    reference.insert(page, step);
                }
                2 => assert_eq!(store.remove(page), reference.remove(&page)),
                _ => assert_eq!(store.get(page), reference.get(&page)),
            }
            assert_eq!(store.len(), reference.len());
        }
        // Chunks follow the records: no more than one per group in use.
        let groups: std::collections::HashSet<u32> = reference.keys().map(|page| page / CHUNK as u32).collect();
        assert_eq!(store.chunks.len() - store.free_chunks.len(), groups.len());
    }
}
