//! Queued dies with exact times on the tiny device of `tests.rs` (one channel, two dies; lower
//! pages sense in 40 us and program in 200 us; a page crosses the bus in 20.48 us; decoding takes
//! 8 us; an erase takes 3 ms).

use super::tests::{lower_page, plain, scheduler, tag, DECODE, ERASE, PROGRAM, SENSE, TRANSFER};
use super::*;
use crate::config::{
    FlinConfig, PriorityClass, SchedulerConfig, SchedulingPolicyKind, SuspendedOperations, SuspensionConfig,
};

fn queued(policy: SchedulingPolicyKind, suspension: SuspensionConfig) -> (FlashScheduler, DeviceLayout) {
    let (mut s, g) = scheduler(true);
    s.set_scheduling(
        &SchedulerConfig { policy, suspension, ..SchedulerConfig::default() },
        vec![PriorityClass::Low, PriorityClass::High],
    );
    (s, g)
}

fn no_suspension() -> SuspensionConfig {
    SuspensionConfig { operations: SuspendedOperations::None, ..SuspensionConfig::default() }
}

/// Suspension of `operations` with a 10 us program suspend, a 100 us erase suspend, and 50 us /
/// 700 us / 700 us minimum remaining times.
fn suspending(operations: SuspendedOperations) -> SuspensionConfig {
    SuspensionConfig {
        operations,
        suspend_program_ns: 10_000,
        suspend_erase_ns: 100_000,
        min_remaining_program_for_read_ns: 50_000,
        min_remaining_erase_for_read_ns: 700_000,
        min_remaining_erase_for_write_ns: 700_000,
    }
}

/// Runs the events up to and including `time`.
fn advance(s: &mut FlashScheduler, time: u64) {
    while s.next_event_time().is_some_and(|next| next.0 <= time) {
        s.process_next_event();
    }
}

fn write(s: &mut FlashScheduler, at: u64, ppn: Ppn) -> u32 {
    let id = s.open_request(SimTime(at), RequestTag { latency_from: SimTime(at), ..tag(true) });
    let group = s.open_write_group(id, SimTime(at));
    s.close_write_group(group, SimTime(at), &[ppn]);
    s.close_request(id, SimTime(at));
    id
}

/// A read of `ppn` at `at` of `size_bytes` (the size tells the completions apart), of `flow`.
fn read(s: &mut FlashScheduler, at: u64, ppn: Ppn, size_bytes: u64, flow: u8) {
    let id = s.open_request(SimTime(at), RequestTag { latency_from: SimTime(at), size_bytes, ..tag(false) });
    s.set_request_flow(id, flow);
    s.read(SimTime(at), ppn, &plain(), Waiter::Request(id));
    s.close_request(id, SimTime(at));
}

/// Runs every event; returns (size, write, completion) in completion order.
fn finish(s: &mut FlashScheduler) -> Vec<(u64, bool, u64)> {
    while s.process_next_event().is_some() {}
    assert_eq!(s.work_in_progress(), 0);
    let mut done: Vec<(u64, bool, u64)> =
        std::mem::take(s.completions()).into_iter().map(|(tag, time, _)| (tag.size_bytes, tag.write, time.0)).collect();
    done.sort_by_key(|&(size, write, time)| (time, size, write));
    done
}

/// A program on die 0 over [20.48, 220.48) us, a second write whose data arrives at 40.96 us, and a
/// read arriving at 50 us: the read and the second program both wait for the first program.
fn read_behind_two_writes(policy: SchedulingPolicyKind) -> Vec<(u64, bool, u64)> {
    let (mut s, g) =
        if policy == SchedulingPolicyKind::Fifo { scheduler(true) } else { queued(policy, no_suspension()) };
    write(&mut s, 0, lower_page(&g, 0, 0));
    write(&mut s, 0, lower_page(&g, 0, 1));
    advance(&mut s, 50_000);
    read(&mut s, 50_000, lower_page(&g, 0, 2), 8192, 0);
    finish(&mut s)
}

#[test]
fn out_of_order_serves_the_read_before_the_write_that_waited_longer() {
    let first_program_end = TRANSFER + PROGRAM;
    let read_done = first_program_end + SENSE + TRANSFER + DECODE;
    let fifo = read_behind_two_writes(SchedulingPolicyKind::Fifo);
    // First come, first served: the second program, then the read.
    assert_eq!(
        fifo,
        vec![
            (4096, true, first_program_end),
            (4096, true, first_program_end + PROGRAM),
            (8192, false, first_program_end + PROGRAM + SENSE + TRANSFER + DECODE),
        ]
    );
    let out_of_order = read_behind_two_writes(SchedulingPolicyKind::OutOfOrder);
    assert_eq!(
        out_of_order,
        vec![
            (4096, true, first_program_end),
            (8192, false, read_done),
            (4096, true, first_program_end + SENSE + PROGRAM)
        ]
    );
}

#[test]
fn a_read_suspends_a_program_that_has_long_enough_left_and_the_program_resumes_after_it() {
    let (mut s, g) = queued(SchedulingPolicyKind::Fifo, suspending(SuspendedOperations::Program));
    write(&mut s, 0, lower_page(&g, 0, 0));
    advance(&mut s, 100_000);
    // At 100 us the program (ends at 220.48 us) has 120.48 us left: suspended for 10 us.
    read(&mut s, 100_000, lower_page(&g, 0, 1), 8192, 0);
    let done = finish(&mut s);
    let sensed = 100_000 + 10_000 + SENSE;
    let left = TRANSFER + PROGRAM - 100_000;
    assert_eq!(done, vec![(8192, false, sensed + TRANSFER + DECODE), (4096, true, sensed + left)]);
    let statistics = s.scheduler_statistics().expect("queued");
    assert_eq!((statistics.program_suspensions, statistics.resumes, statistics.erase_suspensions), (1, 1, 0));
    assert_eq!(statistics.suspend_time_us, 10.0);
    // The die was busy for the program, the suspension and the read; nothing else.
    assert_eq!(s.busy_per_resource().0[0].0, PROGRAM + 10_000 + SENSE);
}

#[test]
fn a_program_with_too_little_left_is_not_suspended() {
    let (mut s, g) = queued(SchedulingPolicyKind::Fifo, suspending(SuspendedOperations::Program));
    write(&mut s, 0, lower_page(&g, 0, 0));
    advance(&mut s, 200_000);
    // 20.48 us left, under the 50 us minimum: the read waits.
    read(&mut s, 200_000, lower_page(&g, 0, 1), 8192, 0);
    let done = finish(&mut s);
    let program_end = TRANSFER + PROGRAM;
    assert_eq!(done, vec![(4096, true, program_end), (8192, false, program_end + SENSE + TRANSFER + DECODE)]);
    assert_eq!(s.scheduler_statistics().expect("queued").program_suspensions, 0);
}

fn read_during_an_erase(operations: SuspendedOperations) -> (Vec<(u64, bool, u64)>, FlashScheduler) {
    let (mut s, g) = queued(SchedulingPolicyKind::Fifo, suspending(operations));
    let block = g.block_of(lower_page(&g, 0, 3));
    s.garbage_collection(SimTime::ZERO, &[FlashOp::Erase { block }]);
    advance(&mut s, 1_000_000);
    read(&mut s, 1_000_000, lower_page(&g, 0, 0), 8192, 0);
    (finish(&mut s), s)
}

#[test]
fn a_read_suspends_an_erase_only_when_erases_are_suspendable() {
    let (done, s) = read_during_an_erase(SuspendedOperations::Erase);
    let sensed = 1_000_000 + 100_000 + SENSE;
    assert_eq!(done, vec![(8192, false, sensed + TRANSFER + DECODE)]);
    // The erase had 2 ms left and resumed when the read's sensing ended.
    assert_eq!(s.busy_until(), SimTime(sensed + (ERASE - 1_000_000)));
    assert_eq!(s.scheduler_statistics().expect("queued").erase_suspensions, 1);

    let (done, s) = read_during_an_erase(SuspendedOperations::Program);
    assert_eq!(done, vec![(8192, false, ERASE + SENSE + TRANSFER + DECODE)]);
    assert_eq!(s.scheduler_statistics().expect("queued").erase_suspensions, 0);
}

#[test]
fn a_second_read_during_a_suspension_waits_its_turn_and_the_die_is_suspended_once() {
    let (mut s, g) = queued(SchedulingPolicyKind::OutOfOrder, suspending(SuspendedOperations::Program));
    write(&mut s, 0, lower_page(&g, 0, 0));
    advance(&mut s, 100_000);
    read(&mut s, 100_000, lower_page(&g, 0, 1), 8192, 0);
    advance(&mut s, 120_000);
    // The first read senses over [110, 150) us; the second, out of order, goes before the resume.
    read(&mut s, 120_000, lower_page(&g, 0, 2), 12288, 0);
    let done = finish(&mut s);
    let first = 110_000 + SENSE;
    let second = first + SENSE;
    let left = TRANSFER + PROGRAM - 100_000;
    assert_eq!(
        done,
        vec![
            (8192, false, first + TRANSFER + DECODE),
            (12288, false, second + TRANSFER + DECODE),
            (4096, true, second + left)
        ]
    );
    assert_eq!(s.scheduler_statistics().expect("queued").program_suspensions, 1);
}

/// Reads of flow 0 (low priority) then flow 1 (high) queued behind a program on die 0; returns the
/// flows in the order they completed.
fn flows_served(policy: SchedulingPolicyKind) -> Vec<u8> {
    let (mut s, g) = queued(policy, no_suspension());
    write(&mut s, 0, lower_page(&g, 0, 0));
    advance(&mut s, 30_000);
    for flow in 0..2u8 {
        for nth in 0..3u64 {
            // The size tells the flow.
            read(
                &mut s,
                30_000,
                lower_page(&g, 0, 1 + (flow as usize) * 3 + nth as usize),
                4096 * (1 + flow as u64),
                flow,
            );
        }
    }
    finish(&mut s).into_iter().filter(|&(_, write, _)| !write).map(|(size, _, _)| (size / 4096 - 1) as u8).collect()
}

#[test]
fn priority_out_of_order_serves_the_high_priority_flow_first() {
    assert_eq!(flows_served(SchedulingPolicyKind::OutOfOrder), [0, 0, 0, 1, 1, 1]);
    assert_eq!(flows_served(SchedulingPolicyKind::PriorityOutOfOrder), [1, 1, 1, 0, 0, 0]);
}

/// Flow 1 sends three reads to die 0 in the first 1 ms epoch (FLIN, with 2 reads a die an epoch as
/// its threshold, then deems it of high read intensity); at 1 ms a program starts on die 0; at
/// 1.03 ms flow 1 queues three more reads behind it (sizes 8192..8194) and at 1.05 ms flow 0 (of
/// the same priority class) one (size 4096). Returns the second epoch's reads in completion order.
fn the_less_intense_flow_behind_a_backlog(policy: SchedulingPolicyKind) -> Vec<(u64, u64)> {
    let (mut s, g) = scheduler(true);
    if policy != SchedulingPolicyKind::Fifo {
        let flin = FlinConfig {
            epoch_ns: 1_000_000,
            alpha_read_bytes: 2 * 2 * g.page_size_bytes() as u64,
            ..FlinConfig::default()
        };
        let config = SchedulerConfig { policy, suspension: no_suspension(), flin };
        s.set_scheduling(&config, vec![PriorityClass::Medium, PriorityClass::Medium]);
    }
    for nth in 0..3 {
        read(&mut s, 0, lower_page(&g, 0, 1 + nth), 1024, 1);
    }
    advance(&mut s, 1_000_000);
    write(&mut s, 1_000_000, lower_page(&g, 0, 0));
    advance(&mut s, 1_030_000);
    for nth in 0..3u64 {
        read(&mut s, 1_030_000, lower_page(&g, 0, 4 + nth as usize), 8192 + nth, 1);
    }
    advance(&mut s, 1_050_000);
    read(&mut s, 1_050_000, lower_page(&g, 0, 7), 4096, 0);
    finish(&mut s)
        .into_iter()
        .filter(|&(size, write, _)| !write && size >= 4096)
        .map(|(size, _, time)| (size, time))
        .collect()
}

#[test]
fn flin_serves_the_less_intense_flow_ahead_of_the_intense_flows_backlog() {
    let program_end = 1_000_000 + TRANSFER + PROGRAM;
    // The nth read sensed after the program completes after its transfer and decode.
    let done = |nth: u64| program_end + nth * SENSE + TRANSFER + DECODE;
    // First come, first served: flow 1's backlog, then flow 0's read.
    let fifo = the_less_intense_flow_behind_a_backlog(SchedulingPolicyKind::Fifo);
    assert_eq!(fifo, vec![(8192, done(1)), (8193, done(2)), (8194, done(3)), (4096, done(4))]);
    let flin = the_less_intense_flow_behind_a_backlog(SchedulingPolicyKind::Flin);
    assert_eq!(flin, vec![(4096, done(1)), (8192, done(2)), (8193, done(3)), (8194, done(4))]);
}

#[test]
fn garbage_collection_goes_after_host_reads_when_not_urgent_and_before_them_when_urgent() {
    // GC with the write gate in preemptible mode and no plane below the hard threshold: not urgent.
    let served = |urgent: bool| {
        let (mut s, g) = queued(SchedulingPolicyKind::OutOfOrder, no_suspension());
        let mode = if urgent { crate::config::GcMode::StopServicingWrites } else { crate::config::GcMode::Preemptible };
        s.set_gc_mode(mode, 0, 1);
        write(&mut s, 0, lower_page(&g, 0, 0));
        advance(&mut s, 30_000);
        let block = g.block_of(lower_page(&g, 0, 3));
        s.garbage_collection(SimTime(30_000), &[FlashOp::Erase { block }]);
        read(&mut s, 40_000, lower_page(&g, 0, 1), 8192, 0);
        let done = finish(&mut s);
        done.iter().find(|&&(_, write, _)| !write).map(|&(_, _, time)| time).expect("the read")
    };
    let program_end = TRANSFER + PROGRAM;
    assert_eq!(served(false), program_end + SENSE + TRANSFER + DECODE);
    assert_eq!(served(true), program_end + ERASE + SENSE + TRANSFER + DECODE);
}

/// A deterministic mix of reads, writes and GC on both dies.
fn mixed_run(s: &mut FlashScheduler, g: &DeviceLayout) -> Vec<(u64, bool, u64)> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut now = 0;
    for index in 0..300u64 {
        now += next() % 60_000;
        advance(s, now);
        let die = (next() % 2) as u32;
        let page = lower_page(g, die, (next() % 4) as usize);
        match next() % 10 {
            0 => {
                let block = g.block_of(page);
                s.garbage_collection(SimTime(now), &[FlashOp::Erase { block }]);
            }
            1..=4 => {
                let id = s.open_request(
                    SimTime(now),
                    RequestTag { latency_from: SimTime(now), size_bytes: index, ..tag(true) },
                );
                let group = s.open_write_group(id, SimTime(now));
                s.close_write_group(group, SimTime(now), &[page]);
                s.close_request(id, SimTime(now));
            }
            _ => read(s, now, page, index, 0),
        }
    }
    finish(s)
}

#[test]
fn queued_first_come_first_served_is_the_booking_model_exactly() {
    let (mut booked, g) = scheduler(true);
    let expected = mixed_run(&mut booked, &g);
    // Suspension on but never allowed (no operation has that long left): the dies are queued, FIFO.
    let never = SuspensionConfig {
        operations: SuspendedOperations::ProgramAndErase,
        min_remaining_program_for_read_ns: u64::MAX,
        min_remaining_erase_for_read_ns: u64::MAX,
        min_remaining_erase_for_write_ns: u64::MAX,
        ..SuspensionConfig::default()
    };
    let (mut queued_dies, _) = queued(SchedulingPolicyKind::Fifo, never);
    assert!(queued_dies.queues_at_dies());
    let got = mixed_run(&mut queued_dies, &g);
    assert_eq!(got.len(), expected.len());
    assert_eq!(got, expected);
    assert_eq!(booked.busy_until(), queued_dies.busy_until());
    assert_eq!(booked.busy_per_resource(), queued_dies.busy_per_resource());
    assert!(queued_dies.scheduler_statistics().expect("queued").queued_operations > 0);
}

#[test]
fn suspension_never_loses_work() {
    let (mut s, g) = queued(SchedulingPolicyKind::OutOfOrder, suspending(SuspendedOperations::ProgramAndErase));
    let done = mixed_run(&mut s, &g);
    let (mut booked, _) = scheduler(true);
    let expected = mixed_run(&mut booked, &g);
    // The same requests complete (at other times), and the dies did the same array work plus the
    // suspend times.
    let key = |list: &[(u64, bool, u64)]| {
        let mut keys: Vec<(u64, bool)> = list.iter().map(|&(size, write, _)| (size, write)).collect();
        keys.sort();
        keys
    };
    assert_eq!(key(&done), key(&expected));
    let statistics = s.scheduler_statistics().expect("queued");
    assert!(statistics.program_suspensions + statistics.erase_suspensions > 0, "{statistics:?}");
    let busy = |s: &FlashScheduler| s.busy_per_resource().0.iter().map(|d| d.0).sum::<u64>();
    assert_eq!(busy(&s), busy(&booked) + (statistics.suspend_time_us * 1000.0).round() as u64);
}
