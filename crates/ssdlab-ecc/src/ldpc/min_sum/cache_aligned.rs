//! A buffer whose values start on a 64-byte boundary (a cache line, a 512-bit vector).
//!
//! The decoder's messages are loaded and stored a whole vector at a time in visiting order; when
//! the buffer starts mid-line every one of those accesses spans two cache lines. A `Vec` of this
//! size usually comes from `mmap` with a 16-byte header, so its start was misaligned in some
//! processes and not in others (the 16-bit decoder ran at 267 Mbit/s in one run of the Python
//! module and 236-239 in later ones).

pub(super) struct CacheAligned<T> {
    storage: Vec<T>,
    start: usize,
    len: usize,
}

const LINE_BYTES: usize = 64;

impl<T: Copy + Default> CacheAligned<T> {
    pub fn new(len: usize) -> Self {
        let spare = LINE_BYTES / std::mem::size_of::<T>().max(1);
        let storage = vec![T::default(); len + spare];
        // At most `spare - 1` values to the next line for the lane types (sizes dividing 64); a
        // type that cannot be aligned keeps the start (still correct, only slower).
        let start = storage.as_ptr().align_offset(LINE_BYTES).min(spare);
        CacheAligned { storage, start, len }
    }
}

impl<T> std::ops::Deref for CacheAligned<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.storage[self.start..self.start + self.len]
    }
}

impl<T> std::ops::DerefMut for CacheAligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.storage[self.start..self.start + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_start_on_a_cache_line() {
        for len in [1, 100, 140_000] {
            let mut buffer = CacheAligned::<i16>::new(len);
            assert_eq!(buffer.as_ptr() as usize % LINE_BYTES, 0);
            assert_eq!(buffer.len(), len);
            buffer[len - 1] = 1;
            let bytes = CacheAligned::<i8>::new(len);
            assert_eq!(bytes.as_ptr() as usize % LINE_BYTES, 0);
        }
    }
}
