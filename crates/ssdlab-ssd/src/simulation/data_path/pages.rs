//! What the stages share about host pages, below all of them (a stage imports this, never a sibling
//! stage): the whole pages of a span, a request's sectors within one page as a mask, the page a stage
//! hands the path below to program with data it holds, and a cheap hasher for page-number keys.

use crate::host::PageSpan;
use std::hash::Hasher;

/// The whole pages of a delete's span (a partial page still holds data of the rest of its page).
pub(in crate::simulation) fn whole_pages(span: PageSpan) -> Option<std::ops::RangeInclusive<u64>> {
    let first = span.first + span.first_partial as u64;
    let last = if span.last_partial { span.last.checked_sub(1) } else { Some(span.last) };
    last.filter(|&last| last >= first).map(|last| first..=last)
}

/// The sector range of a request within page `page` as a mask (bit i: sector i of the page).
#[inline]
pub(in crate::simulation) fn piece_mask(first_sector: u64, end_sector: u64, page: u64, sectors_per_page: u64) -> u64 {
    let page_start = page * sectors_per_page;
    let from = first_sector.max(page_start) - page_start;
    let to = end_sector.min(page_start + sectors_per_page) - page_start;
    let width = to - from;
    let ones = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    ones << from
}

/// A page a stage in front of the NAND path programs with data it holds (`NandPath::write_tagged`):
/// the host page, the oracle tag of its data, whether that data covers only part of the page (the
/// rest comes from its flash copy), and the bytes read out of DRAM for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::simulation) struct TaggedPage {
    pub page: u32,
    pub tag: u32,
    pub partial: bool,
    pub dram_bytes: u64,
}

/// Hashes a page number with one multiplication (the default hasher's collision resistance is not
/// needed for page numbers, and it costs several times more per lookup).
#[derive(Default)]
pub(in crate::simulation) struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, value: u32) {
        self.0 = (value as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[cfg(test)]
mod tests {
    use super::{piece_mask, whole_pages};
    use crate::host::PageSpan;

    #[test]
    fn pieces_of_a_request_as_sector_masks() {
        // 8 sectors per page; sectors 5..19 cover page 0 from sector 5, page 1 whole, page 2 up to 3.
        assert_eq!(piece_mask(5, 19, 0, 8), 0b1110_0000);
        assert_eq!(piece_mask(5, 19, 1, 8), 0xFF);
        assert_eq!(piece_mask(5, 19, 2, 8), 0b0000_0111);
        assert_eq!(piece_mask(0, 64, 0, 64), u64::MAX);
    }

    #[test]
    fn a_span_s_whole_pages_leave_out_its_partial_ends() {
        let span = |first, last, first_partial, last_partial| PageSpan { first, last, first_partial, last_partial };
        assert_eq!(whole_pages(span(2, 5, false, false)), Some(2..=5));
        assert_eq!(whole_pages(span(2, 5, true, true)), Some(3..=4));
        assert_eq!(whole_pages(span(2, 2, true, false)), None);
        assert_eq!(whole_pages(span(0, 0, false, true)), None);
    }
}
