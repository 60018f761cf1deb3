//! The logical pages a workload touches: preconditioning writes them before replay.

use super::page_set::PageSet;
use crate::error::SimulationError;
use crate::host::PageSpan;
use ssdlab_workload::{RawRecord, TraceScan};
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
                message: format!(
                    "{tiles} copies of a {stride_pages}-page address space exceed the 32-bit logical page space"
                ),
            }
            .into());
        }
        Ok(match self {
            Footprint::Range(n) if n == stride_pages => Footprint::Range(n * tiles),
            other => {
                let one: Vec<u32> = (0..other.len()).map(|index| other.get(index)).collect();
                Footprint::List(
                    (0..tiles).flat_map(|k| one.iter().map(move |&page| page + (k * stride_pages) as u32)).collect(),
                )
            }
        })
    }
}

/// A trace's scan and its footprint per device: read back from beside its parsed-trace cache when
/// an earlier run stored it for this page size (no pass over the records, `stored_footprint.rs`),
/// else collected during the scan itself (one pass) and stored for the next run.
pub(super) fn trace_footprint(
    trace: &crate::config::TraceWorkload,
    page_bytes: u64,
    limit: AddressLimit,
    progress: &mut super::ProgressCallback<'_>,
) -> Result<(TraceScan, DeviceFootprints), SimulationError> {
    use super::{Phase, PROGRESS_INTERVAL};
    let options = &trace.options();
    let artifact = DeviceFootprints::artifact_name(page_bytes, trace.merge_devices);
    // Read only when sealed for this very cache file (a footprint copied from another trace's cache,
    // or damaged, is collected again).
    let stored = TraceScan::cached(&trace.path, options)?.and_then(|scan| {
        let bytes = scan.read_cache_artifact(&artifact)?;
        Some((scan, DeviceFootprints::from_bytes(&bytes, page_bytes)?))
    });
    if let Some(stored) = stored {
        return Ok(stored);
    }
    let mut builder = FootprintBuilder::new(&trace.path, page_bytes, limit, trace.merge_devices);
    let mut records = 0u64;
    let scan = TraceScan::scan_visiting(&trace.path, options, |record, line| {
        records += 1;
        if records.is_multiple_of(PROGRESS_INTERVAL) {
            progress(Phase::Scan, records, 0)?;
        }
        builder.visit(record, line)
    })?;
    let devices = builder.into_devices();
    scan.store_cache_artifact(&artifact, &devices.to_bytes())?;
    Ok((scan, devices))
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

/// The request that reaches furthest on one device: what the address checks report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Furthest {
    pub end_bytes: u64,
    pub offset_bytes: u64,
    pub line: u64,
}

/// One device's pages (relative to the device's own offset 0) and furthest request.
struct DevicePages {
    pages: PageCollector,
    furthest: Furthest,
}

/// Collects a trace's footprint during the scan itself (one pass over the file instead of two): the
/// pages of every device relative to the device, laid out in the flat address space once the scan
/// has placed the devices. Each request is checked against the limits before any per-page work:
/// device-relative addresses already beyond a limit fail at their line; the rest are checked with
/// the device's base at the end (reporting the device's furthest request).
pub(super) struct FootprintBuilder {
    page_bytes: u64,
    limit: AddressLimit,
    merge_devices: bool,
    devices: std::collections::BTreeMap<u32, DevicePages>,
    /// Requests seen (bounds how large a bit set may grow; see `PageCollector`).
    requests: u64,
    pages_total: usize,
    next_memory_check: usize,
    path: std::path::PathBuf,
}

impl FootprintBuilder {
    pub(super) fn new(path: &std::path::Path, page_bytes: u64, limit: AddressLimit, merge_devices: bool) -> Self {
        FootprintBuilder {
            page_bytes,
            limit,
            merge_devices,
            devices: Default::default(),
            requests: 0,
            pages_total: 0,
            next_memory_check: 1 << 20,
            path: path.to_path_buf(),
        }
    }

    fn model_limit_bytes(&self) -> u64 {
        (u32::MAX as u64 - 1) * self.page_bytes
    }

    /// One record of the scan, as the file states it.
    #[inline]
    pub(super) fn visit(&mut self, record: &RawRecord, line: u64) -> Result<(), SimulationError> {
        self.requests += 1;
        let end_bytes = record.offset_bytes.saturating_add(record.size_bytes.max(1));
        let origin = || self.path.display().to_string();
        if let Some(capacity_bytes) = self.limit.capacity_bytes.filter(|&capacity| end_bytes > capacity) {
            return Err(SimulationError::AddressBeyondDevice {
                origin: origin(),
                line,
                field: "offset",
                offset_bytes: record.offset_bytes,
                end_bytes,
                capacity_bytes,
            });
        }
        let model_limit_bytes = self.model_limit_bytes();
        if end_bytes > model_limit_bytes {
            return Err(SimulationError::AddressBeyondModel {
                origin: origin(),
                line,
                field: "offset",
                offset_bytes: record.offset_bytes,
                end_bytes,
                limit_bytes: model_limit_bytes,
                page_bytes: self.page_bytes,
            });
        }
        let device = if self.merge_devices { 0 } else { record.device };
        let requests = self.requests;
        let entry = self.devices.entry(device).or_insert_with(|| DevicePages {
            pages: PageCollector::Bits(PageSet::new(0), 0),
            furthest: Furthest::default(),
        });
        if end_bytes > entry.furthest.end_bytes {
            entry.furthest = Furthest { end_bytes, offset_bytes: record.offset_bytes, line };
        }
        let span = PageSpan::of(record.offset_bytes, record.size_bytes, self.page_bytes);
        let before = entry.pages.len();
        entry.pages.reserve_through(span.last, requests);
        for page in span.first..=span.last {
            entry.pages.insert(page);
        }
        self.pages_total += entry.pages.len() - before;
        if self.pages_total >= self.next_memory_check {
            self.next_memory_check = self.pages_total + (1 << 20);
            if let Some(available) = self
                .limit
                .memory_bytes
                .filter(|&available| self.pages_total as u64 * FOOTPRINT_BYTES_PER_PAGE > available)
            {
                return Err(SimulationError::Workload(ssdlab_workload::WorkloadError::Malformed {
                    path: self.path.clone(),
                    line,
                    field: "offset",
                    message: format!("by this line the trace touches {} distinct pages; modelling them needs more than the {:.1} GB of memory available", self.pages_total, available as f64 / 1e9),
                    text: String::new(),
                }));
            }
        }
        Ok(())
    }

    /// Each device's distinct pages (sorted, relative to the device) and furthest request: what
    /// [`DeviceFootprints::place`] lays out, and what a parsed-trace cache keeps beside the records.
    pub(super) fn into_devices(self) -> DeviceFootprints {
        DeviceFootprints {
            page_bytes: self.page_bytes,
            devices: self
                .devices
                .into_iter()
                .map(|(device, pages)| (device, pages.pages.into_sorted(), pages.furthest))
                .collect(),
        }
    }
}

/// A trace's footprint per device, before the devices are placed in the flat address space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DeviceFootprints {
    pub page_bytes: u64,
    /// (device, sorted pages relative to the device, furthest request), by device.
    pub devices: Vec<(u32, Vec<u32>, Furthest)>,
}

impl DeviceFootprints {
    /// The distinct pages of the whole trace, sorted, in the flat space the scan laid out; each
    /// device's furthest request checked against the limits.
    pub(super) fn place(self, scan: &TraceScan, limit: AddressLimit) -> Result<Footprint, SimulationError> {
        let origin = scan.path.display().to_string();
        let model_limit_bytes = (u32::MAX as u64 - 1) * self.page_bytes;
        let pages_total: usize = self.devices.iter().map(|(_, pages, _)| pages.len()).sum();
        if let Some(available) =
            limit.memory_bytes.filter(|&available| pages_total as u64 * FOOTPRINT_BYTES_PER_PAGE > available)
        {
            let line = self.devices.iter().map(|(_, _, furthest)| furthest.line).max().unwrap_or(0);
            return Err(SimulationError::Workload(ssdlab_workload::WorkloadError::Malformed {
                path: scan.path.clone(),
                line,
                field: "offset",
                message: format!("the trace touches {pages_total} distinct pages; modelling them needs more than the {:.1} GB of memory available", available as f64 / 1e9),
                text: String::new(),
            }));
        }
        let mut list = Vec::with_capacity(pages_total);
        for (device, pages, furthest) in self.devices {
            let base_bytes = scan.devices.get(&device).map_or(0, |extent| extent.base_bytes);
            let Furthest { end_bytes, offset_bytes, line } = furthest;
            let (offset_bytes, end_bytes) =
                (offset_bytes.saturating_add(base_bytes), end_bytes.saturating_add(base_bytes));
            if let Some(capacity_bytes) = limit.capacity_bytes.filter(|&capacity| end_bytes > capacity) {
                return Err(SimulationError::AddressBeyondDevice {
                    origin,
                    line,
                    field: "offset",
                    offset_bytes,
                    end_bytes,
                    capacity_bytes,
                });
            }
            if end_bytes > model_limit_bytes {
                return Err(SimulationError::AddressBeyondModel {
                    origin,
                    line,
                    field: "offset",
                    offset_bytes,
                    end_bytes,
                    limit_bytes: model_limit_bytes,
                    page_bytes: self.page_bytes,
                });
            }
            // Devices start at multiples of 1 GiB, a whole number of (power-of-two) pages.
            let base_page = (base_bytes / self.page_bytes) as u32;
            list.extend(pages.into_iter().map(|page| page + base_page));
        }
        Ok(Footprint::List(list))
    }
}

/// The distinct pages seen so far: one bit per page up to the furthest page seen while that costs
/// no more than `BITSET_LIMIT_BYTES` and no more than a hash set of the pages the requests so far
/// could touch (with a floor: small traces over a few GB keep the bit set); a hash set for sparse
/// traces over huge spaces (a 7,000-request sample over 3 TB). A set bit costs a few instructions,
/// a hash insert tens.
enum PageCollector {
    Bits(PageSet, usize),
    Hashed(HashSet<u32>),
}

const BITSET_LIMIT_BYTES: u64 = 128 << 20;
const BITSET_FLOOR_BYTES: u64 = 16 << 20;

impl PageCollector {
    /// Makes room for pages up to `page` (after `requests` requests), growing the bit set or
    /// moving to a hash set.
    #[inline]
    fn reserve_through(&mut self, page: u64, requests: u64) {
        let PageCollector::Bits(set, _) = self else { return };
        if page < set.capacity() {
            return;
        }
        let wanted = (page + 1).next_power_of_two().max(1 << 16);
        let bytes = wanted / 8;
        if bytes <= BITSET_LIMIT_BYTES && bytes <= (16 * requests).max(BITSET_FLOOR_BYTES) {
            set.grow(wanted);
        } else {
            let hashed: HashSet<u32> = set.members().map(|member| member as u32).collect();
            *self = PageCollector::Hashed(hashed);
        }
    }

    #[inline]
    fn insert(&mut self, page: u64) {
        match self {
            PageCollector::Bits(set, count) => *count += set.insert(page) as usize,
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
    use super::PageSet;

    #[test]
    fn both_page_collectors_give_the_same_sorted_pages() {
        let pages = [7u64, 3, 900, 3, 64, 65, 7];
        let mut bits = PageCollector::Bits(PageSet::new(0), 0);
        let mut hashed = PageCollector::Hashed(Default::default());
        for &page in &pages {
            bits.reserve_through(page, 10);
            bits.insert(page);
            hashed.insert(page);
        }
        assert!(matches!(bits, PageCollector::Bits(..)));
        assert_eq!(bits.len(), 5);
        // A page too far for a bit set of a 10-request trace moves to the hash set without losing any.
        bits.reserve_through(1 << 40, 10);
        bits.insert(5000);
        hashed.insert(5000);
        assert!(matches!(bits, PageCollector::Hashed(..)));
        assert_eq!(bits.into_sorted(), vec![3, 7, 64, 65, 900, 5000]);
        assert_eq!(hashed.into_sorted(), vec![3, 7, 64, 65, 900, 5000]);
    }
}
