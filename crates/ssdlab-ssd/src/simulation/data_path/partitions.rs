//! The flows' parts of a cache in the controller's DRAM under `sharing = "equal_partitioning"`
//! (MQSim's `Data_Cache_Sharing_Mode` and `CMT_Sharing_Mode`; `config/device/data_cache.rs`): n flows,
//! n parts of 1/n of the capacity each, a part evicting only its own lines or entries.
//!
//! A page's part is the flow whose logical range holds it (`host/flows/resources.rs`): the caches
//! stay flow-agnostic, and the pages a stage programs for a line it holds (the data cache's
//! destage) or a read it forwards find their part without carrying the flow. This needs each flow
//! to own a range (the config refuses equal partitioning otherwise), which is MQSim's model too:
//! there every flow has an address range of its own. A page in no flow's range (only untimed
//! preconditioning writes reach such pages, and those bypass the caches) counts in part 0. With one
//! flow or none there is one part: sharing. Leaves out: MQSim's per-flow back-pressure limit on
//! outstanding destage (the data cache has none, `data_cache/`).

use crate::host::flows::resources::FlowRange;

/// The parts of a cache and the page ranges that map to each (see the module).
#[derive(Debug, Clone)]
pub(in crate::simulation) struct Partitions {
    /// (first page, end page, part), by first page; empty: one part.
    ranges: Vec<(u32, u32, u8)>,
    count: usize,
}

impl Partitions {
    /// One part: the cache is shared.
    pub(in crate::simulation) fn single() -> Self {
        Partitions { ranges: Vec::new(), count: 1 }
    }

    /// A part per flow, flow i's holding the pages of its range (`ranges` in config order: every
    /// flow confined, validated); one part with fewer than two flows.
    pub(in crate::simulation) fn of_flows(ranges: &[Option<FlowRange>]) -> Self {
        if ranges.len() < 2 {
            return Self::single();
        }
        let mut by_page: Vec<(u32, u32, u8)> = ranges
            .iter()
            .enumerate()
            .filter_map(|(flow, range)| {
                range.as_ref().map(|range| (range.first_page as u32, range.end_page as u32, flow as u8))
            })
            .collect();
        by_page.sort_unstable();
        Partitions { ranges: by_page, count: ranges.len() }
    }

    /// How many parts.
    #[inline]
    pub(in crate::simulation) fn count(&self) -> usize {
        self.count
    }

    /// The part of host page `page`.
    #[inline]
    pub(in crate::simulation) fn of(&self, page: u32) -> usize {
        if self.ranges.is_empty() {
            return 0;
        }
        let after = self.ranges.partition_point(|&(first, _, _)| first <= page);
        match after.checked_sub(1).map(|index| self.ranges[index]) {
            Some((_, end, part)) if page < end => part as usize,
            _ => 0,
        }
    }

    /// The capacity of each part: `total` split evenly (MQSim: capacity / flows, rounded down).
    pub(in crate::simulation) fn share(&self, total: u64) -> u64 {
        total / self.count as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_belongs_to_the_flow_whose_range_holds_it() {
        let range = |first, end| Some(FlowRange { first_page: first, end_page: end, planes: vec![0] });
        let parts = Partitions::of_flows(&[range(100, 200), range(0, 100), range(300, 310)]);
        assert_eq!(parts.count(), 3);
        assert_eq!([0, 99, 100, 199, 305, 250].map(|page| parts.of(page)), [1, 1, 0, 0, 2, 0]);
        assert_eq!(parts.share(10), 3);
        let one = Partitions::of_flows(&[range(0, 100)]);
        assert_eq!((one.count(), one.of(50)), (1, 0));
    }
}
