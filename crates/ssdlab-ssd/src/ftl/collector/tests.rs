//! RR-FDCA's steps (seed 004 Fig. 8, as read in `frozen_data.rs`) on hand-built block states, and a
//! property test of whole runs. The device: MLC, 1 plane x 8 blocks x 4 pages, in front of TLC,
//! 1 plane x 16 blocks x 6 pages written in whole blocks. Host pages 0..=11 fill MLC blocks 0, 1, 2
//! in order (one plane, so block n holds pages 4n..4n+3).

use super::FrozenData;
use crate::config::{
    Accumulation, CellType, OverwriteTarget, OverwrittenBlock, PlaneAllocation, ScreeningAccess, VictimPolicyKind,
    WriteUnit,
};
use crate::device_layout::DeviceLayout;
use crate::flash_op::FlashOp;
use crate::ftl::block_manager::BlockState;
use crate::ftl::placement::{MigrateOnCollect, Placement};
use crate::ftl::tests::{ftl_config, tier_of_blocks, write_and_check};
use crate::ftl::Ftl;
use crate::geometry::{BlockIndex, Lpn, PlaneIndex};
use crate::tier::TierId;
use proptest::prelude::*;

fn device(max_rounds: u8, tlc_block_unit: bool) -> Ftl {
    device_with(max_rounds, tlc_block_unit, OverwriteTarget::RewrittenBlock)
}

fn device_with(max_rounds: u8, tlc_block_unit: bool, overwrite_target: OverwriteTarget) -> Ftl {
    device_with_overwritten_block(max_rounds, tlc_block_unit, overwrite_target, OverwrittenBlock::Rewritten)
}

fn device_with_overwritten_block(
    max_rounds: u8,
    tlc_block_unit: bool,
    overwrite_target: OverwriteTarget,
    overwritten_block: OverwrittenBlock,
) -> Ftl {
    device_screening(max_rounds, tlc_block_unit, overwrite_target, overwritten_block, ScreeningAccess::default())
}

fn device_screening(
    max_rounds: u8,
    tlc_block_unit: bool,
    overwrite_target: OverwriteTarget,
    overwritten_block: OverwrittenBlock,
    screening_access: ScreeningAccess,
) -> Ftl {
    let mut tlc = tier_of_blocks("tlc", CellType::Tlc, 1, 16, 6);
    if tlc_block_unit {
        tlc.write_unit = WriteUnit::Block;
        tlc.overwrite_target = overwrite_target;
        tlc.overwritten_block = overwritten_block;
    }
    let layout = DeviceLayout::from_specs(&[tier_of_blocks("mlc", CellType::Mlc, 1, 8, 4), tlc]);
    let config = ftl_config(VictimPolicyKind::RoundRobin, PlaneAllocation::Static);
    let placement = Placement::MigrateOnCollect(MigrateOnCollect {
        write_tier: TierId(0),
        migrate_to: TierId(1),
        screening: Some(max_rounds),
        accumulation: Accumulation::default(),
        screening_access,
        migration_stop: crate::config::MigrationStop::default(),
    });
    Ftl::new(&layout, &config, placement, &[12, 60], 40, true)
}

/// Host pages 0..=11 written once (MLC blocks 0-2 full), then `overwritten` written again (into
/// block 3, left open). Returns the FTL with block n's N_RDS set to `rounds[n]`.
fn hand_built(max_rounds: u8, overwritten: &[u32], rounds: [u8; 3]) -> Ftl {
    hand_built_on(device(max_rounds, true), overwritten, rounds)
}

fn hand_built_on(mut ftl: Ftl, overwritten: &[u32], rounds: [u8; 3]) -> Ftl {
    let mut ops = Vec::new();
    for lpn in 0..12u32 {
        ftl.write(Lpn(lpn), 0, lpn + 1, &mut ops).unwrap();
    }
    for &lpn in overwritten {
        ftl.write(Lpn(lpn), 1, 100 + lpn, &mut ops).unwrap();
    }
    assert!(ops.is_empty(), "no collection while building the state");
    for (block, &n) in rounds.iter().enumerate() {
        assert_eq!(ftl.stores[TierId::FIRST].blocks[block].state, BlockState::Full);
        ftl.stores[TierId::FIRST].blocks[block].screening_rounds = n;
    }
    ftl
}

/// Runs one collection of exactly one pair (the high watermark is out of the way).
fn collect_one_pair(ftl: &mut Ftl, max_rounds: u8) -> Vec<FlashOp> {
    collect_one_pair_with(ftl, max_rounds, Accumulation::default())
}

fn collect_one_pair_with(ftl: &mut Ftl, max_rounds: u8, accumulation: Accumulation) -> Vec<FlashOp> {
    let mut ops = Vec::new();
    ftl.stores[TierId::FIRST].high_watermark = 8;
    FrozenData { to: TierId(1), max_rounds, accumulation, screen_reads: true }
        .collect_pairs(ftl, TierId(0), PlaneIndex(0), 10, &mut ops, 1)
        .unwrap();
    ftl.check_invariants().unwrap();
    ops
}

fn tier_of(ftl: &Ftl, lpn: u32) -> usize {
    ftl.tier_of(ftl.lookup(Lpn(lpn)).unwrap()).index()
}

fn rounds_of_block_holding(ftl: &Ftl, lpn: u32) -> u8 {
    let ppn = ftl.lookup(Lpn(lpn)).unwrap();
    let store = &ftl.stores[TierId::FIRST];
    store.screening_rounds(store.geometry.block_of(store.local_page(ppn)))
}

fn erases(ops: &[FlashOp]) -> usize {
    ops.iter().filter(|op| matches!(op, FlashOp::Erase { .. })).count()
}

#[test]
fn steps_a1_to_a4_fresh_victims_accumulate_in_screening_blocks() {
    // Blocks 0 and 1 each lose a page to an overwrite; both are fresh (N_RDS = 0).
    let mut ftl = hand_built(1, &[1, 5], [0, 0, 0]);
    let ops = collect_one_pair(&mut ftl, 1);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!((mlc.screening_copies, mlc.gc_pages_copied, mlc.pages_migrated_out), (6, 6, 0), "{mlc:?}");
    assert_eq!(erases(&ops), 2);
    for block in [0u32, 1] {
        assert_eq!(ftl.stores[TierId::FIRST].blocks[block as usize].state, BlockState::Free, "victim {block} erased");
        assert_eq!(
            ftl.stores[TierId::FIRST].screening_rounds(BlockIndex(block)),
            0,
            "an erased block starts at N_RDS = 0"
        );
    }
    for lpn in [0, 2, 3, 4, 6, 7] {
        assert_eq!(
            (tier_of(&ftl, lpn), rounds_of_block_holding(&ftl, lpn)),
            (0, 1),
            "page {lpn} is in a screening block"
        );
        assert_eq!(ftl.tag(ftl.lookup(Lpn(lpn)).unwrap()), lpn + 1);
    }
    assert_eq!(ftl.stores[TierId::FIRST].blocks[2].state, BlockState::Full, "one pair only");
}

#[test]
fn a_pair_short_of_a_tlc_block_takes_the_next_victim_too() {
    // Blocks 0 and 1 lose 2 and 1 pages: the pair holds 2 + 3 = 5 valid pages, short of a TLC
    // block (6), so it takes block 2 (4 valid pages) as well (seed 004 Fig. 8, A1-A4).
    let mut ftl = hand_built(1, &[1, 2, 5], [0, 0, 0]);
    let ops = collect_one_pair(&mut ftl, 1);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!((mlc.screening_copies, mlc.accumulation_extra_victims), (9, 1), "{mlc:?}");
    assert_eq!(erases(&ops), 3);
    assert_eq!(ftl.stores[TierId::FIRST].blocks[2].state, BlockState::Free, "the third victim is collected");
    // ssdlab's reading before issue 46: a pair is two victims whatever they hold.
    let mut ftl = hand_built(1, &[1, 2, 5], [0, 0, 0]);
    let ops = collect_one_pair_with(&mut ftl, 1, Accumulation::TwoVictims);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!((mlc.screening_copies, mlc.accumulation_extra_victims, erases(&ops)), (5, 0, 2), "{mlc:?}");
    assert_eq!(ftl.stores[TierId::FIRST].blocks[2].state, BlockState::Full);
}

#[test]
fn steps_b1_b2_blocks_being_screened_are_passed_over() {
    // Block 0 is in its first screening round of three: round-robin passes over it.
    let mut ftl = hand_built(3, &[5], [1, 0, 0]);
    let sealed_before = ftl.stores[TierId::FIRST].blocks[0].sealed_sequence;
    let ops = collect_one_pair(&mut ftl, 3);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!(mlc.screening_skips, 1);
    assert_eq!(ftl.stores[TierId::FIRST].blocks[0].state, BlockState::Full, "not collected");
    assert_eq!(ftl.stores[TierId::FIRST].screening_rounds(BlockIndex(0)), 2, "one more round");
    assert!(
        ftl.stores[TierId::FIRST].blocks[0].sealed_sequence > sealed_before,
        "to the back of the round-robin order"
    );
    assert_eq!(ftl.stores[TierId::FIRST].valid_pages(BlockIndex(0)), 4, "its data stays where it is");
    // The pair is blocks 1 and 2 (3 + 4 valid pages), both fresh.
    assert_eq!(erases(&ops), 2);
    assert_eq!(mlc.screening_copies, 7);
    // The next collection reaches block 0 again after the screening blocks sealed since: its third
    // round (2 -> 3) ends the screening when N_RDSMAX is 3, and then its data is frozen.
    assert_eq!(
        ftl.stores[TierId::FIRST].round_robin_victim(PlaneIndex(0)).map(|block| block.0),
        Some(0),
        "block 0 is next in round-robin order"
    );
}

#[test]
fn steps_c1_to_c4_frozen_data_moves_to_tlc() {
    // Blocks 0 and 1 finished screening (N_RDS = N_RDSMAX = 1), 3 valid pages each: 6 pages, one
    // TLC block.
    let mut ftl = hand_built(1, &[1, 5], [1, 1, 0]);
    let ops = collect_one_pair(&mut ftl, 1);
    let (mlc, tlc) = (ftl.stores[TierId::FIRST].stats, ftl.stores[TierId(1)].stats);
    assert_eq!((mlc.pages_migrated_out, tlc.pages_migrated_in, mlc.residual_pages, mlc.gc_pages_copied), (6, 6, 0, 0));
    assert_eq!(erases(&ops), 2);
    for lpn in [0, 2, 3, 4, 6, 7] {
        assert_eq!(tier_of(&ftl, lpn), 1, "frozen page {lpn} is in TLC");
        assert_eq!(ftl.tag(ftl.lookup(Lpn(lpn)).unwrap()), lpn + 1);
    }
    assert_eq!(ftl.stores[TierId(1)].open_incoming_plane(), None, "the six pages filled exactly one TLC block");
    // The overwritten pages (hot data) stayed in MLC host blocks.
    assert_eq!((tier_of(&ftl, 1), tier_of(&ftl, 5)), (0, 0));
}

#[test]
fn a_page_read_during_screening_stays_in_mlc() {
    // As above, but the host reads page 2 while block 0 is being screened: the data accessed during
    // the period goes to another MLC block (the screening block), not to TLC.
    let mut ftl = hand_built(1, &[1, 5], [1, 1, 0]);
    ftl.note_host_read(ftl.lookup(Lpn(2)).unwrap());
    // A read of a page in a block not being screened (block 2, N_RDS = 0) marks nothing.
    ftl.note_host_read(ftl.lookup(Lpn(8)).unwrap());
    collect_one_pair(&mut ftl, 1);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!((mlc.screening_read_pages, mlc.pages_migrated_out, mlc.residual_pages), (1, 5, 1), "{mlc:?}");
    assert_eq!((tier_of(&ftl, 2), rounds_of_block_holding(&ftl, 2)), (0, 1), "page 2 is screened again");
    for lpn in [0, 3, 4, 6, 7] {
        assert_eq!(tier_of(&ftl, lpn), 1, "frozen page {lpn} is in TLC");
    }
    // The mark goes with the block's erase: page 2's new block is unmarked.
    assert!(!ftl.stores[TierId::FIRST].read_marked(ftl.stores[TierId::FIRST].local_page(ftl.lookup(Lpn(2)).unwrap())));
}

#[test]
fn with_screening_by_writes_only_a_read_page_still_moves_to_tlc() {
    // `placement.screening_access = "writes"` (ssdlab before issue 46): reads mark nothing.
    let device = device_screening(
        1,
        true,
        OverwriteTarget::RewrittenBlock,
        OverwrittenBlock::Rewritten,
        ScreeningAccess::Writes,
    );
    let mut ftl = hand_built_on(device, &[1, 5], [1, 1, 0]);
    ftl.note_host_read(ftl.lookup(Lpn(2)).unwrap());
    collect_one_pair(&mut ftl, 1);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!((mlc.screening_read_pages, mlc.pages_migrated_out), (0, 6), "{mlc:?}");
    assert_eq!(tier_of(&ftl, 2), 1);
}

#[test]
fn step_c5_residue_beyond_one_tlc_block_is_written_back_to_mlc() {
    // Blocks 0 and 1 frozen and fully valid: 8 pages, the TLC block takes 6.
    let mut ftl = hand_built(1, &[], [1, 1, 0]);
    let ops = collect_one_pair(&mut ftl, 1);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!((mlc.pages_migrated_out, mlc.residual_pages), (6, 2), "{mlc:?}");
    assert_eq!(erases(&ops), 2);
    let in_mlc: Vec<u32> = (0..8).filter(|&lpn| tier_of(&ftl, lpn) == 0).collect();
    assert_eq!(in_mlc, vec![6, 7], "the last pages of the pair are the residue");
    for lpn in in_mlc {
        assert_eq!(rounds_of_block_holding(&ftl, lpn), 1, "the residue is screened again");
    }
}

#[test]
fn a_full_tlc_tier_keeps_frozen_data_in_mlc() {
    let mut ftl = hand_built(1, &[1, 5], [1, 1, 0]);
    ftl.stores[TierId(1)].logical_capacity_pages = 2;
    let ops = collect_one_pair(&mut ftl, 1);
    let mlc = ftl.stores[TierId::FIRST].stats;
    assert_eq!((mlc.pages_migrated_out, mlc.residual_pages), (0, 6), "{mlc:?}");
    assert_eq!(erases(&ops), 2);
    assert!((0..8).all(|lpn| tier_of(&ftl, lpn) == 0));
}

#[test]
fn hot_data_never_reaches_tlc_while_cold_data_does() {
    // Pages 0..=7 written once (cold); pages 8..=11 rewritten over and over (hot). With screening,
    // every hot page is overwritten long before its rounds are up.
    let mut ftl = device(1, true);
    let mut ops = Vec::new();
    let mut tag = 0;
    for lpn in 0..12u32 {
        tag += 1;
        ftl.write(Lpn(lpn), 0, tag, &mut ops).unwrap();
    }
    for round in 0..400u32 {
        tag += 1;
        ftl.write(Lpn(8 + round % 4), round as u64, tag, &mut ops).unwrap();
        ftl.check_invariants().unwrap();
    }
    let tlc_pages: Vec<u32> = (0..12).filter(|&lpn| tier_of(&ftl, lpn) == 1).collect();
    assert!(!tlc_pages.is_empty(), "cold data moved to TLC");
    assert!(tlc_pages.iter().all(|&lpn| lpn < 8), "only cold pages in TLC: {tlc_pages:?}");
    assert_eq!(ftl.stores[TierId(1)].stats.block_modify_writes, 0, "no host overwrite of TLC data");
}

#[test]
fn an_overwrite_of_tlc_data_can_send_the_new_data_to_mlc() {
    for (target, new_data_tier) in [(OverwriteTarget::RewrittenBlock, 1), (OverwriteTarget::WriteTier, 0)] {
        let mut ftl = device_with(1, true, target);
        let mut ops = Vec::new();
        for lpn in 0..12u32 {
            ftl.write(Lpn(lpn), 0, lpn + 1, &mut ops).unwrap();
        }
        ftl.stores[TierId::FIRST].blocks[0].screening_rounds = 1;
        ftl.stores[TierId::FIRST].blocks[1].screening_rounds = 1;
        collect_one_pair(&mut ftl, 1);
        // Pages 0..=5 filled a TLC block (6 pages); overwrite page 2.
        assert!((0..6).all(|lpn| tier_of(&ftl, lpn) == 1));
        ops.clear();
        ftl.write(Lpn(2), 20, 99, &mut ops).unwrap();
        ftl.check_invariants().unwrap();
        let tlc = ftl.stores[TierId(1)].stats;
        assert_eq!(
            (tlc.block_modify_writes, tlc.block_modify_pages),
            (1, 5),
            "{target:?}: the block's other five pages are rewritten"
        );
        assert_eq!(ftl.foreground_ops().len(), 10, "five reads and five programs the host write waits for");
        assert_eq!(tier_of(&ftl, 2), new_data_tier, "{target:?}");
        assert_eq!(ftl.tag(ftl.lookup(Lpn(2)).unwrap()), 99);
        assert!([0, 1, 3, 4, 5]
            .iter()
            .all(|&lpn| tier_of(&ftl, lpn) == 1 && ftl.tag(ftl.lookup(Lpn(lpn)).unwrap()) == lpn + 1));
    }
}

#[test]
fn an_overwrite_of_tlc_data_can_leave_its_block_to_tlc_garbage_collection() {
    // The same hand-built state: pages 0..=5 fill TLC block 0 (6 pages); page 2 is overwritten
    // with the new data going to MLC and `overwritten_block = "page_invalidated"`.
    let mut ftl = device_with_overwritten_block(1, true, OverwriteTarget::WriteTier, OverwrittenBlock::PageInvalidated);
    let mut ops = Vec::new();
    for lpn in 0..12u32 {
        ftl.write(Lpn(lpn), 0, lpn + 1, &mut ops).unwrap();
    }
    ftl.stores[TierId::FIRST].blocks[0].screening_rounds = 1;
    ftl.stores[TierId::FIRST].blocks[1].screening_rounds = 1;
    collect_one_pair(&mut ftl, 1);
    assert!((0..6).all(|lpn| tier_of(&ftl, lpn) == 1));
    let block_of = |ftl: &Ftl, lpn: u32| {
        let store = &ftl.stores[TierId(1)];
        store.geometry.block_of(store.local_page(ftl.lookup(Lpn(lpn)).unwrap()))
    };
    let tlc_block = block_of(&ftl, 0);
    let programs_before = ftl.stores[TierId(1)].stats;
    ops.clear();
    ftl.write(Lpn(2), 20, 99, &mut ops).unwrap();
    ftl.check_invariants().unwrap();
    let tlc = ftl.stores[TierId(1)].stats;
    // No block-modify-write: nothing copied in TLC, no foreground work, no GC set off.
    assert_eq!((tlc.block_modify_writes, tlc.block_modify_pages), (0, 0), "{tlc:?}");
    assert_eq!(tlc.host_pages_written, programs_before.host_pages_written, "the new data is not in TLC");
    assert!(ftl.foreground_ops().is_empty() && ops.is_empty(), "{:?} {ops:?}", ftl.foreground_ops());
    // The new data is in MLC; the other five pages stay where they were, in the same TLC block.
    assert_eq!(tier_of(&ftl, 2), 0);
    assert_eq!(ftl.tag(ftl.lookup(Lpn(2)).unwrap()), 99);
    for lpn in [0, 1, 3, 4, 5] {
        assert_eq!((tier_of(&ftl, lpn), block_of(&ftl, lpn)), (1, tlc_block), "page {lpn} not moved");
        assert_eq!(ftl.tag(ftl.lookup(Lpn(lpn)).unwrap()), lpn + 1);
    }
    // The block holds five valid pages of six: the old copy of page 2 is invalid, left for TLC GC.
    assert_eq!(ftl.stores[TierId(1)].valid_pages_total(), 5);
    assert_eq!(ftl.stores[TierId(1)].blocks[tlc_block.0 as usize].state, BlockState::Full);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// Any writes under RR-FDCA (any N_RDSMAX, TLC by page or by block): invariants hold after every
    /// write and every page reads back its latest tag, through screening, skips, evictions,
    /// residue and block-modify-writes.
    #[test]
    fn rr_fdca_keeps_invariants_and_latest_data(
        writes in proptest::collection::vec(0u32..40, 1..800),
        max_rounds in 1u8..4,
        block_unit in any::<bool>(),
        overwrite_to_mlc in any::<bool>(),
        invalidate_only in any::<bool>(),
    ) {
        let target = if overwrite_to_mlc { OverwriteTarget::WriteTier } else { OverwriteTarget::RewrittenBlock };
        // "page_invalidated" applies with the new data going to MLC only (config validation).
        let overwritten = if overwrite_to_mlc && invalidate_only { OverwrittenBlock::PageInvalidated } else { OverwrittenBlock::Rewritten };
        let mut ftl = device_with_overwritten_block(max_rounds, block_unit, target, overwritten);
        write_and_check(&mut ftl, &writes, |ftl| {
            prop_assert!(ftl.stores()[TierId(1)].valid_pages_total() <= 60, "TLC holds more than it may");
            Ok(())
        })?;
    }
}
