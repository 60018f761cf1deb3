//! # ssdlab-engine
//!
//! The discrete-event layer every other ssdlab crate stands on. It knows nothing of SSDs.
//!
//! * [`SimTime`] / [`SimDuration`]: simulated time in nanoseconds, as newtypes so a byte count or an
//!   address can never be added to a time by mistake.
//! * [`Server`]: a single-server resource (a NAND die, a channel bus) served first come, first served,
//!   booked at the moment an operation becomes ready; with everything processed in time order this
//!   is work-conserving (never idle while a ready operation waits).
//! * [`EventQueue`]: pending events ordered by (time, insertion sequence), so simultaneous events pop in
//!   the order they were scheduled and every run is deterministic. [`MonotoneQueue`] is the same
//!   order for a clock that never goes back (a radix heap, O(1) amortised): the SSD model's events.
//! * [`random::Xoshiro256PlusPlus`]: the only source of randomness; always seeded explicitly.
//!
//! What it leaves out: preemption (a booked interval is never moved) and priorities between classes
//! of work; those belong to the schedulers built on top.

pub mod event_queue;
pub mod monotone_queue;
pub mod random;
pub mod server;
pub mod time;

pub use event_queue::EventQueue;
pub use monotone_queue::MonotoneQueue;
pub use server::Server;
pub use time::{SimDuration, SimTime};
