//! The scheduler on a tiny device, with exact times: one channel, one chip, two dies, one plane each;
//! MLC lower pages sense in 40 us and program in 200 us; a 4 KiB page crosses the 200 MT/s byte-wide
//! bus in 20.48 us; decoding takes 8 us.

use super::*;
use crate::config::DeviceConfig;
use crate::read_path::{ReadPlan, ReadStep};

const SENSE: u64 = 40_000;
const PROGRAM: u64 = 200_000;
const ERASE: u64 = 3_000_000;
const TRANSFER: u64 = 20_480;
const DECODE: u64 = 8_000;

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

fn scheduler(copyback: bool) -> (FlashScheduler, DeviceLayout) {
    let layout = DeviceLayout::new(&device());
    (FlashScheduler::new(layout.clone(), 14_000, DECODE, copyback), layout)
}

/// A lower page (fastest type) on `die`, the `nth` such page.
fn lower_page(geometry: &DeviceLayout, die: u32, nth: usize) -> Ppn {
    (0..geometry.pages_total() as u32).map(Ppn).filter(|&ppn| geometry.die_of(ppn) == die && geometry.page_type(ppn) == 0).nth(nth).expect("enough lower pages")
}

fn tag(write: bool) -> RequestTag {
    RequestTag { latency_from: SimTime::ZERO, size_bytes: 4096, write }
}

/// Runs every pending event; returns the completions in the order they were learned.
fn drain(scheduler: &mut FlashScheduler) -> Vec<(RequestTag, SimTime)> {
    while scheduler.process_next_event().is_some() {}
    assert_eq!(scheduler.work_in_progress(), 0);
    std::mem::take(scheduler.completions())
}

fn plain() -> ReadPlan {
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
    s.garbage_collection(SimTime::ZERO, &[FlashOp::GcRead { ppn: source }, FlashOp::GcProgram { ppn: destination }, FlashOp::Erase { block }]);
    // The copy (sense + program, one die operation) ends at 240 us; the erase becomes ready then.
    let read_at = SimTime(1_000);
    let read = s.open_request(read_at, tag(false));
    s.read(read_at, lower_page(&g, 0, 2), &plain(), Waiter::Request(read));
    s.close_request(read, read_at);
    let done = drain(&mut s);
    let copy_end = SENSE + PROGRAM;
    assert_eq!(done, vec![(tag(false), SimTime(copy_end + SENSE + TRANSFER + DECODE))]);
    assert_eq!(s.busy_until(), SimTime(copy_end + SENSE + ERASE));
    assert_eq!((s.counters().page_reads, s.counters().page_programs, s.counters().block_erases, s.counters().page_transfers), (2, 1, 1, 1));
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
