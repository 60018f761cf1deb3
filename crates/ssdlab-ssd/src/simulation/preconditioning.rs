//! Fast aging and preconditioning before replay (untimed): the footprint written once, then random
//! overwrites until garbage collection reaches its steady state.

use super::Simulation;
use crate::error::SimulationError;
use crate::config::DataAgeDistribution;
use crate::geometry::Lpn;
use crate::metrics::PreconditionSummary;
use ssdlab_engine::random::{derive_seed, Xoshiro256PlusPlus};
use super::footprint::Footprint;
use std::time::Instant;

impl Simulation {
    /// Fast aging and preconditioning (untimed), then counters are reset.
    pub fn prepare(&mut self) -> Result<(), SimulationError> {
        let started = Instant::now();
        if self.config.ftl.aging.pe_cycles > 0 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "aging"));
            self.ftl.age(self.config.ftl.aging.pe_cycles, self.config.ftl.aging.spread_fraction, &mut rng);
        }
        if self.config.ftl.precondition.enabled && self.footprint.len() > 0 {
            let footprint_pages = self.footprint.len();
            let logical_pages = self.host_logical_pages;
            for index in 0..footprint_pages {
                let page = self.footprint.get(index);
                if (page as u64) < logical_pages {
                    self.untimed_write(page)?;
                }
            }
            let overwrites = (footprint_pages as f64 * self.config.ftl.precondition.overwrite_passes) as u64;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "precondition"));
            for _ in 0..overwrites {
                let page = self.footprint.get(rng.below(footprint_pages));
                if (page as u64) < logical_pages {
                    self.untimed_write(page)?;
                }
            }
            self.age_preconditioned_data();
            let stats = self.ftl.stats();
            self.precondition = PreconditionSummary {
                pages_written: stats.host_pages_written,
                gc_pages_copied: stats.gc_pages_copied,
                blocks_erased: stats.blocks_erased,
                wall_seconds: started.elapsed().as_secs_f64(),
            };
            self.ftl.reset_stats();
            self.middleware.reset_stats();
        }
        // The footprint list is not needed any more.
        self.footprint = Footprint::Range(self.footprint.len());
        Ok(())
    }

    /// Gives the data preconditioning wrote its initial age (`ftl.precondition.data_age_hours`).
    fn age_preconditioned_data(&mut self) {
        let precondition = &self.config.ftl.precondition;
        if precondition.data_age_hours <= 0.0 {
            return;
        }
        let (mean, distribution, cap) = (precondition.data_age_hours, precondition.data_age_distribution, precondition.oldest_data_age_hours());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "data_age"));
        for index in 0..self.footprint.len() {
            let page = self.footprint.get(index);
            let Some(ppn) = self.middleware.read_target(Lpn(page)).and_then(|target| self.ftl.lookup(target)) else { continue };
            let age = match distribution {
                DataAgeDistribution::Fixed => mean,
                DataAgeDistribution::Uniform => 2.0 * mean * rng.next_f64(),
                DataAgeDistribution::Exponential => (-mean * (1.0 - rng.next_f64()).ln()).min(cap),
            };
            self.ftl.backdate(ppn, age);
        }
    }

    fn untimed_write(&mut self, host_page: u32) -> Result<(), SimulationError> {
        let target = self.middleware.write_target(Lpn(host_page), &self.ftl, 0);
        let tag = self.oracle.as_mut().map_or(0, |o| o.tag_write(host_page));
        self.ops.clear();
        self.ftl.write(target, 0, tag, &mut self.ops).map_err(|source| SimulationError::Ftl { origin: format!("{} (preconditioning)", self.origin), source })?;
        Ok(())
    }

}
