//! The logical pages a workload touches: preconditioning writes them before replay.

use crate::error::SimulationError;
use crate::host::PageSpan;
use ssdlab_workload::TraceScan;
use super::page_set::PageSet;
use std::collections::HashSet;

/// The logical pages a workload touches.
pub(super) enum Footprint {
    /// Pages 0..n (synthetic workloads).
    Range(u64),
    /// Sorted distinct pages (traces).
    List(Vec<u32>),
}

impl Footprint {
    pub(super) fn len(&self) -> u64 {
        match self {
            Footprint::Range(n) => *n,
            Footprint::List(pages) => pages.len() as u64,
        }
    }
    pub(super) fn get(&self, index: u64) -> u32 {
        match self {
            Footprint::Range(_) => index as u32,
            Footprint::List(pages) => pages[index as usize],
        }
    }
    /// The index of a page in the footprint, if it is in it.
    pub(super) fn index_of(&self, page: u32) -> Option<usize> {
        match self {
            Footprint::Range(n) => ((page as u64) < *n).then_some(page as usize),
            Footprint::List(pages) => pages.binary_search(&page).ok(),
        }
    }
    /// The footprint of `tiles` copies, copy k shifted by k x `stride_pages`.
    pub(super) fn tiled(self, tiles: u64, stride_pages: u64) -> Result<Footprint, SimulationError> {
        if stride_pages * tiles >= u32::MAX as u64 {
            return Err(crate::error::ConfigError::Invalid {
                origin: "config".into(),
                line: None,
                field: "host.tiles".into(),
                message: format!("{tiles} copies of a {stride_pages}-page address space exceed the 32-bit logical page space"),
            }
            .into());
        }
        Ok(match self {
            Footprint::Range(n) if n == stride_pages => Footprint::Range(n * tiles),
            other => {
                let one: Vec<u32> = (0..other.len()).map(|index| other.get(index)).collect();
                Footprint::List((0..tiles).flat_map(|k| one.iter().map(move |&page| page + (k * stride_pages) as u32)).collect())
            }
        })
    }
}

/// Where a trace's addresses must end: the device's logical capacity when it is known before the
/// footprint (geometry sizing), else the largest space the model addresses (32-bit pages).
#[derive(Debug, Clone, Copy)]
pub(super) struct AddressLimit {
    pub capacity_bytes: Option<u64>,
    /// Memory available for the footprint set and the model state it implies (None: unknown).
    pub memory_bytes: Option<u64>,
}

/// Bytes of the footprint set per page plus the model state per page it will cost.
const FOOTPRINT_BYTES_PER_PAGE: u64 = 8 + 48;

/// Distinct logical pages a trace touches, sorted. Each request is checked against the address
/// limit before any per-page work, and the set's growth against the memory available.
pub(super) fn trace_footprint(scan: &TraceScan, page_bytes: u64, limit: AddressLimit) -> Result<Footprint, SimulationError> {
    let mut pages = PageCollector::for_space(scan.address_space_bytes.div_ceil(page_bytes), scan.requests);
    let mut reader = scan.reader()?;
    let model_limit_bytes = (u32::MAX as u64 - 1) * page_bytes;
    let origin = || scan.path.display().to_string();
    let mut next_memory_check = 1usize << 20;
    while let Some(request) = reader.next_request()? {
        let end_bytes = request.end_bytes();
        if let Some(capacity_bytes) = limit.capacity_bytes.filter(|&capacity| end_bytes > capacity) {
            return Err(SimulationError::AddressBeyondDevice { origin: origin(), line: request.origin_line, field: "offset", offset_bytes: request.offset_bytes, end_bytes, capacity_bytes });
        }
        if end_bytes > model_limit_bytes {
            return Err(SimulationError::AddressBeyondModel { origin: origin(), line: request.origin_line, field: "offset", offset_bytes: request.offset_bytes, end_bytes, limit_bytes: model_limit_bytes, page_bytes });
        }
        let span = PageSpan::of(request.offset_bytes, request.size_bytes, page_bytes);
        for page in span.first..=span.last {
            pages.insert(page);
        }
        if pages.len() >= next_memory_check {
            next_memory_check = pages.len() + (1 << 20);
            if let Some(available) = limit.memory_bytes.filter(|&available| pages.len() as u64 * FOOTPRINT_BYTES_PER_PAGE > available) {
                return Err(SimulationError::Workload(ssdlab_workload::WorkloadError::Malformed {
                    path: scan.path.clone(),
                    line: request.origin_line,
                    field: "offset",
                    message: format!("by this line the trace touches {} distinct pages; modelling them needs more than the {:.1} GB of memory available", pages.len(), available as f64 / 1e9),
                    text: String::new(),
                }));
            }
        }
    }
    Ok(Footprint::List(pages.into_sorted()))
}

/// The distinct pages seen so far: one bit per page of the trace's address space when that costs no
/// more than a hash set of the pages the requests could touch and at most `BITSET_LIMIT_BYTES` (a set
/// bit costs a few instructions, a hash insert tens); a hash set for sparse traces over huge spaces
/// (a 7,000-request sample over 3 TB).
enum PageCollector {
    Bits(PageSet, usize),
    Hashed(HashSet<u32>),
}

const BITSET_LIMIT_BYTES: u64 = 128 << 20;

impl PageCollector {
    fn for_space(address_pages: u64, requests: u64) -> Self {
        let bits_bytes = address_pages / 8;
        if bits_bytes <= BITSET_LIMIT_BYTES && bits_bytes <= (16 * requests).max(1 << 20) {
            PageCollector::Bits(PageSet::new(address_pages + 1), 0)
        } else {
            PageCollector::Hashed(HashSet::new())
        }
    }

    #[inline]
    fn insert(&mut self, page: u64) {
        match self {
            PageCollector::Bits(set, count) if page < set.capacity() => *count += set.insert(page) as usize,
            PageCollector::Bits(set, _) => {
                // Beyond the space the scan measured (it cannot be, for the same file): keep going
                // with a hash set rather than lose the page.
                let mut hashed: HashSet<u32> = set.members().map(|member| member as u32).collect();
                hashed.insert(page as u32);
                *self = PageCollector::Hashed(hashed);
            }
            PageCollector::Hashed(hashed) => {
                hashed.insert(page as u32);
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            PageCollector::Bits(_, count) => *count,
            PageCollector::Hashed(hashed) => hashed.len(),
        }
    }

    fn into_sorted(self) -> Vec<u32> {
        match self {
            PageCollector::Bits(set, count) => {
                let mut list = Vec::with_capacity(count);
                list.extend(set.members().map(|page| page as u32));
                list
            }
            PageCollector::Hashed(hashed) => {
                let mut list: Vec<u32> = hashed.into_iter().collect();
                list.sort_unstable();
                list
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PageCollector;

    #[test]
    fn both_page_collectors_give_the_same_sorted_pages() {
        let pages = [7u64, 3, 900, 3, 64, 65, 7];
        let mut bits = PageCollector::for_space(1000, 10);
        let mut hashed = PageCollector::for_space(1 << 40, 10);
        assert!(matches!(bits, PageCollector::Bits(..)) && matches!(hashed, PageCollector::Hashed(..)));
        for &page in &pages {
            bits.insert(page);
            hashed.insert(page);
        }
        assert_eq!(bits.len(), 5);
        // A page beyond the measured space switches to the hash set without losing any.
        bits.insert(5000);
        hashed.insert(5000);
        assert!(matches!(bits, PageCollector::Hashed(..)));
        assert_eq!(bits.into_sorted(), vec![3, 7, 64, 65, 900, 5000]);
        assert_eq!(hashed.into_sorted(), vec![3, 7, 64, 65, 900, 5000]);
    }
}
