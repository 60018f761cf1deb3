//! A set of logical pages, one bit each (the aged drive's live pages, dead data the FTL holds).

pub(super) struct PageSet(Vec<u64>);

impl PageSet {
    pub(super) fn of(pages: u64, members: &[u32]) -> Self {
        let mut set = PageSet::new(pages);
        for &page in members {
            set.insert(page as u64);
        }
        set
    }
    pub(super) fn new(pages: u64) -> Self {
        PageSet(vec![0; pages.div_ceil(64) as usize])
    }
    #[inline]
    pub(super) fn contains(&self, page: u64) -> bool {
        self.0[(page / 64) as usize] >> (page % 64) & 1 == 1
    }
    /// Adds a page; returns whether it was absent.
    #[inline]
    pub(super) fn insert(&mut self, page: u64) -> bool {
        let word = &mut self.0[(page / 64) as usize];
        let absent = *word >> (page % 64) & 1 == 0;
        *word |= 1 << (page % 64);
        absent
    }
    /// The pages in the set, ascending.
    pub(super) fn members(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().enumerate().flat_map(|(index, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let bit = bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    index as u64 * 64 + bit
                })
            })
        })
    }

    /// Grows the set to hold `pages` pages (never shrinks).
    pub(super) fn grow(&mut self, pages: u64) {
        let words = pages.div_ceil(64) as usize;
        if words > self.0.len() {
            self.0.resize(words, 0);
        }
    }

    /// Pages the set can hold.
    pub(super) fn capacity(&self) -> u64 {
        self.0.len() as u64 * 64
    }

    /// Removes a page; returns whether it was present.
    #[inline]
    pub(super) fn remove(&mut self, page: u64) -> bool {
        let word = &mut self.0[(page / 64) as usize];
        let present = *word >> (page % 64) & 1 == 1;
        *word &= !(1 << (page % 64));
        present
    }
}

#[cfg(test)]
mod tests {
    use super::PageSet;

    #[test]
    fn page_sets_hold_single_pages() {
        let mut set = PageSet::new(130);
        assert!(set.insert(0) && set.insert(129) && !set.insert(129));
        assert!(set.contains(0) && set.contains(129) && !set.contains(64));
        assert!(set.remove(129) && !set.remove(129));
        assert!(!set.contains(129));
        set.insert(64);
        set.insert(3);
        assert_eq!(set.members().collect::<Vec<_>>(), vec![0, 3, 64]);
    }
}
