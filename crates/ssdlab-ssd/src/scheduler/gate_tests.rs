//! Host writes held for garbage collection (`write_gate.rs`), with exact times on the tiny device of
//! `tests.rs` (one channel; dies 0 and 1, one plane each; lower pages sense in 40 us and program in
//! 200 us, a copyback copy is both, 240 us; an erase takes 3 ms; a page crosses the bus in 20.48 us).
//! The FTL's free-block counts are fixed per test: what changes is which erases have ended.

use super::tests::{lower_page, scheduler, tag, DECODE, ERASE, PROGRAM, SENSE, TRANSFER};
use super::*;
use crate::config::GcMode;

const COPY: u64 = SENSE + PROGRAM;

/// GC of `victims` blocks on `die`, one valid page each (copy then erase, victim after victim).
fn collect_on_die(s: &mut FlashScheduler, layout: &DeviceLayout, die: u32, victims: usize, now: SimTime) {
    let mut ops = Vec::new();
    for victim in 0..victims {
        let source = lower_page(layout, die, 2 * victim);
        ops.extend([
            FlashOp::GcRead { ppn: source },
            FlashOp::GcProgram { ppn: lower_page(layout, die, 2 * victim + 1) },
            FlashOp::Erase { block: layout.block_of(source) },
        ]);
    }
    s.garbage_collection(now, &ops);
}

/// A one-page host write to die 0 issued at `now`, closed through the gate with plane 0 holding
/// `free_blocks` free blocks in the FTL.
fn write_to_die_0(s: &mut FlashScheduler, layout: &DeviceLayout, now: SimTime, free_blocks: usize) {
    let request = s.open_request(now, RequestTag { latency_from: now, ..tag(true) });
    let group = s.open_write_group(request, now);
    s.close_write_group_gated(group, now, &[lower_page(layout, 0, 7)], |_| free_blocks);
    s.close_request(request, now);
}

/// Runs every event, re-examining planes whose erase ended as the replay does; returns the
/// completions in the order they were learned, (write, time in ns).
fn drain_gated(s: &mut FlashScheduler, free_blocks: usize) -> Vec<(bool, u64)> {
    while let Some(now) = s.process_next_event() {
        let ended = s.erases_ended().map(std::mem::take).unwrap_or_default();
        for plane in ended {
            s.reopen_plane(plane, now, |_| free_blocks);
        }
    }
    assert_eq!(s.work_in_progress(), 0);
    std::mem::take(s.completions()).into_iter().map(|(tag, completion, _)| (tag.write, completion.0)).collect()
}

/// [`drain_gated`]'s write completions.
fn writes_done(s: &mut FlashScheduler, free_blocks: usize) -> Vec<SimTime> {
    drain_gated(s, free_blocks).into_iter().filter(|&(write, _)| write).map(|(_, time)| SimTime(time)).collect()
}

#[test]
fn background_mode_never_holds_a_write() {
    let (mut s, layout) = scheduler(true);
    s.set_gc_mode(GcMode::Background, 1, 2);
    collect_on_die(&mut s, &layout, 0, 1, SimTime::ZERO);
    write_to_die_0(&mut s, &layout, SimTime::ZERO, 0);
    // The program waits only for the copy the die is doing: [240, 440] us; the erase follows it.
    assert_eq!(writes_done(&mut s, 0), vec![SimTime(COPY + PROGRAM)]);
    assert_eq!(s.write_hold_statistics(), None);
    assert_eq!(s.busy_until(), SimTime(COPY + PROGRAM + ERASE));
}

#[test]
fn foreground_a_write_at_the_low_watermark_waits_for_the_erase() {
    let (mut s, layout) = scheduler(true);
    // Low watermark 2: the write set GC off (one victim), and the FTL already counts the victim
    // free: 2 free, 1 of them not erased, so the erased pool is 1, below the watermark.
    s.set_gc_mode(GcMode::Foreground, 1, 2);
    collect_on_die(&mut s, &layout, 0, 1, SimTime::ZERO);
    write_to_die_0(&mut s, &layout, SimTime::ZERO, 2);
    // Copy [0, 240], erase [240, 3240]; then the write's data moves and it programs.
    let erased = COPY + ERASE;
    assert_eq!(writes_done(&mut s, 2), vec![SimTime(erased + TRANSFER + PROGRAM)]);
    let statistics = s.write_hold_statistics().unwrap();
    assert_eq!((statistics.requests_held, statistics.programs_held, statistics.pages_held), (1, 1, 1));
    assert_eq!(
        (
            statistics.wait_total_ns,
            statistics.wait_max_ns,
            statistics.plane_blocked_ns,
            statistics.any_plane_blocked_ns
        ),
        (erased, erased, erased, erased)
    );
    // With one more free block (the pool at the watermark) it would not have waited.
    let (mut s, layout) = scheduler(true);
    s.set_gc_mode(GcMode::Foreground, 1, 2);
    collect_on_die(&mut s, &layout, 0, 1, SimTime::ZERO);
    write_to_die_0(&mut s, &layout, SimTime::ZERO, 3);
    assert_eq!(writes_done(&mut s, 3), vec![SimTime(COPY + PROGRAM)]);
}

#[test]
fn stop_servicing_writes_a_write_waits_until_the_pool_is_back_at_the_threshold() {
    let (mut s, layout) = scheduler(true);
    // MQSim's rule with a threshold of 1: two victims in flight, 2 free in the FTL, so no erased
    // block is left. The first erase (at 240 + 3,000 us) brings the pool back to 1: the write goes
    // then, before the second victim's copy and erase, which follow on the die.
    s.set_gc_mode(GcMode::StopServicingWrites, 1, 3);
    collect_on_die(&mut s, &layout, 0, 2, SimTime::ZERO);
    write_to_die_0(&mut s, &layout, SimTime::ZERO, 2);
    let first_erase = COPY + ERASE;
    // Released at 3,240 us: the data crosses the bus while the second copy takes the die [3240,
    // 3480], then programs.
    assert_eq!(writes_done(&mut s, 2), vec![SimTime(first_erase + COPY + PROGRAM)]);
    assert_eq!(s.write_hold_statistics().unwrap().wait_max_ns, first_erase);
    assert_eq!(s.busy_until(), SimTime(first_erase + COPY + PROGRAM + ERASE));
    // Another plane's GC does not hold this plane's writes (die 1's plane has an erase in flight).
    let (mut s, layout) = scheduler(true);
    s.set_gc_mode(GcMode::StopServicingWrites, 1, 3);
    collect_on_die(&mut s, &layout, 1, 1, SimTime::ZERO);
    write_to_die_0(&mut s, &layout, SimTime::ZERO, 0);
    assert_eq!(writes_done(&mut s, 0), vec![SimTime(TRANSFER + PROGRAM)]);
    assert_eq!(s.write_hold_statistics().unwrap().programs_held, 0);
}

#[test]
fn preemptible_gc_steps_aside_for_host_reads_above_the_hard_threshold() {
    // GC copies two pages and erases on die 0; host reads arrive at 230 and 250 us. The first copy
    // started at 0 (the die was idle) and ends at 240.
    let run = |mode: GcMode, free_blocks: usize| {
        let (mut s, layout) = scheduler(true);
        s.set_gc_mode(mode, 1, 3);
        let ops: Vec<FlashOp> = (0..2)
            .flat_map(|copy| {
                [
                    FlashOp::GcRead { ppn: lower_page(&layout, 0, copy) },
                    FlashOp::GcProgram { ppn: lower_page(&layout, 0, copy + 2) },
                ]
            })
            .chain([FlashOp::Erase { block: layout.block_of(lower_page(&layout, 0, 4)) }])
            .collect();
        s.garbage_collection(SimTime::ZERO, &ops);
        // A write's close refreshes whether die 0 is urgent: it is above the hard threshold with
        // `free_blocks` free and one erase pending, below it otherwise.
        write_to_die_0(&mut s, &layout, SimTime::ZERO, free_blocks);
        for at in [230_000, 250_000] {
            while s.next_event_time().is_some_and(|time| time.0 < at) {
                s.process_next_event();
            }
            let read = s.open_request(SimTime(at), RequestTag { latency_from: SimTime(at), ..tag(false) });
            s.read(SimTime(at), lower_page(&layout, 0, 5), &super::tests::plain(), Waiter::Request(read));
            s.close_request(read, SimTime(at));
        }
        let done = drain_gated(&mut s, free_blocks);
        (done, s.write_hold_statistics().map_or(0, |statistics| statistics.gc_yields))
    };
    // The write's data arrives at 20.48 us and its program waits for the first copy: [240, 440].
    // The first read, ready at 230, is booked behind it: [440, 480]. Stop-servicing (no yielding):
    // the second copy, ready at 240, is booked next: [480, 720]; the second read [720, 760].
    let (fifo, yields) = run(GcMode::StopServicingWrites, 5);
    let read_end = |start: u64| start + SENSE + TRANSFER + DECODE;
    assert_eq!(fifo, vec![(true, COPY + PROGRAM), (false, read_end(440_000)), (false, read_end(720_000))]);
    assert_eq!(yields, 0);
    // Preemptible above the hard threshold (pool 4 of threshold 1): the second copy steps aside
    // while the die has host work booked: program [240, 440], reads [440, 480] and [480, 520], and
    // the copy at 520.
    let (preempted, yields) = run(GcMode::Preemptible, 5);
    assert_eq!(preempted, vec![(true, COPY + PROGRAM), (false, read_end(440_000)), (false, read_end(480_000))]);
    assert_eq!(yields, 2);
    // Below the hard threshold (1 free, 1 erase pending: pool 0) GC stops yielding and the write
    // waits for the erase: the first read [240, 280], the second copy [280, 520], the second read
    // [520, 560], the erase [560, 3560]; then the write's data moves and it programs.
    let (urgent, yields) = run(GcMode::Preemptible, 1);
    let erase_end = 560_000 + ERASE;
    assert_eq!(
        urgent,
        vec![(false, read_end(240_000)), (false, read_end(520_000)), (true, erase_end + TRANSFER + PROGRAM)]
    );
    assert_eq!(yields, 0);
}
