//! The LBA scrambler of seed 003 (Matsui, Soga, Sun, Takeuchi; after Soga et al., IMW 2014):
//! middleware between the host and an unchanged FTL that turns each host logical page (LBA) into a
//! scrambled logical page (SLBA), choosing SLBAs so that host writes land on the pages of the block
//! the FTL will garbage-collect next.
//!
//! What it models. Three tables, as the seed describes: the LBA -> SLBA table (and its inverse, so
//! the scrambler knows which SLBAs are in use), the table of unused SLBAs, and the FTL's
//! overwrite-recommendation list (the SLBAs stored in the next victim block). An unused SLBA is either
//! *empty* (the FTL has never mapped it) or *fragmented* (the scrambler moved its data elsewhere, but
//! the FTL still holds the old copy, because nothing tells the FTL that the SLBA is dead). Writing a
//! host page to a fragmented SLBA makes the FTL invalidate that old copy; when the copy sits in the next
//! victim block, GC has one page fewer to copy. The rules, per host page write:
//!
//! 1. While the SSD's free space is plentiful (the FTL maps less than `1 - plentiful_free_fraction`
//!    of the NAND pages), write to an empty SLBA.
//! 2. Otherwise, when the next victim block holds enough fragmented SLBAs
//!    (`victim_min_fragmented_pages`), write to one of them.
//! 3. Otherwise write to a page of another block: an overwrite keeps its own SLBA (the FTL
//!    invalidates the old copy, as without the scrambler); a first write takes a fragmented SLBA when
//!    there is one (which retires a dead copy) or else an empty one. The seed leaves the choice in
//!    rule 3 open; this one never adds a fragmented page, so rule 3 alone behaves as no scrambler.
//!
//! Rules 1 and 2 move a host page to a new SLBA and leave its old SLBA fragmented. The
//! recommendation list is kept per plane, and rule 2 takes from the list of the plane the FTL will
//! program the write into (`Ftl::plane_for_write`: under dynamic allocation the FTL's rotating
//! cursor, under static allocation the host page's stripe plane, where the chosen SLBA's new copy
//! lands too). So a rule-2 write invalidates a dead copy in the plane that receives its new data, and
//! every plane's GC gains from the scrambler in proportion to the writes it takes (a single list
//! served one plane's run at a time before issue 45: its writes invalidated pages in one plane while
//! their data went to all, and the unserved planes ran out of invalid pages). Each plane's list
//! follows the victims its GC will actually collect next: the next `victims_per_plane` blocks in the
//! victim policy's order (`Ftl::next_victims`), by default the run the next GC invocation will take
//! (one invocation collects victims until it has freed `Ftl::gc_invocation_gain_blocks`; under
//! round-robin, blocks full of data the FTL thinks valid gain almost nothing, so one invocation may
//! take a long run of them, and the first victim alone may hold no dead data while the rest of the
//! run does). A plane's list is refilled from its victims when it runs dry and every
//! `pages_per_block` of the plane's rule-2 attempts, a victim counting only if it holds
//! `victim_min_fragmented_pages` fragmented SLBAs (dead to the scrambler: no host page maps to them);
//! each entry remembers its block and that block's erase count, so an entry whose block was collected
//! meanwhile is dropped when taken. When a plane's victims hold nothing, its list rests for
//! `pages_per_block` attempts (a dry list would otherwise rescan the plane's run on every write).
//!
//! What it leaves out: the file system above it (the seed's scrambler sits below one and may know of
//! deleted files; a block trace carries no deletes, so every dead copy the FTL cannot see here is one
//! the scrambler made itself), and any cost of the tables' lookups (treated as free host CPU work).
//!
//! Source: seed 003 (§2-3 and Table 1); the SLBA space is the NAND capacity, as the seed's SSD
//! exports its whole capacity and "free space" is the part not holding data.

use super::{Middleware, MiddlewareStats};
use crate::config::{LbaScramblerConfig, Rule2Writes};
use crate::ftl::mapping::MappingTable;
use crate::ftl::Ftl;
use crate::geometry::{BlockIndex, Lpn, PlaneIndex};

/// The longest run of victims per plane the default horizon follows.
const AUTO_HORIZON_MAX_BLOCKS: usize = 64;

pub struct LbaScrambler {
    settings: LbaScramblerConfig,
    /// Host page -> SLBA.
    forward: MappingTable<Lpn, Lpn>,
    /// SLBA -> host page, for SLBAs in use.
    reverse: MappingTable<Lpn, Lpn>,
    slba_pages: u64,
    /// Next SLBA to try when an empty one is needed (empty SLBAs never become empty again).
    empty_cursor: u64,
    /// Fragmented SLBAs, possibly with stale entries (checked when taken).
    fragmented: Vec<u32>,
    fragmented_count: u64,
    /// Per (global) plane, the overwrite-recommendation list: fragmented SLBAs stored in the plane's
    /// next victims (popped from the end).
    recommendations: Vec<Vec<Recommendation>>,
    /// Per (global) plane, the victims last read that counted for rule 2, with their erase counts.
    victims: Vec<Vec<(BlockIndex, u32)>>,
    /// Per plane, rule-2 attempts since its victims were last read.
    attempts_since_refresh: Vec<u64>,
    /// Per plane, attempts to go before a dry list is refilled again (after a fruitless read).
    resting: Vec<u64>,
    stats: MiddlewareStats,
}

/// A fragmented SLBA in a victim block (with the block's erase count when the victim was read).
#[derive(Debug, Clone, Copy)]
struct Recommendation {
    slba: u32,
    block: BlockIndex,
    erases: u32,
}

impl LbaScrambler {
    /// `slba_pages` is the FTL's logical space (at least the host's and the NAND's page count).
    pub fn new(settings: LbaScramblerConfig, slba_pages: u64) -> Self {
        LbaScrambler {
            settings,
            forward: MappingTable::new(slba_pages),
            reverse: MappingTable::new(slba_pages),
            slba_pages,
            empty_cursor: 0,
            fragmented: Vec::new(),
            fragmented_count: 0,
            recommendations: Vec::new(),
            victims: Vec::new(),
            attempts_since_refresh: Vec::new(),
            resting: Vec::new(),
            stats: MiddlewareStats::default(),
        }
    }

    fn is_fragmented(&self, slba: u32, ftl: &Ftl) -> bool {
        self.reverse.get(Lpn(slba)).is_none() && ftl.lookup(Lpn(slba)).is_some()
    }

    /// An SLBA neither in use nor ever mapped by the FTL; `preferred` first (a first write keeps
    /// its own address when it can, which keeps sequential host writes sequential).
    fn take_empty(&mut self, preferred: Lpn, ftl: &Ftl) -> Option<Lpn> {
        let free = |slba: u64, this: &Self| {
            this.reverse.get(Lpn(slba as u32)).is_none() && ftl.lookup(Lpn(slba as u32)).is_none()
        };
        if (preferred.0 as u64) < self.slba_pages && free(preferred.0 as u64, self) {
            return Some(preferred);
        }
        // Empty SLBAs never become empty again (nothing unmaps an SLBA), so one pass of the cursor
        // over the SLBA space serves the whole run.
        for _ in 0..self.slba_pages {
            if self.empty_cursor >= self.slba_pages {
                self.empty_cursor = 0;
            }
            let candidate = self.empty_cursor;
            self.empty_cursor += 1;
            if free(candidate, self) {
                return Some(Lpn(candidate as u32));
            }
        }
        None
    }

    fn take_fragmented(&mut self, ftl: &Ftl) -> Option<Lpn> {
        while let Some(slba) = self.fragmented.pop() {
            if self.is_fragmented(slba, ftl) {
                return Some(Lpn(slba));
            }
        }
        None
    }

    /// A fragmented SLBA stored in the next victims of the plane the FTL will program a write of
    /// `host` into (rule 2).
    fn take_recommended(&mut self, host: Lpn, ftl: &Ftl, now_ns: u64) -> Option<Lpn> {
        let pages_per_block = ftl.layout().tier(crate::tier::TierId(0)).geometry.pages_per_block as u64;
        if self.victims.is_empty() {
            let planes = ftl.layout().planes_total() as usize;
            self.victims = vec![Vec::new(); planes];
            self.recommendations = vec![Vec::new(); planes];
            self.attempts_since_refresh = vec![0; planes];
            self.resting = vec![0; planes];
        }
        let plane = ftl.plane_for_write(host).0 as usize;
        self.stats.rule2_attempts += 1;
        self.attempts_since_refresh[plane] += 1;
        // Keep the plane's victims fresh: read them again every pages_per_block attempts (unless its
        // list is long already).
        if self.attempts_since_refresh[plane] >= pages_per_block
            && (self.recommendations[plane].len() as u64) < 2 * pages_per_block
        {
            self.read_victims(plane, ftl, now_ns);
        }
        loop {
            while let Some(entry) = self.recommendations[plane].pop() {
                let still_there = ftl.block(entry.block).erase_count == entry.erases
                    && ftl.lookup(Lpn(entry.slba)).map(|ppn| ftl.layout().block_of(ppn)) == Some(entry.block);
                if still_there && self.reverse.get(Lpn(entry.slba)).is_none() {
                    return Some(Lpn(entry.slba));
                }
            }
            // Dry: refill from the plane's victims, unless they held nothing a moment ago.
            if self.resting[plane] > 0 {
                self.resting[plane] -= 1;
                return None;
            }
            if !self.read_victims(plane, ftl, now_ns) {
                self.resting[plane] = pages_per_block;
                return None;
            }
        }
    }

    /// The blocks GC will collect next in `plane`, in order, as far as the list looks ahead
    /// (`victims_per_plane`; 0: the next invocation's run, see the module).
    fn horizon(&self, ftl: &Ftl, plane: PlaneIndex, now_ns: u64) -> Vec<BlockIndex> {
        let fixed = self.settings.victims_per_plane as usize;
        if fixed > 0 {
            return ftl.next_victims(plane, fixed, now_ns);
        }
        let mut ranked = ftl.next_victims(plane, AUTO_HORIZON_MAX_BLOCKS, now_ns);
        // (One tier: the scrambler is refused on tiered devices.)
        let pages_per_block = ftl.layout().tier(crate::tier::TierId(0)).geometry.pages_per_block as f64;
        let needed = ftl.gc_invocation_gain_blocks(plane) as f64;
        let mut gained = 0.0;
        let mut run = 0;
        for &block in &ranked {
            run += 1;
            gained += (pages_per_block - ftl.valid_pages(block) as f64) / pages_per_block;
            if gained >= needed {
                break;
            }
        }
        ranked.truncate(run);
        ranked
    }

    /// Reads `plane`'s victims (its horizon) into its list, replacing what the list held; adds the
    /// fragmented SLBAs of each victim that holds enough of them. Returns whether any did.
    fn read_victims(&mut self, plane: usize, ftl: &Ftl, now_ns: u64) -> bool {
        self.attempts_since_refresh[plane] = 0;
        self.stats.victim_refreshes += 1;
        self.victims[plane].clear();
        let mut batch = Vec::new();
        for victim in self.horizon(ftl, PlaneIndex(plane as u32), now_ns) {
            let erases = ftl.block(victim).erase_count;
            let reverse = &self.reverse;
            let first = batch.len();
            batch.extend(
                ftl.valid_pages_of(victim).filter(|&slba| reverse.get(slba).is_none()).map(|slba| Recommendation {
                    slba: slba.0,
                    block: victim,
                    erases,
                }),
            );
            let fragmented = (batch.len() - first) as u32;
            self.stats.victims_read += 1;
            self.stats.victim_fragmented_pages += fragmented as u64;
            if fragmented < self.settings.victim_min_fragmented_pages || fragmented == 0 {
                batch.truncate(first);
                continue;
            }
            self.victims[plane].push((victim, erases));
        }
        // Popped from the end: the first victim's pages first, each victim's in page order.
        let list = &mut self.recommendations[plane];
        list.clear();
        list.extend(batch.into_iter().rev());
        !list.is_empty()
    }

    /// Records that `host` now lives at `target`; its previous SLBA, if another, becomes fragmented.
    fn assign(&mut self, host: Lpn, target: Lpn, ftl: &Ftl) {
        if self.reverse.get(target).is_none() && ftl.lookup(target).is_some() {
            // A fragmented SLBA is being reused: the FTL is about to invalidate its dead copy.
            self.fragmented_count -= 1;
        }
        if let Some(previous) = self.forward.set(host, target) {
            if previous != target {
                self.reverse.remove(previous);
                self.fragmented.push(previous.0);
                self.fragmented_count += 1;
                // A page just made fragmented inside a counted victim joins the list.
                if let Some(ppn) = ftl.lookup(previous) {
                    let plane = ftl.layout().plane_of(ppn).0 as usize;
                    let block = ftl.layout().block_of(ppn);
                    if let Some(&(victim, erases)) =
                        self.victims.get(plane).and_then(|victims| victims.iter().find(|(victim, _)| *victim == block))
                    {
                        self.recommendations[plane].push(Recommendation { slba: previous.0, block: victim, erases });
                    }
                }
            }
        }
        self.reverse.set(target, host);
        if self.fragmented.len() as u64 > 2 * self.fragmented_count + 4096 {
            let reverse = &self.reverse;
            self.fragmented.retain(|&slba| reverse.get(Lpn(slba)).is_none() && ftl.lookup(Lpn(slba)).is_some());
            self.fragmented.sort_unstable();
            self.fragmented.dedup();
        }
    }
}

impl Middleware for LbaScrambler {
    fn name(&self) -> &'static str {
        "lba_scrambler"
    }

    fn write_target(&mut self, host: Lpn, ftl: &Ftl, now_ns: u64) -> Lpn {
        let current = self.forward.get(host);
        let physical_pages = ftl.layout().pages_total() as f64;
        let free_fraction = 1.0 - ftl.mapped_pages() as f64 / physical_pages;
        let mut target = None;
        if free_fraction > self.settings.plentiful_free_fraction {
            target = self.take_empty(host, ftl);
            if target.is_some() {
                self.stats.rule1_empty_page_writes += 1;
            }
        }
        if target.is_none() && (current.is_none() || self.settings.rule2_writes == Rule2Writes::All) {
            target = self.take_recommended(host, ftl, now_ns);
            if target.is_some() {
                self.stats.rule2_victim_page_writes += 1;
            }
        }
        let target = match target {
            Some(target) => target,
            None => {
                self.stats.rule3_other_page_writes += 1;
                match current {
                    Some(own) => own,
                    None => match self.take_fragmented(ftl).or_else(|| self.take_empty(host, ftl)) {
                        Some(slba) => slba,
                        // Every SLBA is in use or mapped: only possible when the SLBA space is no
                        // larger than the host's; fall back to the host address (the FTL then reports
                        // any capacity problem with its own error).
                        None => host,
                    },
                }
            }
        };
        self.assign(host, target, ftl);
        target
    }

    #[inline]
    fn read_target(&self, host: Lpn) -> Option<Lpn> {
        self.forward.get(host)
    }

    /// The host page's SLBA becomes unused: fragmented while the FTL still holds its copy, or, when
    /// the FTL trimmed it already, holding nothing (then simply unused: the empty cursor does not
    /// come back to it).
    fn delete(&mut self, host: Lpn, ftl: &Ftl) {
        if let Some(slba) = self.forward.remove(host) {
            self.reverse.remove(slba);
            if let Some(ppn) = ftl.lookup(slba) {
                self.fragmented.push(slba.0);
                self.fragmented_count += 1;
                // The plane may now hold dead data in its victims: a resting list looks again.
                if let Some(resting) = self.resting.get_mut(ftl.layout().plane_of(ppn).0 as usize) {
                    *resting = 0;
                }
            }
        }
    }

    fn stats(&self) -> MiddlewareStats {
        MiddlewareStats { fragmented_pages: self.fragmented_count, ..self.stats }
    }

    fn reset_stats(&mut self) {
        self.stats = MiddlewareStats::default();
    }

    fn memory_bytes(&self) -> u64 {
        self.forward.memory_bytes() + self.reverse.memory_bytes() + (self.fragmented.capacity() * 4) as u64
    }
}

#[cfg(test)]
mod tests {
    //! A hand-built aged state on a tiny one-plane device (16 blocks of 4 pages, round-robin GC at
    //! watermarks 2/3): ten blocks written in order, then the host pages of blocks 1 and 2 deleted
    //! above the FTL. The first victim, block 0, holds no dead data; blocks 1 and 2, next in the run
    //! an invocation collects (every block is full of pages the FTL thinks valid, so each gains
    //! nothing and the run goes on), hold eight dead pages.
    use super::*;
    use crate::config::{SimulationConfig, VictimPolicyKind};
    use crate::device_layout::DeviceLayout;
    use crate::ftl::placement::{Placement, Single};
    use crate::tier::TierId;

    const DEVICE: &str = r#"
[device.geometry]
channels = 1
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 16
pages_per_block = 4
page_size_bytes = 4096
[device.nand]
cell_type = "mlc"
read_latency_ns = [50000]
program_latency_ns = [500000]
erase_latency_ns = 3000000
[device.channel]
transfer_rate_mts = 200.0
[ftl]
overprovisioning_fraction = 0.4
[workload.synthetic]
requests = 1
read_fraction = 0.0
span_bytes = 4096
address = { distribution = "uniform" }
size = { distribution = "fixed", bytes = 4096 }
arrival = { process = "poisson", mean_interarrival_ns = 1000.0 }
"#;

    fn aged(victims_per_plane: u32) -> (LbaScrambler, Ftl) {
        let config = SimulationConfig::from_toml_str(DEVICE, "test", &[]).unwrap_or_else(|e| panic!("{e}"));
        let layout = DeviceLayout::from_specs(&config.device.tiers());
        let mut ftl_config = config.ftl.clone();
        ftl_config.garbage_collection.policy = VictimPolicyKind::RoundRobin;
        ftl_config.garbage_collection.low_watermark_blocks = 2;
        ftl_config.garbage_collection.high_watermark_blocks = 3;
        let mut ftl = Ftl::new(&layout, &ftl_config, Placement::Single(Single { tier: TierId(0) }), &[48], 48, false);
        let settings = LbaScramblerConfig { plentiful_free_fraction: 1.0, victims_per_plane, ..Default::default() };
        let mut scrambler = LbaScrambler::new(settings, 48);
        let mut ops = Vec::new();
        for host in 0..40 {
            let target = scrambler.write_target(Lpn(host), &ftl, host as u64);
            ftl.write(target, host as u64, 0, &mut ops).unwrap();
        }
        for host in 4..12 {
            scrambler.delete(Lpn(host), &ftl);
        }
        scrambler.reset_stats();
        (scrambler, ftl)
    }

    /// Two planes under dynamic allocation (each write takes the next plane in turn), 72 host pages
    /// written in order (even ones to plane 0, odd ones to plane 1), then hosts 8-39 deleted above
    /// the FTL: both planes' runs hold dead pages.
    fn aged_two_planes() -> (LbaScrambler, Ftl) {
        let text = DEVICE.replace("planes_per_die = 1", "planes_per_die = 2").replace(
            "[ftl]\noverprovisioning_fraction = 0.4",
            "[ftl]\noverprovisioning_fraction = 0.4\nplane_allocation = \"dynamic\"",
        );
        let config = SimulationConfig::from_toml_str(&text, "test", &[]).unwrap_or_else(|e| panic!("{e}"));
        let layout = DeviceLayout::from_specs(&config.device.tiers());
        let mut ftl_config = config.ftl.clone();
        ftl_config.garbage_collection.policy = VictimPolicyKind::RoundRobin;
        ftl_config.garbage_collection.low_watermark_blocks = 2;
        ftl_config.garbage_collection.high_watermark_blocks = 3;
        let mut ftl = Ftl::new(&layout, &ftl_config, Placement::Single(Single { tier: TierId(0) }), &[96], 96, false);
        let settings = LbaScramblerConfig { plentiful_free_fraction: 1.0, ..Default::default() };
        let mut scrambler = LbaScrambler::new(settings, 96);
        let mut ops = Vec::new();
        for host in 0..72 {
            let target = scrambler.write_target(Lpn(host), &ftl, host as u64);
            ftl.write(target, host as u64, 0, &mut ops).unwrap();
        }
        for host in 8..40 {
            scrambler.delete(Lpn(host), &ftl);
        }
        scrambler.reset_stats();
        (scrambler, ftl)
    }

    #[test]
    fn rule_two_writes_invalidate_pages_in_the_plane_that_takes_their_data() {
        let (mut scrambler, mut ftl) = aged_two_planes();
        let mut ops = Vec::new();
        let mut per_plane = [0u32; 2];
        for host in 72..80 {
            let target = scrambler.write_target(Lpn(host), &ftl, 100);
            let dead_copy = ftl.layout().plane_of(ftl.lookup(target).expect("rule 2 takes a dead copy the FTL holds"));
            let written = ftl.write(target, 100, 0, &mut ops).unwrap();
            let new_copy = ftl.layout().plane_of(written);
            assert_eq!(dead_copy, new_copy, "host {host} -> SLBA {target:?}");
            per_plane[new_copy.0 as usize] += 1;
        }
        let stats = scrambler.stats();
        assert_eq!((stats.rule2_victim_page_writes, stats.rule3_other_page_writes), (8, 0), "{stats:?}");
        // Spread over both planes as the writes are, though plane 0's run alone could serve them all.
        assert_eq!(per_plane, [4, 4]);
    }

    fn block_of(ftl: &Ftl, slba: Lpn) -> u32 {
        ftl.layout().block_of(ftl.lookup(slba).expect("the FTL holds the page")).0
    }

    #[test]
    fn the_state_is_as_described() {
        let (_, ftl) = aged(1);
        let run = ftl.next_victims(PlaneIndex(0), 3, 100);
        assert_eq!(
            run.iter().map(|b| b.0).collect::<Vec<_>>(),
            [block_of(&ftl, Lpn(0)), block_of(&ftl, Lpn(4)), block_of(&ftl, Lpn(8))]
        );
        assert_eq!(ftl.valid_pages(run[1]), 4, "deleted above the FTL: still valid to it");
    }

    #[test]
    fn rule_two_writes_land_in_the_dead_rich_blocks_of_the_run() {
        let (mut scrambler, ftl) = aged(0);
        let dead_rich = [block_of(&ftl, Lpn(4)), block_of(&ftl, Lpn(8))];
        for host in 40..44 {
            let target = scrambler.write_target(Lpn(host), &ftl, 100);
            assert!(dead_rich.contains(&block_of(&ftl, target)), "host {host} -> SLBA {target:?}");
        }
        let stats = scrambler.stats();
        assert_eq!((stats.rule2_victim_page_writes, stats.rule3_other_page_writes), (4, 0), "{stats:?}");
    }

    #[test]
    fn following_only_the_next_victim_misses_them() {
        // The list before issue 34: block 0 alone, which holds no dead data.
        let (mut scrambler, ftl) = aged(1);
        for host in 40..44 {
            scrambler.write_target(Lpn(host), &ftl, 100);
        }
        let stats = scrambler.stats();
        assert_eq!((stats.rule2_victim_page_writes, stats.rule3_other_page_writes), (0, 4), "{stats:?}");
    }
}
