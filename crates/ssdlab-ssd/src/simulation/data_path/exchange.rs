//! What the parts of the data path hand each other (below the interface, `stage.rs`, and the NAND
//! path, so neither imports the other for them): a host request as the path sees it (`HostIo`,
//! with the data a write carries), a page program a stage in front starts and closes itself
//! (`PageProgram`, `OpenProgram`), and what a part may read when it contributes its result
//! sections (`ResultContext`).

use crate::config::SimulationConfig;
use crate::ftl::FtlStats;
use crate::geometry::Ppn;
use crate::host::PageSpan;
use crate::scheduler::FlashScheduler;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;

/// One host read or write as the data path sees it: the request, its page span, when it is issued,
/// its device-queue slot (the scheduler's handle for its completion), its number in the run, and
/// the data a write carries.
#[derive(Clone, Copy)]
pub(in crate::simulation) struct HostIo<'a> {
    pub request: &'a IoRequest,
    pub span: PageSpan,
    pub now: SimTime,
    pub slot: u32,
    pub index: u64,
    /// A write's data, as the integrity oracle's tags (`oracle.rs`): one per page of the span, in
    /// order (one per 512 B sector of the request, from its first, on a device with SCM). Empty
    /// when the oracle is off (a stage stores tag 0 then) and for reads.
    pub tags: &'a [u32],
}

impl HostIo<'_> {
    /// The tag of the write's data at `index` (0: the oracle is off).
    #[inline]
    pub(in crate::simulation) fn tag(&self, index: u64) -> u32 {
        self.tags.get(index as usize).copied().unwrap_or(0)
    }
}

/// What a stage may read when it contributes its result sections: the run's config, the scheduler
/// (its counters and busy times), the FTL's counters, and the simulated seconds (and the time the
/// run ended).
pub(in crate::simulation) struct ResultContext<'a> {
    pub config: &'a SimulationConfig,
    pub scheduler: &'a FlashScheduler,
    pub stats: &'a FtlStats,
    pub simulated_seconds: f64,
    pub end: SimTime,
}

/// One host page a stage in front programs itself (seed 001's SCM places pages; `program_page`):
/// the page, the tag its data carries, whether the old copy is merged in (the data covers part of
/// the page), whether the data includes host sectors (a merge is then a read-modify-write), and the
/// request and trace line it is for.
pub(in crate::simulation) struct PageProgram {
    pub page: u32,
    pub tag: u32,
    pub merge: bool,
    pub host_data: bool,
    pub now: SimTime,
    pub slot: u32,
    pub origin_line: u64,
}

/// A page program under way: its program group (open until `close_program`, so the stage can add
/// waits of its own), where it goes, the tag of the old copy it merges (None: no merge), and
/// whether it set off a collection.
pub(in crate::simulation) struct OpenProgram {
    pub group: u32,
    pub(in crate::simulation::data_path) ppn: Ppn,
    pub merged_tag: Option<u32>,
    pub collected: bool,
}
