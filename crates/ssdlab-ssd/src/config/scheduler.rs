//! `[scheduler]`: how the controller orders the flash operations waiting for a die, and whether a
//! read may suspend a program or an erase (MQSim's `Transaction_Scheduling_Policy`,
//! `CMD_Suspension_Support`, `Suspend_Program_Time`, `Suspend_Erase_Time` and its preferred
//! suspend times; docs/mqsim.md, docs/scheduling.md).
//!
//! The default (`policy = "fifo"`, no suspension) is ssdlab's booking model, unchanged: each die
//! serves operations first come, first served by the time they became ready. Any other setting
//! queues the operations at each die and lets the policy pick the next one when the die frees
//! (`scheduler/die_queues.rs`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct SchedulerConfig {
    /// Which waiting operation a free die serves next.
    pub policy: SchedulingPolicyKind,
    /// Program and erase suspension.
    pub suspension: SuspensionConfig,
    /// FLIN's parameters (used when `policy = "flin"`).
    pub flin: FlinConfig,
}

impl SchedulerConfig {
    /// True when the dies keep queues (any policy but FIFO, or suspension on).
    pub fn queues_at_dies(&self) -> bool {
        self.policy != SchedulingPolicyKind::Fifo || self.suspension.operations != SuspendedOperations::None
    }
}

/// A die's choice among the operations waiting for it (one file each under `scheduler/policy/`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulingPolicyKind {
    /// First come, first served by ready time (ssdlab's booking model).
    #[default]
    Fifo,
    /// MQSim's `TSU_OutofOrder`: mapping-table reads, then host reads, then mapping-table and host
    /// writes, then garbage collection's copies and erases; garbage collection first while a plane of
    /// the die is below the hard threshold. Oldest first within a kind.
    OutOfOrder,
    /// MQSim's `TSU_Priority_OutOfOrder`: as `out_of_order`, and among host operations the flows'
    /// priority classes: urgent first, then high, medium and low by weighted round robin (4, 2, 1).
    PriorityOutOfOrder,
    /// FLIN (Tavakkol et al., ISCA 2018, Section 5; `scheduler/policy/flin.rs`): per die and
    /// priority class, the transactions of flows of low intensity (at that die, last epoch) go
    /// ahead of those of high intensity, which are placed to maximise fairness (min slowdown / max
    /// slowdown); weighted round robin over the priority classes; then between the read and the
    /// write in line, the one with the larger proportional wait (wait / service time), garbage
    /// collection's copies charged to the write in proportion to its flow's writes.
    Flin,
}

impl SchedulingPolicyKind {
    pub fn name(self) -> &'static str {
        match self {
            SchedulingPolicyKind::Fifo => "fifo",
            SchedulingPolicyKind::OutOfOrder => "out_of_order",
            SchedulingPolicyKind::PriorityOutOfOrder => "priority_out_of_order",
            SchedulingPolicyKind::Flin => "flin",
        }
    }
}

/// FLIN's parameters; the defaults are those MQSim 7ec40e3 passes to `TSU_FLIN` in
/// `SSD_Device.cpp` (there commented out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FlinConfig {
    /// How often flows are classified as low or high intensity, ns (MQSim: 10 ms).
    pub epoch_ns: u64,
    /// A flow whose reads at a die in an epoch reach this many bytes, divided over the device's
    /// dies, is of high read intensity at that die the next epoch (MQSim's `alpha_read`, 32 MiB,
    /// divided there over the chips).
    pub alpha_read_bytes: u64,
    /// Likewise for writes (MQSim's `alpha_write`, 256 KiB).
    pub alpha_write_bytes: u64,
    /// Below this fairness (min over max of the flows' mean slowdowns), a new transaction of the
    /// most slowed-down flow moves forward (the paper's and MQSim's F_thr, 0.6).
    pub fairness_threshold: f64,
}

impl Default for FlinConfig {
    fn default() -> Self {
        FlinConfig {
            epoch_ns: 10_000_000,
            alpha_read_bytes: 33_554_432,
            alpha_write_bytes: 262_144,
            fairness_threshold: 0.6,
        }
    }
}

/// Which array operations a read may suspend (MQSim's `CMD_Suspension_Support`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuspendedOperations {
    #[default]
    None,
    Program,
    Erase,
    ProgramAndErase,
}

impl SuspendedOperations {
    pub fn program(self) -> bool {
        matches!(self, SuspendedOperations::Program | SuspendedOperations::ProgramAndErase)
    }
    pub fn erase(self) -> bool {
        matches!(self, SuspendedOperations::Erase | SuspendedOperations::ProgramAndErase)
    }
}

/// Program and erase suspension: a read (or, for an erase, a program) that would be served next
/// at a die busy programming or erasing suspends that operation, pays the suspend time on the die,
/// runs, and the operation resumes later for the time it had left.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SuspensionConfig {
    pub operations: SuspendedOperations,
    /// Die time to suspend a program (MQSim's `Suspend_Program_Time`).
    pub suspend_program_ns: u64,
    /// Die time to suspend an erase (MQSim's `Suspend_Erase_Time`).
    pub suspend_erase_ns: u64,
    /// A program is suspended for a read only if at least this much of it is left (MQSim's
    /// `Preferred_suspend_write_time_for_read`).
    pub min_remaining_program_for_read_ns: u64,
    /// Likewise an erase for a read (`Preferred_suspend_erase_time_for_read`).
    pub min_remaining_erase_for_read_ns: u64,
    /// Likewise an erase for a host program (`Preferred_suspend_erase_time_for_write`).
    pub min_remaining_erase_for_write_ns: u64,
}

impl Default for SuspensionConfig {
    /// Off; the times are those of MQSim's shipped ssdconfig.xml.
    fn default() -> Self {
        SuspensionConfig {
            operations: SuspendedOperations::None,
            suspend_program_ns: 100_000,
            suspend_erase_ns: 700_000,
            min_remaining_program_for_read_ns: 100_000,
            min_remaining_erase_for_read_ns: 700_000,
            min_remaining_erase_for_write_ns: 700_000,
        }
    }
}

/// The scheduler's own checks and those against the rest of the config. Returns (field, message).
pub(super) fn validate(config: &super::SimulationConfig) -> Result<(), (String, String)> {
    let scheduler = &config.scheduler;
    if scheduler.flin.epoch_ns == 0 {
        return Err(("scheduler.flin.epoch_ns".into(), "must be above 0".into()));
    }
    let threshold = scheduler.flin.fairness_threshold;
    if !(threshold.is_finite() && threshold > 0.0 && threshold <= 1.0) {
        return Err((
            "scheduler.flin.fairness_threshold".into(),
            format!("{threshold} is not in (0, 1] (fairness is min slowdown / max slowdown)"),
        ));
    }
    if !scheduler.queues_at_dies() {
        return Ok(());
    }
    let what = if scheduler.policy != SchedulingPolicyKind::Fifo {
        format!("scheduler.policy = \"{}\"", scheduler.policy.name())
    } else {
        "program/erase suspension".to_string()
    };
    let field = if scheduler.policy != SchedulingPolicyKind::Fifo {
        "scheduler.policy"
    } else {
        "scheduler.suspension.operations"
    };
    // Each of these books a die outside the per-die queues (several dies at once, or a whole copy
    // at once), which a queue could not reorder.
    if super::GangingConfig::of(&config.device).is_some() {
        return Err((
            field.into(),
            format!("{what} needs independent dies; DiskSim's gangs hold several dies at once"),
        ));
    }
    if !config.read_path.interleave_groups.is_empty() {
        return Err((
            field.into(),
            format!("{what} queues each die on its own; read_path.interleave_groups senses several dies at once"),
        ));
    }
    if config.events.iter().any(|event| event.action == super::DeviceAction::SuspendAndCopy) {
        return Err((
            field.into(),
            format!("{what} queues each die on its own; a suspend_and_copy event books its whole copy at once"),
        ));
    }
    let suspension = &scheduler.suspension;
    if suspension.operations.program() && suspension.suspend_program_ns == 0 {
        return Err((
            "scheduler.suspension.suspend_program_ns".into(),
            "must be above 0 when programs are suspended".into(),
        ));
    }
    if suspension.operations.erase() && suspension.suspend_erase_ns == 0 {
        return Err((
            "scheduler.suspension.suspend_erase_ns".into(),
            "must be above 0 when erases are suspended".into(),
        ));
    }
    const LIMIT_NS: u64 = 1_000_000_000;
    for (name, value) in [
        ("suspend_program_ns", suspension.suspend_program_ns),
        ("suspend_erase_ns", suspension.suspend_erase_ns),
        ("min_remaining_program_for_read_ns", suspension.min_remaining_program_for_read_ns),
        ("min_remaining_erase_for_read_ns", suspension.min_remaining_erase_for_read_ns),
        ("min_remaining_erase_for_write_ns", suspension.min_remaining_erase_for_write_ns),
    ] {
        if value > LIMIT_NS {
            return Err((
                format!("scheduler.suspension.{name}"),
                format!("{value} ns is above 1 s; a flash operation takes microseconds to milliseconds"),
            ));
        }
    }
    Ok(())
}
