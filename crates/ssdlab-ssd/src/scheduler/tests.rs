//! The scheduler on a tiny device, with exact times: one channel, one chip, two dies, one plane each;
//! MLC lower pages sense in 40 us and program in 200 us; a 4 KiB page crosses the 200 MT/s byte-wide
//! bus in 20.48 us; decoding takes 8 us.

use super::*;
use crate::config::DeviceConfig;
use crate::device_layout::DeviceLayout;
use crate::read_path::{ReadPlan, ReadStep};

pub(super) const SENSE: u64 = 40_000;
pub(super) const PROGRAM: u64 = 200_000;
pub(super) const ERASE: u64 = 3_000_000;
pub(super) const TRANSFER: u64 = 20_480;
pub(super) const DECODE: u64 = 8_000;

fn device() -> DeviceConfig {
    toml::from_str(
        r#"
[geometry]
channels = 1
chips_per_channel = 1
dies_per_chip = 2
planes_per_die = 1
blocks_per_plane = 4
pages_per_block = 4
page_size_bytes = 4096
[nand]
cell_type = "mlc"
read_latency_ns = [40000, 60000]
program_latency_ns = [200000, 1200000]
erase_latency_ns = 3000000
[channel]
transfer_rate_mts = 200.0
"#,
    )
    .expect("valid device")
}

pub(super) fn scheduler(copyback: bool) -> (FlashScheduler, DeviceLayout) {
    let layout = DeviceLayout::new(&device());
    (FlashScheduler::new(layout.clone(), 14_000, DECODE, copyback), layout)
}

/// A lower page (fastest type) on `die`, the `nth` such page.
pub(super) fn lower_page(geometry: &DeviceLayout, die: u32, nth: usize) -> Ppn {
    (0..geometry.pages_total() as u32)
        .map(Ppn)
        .filter(|&ppn| geometry.die_of(ppn) == die && geometry.page_type(ppn) == 0)
        .nth(nth)
        .expect("enough lower pages")
}

pub(super) fn tag(write: bool) -> RequestTag {
    RequestTag { latency_from: SimTime::ZERO, size_bytes: 4096, write, delete: false, background: false }
}

/// Runs every pending event; returns the completions in the order they were learned.
fn drain(scheduler: &mut FlashScheduler) -> Vec<(RequestTag, SimTime)> {
    while scheduler.process_next_event().is_some() {}
    assert_eq!(scheduler.work_in_progress(), 0);
    std::mem::take(scheduler.completions()).into_iter().map(|(tag, completion, _)| (tag, completion)).collect()
}

pub(super) fn plain() -> ReadPlan {
    let mut plan = ReadPlan::default();
    plan.push(ReadStep::PLAIN_HARD);
    plan
}

#[test]
fn a_plain_read_senses_then_transfers_then_decodes() {
    let (mut s, g) = scheduler(true);
    let id = s.open_request(SimTime::ZERO, tag(false));
    s.read(SimTime::ZERO, lower_page(&g, 0, 0), &plain(), Waiter::Request(id));
    s.close_request(id, SimTime::ZERO);
    let done = drain(&mut s);
    assert_eq!(done, vec![(tag(false), SimTime(SENSE + TRANSFER + DECODE))]);
    assert_eq!((s.counters().page_reads, s.counters().page_transfers, s.counters().decodes), (1, 1, 1));
}

#[test]
fn reads_on_two_dies_sense_together_and_take_turns_on_the_bus() {
    let (mut s, g) = scheduler(true);
    for die in 0..2 {
        let id = s.open_request(SimTime::ZERO, tag(false));
        s.read(SimTime::ZERO, lower_page(&g, die, 0), &plain(), Waiter::Request(id));
        s.close_request(id, SimTime::ZERO);
    }
    let times: Vec<u64> = drain(&mut s).iter().map(|(_, time)| time.0).collect();
    assert_eq!(times, vec![SENSE + TRANSFER + DECODE, SENSE + 2 * TRANSFER + DECODE]);
}

#[test]
fn a_read_ready_first_goes_before_a_program_whose_data_is_still_on_the_bus() {
    // The write's data crosses the bus over [0, 20.48 us); the read becomes ready at 10 us, while
    // the die is idle: it senses at once and the program waits behind it (first come, first served
    // by ready time), instead of the die sitting idle until the program is done.
    let (mut s, g) = scheduler(true);
    s.record_bookings();
    let write = s.open_request(SimTime::ZERO, tag(true));
    let group = s.open_write_group(write, SimTime::ZERO);
    s.close_write_group(group, SimTime::ZERO, &[lower_page(&g, 0, 1)]);
    s.close_request(write, SimTime::ZERO);
    // The transfer stage of the write is booked; take events up to 10 us (none), then issue the read.
    let read_at = SimTime(10_000);
    assert!(s.next_event_time().is_some_and(|time| time > read_at));
    let read = s.open_request(read_at, tag(false));
    s.read(read_at, lower_page(&g, 0, 0), &plain(), Waiter::Request(read));
    s.close_request(read, read_at);
    let done = drain(&mut s);
    let time_of = |write: bool| done.iter().find(|(t, _)| t.write == write).map(|(_, time)| time.0);
    assert_eq!(time_of(false), Some(10_000 + SENSE + TRANSFER + DECODE));
    assert_eq!(time_of(true), Some(10_000 + SENSE + PROGRAM));
    check_work_conserving(s.bookings().unwrap()).unwrap();
}

#[test]
fn a_read_modify_write_programs_after_its_read() {
    let (mut s, g) = scheduler(true);
    let write = s.open_request(SimTime::ZERO, tag(true));
    let group = s.open_write_group(write, SimTime::ZERO);
    s.read(SimTime::ZERO, lower_page(&g, 1, 0), &plain(), Waiter::WriteGroup(group));
    s.close_write_group(group, SimTime::ZERO, &[lower_page(&g, 0, 0)]);
    s.close_request(write, SimTime::ZERO);
    let read_done = SENSE + TRANSFER + DECODE;
    assert_eq!(drain(&mut s), vec![(tag(true), SimTime(read_done + TRANSFER + PROGRAM))]);
}

#[test]
fn copyback_copies_hold_the_die_and_a_host_read_ready_earlier_goes_before_the_erase() {
    let (mut s, g) = scheduler(true);
    let (source, destination) = (lower_page(&g, 0, 0), lower_page(&g, 0, 1));
    let block = g.block_of(source);
    s.garbage_collection(
        SimTime::ZERO,
        &[FlashOp::GcRead { ppn: source }, FlashOp::GcProgram { ppn: destination }, FlashOp::Erase { block }],
    );
    // The copy (sense + program, one die operation) ends at 240 us; the erase becomes ready then.
    let read_at = SimTime(1_000);
    let read = s.open_request(read_at, tag(false));
    s.read(read_at, lower_page(&g, 0, 2), &plain(), Waiter::Request(read));
    s.close_request(read, read_at);
    let done = drain(&mut s);
    let copy_end = SENSE + PROGRAM;
    assert_eq!(done, vec![(tag(false), SimTime(copy_end + SENSE + TRANSFER + DECODE))]);
    assert_eq!(s.busy_until(), SimTime(copy_end + SENSE + ERASE));
    assert_eq!(
        (s.counters().page_reads, s.counters().page_programs, s.counters().block_erases, s.counters().page_transfers),
        (2, 1, 1, 1)
    );
}

#[test]
fn without_copyback_a_copy_goes_through_the_controller() {
    let (mut s, g) = scheduler(false);
    let (source, destination) = (lower_page(&g, 0, 0), lower_page(&g, 1, 0));
    s.garbage_collection(SimTime::ZERO, &[FlashOp::GcRead { ppn: source }, FlashOp::GcProgram { ppn: destination }]);
    while s.process_next_event().is_some() {}
    // Sense, out and back over the bus with a decode, then program (on the source's die).
    assert_eq!(s.busy_until(), SimTime(SENSE + 2 * TRANSFER + DECODE + PROGRAM));
    assert_eq!((s.counters().page_transfers, s.counters().decodes), (2, 1));
}

#[test]
fn a_cancelled_look_ahead_holds_the_die_until_the_hard_decode() {
    let (mut s, g) = scheduler(true);
    let mut plan = plain();
    plan.push(ReadStep::cancelled_sensing(6));
    let id = s.open_request(SimTime::ZERO, tag(false));
    s.read(SimTime::ZERO, lower_page(&g, 0, 0), &plan, Waiter::Request(id));
    s.close_request(id, SimTime::ZERO);
    // A second read on the die, ready at 1 us, waits for the hold (until the hard decode ends).
    let second = s.open_request(SimTime(1_000), tag(false));
    s.read(SimTime(1_000), lower_page(&g, 0, 1), &plain(), Waiter::Request(second));
    s.close_request(second, SimTime(1_000));
    let done = drain(&mut s);
    let hard_done = SENSE + TRANSFER + DECODE;
    assert_eq!(s.counters().cancelled_sensing_ns, hard_done - SENSE);
    assert_eq!(done[0].1, SimTime(hard_done));
    assert_eq!(done[1].1, SimTime(hard_done + SENSE + TRANSFER + DECODE));
}

/// Two tiers: MLC (die 0 on channel 0: the device above, one die) and TLC (die 1 on channel 1, 6
/// pages per block, every page type programs in 2 ms, a 100 MT/s bus: 40.96 us per 4 KiB page).
fn two_tiers() -> (FlashScheduler, DeviceLayout) {
    let device: DeviceConfig = toml::from_str(
        r#"
[tiers.mlc]
chips = 1
channels = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 4
pages_per_block = 4
page_size_bytes = 4096
nand = { cell_type = "mlc", read_latency_ns = [40000, 60000], program_latency_ns = [200000, 1200000], erase_latency_ns = 3000000 }
channel = { transfer_rate_mts = 200.0 }
[tiers.tlc]
chips = 1
channels = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 4
pages_per_block = 6
page_size_bytes = 4096
nand = { cell_type = "tlc", read_latency_ns = [50000, 70000, 100000], program_latency_ns = [2000000], erase_latency_ns = 4000000 }
channel = { transfer_rate_mts = 100.0 }
"#,
    )
    .expect("valid device");
    let layout = DeviceLayout::new(&device);
    (FlashScheduler::new(layout.clone(), 14_000, DECODE, true), layout)
}

const TLC_PROGRAM: u64 = 2_000_000;
const TLC_SENSE: u64 = 50_000;
const TLC_TRANSFER: u64 = 40_960;

/// The copies of a migration: `pages` MLC lower pages to the first pages of TLC block 0.
fn migration(layout: &DeviceLayout, pages: usize) -> Vec<FlashOp> {
    let tlc = layout.tier(crate::tier::TierId(1)).first_page;
    (0..pages)
        .flat_map(|k| {
            [FlashOp::GcRead { ppn: lower_page(layout, 0, k) }, FlashOp::GcProgram { ppn: Ppn(tlc + k as u32) }]
        })
        .collect()
}

#[test]
fn a_cross_tier_copy_reads_moves_over_both_channels_and_programs_on_the_destination() {
    let (mut s, layout) = two_tiers();
    s.garbage_collection(SimTime::ZERO, &migration(&layout, 1));
    while s.process_next_event().is_some() {}
    // Sense on MLC, out over MLC's bus, decode, in over TLC's bus, program on TLC.
    assert_eq!(s.busy_until(), SimTime(SENSE + TRANSFER + DECODE + TLC_TRANSFER + TLC_PROGRAM));
    let (mlc, tlc) = (s.tier_counters()[0], s.tier_counters()[1]);
    assert_eq!(
        (mlc.page_reads, mlc.page_transfers, mlc.decodes, mlc.transfer_bytes, mlc.page_programs),
        (1, 1, 1, 4096, 0)
    );
    assert_eq!((tlc.page_reads, tlc.page_transfers, tlc.transfer_bytes, tlc.page_programs), (0, 1, 4096, 1));
    assert_eq!(s.work_in_progress(), 0);
}

#[test]
fn a_block_unit_tlc_program_keeps_the_destination_die_busy_page_after_page() {
    // A whole TLC block (6 pages) from MLC: the next page is read while the current one programs,
    // so the TLC die programs back to back from the first page's arrival.
    let (mut s, layout) = two_tiers();
    s.record_bookings();
    s.garbage_collection(SimTime::ZERO, &migration(&layout, 6));
    while s.process_next_event().is_some() {}
    let first_program = SENSE + TRANSFER + DECODE + TLC_TRANSFER;
    assert_eq!(s.busy_until(), SimTime(first_program + 6 * TLC_PROGRAM));
    let programs: Vec<&Booking> = s.bookings().unwrap().iter().filter(|b| b.resource == Resource::Die(1)).collect();
    assert_eq!(programs.len(), 6);
    for pair in programs.windows(2) {
        assert_eq!(pair[1].start_ns, pair[0].end_ns, "the TLC die never idles inside the block program");
    }
    check_work_conserving(s.bookings().unwrap()).unwrap();
}

#[test]
fn a_host_read_interleaves_with_a_long_background_program() {
    // The block program above; a host read of a TLC page becomes ready at 1 ms. The chain books one
    // program ahead, so the read waits for the running program and the one queued (booked at
    // 218.88 us), and goes before the third (booked at 2.21888 ms).
    let (mut s, layout) = two_tiers();
    s.garbage_collection(SimTime::ZERO, &migration(&layout, 6));
    let read_at = SimTime(1_000_000);
    while s.next_event_time().is_some_and(|time| time <= read_at) {
        s.process_next_event();
    }
    let read = s.open_request(read_at, tag(false));
    s.read(read_at, Ppn(layout.tier(crate::tier::TierId(1)).first_page + 6), &plain(), Waiter::Request(read));
    s.close_request(read, read_at);
    let done = drain(&mut s);
    let first_program = SENSE + TRANSFER + DECODE + TLC_TRANSFER;
    let sensed = first_program + 2 * TLC_PROGRAM + TLC_SENSE;
    assert_eq!(done, vec![(tag(false), SimTime(sensed + TLC_TRANSFER + DECODE))]);
    // The block program ends one read later than it would alone.
    assert_eq!(s.busy_until(), SimTime(first_program + 6 * TLC_PROGRAM + TLC_SENSE));
}

#[test]
fn a_tracked_batch_reports_when_its_last_operation_ends() {
    let (mut s, layout) = two_tiers();
    s.background_batch(SimTime::ZERO, &migration(&layout, 2), 7);
    while s.process_next_event().is_some() {}
    let first_program = SENSE + TRANSFER + DECODE + TLC_TRANSFER;
    assert_eq!(s.finished_batches().as_slice(), &[(7, SimTime(first_program + 2 * TLC_PROGRAM))]);
    // An empty batch finishes at once.
    s.background_batch(SimTime(5), &[], 8);
    assert_eq!(s.finished_batches().last(), Some(&(8, SimTime(5))));
}

// ---- seed 000's decoders: each plan on an idle die ---------------------------------------------

/// Decoders as seed 000's preset sets them: Quick-LDPC senses one page (40 us lower, 62 us upper),
/// EP-LDPC the word line (102 us, two pages moved out), BCH decodes in 5 us.
fn seed000_scheduler() -> (FlashScheduler, DeviceLayout) {
    let (mut s, layout) = scheduler(true);
    let decoders: crate::config::DecodersConfig = toml::from_str(
        r#"
[quick_ldpc]
sensing_latency_ns = [40000, 62000]
[ep_ldpc]
sensing_latency_ns = [102000]
transfer_pages = 2
[bch]
decode_latency_ns = 5000
"#,
    )
    .expect("valid decoders");
    s.set_decoders(&decoders);
    (s, layout)
}

fn one_read(s: &mut FlashScheduler, ppn: Ppn, steps: &[ReadStep]) -> SimTime {
    let mut plan = ReadPlan::default();
    for &step in steps {
        plan.push(step);
    }
    let id = s.open_request(SimTime::ZERO, tag(false));
    s.read(SimTime::ZERO, ppn, &plan, Waiter::Request(id));
    s.close_request(id, SimTime::ZERO);
    drain(s)[0].1
}

#[test]
fn each_decoder_plan_senses_transfers_and_decodes_for_its_own_time() {
    use crate::config::DecoderKind;
    let upper = |g: &DeviceLayout| {
        (0..g.pages_total() as u32).map(Ppn).find(|&p| g.die_of(p) == 0 && g.page_type(p) == 1).expect("an upper page")
    };
    // BCH: the page's plain hard read (40 us lower), one page, BCH's own 5 us decode.
    let (mut s, g) = seed000_scheduler();
    assert_eq!(
        one_read(&mut s, lower_page(&g, 0, 0), &[ReadStep::hard(DecoderKind::Bch, 1)]),
        SimTime(SENSE + TRANSFER + 5_000)
    );
    // Quick-LDPC: its own sensing per page type (62 us on an upper page), LDPC's 8 us decode.
    let (mut s, g) = seed000_scheduler();
    assert_eq!(
        one_read(&mut s, upper(&g), &[ReadStep::hard(DecoderKind::QuickLdpc, 1)]),
        SimTime(62_000 + TRANSFER + DECODE)
    );
    // EP-LDPC: the word line in 102 us whatever the page type, two pages out, one decode.
    let (mut s, g) = seed000_scheduler();
    assert_eq!(
        one_read(&mut s, lower_page(&g, 0, 0), &[ReadStep::hard(DecoderKind::EpLdpc, 2)]),
        SimTime(102_000 + 2 * TRANSFER + DECODE)
    );
    // Soft LDPC as the conventional policy reads it: hard + 6 levels (14 us each), 7 pages, one decode.
    let (mut s, g) = seed000_scheduler();
    let soft = ReadStep { hard_sense: true, transfer_pages: 7, ..ReadStep::soft(6, false) };
    assert_eq!(one_read(&mut s, lower_page(&g, 0, 0), &[soft]), SimTime(SENSE + 6 * 14_000 + 7 * TRANSFER + DECODE));
    // A failed Quick-LDPC read climbing to EP-LDPC: the second sensing starts when the first decode ends.
    let (mut s, g) = seed000_scheduler();
    let first = SENSE + TRANSFER + DECODE;
    assert_eq!(
        one_read(
            &mut s,
            lower_page(&g, 0, 0),
            &[ReadStep::hard(DecoderKind::QuickLdpc, 1), ReadStep::hard(DecoderKind::EpLdpc, 2)]
        ),
        SimTime(first + 102_000 + 2 * TRANSFER + DECODE)
    );
}

#[test]
fn measured_soft_read_timing_replaces_per_level_and_per_page_times() {
    // Seed 002 §2.3: the full six-extra-level sensing in 125 us (over the hard read), its results in
    // 80 us; a progressive step of 2 levels takes a third of each.
    let (mut s, g) = scheduler(true);
    s.set_soft_read_timing(6, Some(125_000), Some(80_000));
    assert_eq!(one_read(&mut s, lower_page(&g, 0, 0), &[ReadStep::soft(6, false)]), SimTime(125_000 + 80_000 + DECODE));
    let (mut s, g) = scheduler(true);
    s.set_soft_read_timing(6, Some(125_000), Some(80_000));
    assert_eq!(
        one_read(&mut s, lower_page(&g, 0, 0), &[ReadStep::soft(2, false)]),
        SimTime(125_000 / 3 + 80_000 / 3 + DECODE)
    );
    // Hard sensing plus the soft levels in one step: the hard page moves at the page rate.
    let (mut s, g) = scheduler(true);
    s.set_soft_read_timing(6, Some(125_000), Some(80_000));
    let full = ReadStep { hard_sense: true, transfer_pages: 7, ..ReadStep::soft(6, false) };
    assert_eq!(one_read(&mut s, lower_page(&g, 0, 0), &[full]), SimTime(SENSE + 125_000 + TRANSFER + 80_000 + DECODE));
}

#[test]
fn soft_results_at_the_measured_rate_count_the_pages_they_time() {
    // Issue 45: 80 us of soft results on a bus that moves a page in 20.48 us is 3.906 pages' worth,
    // in energy and bytes as in time; the hard page of the same step is one whole page.
    let (mut s, g) = scheduler(true);
    s.set_soft_read_timing(6, Some(125_000), Some(80_000));
    let full = ReadStep { hard_sense: true, transfer_pages: 7, ..ReadStep::soft(6, false) };
    one_read(&mut s, lower_page(&g, 0, 0), &[full]);
    let counters = s.counters();
    assert_eq!(counters.page_transfers, 1);
    assert!((counters.soft_result_pages - 80_000.0 / TRANSFER as f64).abs() < 1e-9, "{}", counters.soft_result_pages);
    assert_eq!(counters.transfer_bytes, 4096 + (80_000.0 / TRANSFER as f64 * 4096.0).round() as u64);
    // Without the measured rate every level's results are a whole page, counted as such.
    let (mut s, g) = scheduler(true);
    one_read(&mut s, lower_page(&g, 0, 0), &[full]);
    assert_eq!((s.counters().page_transfers, s.counters().soft_result_pages), (7, 0.0));
}

/// SCM beside the tiny device: 2 banks behind one channel, 100 ns read / 300 ns write per sector,
/// 512 B in 512 ns at 1000 MT/s.
fn with_scm(banks: u32, channels: u32) -> FlashScheduler {
    let (mut scheduler, _) = scheduler(false);
    let scm: crate::config::ScmConfig = toml::from_str(&format!(
        "banks = {banks}\nread_latency_ns_per_sector = 100\nwrite_latency_ns_per_sector = 300\nmemory_voltage_v = 1.8\nchannels = {channels}\nchannel = {{ transfer_rate_mts = 1000.0 }}\n"
    ))
    .expect("valid SCM");
    scheduler.attach_scm(crate::media::scm::ScmTiming::new(&scm));
    scheduler
}

#[test]
fn scm_write_transfers_once_then_banks_write_in_parallel() {
    let mut scheduler = with_scm(2, 1);
    let request = scheduler.open_request(SimTime::ZERO, tag(true));
    // Slots 0, 1, 2: banks 0, 1, 0. One transfer of 3 sectors (1,536 ns), then bank 0 writes two
    // sectors (600 ns) while bank 1 writes one (300 ns).
    scheduler.scm_write(SimTime::ZERO, &[0, 1, 2], Waiter::Request(request));
    scheduler.close_request(request, SimTime::ZERO);
    assert_eq!(drain(&mut scheduler), vec![(tag(true), SimTime(1_536 + 600))]);
    let counters = scheduler.scm_counters();
    assert_eq!((counters.sectors_written, counters.transfer_bytes), (3, 1_536));
    assert_eq!(scheduler.scm_busy(), (SimDuration(900), SimDuration(1_536)));
}

#[test]
fn scm_reads_on_two_banks_share_the_channel_in_turn() {
    // Bank 0 reads two sectors (200 ns), bank 1 one (100 ns); bank 1's sector crosses the channel
    // first (100 -> 612), then bank 0's two (612 -> 1,636).
    let mut scheduler = with_scm(2, 1);
    let request = scheduler.open_request(SimTime::ZERO, tag(false));
    scheduler.scm_read(SimTime::ZERO, &[0, 1, 2], Waiter::Request(request));
    scheduler.close_request(request, SimTime::ZERO);
    assert_eq!(drain(&mut scheduler), vec![(tag(false), SimTime(1_636))]);
    // Two channels: each bank's data has its own bus; the slower (bank 0: 200 + 1,024) ends it.
    let mut scheduler = with_scm(2, 2);
    let request = scheduler.open_request(SimTime::ZERO, tag(false));
    scheduler.scm_read(SimTime::ZERO, &[0, 1, 2], Waiter::Request(request));
    scheduler.close_request(request, SimTime::ZERO);
    assert_eq!(drain(&mut scheduler), vec![(tag(false), SimTime(1_224))]);
}

#[test]
fn scm_operations_queue_behind_each_other_on_a_bank() {
    // Two one-sector writes to one bank issued together: the first moves in 0 -> 512 and is written
    // 512 -> 812; the second's transfer follows on the channel (512 -> 1,024), then its write (the bank
    // free since 812): 1,024 -> 1,324.
    let mut scheduler = with_scm(1, 1);
    let first = scheduler.open_request(SimTime::ZERO, tag(true));
    scheduler.scm_write(SimTime::ZERO, &[0], Waiter::Request(first));
    scheduler.close_request(first, SimTime::ZERO);
    let second = scheduler.open_request(SimTime::ZERO, tag(true));
    scheduler.scm_write(SimTime::ZERO, &[1], Waiter::Request(second));
    scheduler.close_request(second, SimTime::ZERO);
    assert_eq!(drain(&mut scheduler), vec![(tag(true), SimTime(812)), (tag(true), SimTime(1_324))]);
}

#[test]
fn a_gated_read_starts_when_the_gate_s_read_ends() {
    // A translation read on die 0 (sense, transfer, decode: ends at 68.48 us); the data read on the
    // idle die 1 waits for it, then senses, transfers and decodes.
    let (mut s, g) = scheduler(false);
    let id = s.open_request(SimTime::ZERO, tag(false));
    let gate = s.open_gate(SimTime::ZERO);
    s.read_plain(SimTime::ZERO, &[lower_page(&g, 0, 0)], Waiter::Gate(gate));
    s.read_after_gate(gate, lower_page(&g, 1, 0), &plain(), Waiter::Request(id));
    s.close_gate(gate);
    s.close_request(id, SimTime::ZERO);
    let done = drain(&mut s);
    let one = SENSE + TRANSFER + DECODE;
    assert_eq!(done, vec![(tag(false), SimTime(2 * one))]);
    assert_eq!(s.counters().page_reads, 2);
}

#[test]
fn a_program_group_and_a_request_wait_for_a_gate() {
    // A write whose program group waits for a gate's read: the data moves after the read ends.
    let (mut s, g) = scheduler(false);
    let id = s.open_request(SimTime::ZERO, tag(true));
    let gate = s.open_gate(SimTime::ZERO);
    s.read_plain(SimTime::ZERO, &[lower_page(&g, 0, 0)], Waiter::Gate(gate));
    let group = s.open_write_group(id, SimTime::ZERO);
    s.wait_for_gate(gate, Waiter::WriteGroup(group));
    s.close_write_group(group, SimTime::ZERO, &[lower_page(&g, 1, 0)]);
    s.close_gate(gate);
    s.close_request(id, SimTime::ZERO);
    let done = drain(&mut s);
    assert_eq!(done, vec![(tag(true), SimTime(SENSE + TRANSFER + DECODE + TRANSFER + PROGRAM))]);
    // A gate with no read ends at once: its waiter is told then.
    let id = s.open_request(SimTime(1_000_000), tag(false));
    let gate = s.open_gate(SimTime(1_000_000));
    s.wait_for_gate(gate, Waiter::Request(id));
    s.close_gate(gate);
    s.close_request(id, SimTime(1_000_000));
    assert_eq!(drain(&mut s), vec![(tag(false), SimTime(1_000_000))]);
}

/// Opens a read request of `size_bytes` (its name in the completions) at `at_ns` following `steps`.
fn read_at(s: &mut FlashScheduler, at_ns: u64, ppn: Ppn, steps: &[ReadStep], size_bytes: u64) {
    let mut plan = ReadPlan::default();
    for &step in steps {
        plan.push(step);
    }
    let at = SimTime(at_ns);
    let id = s.open_request(at, RequestTag { size_bytes, ..tag(false) });
    s.read(at, ppn, &plan, Waiter::Request(id));
    s.close_request(id, at);
}

/// Each request's completion by its size.
fn completions_by_size(s: &mut FlashScheduler) -> std::collections::BTreeMap<u64, u64> {
    drain(s).into_iter().map(|(tag, done)| (tag.size_bytes, done.0)).collect()
}

const SOFT_6: u64 = 6 * 14_000 + 6 * TRANSFER + DECODE;

#[test]
fn look_ahead_decided_after_hard_sensing_yields_to_a_read_that_arrived_meanwhile() {
    // Seed 002 §3.1: A's look-ahead would start when its hard sensing ends (40 us), but B arrived on
    // the same die at 10 us and waits: no look-ahead; A's soft sensing follows B's sensing (80 us).
    let (mut s, g) = scheduler(true);
    s.decide_look_ahead_after_hard_sensing(true);
    let failing = [ReadStep::PLAIN_HARD, ReadStep::soft(6, true)];
    read_at(&mut s, 0, lower_page(&g, 0, 0), &failing, 1);
    read_at(&mut s, 10_000, lower_page(&g, 0, 1), plain().steps(), 2);
    let done = completions_by_size(&mut s);
    assert_eq!(done[&2], 2 * SENSE + TRANSFER + DECODE);
    assert_eq!(done[&1], 2 * SENSE + SOFT_6);
    assert_eq!(s.look_aheads_skipped(), (1, 0));
    // Tested at arrival (the die was idle at 0), the look-ahead runs from 40 us and B waits for it.
    let (mut s, g) = scheduler(true);
    read_at(&mut s, 0, lower_page(&g, 0, 0), &failing, 1);
    read_at(&mut s, 10_000, lower_page(&g, 0, 1), plain().steps(), 2);
    let done = completions_by_size(&mut s);
    let look_ahead_end = SENSE + 6 * 14_000;
    assert_eq!(done[&1], look_ahead_end + 6 * TRANSFER + DECODE);
    // B senses after the look-ahead; its page waits for A's soft results on the channel.
    assert_eq!(done[&2], look_ahead_end + 6 * TRANSFER + TRANSFER + DECODE);
    assert_eq!(s.look_aheads_skipped(), (0, 0));
}

#[test]
fn look_ahead_decided_after_hard_sensing_runs_for_a_read_that_waited_in_the_queue() {
    // B holds the die from 0 to 40 us; A arrives at 1 us, senses from 40 to 80 us and, nothing
    // queued behind it, looks ahead from 80 us.
    let (mut s, g) = scheduler(true);
    s.decide_look_ahead_after_hard_sensing(true);
    read_at(&mut s, 0, lower_page(&g, 0, 1), plain().steps(), 2);
    read_at(&mut s, 1_000, lower_page(&g, 0, 0), &[ReadStep::PLAIN_HARD, ReadStep::soft(6, true)], 1);
    let done = completions_by_size(&mut s);
    assert_eq!(done[&1], 2 * SENSE + SOFT_6);
    assert_eq!(s.look_aheads_skipped(), (0, 0));
    // A cancelled look-ahead a busy die skips holds nothing: B, arriving during A's hard sensing,
    // senses at 40 us.
    let (mut s, g) = scheduler(true);
    s.decide_look_ahead_after_hard_sensing(true);
    read_at(&mut s, 0, lower_page(&g, 0, 0), &[ReadStep::PLAIN_HARD, ReadStep::cancelled_sensing(6)], 1);
    read_at(&mut s, 10_000, lower_page(&g, 0, 1), plain().steps(), 2);
    let done = completions_by_size(&mut s);
    assert_eq!((done[&1], done[&2]), (SENSE + TRANSFER + DECODE, 2 * SENSE + TRANSFER + DECODE));
    assert_eq!((s.look_aheads_skipped(), s.counters().cancelled_sensing_ns), ((1, 1), 0));
}
