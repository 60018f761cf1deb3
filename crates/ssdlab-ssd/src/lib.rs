//! # ssdlab-ssd
//!
//! The SSD model. Layers, top to bottom (a request's path):
//!
//! 1. [`host`]: workload replay (open loop by timestamps, closed loop at a queue depth), the bounded
//!    device queue, page splitting.
//! 2. [`middleware`]: optional remapping of host pages before the FTL (seed 003's LBA scrambler seam).
//! 3. [`placement`]: which tier a host page goes to and where each tier's GC sends pages.
//! 4. [`ftl`]: one page mapping over all tiers; per tier a block store, collectors (GC execution),
//!    victim policies, wear leveling.
//! 5. [`read_path`]: per-read sensing/transfer/decode plans (seed 002 / seed 000 seam).
//! 6. [`scheduler`]: carries out flash operations on dies and channels in time order, each booked
//!    when it becomes ready (first come, first served; work-conserving).
//! 7. [`media`]: NAND timing per page type; channel transfer timing; [`device_layout`] numbers the
//!    tiers' pages, dies and channels globally.
//!
//! [`device_events`] are things that happen to the device at a time or wear level (a chip retired).
//!
//! [`simulation`] is the one place that wires them together; [`config`] is the plain-data input,
//! [`metrics`] the output, [`presets`] the shipped configs. Errors are typed per domain ([`error`]).

pub mod config;
pub mod cpu_time;
pub mod device_events;
pub mod device_layout;
pub mod energy;
pub mod error;
pub mod flash_op;
pub mod ftl;
pub mod geometry;
pub mod host;
pub mod io_pins;
pub mod media;
pub mod metrics;
pub mod middleware;
pub mod presets;
pub mod read_path;
pub mod retention;
pub mod scheduler;
pub mod scm;
pub mod simulation;
pub mod tier;

pub use config::SimulationConfig;
pub use error::{ConfigError, FtlError, SimulationError};
pub use simulation::RunResult;
pub use simulation::{run, Simulation};
