//! Device events on the loop's clock: the earliest timer carried out, finished background batches
//! collected. What an event does to the device is the NAND path's (`data_path/nand/device_events.rs`).

use super::Simulation;
use crate::error::SimulationError;
use ssdlab_engine::SimTime;

impl Simulation {
    /// Carries out the earliest device-event timer; returns its time.
    #[cold]
    #[inline(never)]
    pub(super) fn process_timer(&mut self) -> Result<Option<SimTime>, SimulationError> {
        self.event_work().process_timer()
    }

    /// Background batches that have ended: a drain takes its next step, a copy ends its suspension.
    #[cold]
    #[inline(never)]
    pub(super) fn collect_finished_batches(&mut self) -> Result<(), SimulationError> {
        self.event_work().collect_finished_batches()
    }

    fn event_work(&mut self) -> super::data_path::EventWork<'_> {
        self.data_path.nand_mut().event_work(&mut self.scheduler, &mut self.device_events)
    }
}
