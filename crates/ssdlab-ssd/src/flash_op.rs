//! The vocabulary shared by the FTL, which decides what flash work is needed, and the scheduler,
//! which times it: the operations (global addresses) and the counts of what the flash did.
//! It sits below both so that neither imports the other.

use crate::geometry::{BlockIndex, Ppn};

/// A flash operation the FTL needs beyond the host's own page program (global addresses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlashOp {
    GcRead { ppn: Ppn },
    GcProgram { ppn: Ppn },
    Erase { block: BlockIndex },
}

#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct FlashCounters {
    pub page_reads: u64,
    pub page_programs: u64,
    pub block_erases: u64,
    pub page_transfers: u64,
    pub extra_sensing_levels: u64,
    /// Sensing time of look-ahead soft sensings cut short by a successful hard decode.
    pub cancelled_sensing_ns: u64,
    /// Extra levels those cancelled sensings would have sensed had they run to the end.
    pub cancelled_sensing_levels: u64,
    /// Of `page_transfers`, the pages host reads moved (hard and soft results): derived in
    /// [`FlashScheduler::tier_counters`] from `page_transfers` minus `write_page_transfers`.
    pub read_page_transfers: u64,
    /// Of `page_transfers`, write data and GC copies (counted where they move: a program group or a
    /// GC copy, less often than reads).
    pub write_page_transfers: u64,
    pub decodes: u64,
    /// Soft results moved at the measured rate (`read_path.soft_transfer_latency_ns`; seed 002
    /// §2.3: 80 us for a full soft read's results of 4 KB), in pages' worth of channel time: not in
    /// `page_transfers`, whose pages are whole. Energy and bytes count both, so a soft read costs
    /// the same page count in time and in energy. 0 without the measured rate (every level's
    /// results are then one whole page in `page_transfers`).
    pub soft_result_pages: f64,
    pub multi_plane_programs: u64,
    pub multi_plane_reads: u64,
    /// Bytes moved over the channels (host data, GC and migration copies).
    pub transfer_bytes: u64,
    /// With data placement interleaving: sensings of a codeword's parts on the other chips of its
    /// group (also counted in `page_reads` / `extra_sensing_levels`, which they cost energy in).
    pub interleaved_part_sensings: u64,
}

impl FlashCounters {
    /// The sum of two counter sets (device-wide totals from per-tier ones).
    pub fn plus(&self, other: &FlashCounters) -> FlashCounters {
        FlashCounters {
            page_reads: self.page_reads + other.page_reads,
            page_programs: self.page_programs + other.page_programs,
            block_erases: self.block_erases + other.block_erases,
            page_transfers: self.page_transfers + other.page_transfers,
            extra_sensing_levels: self.extra_sensing_levels + other.extra_sensing_levels,
            cancelled_sensing_ns: self.cancelled_sensing_ns + other.cancelled_sensing_ns,
            cancelled_sensing_levels: self.cancelled_sensing_levels + other.cancelled_sensing_levels,
            read_page_transfers: self.read_page_transfers + other.read_page_transfers,
            write_page_transfers: self.write_page_transfers + other.write_page_transfers,
            decodes: self.decodes + other.decodes,
            soft_result_pages: self.soft_result_pages + other.soft_result_pages,
            multi_plane_programs: self.multi_plane_programs + other.multi_plane_programs,
            interleaved_part_sensings: self.interleaved_part_sensings + other.interleaved_part_sensings,
            multi_plane_reads: self.multi_plane_reads + other.multi_plane_reads,
            transfer_bytes: self.transfer_bytes + other.transfer_bytes,
        }
    }
}
