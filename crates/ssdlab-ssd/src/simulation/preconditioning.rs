//! Fast aging and preconditioning before replay (untimed): the footprint written once, then random
//! overwrites until garbage collection reaches its steady state.

use super::footprint::Footprint;
use super::page_set::PageSet;
use super::PreconditionSummary;
use super::Simulation;
use crate::config::DataAgeDistribution;
use crate::error::SimulationError;
use crate::geometry::Lpn;
use crate::host::PageSpan;
use ssdlab_engine::random::{derive_seed, Xoshiro256PlusPlus};
use ssdlab_workload::IoOp;
use std::time::Instant;

impl Simulation {
    /// Fast aging and preconditioning (untimed), then counters are reset.
    pub fn prepare(&mut self) -> Result<(), SimulationError> {
        self.prepare_reporting(&mut |_, _, _| Ok(()))
    }

    /// [`Simulation::prepare`], reporting the footprint and overwrite pages written.
    pub fn prepare_reporting(&mut self, progress: &mut super::ProgressCallback<'_>) -> Result<(), SimulationError> {
        use super::{Phase, PROGRESS_INTERVAL};
        let started = Instant::now();
        if self.config.ftl.aging.pe_cycles > 0 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "aging"));
            self.data_path.nand_mut().ftl_mut().age(
                self.config.ftl.aging.pe_cycles,
                self.config.ftl.aging.spread_fraction,
                &mut rng,
            );
        }
        let fill_requested = self.config.ftl.precondition.fill_fraction > 0.0;
        if self.config.ftl.precondition.enabled && (self.footprint.len() > 0 || fill_requested) {
            // An aged drive: part of the capacity filled first (see `aged_drive.rs`).
            let filled = self.fill()?;
            let filled_set = filled.as_ref().map(|(pages, _)| PageSet::of(self.host_logical_pages, pages));
            let footprint_pages = self.footprint.len();
            let logical_pages = self.host_logical_pages;
            let overwrites = (footprint_pages as f64 * self.config.ftl.precondition.overwrite_passes) as u64;
            let to_write = footprint_pages + overwrites;
            let descending = self.config.ftl.precondition.fill_order == crate::config::FillOrder::Descending;
            for step in 0..footprint_pages {
                if step.is_multiple_of(PROGRESS_INTERVAL) {
                    progress(Phase::Precondition, step, to_write)?;
                }
                let index = if descending { footprint_pages - 1 - step } else { step };
                let page = self.footprint.get(index);
                if (page as u64) < logical_pages && !filled_set.as_ref().is_some_and(|set| set.contains(page as u64)) {
                    self.untimed_write(page)?;
                }
            }
            drop(filled_set);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "precondition"));
            // The random pages are drawn `LOOKAHEAD` writes ahead (the same sequence), and what the
            // write of each will touch is prefetched meanwhile: the cache misses of random
            // overwrites overlap instead of following one another.
            const LOOKAHEAD: usize = 8;
            let mut ahead = [0u32; LOOKAHEAD];
            let drawn = (overwrites as usize).min(LOOKAHEAD);
            for slot in ahead.iter_mut().take(drawn) {
                *slot = self.footprint.get(rng.below(footprint_pages));
            }
            for overwrite in 0..overwrites {
                if overwrite.is_multiple_of(PROGRESS_INTERVAL) {
                    progress(Phase::Precondition, footprint_pages + overwrite, to_write)?;
                }
                let slot = overwrite as usize % LOOKAHEAD;
                let page = ahead[slot];
                if overwrite + (LOOKAHEAD as u64) < overwrites {
                    // Two stages: the mapping entry of the page drawn now, and (its entry loaded by
                    // then) the old page of the one half-way along.
                    let upcoming = self.footprint.get(rng.below(footprint_pages));
                    ahead[slot] = upcoming;
                    self.data_path.prefetch_mapping(Lpn(upcoming));
                }
                let nand = self.data_path.nand();
                if let Some(target) = nand.middleware().read_target(Lpn(ahead[(slot + LOOKAHEAD / 2) % LOOKAHEAD])) {
                    nand.ftl().prefetch_overwrite(target);
                }
                if (page as u64) < logical_pages {
                    self.untimed_write(page)?;
                }
            }
            progress(Phase::Precondition, to_write, to_write)?;
            let aged_drive = match filled {
                Some((pages, aged)) => Some(self.delete_down_to_live_fraction(&pages, aged)?),
                None => None,
            };
            self.age_preconditioned_data()?;
            let nand = self.data_path.nand_mut();
            let stats = nand.ftl().stats();
            self.precondition = PreconditionSummary {
                pages_written: stats.host_pages_written,
                gc_pages_copied: stats.gc_pages_copied,
                blocks_erased: stats.blocks_erased,
                wall_seconds: started.elapsed().as_secs_f64(),
                aged_drive,
            };
            nand.reset_counts();
        }
        // The footprint list is not needed any more.
        self.footprint = Footprint::Range(self.footprint.len());
        Ok(())
    }

    /// Gives the data preconditioning wrote its initial age (`ftl.precondition.data_age_hours`).
    fn age_preconditioned_data(&mut self) -> Result<(), SimulationError> {
        let precondition = self.config.ftl.precondition.clone();
        if precondition.data_age_hours <= 0.0 {
            return Ok(());
        }
        let (mean, cap) = (precondition.data_age_hours, precondition.oldest_data_age_hours());
        // rewrite_interval: each footprint page's mean age from how often the workload writes it.
        let page_means = match precondition.data_age_distribution {
            DataAgeDistribution::RewriteInterval => Some(self.rewrite_interval_means(mean)?),
            _ => None,
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "data_age"));
        for index in 0..self.footprint.len() {
            let page = self.footprint.get(index);
            let nand = self.data_path.nand_mut();
            let Some(ppn) = nand.physical_of(Lpn(page)) else {
                continue;
            };
            let exponential = |mean: f64, rng: &mut Xoshiro256PlusPlus| (-mean * (1.0 - rng.next_f64()).ln()).min(cap);
            let age = match (precondition.data_age_distribution, &page_means) {
                (DataAgeDistribution::Fixed, _) => mean,
                (DataAgeDistribution::Uniform, _) => 2.0 * mean * rng.next_f64(),
                (DataAgeDistribution::RewriteInterval, Some(means)) => exponential(means[index as usize], &mut rng),
                _ => exponential(mean, &mut rng),
            };
            nand.ftl_mut().backdate(ppn, age);
        }
        Ok(())
    }

    /// Mean data age (hours) of each footprint page: the workload's span on the retention clock
    /// divided by the page's writes in one loop, or `unwritten_mean` for pages it never writes.
    fn rewrite_interval_means(&self, unwritten_mean: f64) -> Result<Vec<f64>, SimulationError> {
        let pages = self.footprint.len() as usize;
        let mut writes = vec![0u32; pages];
        let (mut first_ns, mut last_ns) = (u64::MAX, 0u64);
        let page_bytes = self.page_bytes;
        let footprint = &self.footprint;
        let Some(stream) = self.stream() else { return Ok(vec![unwritten_mean; pages]) };
        stream.visit_one_loop(|request| {
            first_ns = first_ns.min(request.arrival.0);
            last_ns = last_ns.max(request.arrival.0);
            if request.op != IoOp::Write {
                return;
            }
            let span = PageSpan::of(request.offset_bytes, request.size_bytes, page_bytes);
            for page in span.first..=span.last {
                if let Some(index) = footprint.index_of(page as u32) {
                    writes[index] = writes[index].saturating_add(1);
                }
            }
        })?;
        let span_hours =
            if last_ns > first_ns { self.data_path.nand().ftl().retention_hours_of(last_ns - first_ns) } else { 0.0 };
        Ok(writes
            .iter()
            .map(|&k| if k == 0 || span_hours <= 0.0 { unwritten_mean } else { span_hours / k as f64 })
            .collect())
    }

    pub(super) fn untimed_write(&mut self, host_page: u32) -> Result<(), SimulationError> {
        self.data_path.untimed_write(host_page)
    }
}
