//! A flow confined to a subset of the device (issue 49; MQSim's `Channel_IDs`, `Chip_IDs`,
//! `Die_IDs`, `Plane_IDs`): the logical range it owns and the planes that range is written to.
//!
//! What it models: a flow given any of `channels`, `chips`, `dies`, `planes` (`[[host.flows]]`;
//! chips within a channel, dies within a chip, planes within a die; a key left out: all of them)
//! uses the planes of every combination of its units. It owns the logical range that starts at its
//! `lba_offset_bytes` and holds its planes' share of the logical capacity, as MQSim's
//! `Logical_Address_Partitioning_Unit` sizes a flow: each plane holds logical capacity / planes
//! pages, split evenly between the confined flows that use it. The FTL writes a page of the range
//! only to those planes (`ftl/block_store.rs`: striped over them in `ftl.plane_allocation_order`,
//! each unit in the order its list gives, or round-robin among them under dynamic allocation), and
//! the flows' cache partitions follow the ranges (`simulation/data_path/partitions.rs`). A request
//! of the flow beyond its range is refused with the flow's name (`FlowSet::take`).
//! What it leaves out: MQSim places each flow's range after the previous flow's by itself and wraps
//! a trace's addresses beyond the range into it; here the range starts where `lba_offset_bytes`
//! says (confined ranges must not overlap) and a request beyond it is an error. Pages outside every
//! confined range (unconfined flows', the mapping cache's translation pages) go to the planes no
//! confined flow uses, or to every plane when the confined flows use them all. One-tier devices
//! without ganging only. Source: MQSim's `Logical_Address_Partitioning_Unit.cpp` and
//! `Address_Mapping_Unit_Page_Level.cpp`.

use crate::config::{FlowConfig, PlaneAllocationOrder};
use crate::geometry::Geometry;

/// The logical range of a confined flow, in pages, and the (global) planes it is written to, in
/// striping order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowRange {
    pub first_page: u64,
    pub end_page: u64,
    pub planes: Vec<u32>,
}

/// Each flow's range (None: not confined), in config order; checks every confined flow against the
/// device (`geometry`, striped in `order`) and the host's `logical_pages` of `page_bytes`. Returns
/// (field path, message) on the first failure.
pub fn resolve(
    flows: &[FlowConfig],
    geometry: &Geometry,
    order: PlaneAllocationOrder,
    logical_pages: u64,
    page_bytes: u64,
) -> Result<Vec<Option<FlowRange>>, (String, String)> {
    let sizes = [geometry.channels, geometry.chips_per_channel, geometry.dies_per_chip, geometry.planes_per_die];
    let what = ["channels", "chips per channel", "dies per chip", "planes per die"];
    let mut planes_of: Vec<Option<Vec<u32>>> = Vec::with_capacity(flows.len());
    for (index, flow) in flows.iter().enumerate() {
        if !flow.is_confined() {
            planes_of.push(None);
            continue;
        }
        let mut units: [Vec<u32>; 4] = Default::default();
        for (unit, (key, list)) in flow.unit_lists().into_iter().enumerate() {
            let size = sizes[unit];
            units[unit] = match list {
                None => (0..size).collect(),
                Some(list) => {
                    if let Some(&beyond) = list.iter().find(|&&id| id >= size) {
                        return Err((
                            format!("host.flows[{index}].{key}"),
                            format!(
                                "flow `{}`: {beyond} is beyond the device, which has {size} {} (0 to {})",
                                flow.name,
                                what[unit],
                                size - 1
                            ),
                        ));
                    }
                    list.to_vec()
                }
            };
        }
        planes_of.push(Some(geometry.stripe_over(order, &units)));
    }
    // Each plane's logical pages are split evenly between the confined flows using it (MQSim's
    // `resource_list` count).
    let mut sharers = vec![0u64; geometry.planes_total() as usize];
    for &plane in planes_of.iter().flatten().flatten() {
        sharers[plane as usize] += 1;
    }
    let per_plane = logical_pages / geometry.planes_total().max(1) as u64;
    let mut ranges = Vec::with_capacity(flows.len());
    for (index, (flow, planes)) in flows.iter().zip(planes_of).enumerate() {
        let Some(planes) = planes else {
            ranges.push(None);
            continue;
        };
        let field = |key: &str| format!("host.flows[{index}].{key}");
        if !flow.lba_offset_bytes.is_multiple_of(page_bytes) {
            return Err((
                field("lba_offset_bytes"),
                format!(
                    "flow `{}`: {} is not a multiple of the page size ({page_bytes} bytes); a confined flow's range starts at a page",
                    flow.name, flow.lba_offset_bytes
                ),
            ));
        }
        let pages: u64 = planes.iter().map(|&plane| per_plane / sharers[plane as usize]).sum();
        if pages == 0 {
            return Err((
                field("channels"),
                format!(
                    "flow `{}`: its {} planes hold no logical page of their own ({per_plane} per plane, shared with the other flows using them)",
                    flow.name,
                    planes.len()
                ),
            ));
        }
        let first_page = flow.lba_offset_bytes / page_bytes;
        let end_page = first_page + pages;
        if end_page > logical_pages {
            return Err((
                field("lba_offset_bytes"),
                format!(
                    "flow `{}`: its range of {pages} pages ({} bytes, its units' share of the logical capacity) from {} ends at byte {}, beyond the device's logical capacity of {} bytes; lower lba_offset_bytes to at most {}",
                    flow.name,
                    pages * page_bytes,
                    flow.lba_offset_bytes,
                    end_page * page_bytes,
                    logical_pages * page_bytes,
                    (logical_pages - pages) * page_bytes
                ),
            ));
        }
        ranges.push(Some(FlowRange { first_page, end_page, planes }));
    }
    // Confined ranges must not overlap: a page has one set of planes (and one cache partition).
    for (index, range) in ranges.iter().enumerate() {
        let Some(range) = range else { continue };
        for (other, earlier) in ranges[..index].iter().enumerate() {
            let Some(earlier) = earlier else { continue };
            if range.first_page < earlier.end_page && earlier.first_page < range.end_page {
                return Err((
                    format!("host.flows[{index}].lba_offset_bytes"),
                    format!(
                        "flow `{}`: its range [{}, {}) bytes overlaps flow `{}`'s [{}, {}) (host.flows[{other}]); confined flows need ranges of their own: set lba_offset_bytes to {} or beyond, or below {} with room",
                        flows[index].name,
                        range.first_page * page_bytes,
                        range.end_page * page_bytes,
                        flows[other].name,
                        earlier.first_page * page_bytes,
                        earlier.end_page * page_bytes,
                        earlier.end_page * page_bytes,
                        earlier.first_page * page_bytes
                    ),
                ));
            }
        }
    }
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{CellType, GeometryConfig, HostMode, PriorityClass};

    fn geometry() -> Geometry {
        // 2 channels x 2 chips x 1 die x 2 planes: 8 planes.
        let config = GeometryConfig {
            channels: 2,
            chips_per_channel: 2,
            dies_per_chip: 1,
            planes_per_die: 2,
            blocks_per_plane: 8,
            pages_per_block: 4,
            page_size_bytes: 4096,
        };
        Geometry::new(&config, CellType::Slc)
    }

    fn flow(name: &str, offset_pages: u64) -> FlowConfig {
        FlowConfig {
            name: name.into(),
            priority_class: PriorityClass::Medium,
            submission_queue_depth: 4,
            mode: HostMode::OpenLoop,
            time_scale: 1.0,
            lba_offset_bytes: offset_pages * 4096,
            trace: None,
            synthetic: None,
            channels: None,
            chips: None,
            dies: None,
            planes: None,
        }
    }

    fn resolve_on(flows: &[FlowConfig]) -> Result<Vec<Option<FlowRange>>, (String, String)> {
        // 160 logical pages: 20 per plane.
        resolve(flows, &geometry(), PlaneAllocationOrder::Cwdp, 160, 4096)
    }

    #[test]
    fn a_flow_owns_its_units_share_from_its_offset() {
        let a = FlowConfig { channels: Some(vec![0]), ..flow("a", 0) };
        let b = FlowConfig { channels: Some(vec![1]), chips: Some(vec![1]), ..flow("b", 80) };
        let ranges = resolve_on(&[a, b, flow("free", 0)]).expect("valid");
        // a: channel 0's 4 planes (0..4), 20 pages each; b: channel 1 chip 1's 2 planes (6, 7).
        assert_eq!(ranges[0], Some(FlowRange { first_page: 0, end_page: 80, planes: vec![0, 2, 1, 3] }));
        assert_eq!(ranges[1], Some(FlowRange { first_page: 80, end_page: 120, planes: vec![6, 7] }));
        assert_eq!(ranges[2], None);
    }

    #[test]
    fn flows_sharing_a_plane_split_its_pages() {
        let a = FlowConfig { channels: Some(vec![0]), ..flow("a", 0) };
        let b = FlowConfig { channels: Some(vec![0, 1]), ..flow("b", 40) };
        let ranges = resolve_on(&[a, b]).expect("valid");
        // Channel 0's planes are shared: 10 pages each to a; b gets 4 x 10 + 4 x 20.
        assert_eq!(ranges[0].as_ref().map(|r| r.end_page), Some(40));
        assert_eq!(ranges[1].as_ref().map(|r| (r.first_page, r.end_page)), Some((40, 160)));
    }

    #[test]
    fn each_wrong_setting_is_named() {
        let field = |flows: &[FlowConfig]| resolve_on(flows).unwrap_err().0;
        assert_eq!(field(&[FlowConfig { channels: Some(vec![2]), ..flow("a", 0) }]), "host.flows[0].channels");
        assert_eq!(field(&[FlowConfig { chips: Some(vec![0, 2]), ..flow("a", 0) }]), "host.flows[0].chips");
        assert_eq!(field(&[FlowConfig { dies: Some(vec![1]), ..flow("a", 0) }]), "host.flows[0].dies");
        assert_eq!(field(&[FlowConfig { planes: Some(vec![5]), ..flow("a", 0) }]), "host.flows[0].planes");
        let misaligned = FlowConfig { channels: Some(vec![0]), lba_offset_bytes: 100, ..flow("a", 0) };
        assert_eq!(field(&[misaligned]), "host.flows[0].lba_offset_bytes");
        // 80 pages from page 100 end beyond the 160 logical pages.
        assert_eq!(
            field(&[FlowConfig { channels: Some(vec![0]), ..flow("a", 100) }]),
            "host.flows[0].lba_offset_bytes"
        );
        let a = FlowConfig { channels: Some(vec![0]), ..flow("a", 0) };
        let b = FlowConfig { channels: Some(vec![1]), ..flow("b", 79) };
        let (path, message) = resolve_on(&[a, b]).unwrap_err();
        assert_eq!(path, "host.flows[1].lba_offset_bytes");
        assert!(message.contains("overlaps flow `a`"), "{message}");
        assert!(message.contains("327680"), "the message gives the first offset that fits: {message}");
    }
}
