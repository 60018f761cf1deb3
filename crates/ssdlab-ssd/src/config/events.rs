//! `[[events]]`: things that happen to the device during a run, at a time or at a wear level
//! (seed 004's chip taken out of service; the conventional suspend-and-copy it is compared with).

use super::device::TierSpec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceEventConfig {
    /// Fires at this simulated time (ns from the start of the replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ns: Option<u64>,
    /// Fires when the mean erase count of the chip's blocks reaches this (checked whenever garbage
    /// collection runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_erase_count: Option<f64>,
    pub action: DeviceAction,
    /// Wait, once triggered, until every die of the chip is idle (background work that should not
    /// delay host operations already queued there).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub when_idle: bool,
    /// The chip acted on, numbered across tiers in layout order (tier by tier, channel-major).
    pub chip: u32,
    /// How a `suspend_and_copy` moves the chip's pages (unset: `pipelined`); only that action copies
    /// in bulk, so only it takes the key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_path: Option<CopyPath>,
    /// How a `retire_chip` drain moves the chip's blocks (unset: `background`); only that action
    /// drains, so only it takes the key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drain: Option<DrainMode>,
}

/// How a retired chip's valid pages leave it besides host overwrites (seed 004 §4: "the valid
/// pages are gradually evicted from the degraded chip by normal overwrite or GC operation"; the
/// seed does not say whether a mover of its own helps).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrainMode {
    /// A mover of its own: one block at a time whenever the chip's dies are idle, back to back,
    /// booked as background work nobody waits for.
    #[default]
    Background,
    /// The seed's "by normal ... GC operation": no mover of its own; each garbage collection in the
    /// chip's tier also moves the chip's next block with valid data, in the same foreground work
    /// the host write that set the collection off waits behind. The chip empties at the pace of the
    /// host's writes.
    WithCollection,
}

impl DrainMode {
    /// The mode as a config spells it.
    pub fn name(self) -> &'static str {
        match self {
            DrainMode::Background => "background",
            DrainMode::WithCollection => "with_collection",
        }
    }
}

/// The copy path of a `suspend_and_copy` (`scheduler/copy_pipeline.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CopyPath {
    /// As a controller copies: reads from the source die back to back into a buffer, programs on
    /// every destination die as its pages arrive; the slower side sets the pace.
    #[default]
    Pipelined,
    /// One chain per source die, as garbage collection copies: the next page is read when the
    /// previous one's program starts.
    Chained,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceAction {
    /// Seed 004's exchange without suspend: the chip goes read-only (no new data; reads continue),
    /// its valid pages leave by normal overwrites and by a drain (`drain`: a background mover, or
    /// each garbage collection of its tier taking one of its blocks along); the chip is ready for
    /// exchange when it holds no valid data.
    RetireChip,
    /// Seed 004's conventional exchange: host I/O is suspended while every valid page of the chip is
    /// copied elsewhere as fast as the device can; the suspension is the dead time.
    SuspendAndCopy,
    /// The chip takes new data again (a replaced chip back in service).
    ChipWritable,
}

impl DeviceAction {
    /// The action as a config spells it.
    pub fn name(self) -> &'static str {
        match self {
            DeviceAction::RetireChip => "retire_chip",
            DeviceAction::SuspendAndCopy => "suspend_and_copy",
            DeviceAction::ChipWritable => "chip_writable",
        }
    }
}

/// Checks triggers and chips. Returns (field path, message) on the first failure.
pub(super) fn validate(events: &[DeviceEventConfig], tiers: &[TierSpec]) -> Result<(), (String, String)> {
    let chips: u64 =
        tiers.iter().map(|tier| tier.geometry.channels as u64 * tier.geometry.chips_per_channel as u64).sum();
    for (index, event) in events.iter().enumerate() {
        let field = |name: &str| format!("events[{index}].{name}");
        match (event.at_ns, event.at_erase_count) {
            (Some(_), Some(_)) => {
                return Err((field("at_ns"), "give one trigger: at_ns or at_erase_count, not both".into()))
            }
            (None, None) => {
                return Err((field("at_ns"), "give a trigger: at_ns (a time) or at_erase_count (a wear level)".into()))
            }
            (None, Some(count)) if !(count >= 0.0 && count.is_finite()) => {
                return Err((field("at_erase_count"), format!("must be a non-negative number, got {count}")))
            }
            _ => {}
        }
        if event.copy_path.is_some() && event.action != DeviceAction::SuspendAndCopy {
            return Err((
                field("copy_path"),
                format!(
                    "only action = \"suspend_and_copy\" copies in bulk; action = \"{}\" takes no copy_path",
                    event.action.name()
                ),
            ));
        }
        if event.drain.is_some() && event.action != DeviceAction::RetireChip {
            return Err((
                field("drain"),
                format!(
                    "only action = \"retire_chip\" drains a chip; action = \"{}\" takes no drain",
                    event.action.name()
                ),
            ));
        }
        if event.chip as u64 >= chips {
            return Err((
                field("chip"),
                format!("the device has {chips} chips (0..{}), got {}", chips.saturating_sub(1), event.chip),
            ));
        }
        if event.action != DeviceAction::ChipWritable {
            let owner = tiers.iter().scan(0u64, |first, tier| {
                let count = tier.geometry.channels as u64 * tier.geometry.chips_per_channel as u64;
                let range = *first..*first + count;
                *first += count;
                Some((tier, range))
            });
            for (tier, range) in owner {
                if range.contains(&(event.chip as u64)) && range.end - range.start < 2 {
                    return Err((
                        field("chip"),
                        format!("tier {} has one chip; its data has nowhere to go", tier.name),
                    ));
                }
            }
        }
    }
    validate_tiers_in_service(events, tiers)
}

/// Refuses time-triggered events that leave a tier with no chip in service (issue 32): a retired
/// chip's data moves to the other chips of its tier, and host writes (or migrations) bound for the
/// tier need one of its chips, so the run would grind until the device is full. The events are
/// taken in time order (ties in list order), a `chip_writable` putting its chip back; wear-triggered
/// events may never fire, so only the run can tell about them (it stops when a write has nowhere to
/// go).
fn validate_tiers_in_service(events: &[DeviceEventConfig], tiers: &[TierSpec]) -> Result<(), (String, String)> {
    let mut timed: Vec<(u64, usize)> =
        events.iter().enumerate().filter_map(|(index, event)| Some((event.at_ns?, index))).collect();
    timed.sort_unstable();
    let mut out_of_service = std::collections::BTreeSet::new();
    for (_, index) in timed {
        let event = &events[index];
        if event.action == DeviceAction::ChipWritable {
            out_of_service.remove(&event.chip);
            continue;
        }
        out_of_service.insert(event.chip);
        let mut first = 0u32;
        for tier in tiers {
            let count = tier.geometry.channels.saturating_mul(tier.geometry.chips_per_channel);
            let range = first..first.saturating_add(count);
            first = range.end;
            if range.contains(&event.chip) && range.clone().all(|chip| out_of_service.contains(&chip)) {
                return Err((
                    format!("events[{index}].chip"),
                    format!(
                        "takes chip {} out of service, the last of tier {}'s chips ({}..{}) still in service: its data and the writes bound for it would have nowhere to go; keep one chip of the tier in service (or put one back first with action = \"chip_writable\")",
                        event.chip,
                        tier.name,
                        range.start,
                        range.end - 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::presets;

    fn refusal(events: &str) -> Option<String> {
        presets::load("mlc-tlc-demo", &[format!("events={events}")]).err().map(|error| error.to_string())
    }

    #[test]
    fn events_that_leave_a_tier_without_chips_are_refused() {
        let retire = |chip: u32, at: u64| format!("{{at_ns={at}, action=\"retire_chip\", chip={chip}}}");
        let all = format!("[{}, {}, {}, {}]", retire(0, 100), retire(1, 100), retire(2, 100), retire(3, 100));
        let message = refusal(&all).expect("refused");
        assert!(message.contains("events[3].chip") && message.contains("tier mlc"), "{message}");
        // In time order: the last chip out is the one named.
        let shuffled = format!("[{}, {}, {}, {}]", retire(0, 100), retire(1, 900), retire(2, 100), retire(3, 100));
        assert!(refusal(&shuffled).expect("refused").contains("events[1].chip"));
        // A chip put back first keeps the tier in service; three of four leave one.
        let back = format!(
            "[{}, {}, {}, {{at_ns=150, action=\"chip_writable\", chip=0}}, {}]",
            retire(0, 100),
            retire(1, 100),
            retire(2, 100),
            retire(3, 200)
        );
        assert_eq!(refusal(&back), None);
        assert_eq!(refusal(&format!("[{}, {}, {}]", retire(4, 1), retire(5, 1), retire(6, 1))), None);
        // Every TLC chip (where MLC's collection migrates) is refused alike.
        let tlc = format!("[{}, {}, {}, {}]", retire(4, 1), retire(5, 1), retire(6, 1), retire(7, 1));
        assert!(refusal(&tlc).expect("refused").contains("tier tlc"));
    }

    #[test]
    fn a_copy_path_is_for_a_suspend_and_copy_only() {
        let message = refusal("[{at_ns=1, action=\"retire_chip\", chip=0, copy_path=\"chained\"}]").expect("refused");
        assert!(
            message.contains("events[0].copy_path")
                && message.contains(
                    "only action = \"suspend_and_copy\" copies in bulk; action = \"retire_chip\" takes no copy_path"
                ),
            "{message}"
        );
        assert_eq!(refusal("[{at_ns=1, action=\"suspend_and_copy\", chip=0, copy_path=\"chained\"}]"), None);
        assert!(refusal("[{at_ns=1, action=\"suspend_and_copy\", chip=0, copy_path=\"fast\"}]").is_some());
    }

    #[test]
    fn a_drain_mode_is_for_a_retirement_only() {
        let message =
            refusal("[{at_ns=1, action=\"suspend_and_copy\", chip=0, drain=\"with_collection\"}]").expect("refused");
        assert!(
            message.contains("events[0].drain")
                && message.contains(
                    "only action = \"retire_chip\" drains a chip; action = \"suspend_and_copy\" takes no drain"
                ),
            "{message}"
        );
        assert_eq!(refusal("[{at_ns=1, action=\"retire_chip\", chip=0, drain=\"with_collection\"}]"), None);
        assert!(refusal("[{at_ns=1, action=\"retire_chip\", chip=0, drain=\"idle\"}]").is_some());
    }
}
