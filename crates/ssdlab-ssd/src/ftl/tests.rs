//! The FTL on a tiny device (1 channel, 1 chip, 1 die, 2 planes, 8 blocks of 4 pages each plane):
//! mapping and invalidation, garbage collection at the watermarks with the operations it asks for,
//! victim choice, and a property test that random writes keep every invariant and every page's
//! latest data.

use super::*;
use crate::config::{CellType, GeometryConfig, VictimPolicyKind};
use proptest::prelude::*;

fn geometry() -> Geometry {
    let config = GeometryConfig { channels: 1, chips_per_channel: 1, dies_per_chip: 1, planes_per_die: 2, blocks_per_plane: 8, pages_per_block: 4, page_size_bytes: 4096 };
    Geometry::new(&config, CellType::Mlc)
}

fn ftl(policy: VictimPolicyKind, allocation: PlaneAllocation) -> Ftl {
    let mut config = FtlConfig::default();
    config.garbage_collection.policy = policy;
    config.garbage_collection.low_watermark_blocks = 2;
    config.garbage_collection.high_watermark_blocks = 3;
    config.plane_allocation = allocation;
    // 32 pages per plane; GC needs its high watermark plus two open blocks (5 blocks, 20 pages), so
    // 12 logical pages per plane (24 in all) is what this device can hold.
    Ftl::new(geometry(), &config, 24, true)
}

#[test]
fn a_write_maps_a_page_and_an_overwrite_invalidates_the_old_copy() {
    let mut ftl = ftl(VictimPolicyKind::Greedy, PlaneAllocation::Static);
    let mut ops = Vec::new();
    let first = ftl.write(Lpn(5), 0, 11, &mut ops).unwrap();
    assert_eq!(ftl.lookup(Lpn(5)), Some(first));
    assert_eq!(ftl.tag(first), 11);
    let second = ftl.write(Lpn(5), 1, 12, &mut ops).unwrap();
    assert_ne!(first, second);
    assert_eq!((ftl.lookup(Lpn(5)), ftl.tag(second)), (Some(second), 12));
    assert_eq!(ftl.valid_pages(ftl.geometry().block_of(first)), 1, "the block holds only the new copy");
    assert_eq!(ftl.mapped_pages(), 1);
    assert!(ops.is_empty(), "no GC yet");
    ftl.check_invariants().unwrap();
    assert!(ftl.write(Lpn(40), 2, 13, &mut ops).is_err(), "beyond the logical space");
}

#[test]
fn garbage_collection_starts_below_the_low_watermark_and_stops_at_the_high_one() {
    let mut ftl = ftl(VictimPolicyKind::Greedy, PlaneAllocation::Static);
    let mut ops = Vec::new();
    let mut tags = std::collections::HashMap::new();
    let mut tag = 0;
    // Overwrite a small hot set until GC has run several times.
    for round in 0..200u32 {
        let lpn = Lpn(round % 12);
        tag += 1;
        ops.clear();
        ftl.write(lpn, round as u64, tag, &mut ops).unwrap();
        tags.insert(lpn.0, tag);
        if !ops.is_empty() {
            // Copies come as (read, program) pairs in one plane; every collected block is erased.
            let erases = ops.iter().filter(|op| matches!(op, FlashOp::Erase { .. })).count();
            assert!(erases >= 1, "{ops:?}");
            for pair in ops.iter().filter(|op| !matches!(op, FlashOp::Erase { .. })).collect::<Vec<_>>().chunks(2) {
                match pair {
                    [FlashOp::GcRead { ppn: from }, FlashOp::GcProgram { ppn: to }] => {
                        assert_eq!(ftl.geometry().plane_of(*from), ftl.geometry().plane_of(*to), "copies stay in their plane");
                    }
                    other => panic!("unpaired GC operations {other:?}"),
                }
            }
            let plane = ftl.geometry().plane_of(ftl.lookup(lpn).unwrap());
            assert!(ftl.free_blocks(plane) >= 3 - 1, "GC stops at the high watermark (the open block excepted)");
        }
        ftl.check_invariants().unwrap();
    }
    assert!(ftl.stats.gc_invocations > 0 && ftl.stats.blocks_erased > 0, "{:?}", ftl.stats);
    for (&lpn, &expected) in &tags {
        assert_eq!(ftl.tag(ftl.lookup(Lpn(lpn)).unwrap()), expected, "page {lpn} lost its latest write");
    }
}

#[test]
fn greedy_names_the_block_with_the_fewest_valid_pages() {
    let mut ftl = ftl(VictimPolicyKind::Greedy, PlaneAllocation::Static);
    let mut ops = Vec::new();
    // Static striping alternates planes by logical page: even pages to plane 0. Fill three blocks
    // of plane 0 (12 even pages), then overwrite three pages of the first block only.
    for lpn in (0..24).step_by(2) {
        ftl.write(Lpn(lpn), 0, lpn + 1, &mut ops).unwrap();
    }
    let first_block = ftl.geometry().block_of(ftl.lookup(Lpn(0)).unwrap());
    for lpn in [0, 2, 4] {
        ftl.write(Lpn(lpn), 1, 100 + lpn, &mut ops).unwrap();
    }
    let plane = ftl.geometry().plane_of_block(first_block);
    assert_eq!(ftl.valid_pages(first_block), 1);
    assert_eq!(ftl.next_victim(plane, 2), Some(first_block));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// Any sequence of writes, under every victim policy and both allocations: invariants hold after
    /// every write and every page reads back its latest tag (GC never loses or resurrects data).
    #[test]
    fn random_writes_keep_invariants_and_latest_data(
        writes in proptest::collection::vec(0u32..24, 1..600),
        policy in prop_oneof![Just(VictimPolicyKind::Greedy), Just(VictimPolicyKind::CostBenefit), Just(VictimPolicyKind::RoundRobin)],
        dynamic in any::<bool>(),
    ) {
        let allocation = if dynamic { PlaneAllocation::Dynamic } else { PlaneAllocation::Static };
        let mut ftl = ftl(policy, allocation);
        let mut latest = std::collections::HashMap::new();
        let mut ops = Vec::new();
        for (index, lpn) in writes.into_iter().enumerate() {
            ops.clear();
            let tag = index as u32 + 1;
            ftl.write(Lpn(lpn), index as u64 * 1_000, tag, &mut ops).unwrap();
            latest.insert(lpn, tag);
            if let Err(violation) = ftl.check_invariants() {
                prop_assert!(false, "after write {}: {}", index, violation);
            }
        }
        for (&lpn, &tag) in &latest {
            let ppn = ftl.lookup(Lpn(lpn));
            prop_assert!(ppn.is_some());
            prop_assert_eq!(ftl.tag(ppn.unwrap()), tag);
        }
        prop_assert_eq!(ftl.mapped_pages(), latest.len() as u64);
    }
}
