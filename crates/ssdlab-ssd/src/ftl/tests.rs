//! The FTL on a tiny device (1 channel, 1 chip, 1 die, 2 planes, 8 blocks of 4 pages each plane):
//! mapping and invalidation, garbage collection at the watermarks with the operations it asks for,
//! victim choice, and a property test that random writes keep every invariant and every page's
//! latest data.

use super::*;
use crate::config::{
    CellType, ChannelConfig, EnergyConfig, GeometryConfig, NandConfig, PlaneAllocation, TierSpec, VictimPolicyKind,
};
use crate::ftl::placement::Single;
use crate::tier::TierId;
use proptest::prelude::*;

fn tier(name: &str, cell_type: CellType, planes_per_die: u32, pages_per_block: u32) -> TierSpec {
    tier_of_blocks(name, cell_type, planes_per_die, 8, pages_per_block)
}

pub(super) fn tier_of_blocks(
    name: &str,
    cell_type: CellType,
    planes_per_die: u32,
    blocks_per_plane: u32,
    pages_per_block: u32,
) -> TierSpec {
    TierSpec {
        name: name.into(),
        field_prefix: format!("device.tiers.{name}"),
        geometry: GeometryConfig {
            channels: 1,
            chips_per_channel: 1,
            dies_per_chip: 1,
            planes_per_die,
            blocks_per_plane,
            pages_per_block,
            page_size_bytes: 4096,
        },
        nand: NandConfig {
            cell_type,
            read_latency_ns: vec![50_000],
            program_latency_ns: vec![500_000],
            erase_latency_ns: 3_000_000,
            multi_plane: true,
            endurance_pe_cycles: 3000,
        },
        channel: ChannelConfig {
            transfer_rate_mts: 200.0,
            bus_width_bits: 8,
            command_overhead_ns: 0,
            io_voltage_v: 0.0,
            pin_capacitance_pf: 0.0,
            data_pins: None,
            control_pins: 0,
            pin_activity_factor: 1.0,
            pin_toggling: crate::config::PinToggling::DataOnly,
            link_ends: 1,
        },
        energy: EnergyConfig::default(),
        overprovisioning_fraction: None,
        write_unit: crate::config::WriteUnit::Page,
        overwrite_target: crate::config::OverwriteTarget::RewrittenBlock,
        overwritten_block: crate::config::OverwrittenBlock::Rewritten,
        open_incoming_blocks: crate::config::OpenIncomingBlocks::One,
    }
}

fn layout() -> DeviceLayout {
    DeviceLayout::from_specs(&[tier("nand", CellType::Mlc, 2, 4)])
}

/// GC at watermarks 2/3 blocks with the given victim policy and plane allocation.
pub(super) fn ftl_config(policy: VictimPolicyKind, allocation: PlaneAllocation) -> FtlConfig {
    let mut config = FtlConfig::default();
    config.garbage_collection.policy = policy;
    config.garbage_collection.low_watermark_blocks = 2;
    config.garbage_collection.high_watermark_blocks = 3;
    config.plane_allocation = allocation;
    config
}

fn ftl(policy: VictimPolicyKind, allocation: PlaneAllocation) -> Ftl {
    let config = ftl_config(policy, allocation);
    // 32 pages per plane; GC needs its high watermark plus two open blocks (5 blocks, 20 pages), so
    // 12 logical pages per plane (24 in all) is what this device can hold.
    Ftl::new(&layout(), &config, Placement::Single(Single { tier: TierId(0) }), &[24], 24, true)
}

#[test]
fn an_invocation_on_a_plane_of_valid_data_ends_short_and_is_counted_stuck() {
    // Dynamic allocation: every page of the logical space written once (even pages land in plane 0,
    // odd ones in plane 1), then only the odd ones rewritten. Their new copies go to both planes in
    // turn, so plane 0 fills with data nothing invalidates there until its odd copies are rewritten:
    // its collections find only valid pages, end short and mark it stuck.
    let mut ftl = ftl(VictimPolicyKind::Greedy, PlaneAllocation::Dynamic);
    let mut ops = Vec::new();
    let mut time = 0;
    for lpn in 0..24 {
        ftl.write(Lpn(lpn), time, 1, &mut ops).unwrap();
        time += 1000;
    }
    let before = ftl.stats();
    assert_eq!((before.gc_invocations_short, before.gc_invocations_stuck), (0, 0), "{before:?}");
    for round in 0..8 {
        for lpn in (1..24).step_by(2) {
            ops.clear();
            ftl.write(Lpn(lpn), time, 2 + round, &mut ops).unwrap();
            time += 1000;
        }
    }
    ftl.check_invariants().unwrap();
    let stats = ftl.stats();
    assert!(stats.gc_invocations_stuck > 0, "{stats:?}");
    assert!(
        stats.gc_invocations_stuck <= stats.gc_invocations_short && stats.gc_invocations_short <= stats.gc_invocations
    );
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
    assert_eq!(ftl.valid_pages(ftl.layout().block_of(first)), 1, "the block holds only the new copy");
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
                        assert_eq!(
                            ftl.layout().plane_of(*from),
                            ftl.layout().plane_of(*to),
                            "copies stay in their plane"
                        );
                    }
                    other => panic!("unpaired GC operations {other:?}"),
                }
            }
            let plane = ftl.layout().plane_of(ftl.lookup(lpn).unwrap());
            assert!(ftl.free_blocks(plane) >= 3 - 1, "GC stops at the high watermark (the open block excepted)");
        }
        ftl.check_invariants().unwrap();
    }
    assert!(ftl.stats().gc_invocations > 0 && ftl.stats().blocks_erased > 0, "{:?}", ftl.stats());
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
    let first_block = ftl.layout().block_of(ftl.lookup(Lpn(0)).unwrap());
    for lpn in [0, 2, 4] {
        ftl.write(Lpn(lpn), 1, 100 + lpn, &mut ops).unwrap();
    }
    let plane = PlaneIndex(first_block.0 / 8);
    assert_eq!(ftl.valid_pages(first_block), 1);
    assert_eq!(ftl.next_victim(plane, 2), Some(first_block));
}

/// Writes `writes` in order (tag = position + 1); after each write the invariants and `also` hold,
/// and at the end every page reads back its latest tag and only those pages are mapped.
pub(super) fn write_and_check(
    ftl: &mut Ftl,
    writes: &[u32],
    also: impl Fn(&Ftl) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let mut latest = std::collections::HashMap::new();
    let mut ops = Vec::new();
    for (index, &lpn) in writes.iter().enumerate() {
        ops.clear();
        let tag = index as u32 + 1;
        ftl.write(Lpn(lpn), index as u64 * 1_000, tag, &mut ops).unwrap();
        latest.insert(lpn, tag);
        if let Err(violation) = ftl.check_invariants() {
            prop_assert!(false, "after write {}: {}", index, violation);
        }
        let stats = ftl.stats();
        prop_assert!(stats.gc_invocations_stuck <= stats.gc_invocations_short, "{:?}", stats);
        prop_assert!(stats.gc_invocations_short <= stats.gc_invocations, "{:?}", stats);
        also(ftl)?;
    }
    for (&lpn, &tag) in &latest {
        let ppn = ftl.lookup(Lpn(lpn));
        prop_assert!(ppn.is_some());
        prop_assert_eq!(ftl.tag(ppn.unwrap()), tag);
    }
    prop_assert_eq!(ftl.mapped_pages(), latest.len() as u64);
    Ok(())
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
        write_and_check(&mut ftl(policy, allocation), &writes, |_| Ok(()))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    /// After any writes, each policy's ranking starts with the victim it selects, and a longer
    /// ranking extends a shorter one (the order GC would take the blocks in).
    #[test]
    fn ranking_starts_with_the_selected_victim(
        writes in proptest::collection::vec(0u32..24, 1..400),
        policy in prop_oneof![Just(VictimPolicyKind::Greedy), Just(VictimPolicyKind::CostBenefit), Just(VictimPolicyKind::RoundRobin)],
    ) {
        let mut ftl = ftl(policy, PlaneAllocation::Static);
        let mut ops = Vec::new();
        for (time, &lpn) in writes.iter().enumerate() {
            ops.clear();
            ftl.write(Lpn(lpn), time as u64 * 1000, 1, &mut ops).unwrap();
        }
        let now = writes.len() as u64 * 1000 + 7;
        for plane in 0..2 {
            let plane = PlaneIndex(plane);
            let all = ftl.next_victims(plane, 64, now);
            prop_assert_eq!(all.first().copied(), ftl.next_victim(plane, now));
            prop_assert_eq!(&ftl.next_victims(plane, 2, now)[..], &all[..all.len().min(2)]);
            let full = (0..8).filter(|&b| ftl.block(BlockIndex(plane.0 * 8 + b)).state == crate::ftl::block_manager::BlockState::Full).count();
            prop_assert_eq!(all.len(), full, "every full block is ranked");
        }
    }
}

/// Two tiers: MLC (2 planes x 16 blocks x 4 pages, 24 pages for the host) in front of TLC (1 plane x
/// 16 blocks x 6 pages, 60 for the host); host writes go to MLC and MLC GC moves pages to TLC.
fn two_tier_ftl(policy: VictimPolicyKind, allocation: PlaneAllocation) -> Ftl {
    two_tier_ftl_unit(policy, allocation, false)
}

fn two_tier_ftl_unit(policy: VictimPolicyKind, allocation: PlaneAllocation, block_unit: bool) -> Ftl {
    two_tier_ftl_with(policy, allocation, block_unit, 1, crate::config::MigrationStop::default())
}

/// [`two_tier_ftl`] with a block-unit TLC of `tlc_planes` planes (more than one: pages moving in
/// striped over an open block per plane) and the conventional collection's stop rule `stop`.
fn two_tier_ftl_with(
    policy: VictimPolicyKind,
    allocation: PlaneAllocation,
    block_unit: bool,
    tlc_planes: u32,
    stop: crate::config::MigrationStop,
) -> Ftl {
    let mut tlc = tier_of_blocks("tlc", CellType::Tlc, tlc_planes, 16 / tlc_planes, 6);
    if block_unit {
        tlc.write_unit = crate::config::WriteUnit::Block;
        if tlc_planes > 1 {
            tlc.open_incoming_blocks = crate::config::OpenIncomingBlocks::OnePerPlane;
        }
    }
    let layout = DeviceLayout::from_specs(&[tier_of_blocks("mlc", CellType::Mlc, 2, 16, 4), tlc]);
    let config = ftl_config(policy, allocation);
    let placement = Placement::MigrateOnCollect(crate::ftl::placement::MigrateOnCollect {
        write_tier: TierId(0),
        migrate_to: TierId(1),
        screening: None,
        accumulation: crate::config::Accumulation::default(),
        screening_access: crate::config::ScreeningAccess::default(),
        migration_stop: stop,
    });
    Ftl::new(&layout, &config, placement, &[24, 60], 64, true)
}

#[test]
fn migrating_collection_moves_valid_pages_to_the_other_tier() {
    // Round-robin victims (seed 004's conventional GC) are the oldest blocks, which hold cold data.
    let mut ftl = two_tier_ftl(VictimPolicyKind::RoundRobin, PlaneAllocation::Static);
    let tlc_first_page = ftl.layout().tier(crate::tier::TierId(1)).first_page;
    let mut ops = Vec::new();
    // 40 pages written once, then 8 of them overwritten: 120 programs fill MLC's 128 pages past its
    // low watermark, and the oldest blocks still hold the 32 cold pages, which must move to TLC.
    let mut latest: Vec<u32> = (1..=40).collect();
    for index in 0..120u32 {
        let lpn = if index < 40 { index } else { index % 8 };
        ftl.write(Lpn(lpn), index as u64, index + 1, &mut ops).unwrap();
        latest[lpn as usize] = index + 1;
        ftl.check_invariants().unwrap();
    }
    let mlc = ftl.stores()[TierId(0)].stats;
    let tlc = ftl.stores()[TierId(1)].stats;
    assert!(mlc.pages_migrated_out > 0, "{mlc:?}");
    assert_eq!(mlc.pages_migrated_out, tlc.pages_migrated_in);
    assert_eq!(mlc.gc_pages_copied, 0, "with room in TLC nothing is copied within MLC");
    assert_eq!(tlc.host_pages_written, 0, "host writes go to MLC only");
    assert_eq!(ftl.stores()[TierId(1)].valid_pages_total(), tlc.pages_migrated_in, "TLC holds exactly what moved in");
    // Every page reads back its own write; the copies named in `ops` go from MLC to TLC.
    for lpn in 0..40u32 {
        assert_eq!(ftl.tag(ftl.lookup(Lpn(lpn)).unwrap()), latest[lpn as usize]);
    }
    let pairs: Vec<(Ppn, Ppn)> = ops
        .windows(2)
        .filter_map(|pair| match (pair[0], pair[1]) {
            (FlashOp::GcRead { ppn: from }, FlashOp::GcProgram { ppn: to }) => Some((from, to)),
            _ => None,
        })
        .collect();
    assert!(!pairs.is_empty());
    for (from, to) in pairs {
        assert!(
            from.0 < tlc_first_page && to.0 >= tlc_first_page,
            "a migration reads MLC and programs TLC: {from:?} -> {to:?}"
        );
    }
    // Overwriting a migrated page invalidates its TLC copy and writes MLC.
    let migrated =
        (0..40u32).find(|&lpn| ftl.lookup(Lpn(lpn)).unwrap().0 >= tlc_first_page).expect("some page lives in TLC");
    let before = ftl.stores()[TierId(1)].valid_pages_total();
    let now_at = ftl.write(Lpn(migrated), 100, 1000, &mut ops).unwrap();
    assert!(now_at.0 < tlc_first_page);
    assert_eq!(ftl.stores()[TierId(1)].valid_pages_total(), before - 1);
    ftl.check_invariants().unwrap();
}

/// Writes 40 pages once, then overwrites 8 of them until `writes` programs: MLC collects, sending
/// the cold pages to TLC. Calls `after` after every write with the write's GC work.
fn fill_and_overwrite(ftl: &mut Ftl, writes: u32, mut after: impl FnMut(&Ftl, &[FlashOp])) {
    for index in 0..writes {
        let lpn = if index < 40 { index } else { index % 8 };
        let mut ops = Vec::new();
        ftl.write(Lpn(lpn), index as u64, index + 1, &mut ops).unwrap();
        ftl.check_invariants().unwrap();
        after(ftl, &ops);
    }
}

#[test]
fn the_conventional_collection_fills_the_tlc_block_or_stops_at_the_high_watermark() {
    use crate::config::MigrationStop;
    // `block_filled`: a collection that opened a TLC block goes on until that block is full, so no
    // collection leaves it partly written; `high_watermark`: collection stops there, and a TLC block
    // stays open, partly written, between collections.
    let mut left_open = [0u32; 2];
    for (index, stop) in [MigrationStop::BlockFilled, MigrationStop::HighWatermark].into_iter().enumerate() {
        let mut ftl = two_tier_ftl_with(VictimPolicyKind::RoundRobin, PlaneAllocation::Static, true, 1, stop);
        fill_and_overwrite(&mut ftl, 160, |ftl, ops| {
            let migrated =
                ops.iter().any(|op| matches!(op, FlashOp::GcProgram { ppn } if ftl.tier_of(*ppn) == TierId(1)));
            if migrated && ftl.stores()[TierId(1)].open_incoming_plane().is_some() {
                left_open[index] += 1;
            }
        });
        assert!(ftl.stores()[TierId(0)].stats.pages_migrated_out > 6, "{:?}", ftl.stores()[TierId(0)].stats);
    }
    assert!(left_open[1] > left_open[0], "high_watermark leaves TLC blocks open more often: {left_open:?}");
}

#[test]
fn striped_incoming_blocks_spread_migrated_pages_over_every_plane() {
    use crate::config::MigrationStop;
    // One open TLC block at a time: a TLC block's 6 pages go to one plane in a row. One per plane:
    // consecutive pages moving in alternate between the two planes.
    let planes_of_first_programs = |tlc_planes: u32| {
        let mut ftl = two_tier_ftl_with(
            VictimPolicyKind::RoundRobin,
            PlaneAllocation::Static,
            true,
            tlc_planes,
            MigrationStop::HighWatermark,
        );
        let mut planes = Vec::new();
        fill_and_overwrite(&mut ftl, 160, |ftl, ops| {
            for op in ops {
                if let FlashOp::GcProgram { ppn } = *op {
                    if ftl.tier_of(ppn) == TierId(1) {
                        planes.push(ftl.layout().plane_of(ppn).0);
                    }
                }
            }
        });
        planes
    };
    let one = planes_of_first_programs(1);
    assert!(one.len() >= 6 && one[..6].iter().all(|&plane| plane == one[0]), "{one:?}");
    let striped = planes_of_first_programs(2);
    assert!(striped.len() >= 6, "{striped:?}");
    assert!(striped[..6].windows(2).all(|pair| pair[0] != pair[1]), "pages alternate planes: {striped:?}");
}

#[test]
fn a_read_only_chip_takes_no_new_writes() {
    // Two chips on two channels, one plane each; static striping would alternate them.
    let spec = TierSpec {
        geometry: GeometryConfig {
            channels: 2,
            chips_per_channel: 1,
            dies_per_chip: 1,
            planes_per_die: 1,
            blocks_per_plane: 8,
            pages_per_block: 4,
            page_size_bytes: 4096,
        },
        ..tier("nand", CellType::Mlc, 1, 4)
    };
    let layout = DeviceLayout::from_specs(&[spec]);
    let config = ftl_config(VictimPolicyKind::Greedy, PlaneAllocation::Static);
    let mut ftl = Ftl::new(&layout, &config, Placement::Single(Single { tier: TierId(0) }), &[20], 20, true);
    assert_eq!(ftl.set_chip_read_only(1, true), 1);
    let mut ops = Vec::new();
    for lpn in 0..10u32 {
        let ppn = ftl.write(Lpn(lpn), 0, lpn + 1, &mut ops).unwrap();
        assert_eq!(layout.chip_of_die(layout.die_of(ppn)), 0, "page {lpn} went to the read-only chip");
    }
    ftl.check_invariants().unwrap();
    assert_eq!(ftl.set_chip_read_only(1, false), 1);
    let striped: Vec<u32> = (10..12u32)
        .map(|lpn| layout.chip_of_die(layout.die_of(ftl.write(Lpn(lpn), 0, 0, &mut ops).unwrap())))
        .collect();
    assert_eq!(striped, vec![0, 1], "writable again: static striping alternates chips");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// Two tiers, any writes: invariants hold after every write, every page reads its latest tag,
    /// and each tier's valid pages stay within what it may hold.
    #[test]
    fn two_tiers_keep_invariants_and_latest_data(
        writes in proptest::collection::vec(0u32..64, 1..800),
        policy in prop_oneof![Just(VictimPolicyKind::Greedy), Just(VictimPolicyKind::CostBenefit), Just(VictimPolicyKind::RoundRobin)],
        dynamic in any::<bool>(),
        block_unit in any::<bool>(),
        striped in any::<bool>(),
        stop_at_watermark in any::<bool>(),
    ) {
        let allocation = if dynamic { PlaneAllocation::Dynamic } else { PlaneAllocation::Static };
        let stop = if stop_at_watermark { crate::config::MigrationStop::HighWatermark } else { crate::config::MigrationStop::BlockFilled };
        let mut ftl = two_tier_ftl_with(policy, allocation, block_unit, if striped { 2 } else { 1 }, stop);
        write_and_check(&mut ftl, &writes, |ftl| {
            prop_assert!(ftl.stores()[TierId(1)].valid_pages_total() <= 60, "TLC holds more than it may");
            Ok(())
        })?;
    }
}
