//! One plane's free blocks, in the order they became free: first the blocks never opened (in index
//! order, as a range, so a large drive costs no memory per untouched block), then the erased ones in
//! erase order. Wear-leveling policies take from it (`wear_leveling`).

use std::collections::VecDeque;
use std::ops::Range;

#[derive(Debug, Clone)]
pub struct FreeList {
    /// Blocks never opened: all of them before any erased block.
    untouched: Range<u32>,
    /// Erased blocks, oldest erase first.
    erased: VecDeque<u32>,
}

impl FreeList {
    /// Blocks 0..blocks, none opened yet.
    pub fn new(blocks: u32) -> Self {
        FreeList { untouched: 0..blocks, erased: VecDeque::new() }
    }

    pub fn len(&self) -> usize {
        self.untouched.len() + self.erased.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The block that has been free longest.
    pub fn pop_front(&mut self) -> Option<u32> {
        self.untouched.next().or_else(|| self.erased.pop_front())
    }

    /// A block that became free now.
    pub fn push_back(&mut self, block: u32) {
        self.erased.push_back(block);
    }

    /// Free blocks in the order they became free.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.untouched.clone().chain(self.erased.iter().copied())
    }

    /// Removes and returns the block at `position` in [`FreeList::iter`]'s order.
    pub fn remove(&mut self, position: usize) -> Option<u32> {
        let untouched = self.untouched.len();
        if position == 0 {
            return self.pop_front();
        }
        if position < untouched {
            // Taking an untouched block out of the middle of the range: the ones before it become
            // an ordinary (erased-style) queue head. Rare (least-worn wear leveling on an aged drive).
            let block = self.untouched.start + position as u32;
            let before: Vec<u32> = (self.untouched.start..block).collect();
            let after = block + 1..self.untouched.end;
            let mut erased: VecDeque<u32> = after.collect();
            erased.extend(self.erased.drain(..));
            for (index, earlier) in before.into_iter().enumerate() {
                erased.insert(index, earlier);
            }
            self.untouched = 0..0;
            self.erased = erased;
            return Some(block);
        }
        self.erased.remove(position - untouched)
    }
}

#[cfg(test)]
mod tests {
    use super::FreeList;
    use std::collections::VecDeque;

    /// The list behaves exactly as a queue holding 0..n at the start.
    #[test]
    fn matches_a_plain_queue() {
        let mut list = FreeList::new(6);
        let mut queue: VecDeque<u32> = (0..6).collect();
        assert_eq!(list.pop_front(), queue.pop_front());
        list.push_back(0);
        queue.push_back(0);
        assert_eq!(list.remove(2), queue.remove(2));
        assert_eq!(list.iter().collect::<Vec<_>>(), queue.iter().copied().collect::<Vec<_>>());
        assert_eq!(list.remove(3), queue.remove(3));
        list.push_back(3);
        queue.push_back(3);
        while let Some(block) = queue.pop_front() {
            assert_eq!(list.len(), queue.len() + 1);
            assert_eq!(list.pop_front(), Some(block));
        }
        assert!(list.is_empty());
        assert_eq!(list.pop_front(), None);
    }
}
