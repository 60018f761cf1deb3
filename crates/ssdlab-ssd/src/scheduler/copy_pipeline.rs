//! A bulk copy as a controller pipelines it: seed 004's conventional chip exchange, where every
//! valid page of a worn chip is copied to the other chips while the host waits.
//!
//! What it models: the copy's pages (each a `GcRead` on a source die followed by its `GcProgram`)
//! are sensed on their source die back to back, the next sense overlapping the previous page's
//! transfer out (a cache read); each page crosses the source channel, is decoded, waits in a
//! controller buffer, crosses the destination's channel and is programmed on the destination die
//! the FTL chose for it, crossing that channel as the die becomes free (into its cache register while
//! it programs the page before). A read waits only for a buffer slot: the buffer holds
//! `COPY_BUFFER_PAGES_PER_DIE` pages per destination die, and a slot is freed (in page order) when
//! its page starts its transfer in. So every destination die programs its share back to back as soon
//! as its pages arrive, and the copy runs at the pace of its slower side: the source die's reads
//! (sense, or the source channel if that is slower) or the destination dies' programs. With `N`
//! pages, sense `r`, program `p`, `D` destination dies on channels of their own taking pages in turn,
//! and `t` for a page's way from the source die to a destination die (out, decode, in), the last
//! program ends at `((N-1) mod D + 1) r + t + ceil(N / D) p` when `p >= D r` (program-bound), and at
//! `N r + t + p` when `p <= r` (read-bound).
//!
//! The copy is booked in full when it starts (the host is suspended meanwhile), with the garbage
//! collection it sets off in the destination planes: those copies are booked in the order the FTL
//! issued them, each die serving its work first come first served, so a destination die interleaves
//! collection with the copy's programs as the FTL needed the space; erases are left to the usual
//! chains (after the work booked here on their die). Leaves out: multi-plane and cache programs, a
//! finer order of collection against the copy on one die than the FTL's issue order.
//!
//! Source: seed 004 §4 (the conventional exchange: "the system must be suspended due to enforce data
//! copy"); the read-ahead pipeline is ours (the seed gives no copy path; its 960 s for 8 GB is about
//! 8.3 MB/s, one program stream).

use super::{FlashScheduler, Resource};
use crate::flash_op::FlashOp;
use ssdlab_engine::{SimDuration, SimTime};
use std::collections::VecDeque;
use std::ops::Range;

/// Buffer pages per destination die (double buffering: one page programming, one arriving).
pub const COPY_BUFFER_PAGES_PER_DIE: usize = 2;

impl FlashScheduler {
    /// Books the copies of `ops` whose read is on `source_dies` as a pipeline starting at `now`, and
    /// the other copies of `ops` (collection the copy set off) on their dies in order (see the module
    /// doc); erases are appended to `rest` in order, for the usual chains. Returns when the last
    /// program booked here ends (`now` when there is none).
    pub fn pipelined_copy(
        &mut self,
        now: SimTime,
        ops: &[FlashOp],
        source_dies: Range<u32>,
        rest: &mut Vec<FlashOp>,
    ) -> SimTime {
        let mut destination_dies: Vec<u32> = Vec::new();
        for pair in ops.windows(2) {
            if let [FlashOp::GcRead { ppn }, FlashOp::GcProgram { ppn: to }] = *pair {
                if source_dies.contains(&self.layout.die_of(ppn)) {
                    destination_dies.push(self.layout.die_of(to));
                }
            }
        }
        destination_dies.sort_unstable();
        destination_dies.dedup();
        let buffer = COPY_BUFFER_PAGES_PER_DIE * destination_dies.len().max(1);
        // When each buffered page leaves the buffer (its transfer in starts), in page order.
        let mut slots: VecDeque<SimTime> = VecDeque::with_capacity(buffer);
        let mut last = now;
        let mut index = 0;
        while index < ops.len() {
            let (FlashOp::GcRead { ppn: source }, Some(&FlashOp::GcProgram { ppn: destination })) =
                (ops[index], ops.get(index + 1))
            else {
                // Erases (and anything unpaired) go to the chains, after the work booked here on
                // their die.
                rest.push(ops[index]);
                index += 1;
                continue;
            };
            index += 2;
            let copy = source_dies.contains(&self.layout.die_of(source));
            let ready =
                if copy && slots.len() == buffer { slots.pop_front().map_or(now, |free| free.max(now)) } else { now };
            let (end, transfer_in) = self.book_copy(ready, source, destination);
            if copy {
                slots.push_back(transfer_in);
            }
            last = last.max(end);
        }
        last
    }

    /// Books one page copy from `ready` on: sense on the source die, out over its channel and
    /// decoded, in over the destination's channel as its die becomes free, program. A copy inside
    /// one die with copyback is one die operation. Returns (program end, transfer-in start).
    fn book_copy(
        &mut self,
        ready: SimTime,
        source: crate::geometry::Ppn,
        destination: crate::geometry::Ppn,
    ) -> (SimTime, SimTime) {
        let die = self.layout.die_of(source);
        let tier = self.layout.tier_of_die(die);
        let read_ns = self.nand[tier].read_ns[self.layout.page_type(source)];
        let to_die = self.layout.die_of(destination);
        let to_tier = self.layout.tier_of_die(to_die);
        let program_ns = self.nand[to_tier].program_ns[self.layout.page_type(destination)];
        self.tier_counters[tier].page_reads += 1;
        self.tier_counters[to_tier].page_programs += 1;
        if self.copyback && die == to_die {
            let end = self.book_background(ready, die, read_ns + program_ns);
            return (end, end);
        }
        let sensed = self.book_background(ready, die, read_ns);
        let channel = self.layout.channel_of_die(die);
        let to_channel = self.layout.channel_of_die(to_die);
        let out = self.channel_page_ns[channel as usize];
        let decoded = self.book(sensed, Resource::Channel(channel), out) + SimDuration(out + self.decode_ns);
        let counters = &mut self.tier_counters[self.layout.tier_of_channel(channel)];
        counters.page_transfers += 1;
        counters.write_page_transfers += 1;
        counters.decodes += 1;
        // In over the destination's channel as the die becomes free (into its cache register
        // while it programs the page before), not earlier: the page waits in the buffer.
        let length = self.channel_page_ns[to_channel as usize];
        let die_free = self.dies[to_die as usize].busy_until();
        let transfer_in =
            self.book(decoded.max(SimTime(die_free.0.saturating_sub(length))), Resource::Channel(to_channel), length);
        let arrived = transfer_in + SimDuration(length);
        let counters = &mut self.tier_counters[self.layout.tier_of_channel(to_channel)];
        counters.page_transfers += 1;
        counters.write_page_transfers += 1;
        let end = self.book_background(arrived, to_die, program_ns);
        (end, transfer_in)
    }
}

#[cfg(test)]
mod tests {
    //! Four chips on four channels, one die each: die 0 is the source, dies 1-3 the destinations.
    //! Sense 40 us, a 4 KiB page crosses a 200 MT/s byte-wide bus in 20.48 us, decoding takes 8 us.
    use super::*;
    use crate::config::DeviceConfig;
    use crate::device_layout::DeviceLayout;
    use crate::geometry::Ppn;

    const SENSE: u64 = 40_000;
    const TRANSFER: u64 = 20_480;
    const DECODE: u64 = 8_000;

    fn scheduler(program_ns: u64) -> (FlashScheduler, DeviceLayout) {
        let device: DeviceConfig = toml::from_str(&format!(
            r#"
[geometry]
channels = 4
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 4
pages_per_block = 8
page_size_bytes = 4096
[nand]
cell_type = "slc"
read_latency_ns = [{SENSE}]
program_latency_ns = [{program_ns}]
erase_latency_ns = 3000000
[channel]
transfer_rate_mts = 200.0
"#
        ))
        .expect("valid device");
        let layout = DeviceLayout::new(&device);
        (FlashScheduler::new(layout.clone(), 14_000, DECODE, false), layout)
    }

    /// `pages` copies from die 0 to dies 1, 2, 3 in turn.
    fn copies(layout: &DeviceLayout, pages: usize) -> Vec<FlashOp> {
        let on = |die: u32, nth: usize| {
            (0..layout.pages_total() as u32).map(Ppn).filter(|&ppn| layout.die_of(ppn) == die).nth(nth).expect("page")
        };
        (0..pages)
            .flat_map(|k| {
                [FlashOp::GcRead { ppn: on(0, k) }, FlashOp::GcProgram { ppn: on(1 + (k % 3) as u32, k / 3) }]
            })
            .collect()
    }

    #[test]
    fn a_program_bound_copy_ends_when_the_busiest_destination_die_has_programmed_its_share() {
        // N = 7, D = 3, p = 200 us >= D r = 120 us: die 1 takes pages 0, 3, 6 back to back.
        let program = 200_000;
        let (mut s, layout) = scheduler(program);
        let mut rest = Vec::new();
        let end = s.pipelined_copy(SimTime::ZERO, &copies(&layout, 7), 0..1, &mut rest);
        let way = 2 * TRANSFER + DECODE;
        let (pages, dies) = (7u64, 3u64);
        assert_eq!(end, SimTime(((pages - 1) % dies + 1) * SENSE + way + pages.div_ceil(dies) * program));
        assert_eq!(end, SimTime(688_960));
        assert!(rest.is_empty());
        assert_eq!((s.counters().page_reads, s.counters().page_programs), (7, 7));
        assert_eq!(s.busy_until(), end);
    }

    #[test]
    fn a_read_bound_copy_ends_one_program_after_its_last_read() {
        // p = 30 us <= r = 40 us: the source die senses back to back.
        let program = 30_000;
        let (mut s, layout) = scheduler(program);
        let mut rest = Vec::new();
        let end = s.pipelined_copy(SimTime::ZERO, &copies(&layout, 7), 0..1, &mut rest);
        assert_eq!(end, SimTime(7 * SENSE + 2 * TRANSFER + DECODE + program));
    }

    #[test]
    fn the_pipelined_copy_is_faster_than_one_chain_and_leaves_other_work_to_the_chains() {
        let program = 200_000;
        let (mut chained, layout) = scheduler(program);
        let mut ops = copies(&layout, 7);
        chained.background_batch(SimTime::ZERO, &ops, 1);
        while chained.process_next_event().is_some() {}
        let (_, chained_end) = chained.finished_batches()[0];
        let (mut s, _) = scheduler(program);
        // An erase of the source block (not a copy from die 0) goes to `rest`.
        ops.push(FlashOp::Erase { block: crate::geometry::BlockIndex(0) });
        let mut rest = Vec::new();
        let end = s.pipelined_copy(SimTime::ZERO, &ops, 0..1, &mut rest);
        assert_eq!(rest, vec![FlashOp::Erase { block: crate::geometry::BlockIndex(0) }]);
        assert!(end <= chained_end, "pipelined {end:?} vs chained {chained_end:?}");
    }
}
