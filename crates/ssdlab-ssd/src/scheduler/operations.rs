//! The records of flash work in progress: operations that wait for a resource or for another
//! operation, referred to by the scheduler's pending events.

use crate::flash_op::FlashOp;
use crate::read_path::ReadPlan;
use ssdlab_engine::SimTime;

/// Who is told when a chain of operations ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Waiter {
    /// A host request (by its id from `open_request`): it completes when its last chain ends.
    Request(u32),
    /// A program group waiting for its read-modify-write reads before its data moves.
    WriteGroup(u32),
    /// Nobody waits (garbage collection).
    #[default]
    Nobody,
    /// A gate (`gate.rs`): work that starts when the reads it waits for end (a data read after its
    /// mapping-table cache miss's translation read).
    Gate(u32),
}

/// What happens next, at the event's time: the payload of a scheduler event (one stage of a flash
/// operation becoming ready, or a chain step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlashEvent {
    /// Sensed data of a plain (possibly multi-plane) read moves over the channel, then is decoded.
    PlainTransfer { channel: u32, pages: u32, waiter: Waiter },
    /// The next sensing step(s) of a planned read.
    PlannedSense { job: u32 },
    /// Step `step` of a planned read: its sensed data moves over the channel and is decoded.
    PlannedTransfer { job: u32, step: u32 },
    /// A planned read's hard sensing has ended: start its look-ahead sensing if no other read
    /// waits for the die (seed 002 §3.1; `read_path.look_ahead_idle_test = "after_hard_sensing"`).
    LookAheadCheck { job: u32 },
    /// A program group's data moves over the channel to its die.
    GroupTransfer { group: u32 },
    /// A program group's data is in the die's registers: program it (`page_type`: the group's page
    /// type with the longest program time).
    Program { die: u32, pages: u32, request: u32, page_type: u8 },
    /// The next operation of a garbage-collection job.
    GarbageCollection { job: u32 },
    /// SCM sectors have arrived over the channel: the bank writes them.
    ScmBankWrite { bank: u32, sectors: u32, waiter: Waiter },
    /// SCM sectors a bank has read move over its channel.
    ScmTransfer { channel: u32, sectors: u32, waiter: Waiter },
    /// Queued dies: what `die` ran (its `generation`) ends; its completion, then the next waiting
    /// operation (`die_queues.rs`).
    DieEnd { die: u32, generation: u32 },
}

/// What the host keeps with a request until it completes, handed back with the completion (kept in
/// the request's own record, which its last chain has just touched, so collecting a completion under
/// a deep queue costs no further cache miss).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RequestTag {
    /// Latency is measured from here (arrival in open loop, issue in closed loop).
    pub latency_from: SimTime,
    pub size_bytes: u64,
    pub write: bool,
    /// A delete (discard/TRIM): completes without flash work, kept out of the latency figures.
    pub delete: bool,
    /// Work the device does for itself (a DRAM cache's destage): no host waits for it; its end is
    /// reported in [`FlashScheduler::background_completions`](super::FlashScheduler::background_completions),
    /// with `size_bytes`, not among the host's completions.
    pub background: bool,
}

// A pending stage is packed into 64 bits (3 bits of variant, then its fields), so a queue entry
// with its time is 16 bytes: under a deep backlog the queue streams through memory, and the entry
// size is what it costs. The configuration keeps channels below 2^16 and dies below 2^20.
const VARIANT_SHIFT: u32 = 61;
const FIELD_32: u64 = u32::MAX as u64;
// A look-ahead check shares PlannedTransfer's variant with a step number no plan reaches (a plan has
// a handful of steps; the step field has 8 bits).
const LOOK_AHEAD_CHECK_STEP: u64 = 0xFF;
// A die's end shares GroupTransfer's variant, marked by a bit no group id reaches (ids are 32 bits).
const DIE_END_MARK: u64 = 1 << 60;

impl Waiter {
    fn pack(self) -> u64 {
        match self {
            Waiter::Request(id) => id as u64,
            Waiter::WriteGroup(id) => 1 << 32 | id as u64,
            Waiter::Nobody => 2 << 32,
            Waiter::Gate(id) => 3 << 32 | id as u64,
        }
    }

    fn unpack(bits: u64) -> Waiter {
        let id = (bits & FIELD_32) as u32;
        match (bits >> 32) & 3 {
            0 => Waiter::Request(id),
            1 => Waiter::WriteGroup(id),
            2 => Waiter::Nobody,
            _ => Waiter::Gate(id),
        }
    }
}

impl FlashEvent {
    /// The stage in 64 bits (see [`FlashEvent::unpack`]).
    #[inline]
    pub fn pack(self) -> u64 {
        let (variant, fields): (u64, u64) = match self {
            // channel: 16 bits, pages: 11 bits, waiter: 34 bits.
            FlashEvent::PlainTransfer { channel, pages, waiter } => {
                (0, (channel as u64) << 45 | (pages as u64 & 0x7FF) << 34 | waiter.pack())
            }
            FlashEvent::PlannedSense { job } => (1, job as u64),
            // step: 8 bits, job: 32 bits.
            FlashEvent::PlannedTransfer { job, step } => (2, (step as u64 & 0xFF) << 32 | job as u64),
            FlashEvent::LookAheadCheck { job } => (2, LOOK_AHEAD_CHECK_STEP << 32 | job as u64),
            FlashEvent::GroupTransfer { group } => (3, group as u64),
            // die: 20 bits, generation: 32 bits.
            FlashEvent::DieEnd { die, generation } => {
                (3, DIE_END_MARK | (die as u64 & 0xF_FFFF) << 32 | generation as u64)
            }
            // die: 20 bits, pages: 7 bits, page type: 2 bits, request: 32 bits.
            FlashEvent::Program { die, pages, request, page_type } => (
                4,
                (die as u64 & 0xF_FFFF) << 41
                    | (pages as u64 & 0x7F) << 34
                    | (page_type as u64 & 3) << 32
                    | request as u64,
            ),
            FlashEvent::GarbageCollection { job } => (5, job as u64),
            // bank or channel: 16 bits, sectors: 11 bits, waiter: 34 bits (as PlainTransfer).
            FlashEvent::ScmBankWrite { bank, sectors, waiter } => {
                (6, (bank as u64) << 45 | (sectors as u64 & 0x7FF) << 34 | waiter.pack())
            }
            FlashEvent::ScmTransfer { channel, sectors, waiter } => {
                (7, (channel as u64) << 45 | (sectors as u64 & 0x7FF) << 34 | waiter.pack())
            }
        };
        variant << VARIANT_SHIFT | fields
    }

    #[inline]
    pub fn unpack(bits: u64) -> FlashEvent {
        let low = (bits & FIELD_32) as u32;
        match bits >> VARIANT_SHIFT {
            0 => FlashEvent::PlainTransfer {
                channel: ((bits >> 45) & 0xFFFF) as u32,
                pages: ((bits >> 34) & 0x7FF) as u32,
                waiter: Waiter::unpack(bits & 0x3_FFFF_FFFF),
            },
            1 => FlashEvent::PlannedSense { job: low },
            2 if (bits >> 32) & 0xFF == LOOK_AHEAD_CHECK_STEP => FlashEvent::LookAheadCheck { job: low },
            2 => FlashEvent::PlannedTransfer { job: low, step: ((bits >> 32) & 0xFF) as u32 },
            3 if bits & DIE_END_MARK != 0 => {
                FlashEvent::DieEnd { die: ((bits >> 32) & 0xF_FFFF) as u32, generation: low }
            }
            3 => FlashEvent::GroupTransfer { group: low },
            4 => FlashEvent::Program {
                die: ((bits >> 41) & 0xF_FFFF) as u32,
                pages: ((bits >> 34) & 0x7F) as u32,
                page_type: ((bits >> 32) & 3) as u8,
                request: low,
            },
            5 => FlashEvent::GarbageCollection { job: low },
            6 => FlashEvent::ScmBankWrite {
                bank: ((bits >> 45) & 0xFFFF) as u32,
                sectors: ((bits >> 34) & 0x7FF) as u32,
                waiter: Waiter::unpack(bits & 0x3_FFFF_FFFF),
            },
            _ => FlashEvent::ScmTransfer {
                channel: ((bits >> 45) & 0xFFFF) as u32,
                sectors: ((bits >> 34) & 0x7FF) as u32,
                waiter: Waiter::unpack(bits & 0x3_FFFF_FFFF),
            },
        }
    }
}

/// A host request in the device: how many chains are still running, when the latest ended, and
/// its tag (flattened, so the record is 32 bytes: two per cache line; under a deep queue every
/// chain's end reads a record last touched many thousands of requests earlier).
#[derive(Debug, Clone, Copy, Default)]
pub struct RequestProgress {
    pub completion: SimTime,
    pub latency_from: SimTime,
    pub size_bytes: u64,
    pub outstanding: u32,
    pub write: bool,
    pub delete: bool,
    /// A program of this request was held for garbage collection (`write_gate`).
    pub held: bool,
    pub background: bool,
}

impl RequestProgress {
    pub fn new(now: SimTime, tag: RequestTag) -> Self {
        // One count for the opening itself, so the request cannot complete while chains are added.
        RequestProgress {
            completion: now,
            latency_from: tag.latency_from,
            size_bytes: tag.size_bytes,
            outstanding: 1,
            write: tag.write,
            delete: tag.delete,
            held: false,
            background: tag.background,
        }
    }

    pub fn tag(&self) -> RequestTag {
        RequestTag {
            latency_from: self.latency_from,
            size_bytes: self.size_bytes,
            write: self.write,
            delete: self.delete,
            background: self.background,
        }
    }
}

/// A read that follows a read-path plan, step by step.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadJob {
    pub plan: ReadPlan,
    pub die: u32,
    pub channel: u32,
    /// The page's hard sensing time (a plain read).
    pub read_ns: u64,
    /// The page's type (lower, upper, extra): decoders with their own sensing time give one per type.
    pub page_type: u8,
    pub waiter: Waiter,
    /// The first step not yet sensed.
    pub next_step: u32,
    /// Steps sensed whose transfer and decode have not been booked yet.
    pub transfers_pending: u32,
    /// When the latest decode booked so far ends.
    pub ready: SimTime,
}

/// Pages programmed together on one die (one multi-plane program).
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteGroup {
    pub request: u32,
    pub die: u32,
    pub channel: u32,
    pub pages: u32,
    /// The group's page type with the longest program time.
    pub page_type: u8,
    /// Read-modify-write reads still running.
    pub waiting_reads: u32,
    /// The group's pages are all known (it may start once its reads are done).
    pub closed: bool,
    /// The latest end of those reads (or the request's issue).
    pub ready: SimTime,
    /// Held for garbage collection (`write_gate`): its data moves when released.
    pub held: bool,
    /// The global planes its pages are on, as bits above `first_plane` (the die's first plane).
    pub first_plane: u32,
    pub plane_mask: u64,
}

/// Garbage-collection work the FTL asked for, booked one operation after another.
#[derive(Debug, Clone, Default)]
pub struct GcJob {
    pub ops: Vec<FlashOp>,
    pub index: usize,
    pub phase: GcPhase,
    /// The tracked batch this chain belongs to ([`NO_BATCH`] for GC that nobody waits for).
    pub batch: u32,
    /// When the latest operation booked by this chain ends.
    pub finished: ssdlab_engine::SimTime,
    /// Every copy of this chain stays on its die (in-place collection on a one-tier device).
    pub same_die: bool,
    /// Told when the chain ends (a host write waiting for its block-modify-write's copies).
    pub waiter: Waiter,
    /// The global plane of the erase booked last, until the chain's next step (at the erase's
    /// end) reports it ended to the write gate; [`NO_PLANE`] otherwise.
    pub erase_plane: u32,
}

/// No plane (see [`GcJob::erase_plane`]).
pub const NO_PLANE: u32 = u32::MAX;

/// A GC chain that belongs to no tracked batch.
pub const NO_BATCH: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum GcPhase {
    /// Sense the page of the copy at `index` (or erase, for an erase).
    #[default]
    Sense,
    /// Move the sensed page out through the controller (and back, on the same channel).
    Transfer,
    /// Move the page in over the destination's channel (a copy to another channel).
    TransferIn,
    /// Program the copy's destination (after the round trip).
    Program,
}

/// Records addressed by a u32 id, with freed ids reused (so ids stay small and memory bounded by
/// the work in flight).
#[derive(Debug, Default)]
pub struct Slab<T> {
    items: Vec<T>,
    free: Vec<u32>,
}

impl<T: Default> Slab<T> {
    /// An id whose record the caller then fills (a reused record keeps its allocations).
    pub fn allocate(&mut self) -> u32 {
        if let Some(id) = self.free.pop() {
            return id;
        }
        self.items.push(T::default());
        (self.items.len() - 1) as u32
    }

    pub fn release(&mut self, id: u32) {
        self.free.push(id);
    }

    #[inline]
    pub fn get(&self, id: u32) -> &T {
        &self.items[id as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, id: u32) -> &mut T {
        &mut self.items[id as usize]
    }

    pub fn in_use(&self) -> usize {
        self.items.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_stay_small() {
        // Two request records per cache line.
        assert_eq!(std::mem::size_of::<RequestProgress>(), 32);
    }

    proptest::proptest! {
        #[test]
        fn stages_pack_and_unpack_unchanged(
            kind in 0u8..8, a in 0u32..0xF_FFFF, b in 0u32..64, id in proptest::num::u32::ANY, waiter_kind in 0u8..4, step in 0u32..8, page_type in 0u8..3,
        ) {
            let waiter = match waiter_kind { 0 => Waiter::Request(id), 1 => Waiter::WriteGroup(id), 2 => Waiter::Nobody, _ => Waiter::Gate(id) };
            let stage = match kind {
                0 => FlashEvent::PlainTransfer { channel: a & 0xFFFF, pages: b, waiter },
                1 => FlashEvent::PlannedSense { job: id },
                2 => FlashEvent::PlannedTransfer { job: id, step },
                3 => FlashEvent::GroupTransfer { group: id },
                4 => FlashEvent::Program { die: a, pages: b, request: id, page_type },
                5 => FlashEvent::LookAheadCheck { job: id },
                6 => FlashEvent::DieEnd { die: a, generation: id },
                _ => FlashEvent::GarbageCollection { job: id },
            };
            proptest::prop_assert_eq!(FlashEvent::unpack(stage.pack()), stage);
        }
    }
}
