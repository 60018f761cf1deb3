//! # ssdlab-engine
//!
//! The discrete-event layer every other ssdlab crate stands on. It knows nothing of SSDs.
//!
//! * [`SimTime`] / [`SimDuration`]: simulated time in nanoseconds, as newtypes so a byte count or an
//!   address can never be added to a time by mistake.
//! * [`Timeline`]: a single-server resource (a NAND die, a channel bus) whose future busy intervals are
//!   booked as requests arrive. Booking fills idle gaps, so a transfer that becomes ready early is not
//!   held behind one that was booked first but starts later.
//! * [`EventQueue`]: pending events ordered by (time, insertion sequence), so simultaneous events pop in
//!   the order they were scheduled and every run is deterministic.
//! * [`random::Xoshiro256PlusPlus`]: the only source of randomness; always seeded explicitly.
//!
//! What it leaves out: preemption (a booked interval is never moved) and priorities between classes
//! of work; those belong to the schedulers built on top.

pub mod event_queue;
pub mod random;
pub mod time;
pub mod timeline;

pub use event_queue::EventQueue;
pub use time::{SimDuration, SimTime};
pub use timeline::Timeline;
