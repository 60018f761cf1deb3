//! Aged-drive preconditioning: fill a fraction of the exported capacity, then delete scattered
//! extents down to a live fraction, as a file system in use leaves a drive (issue 16; MQSim's
//! initial occupancy, DiskSim's "every logical page mapped at start").
//!
//! The fill writes its pages (sequential or random order) before the workload's footprint; the
//! deletes pick random extents (uniform length, random start), take the filled pages in them that
//! are live and outside the footprint (the workload's own data stays), and stop exactly when
//! round(filled x (1 - live_fraction)) pages are deleted (the last extent is cut short). Each delete
//! goes where `host.delete_target` says, as a delete request of the run would.

use super::page_set::PageSet;
use super::Simulation;
use crate::error::{ConfigError, SimulationError};
use crate::geometry::Lpn;
use ssdlab_engine::random::{derive_seed, Xoshiro256PlusPlus};

/// What the aged-drive steps did.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct AgedDrive {
    /// Pages the fill wrote (the footprint's pages among them count once).
    pub pages_filled: u64,
    /// Pages deleted afterwards, and the live fraction of the filled pages that leaves.
    pub pages_deleted: u64,
    pub live_fraction: f64,
}

impl Simulation {
    /// Fills `ftl.precondition.fill_fraction` of the logical capacity; returns the filled set (None
    /// without a fill).
    pub(super) fn fill(&mut self) -> Result<Option<(Vec<u32>, AgedDrive)>, SimulationError> {
        let precondition = self.config.ftl.precondition.clone();
        let logical = self.host_logical_pages;
        let count = (precondition.fill_fraction * logical as f64).round() as u64;
        if count == 0 {
            return Ok(None);
        }
        let mut pages: Vec<u32> = (0..logical as u32).collect();
        if precondition.fill_order == crate::config::FillOrder::Random {
            // Fisher-Yates over the first `count` positions: a uniform random subset in random order.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "fill"));
            for i in 0..count as usize {
                let j = i + rng.below(logical - i as u64) as usize;
                pages.swap(i, j);
            }
        }
        pages.truncate(count as usize);
        if precondition.fill_order == crate::config::FillOrder::Descending {
            pages.reverse();
        }
        for &page in &pages {
            self.untimed_write(page)?;
        }
        Ok(Some((pages, AgedDrive { pages_filled: count, pages_deleted: 0, live_fraction: 1.0 })))
    }

    /// Deletes extents of the filled pages (outside the footprint) down to the live fraction.
    pub(super) fn delete_down_to_live_fraction(
        &mut self,
        filled: &[u32],
        mut aged: AgedDrive,
    ) -> Result<AgedDrive, SimulationError> {
        let precondition = self.config.ftl.precondition.clone();
        let logical = self.host_logical_pages;
        let target = (aged.pages_filled as f64 * (1.0 - precondition.live_fraction)).round() as u64;
        if target == 0 {
            return Ok(aged);
        }
        let mut live = PageSet::of(logical, filled);
        let mut deletable = aged.pages_filled;
        for index in 0..self.footprint.len() {
            let page = self.footprint.get(index) as u64;
            if page < logical && live.contains(page) {
                live.remove(page);
                deletable -= 1;
            }
        }
        if deletable < target {
            return Err(ConfigError::Invalid {
                origin: self.origin.clone(),
                line: None,
                field: "ftl.precondition.live_fraction".into(),
                message: format!(
                    "deleting down to {} of the {} filled pages needs {target} deletable pages, but only {deletable} are outside the workload's footprint; raise live_fraction or fill_fraction",
                    precondition.live_fraction, aged.pages_filled
                ),
            }
            .into());
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "delete_extents"));
        let (min, max) = (precondition.delete_extent_min_pages as u64, precondition.delete_extent_max_pages as u64);
        let mut deleted = 0;
        while deleted < target {
            let length = min + rng.below(max - min + 1);
            let start = rng.below(logical);
            for page in start..(start + length).min(logical) {
                if deleted == target {
                    break;
                }
                if live.contains(page) {
                    live.remove(page);
                    self.data_path.delete_page(Lpn(page as u32));
                    deleted += 1;
                }
            }
        }
        aged.pages_deleted = deleted;
        aged.live_fraction = (aged.pages_filled - deleted) as f64 / aged.pages_filled as f64;
        Ok(aged)
    }
}
