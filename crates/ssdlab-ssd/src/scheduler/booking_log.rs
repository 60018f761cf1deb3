//! A record of every booking on every die and channel, kept only when asked for (tests, audits), and
//! the check that the schedule was work-conserving: no resource sat idle while an operation that
//! was ready for it waited.

/// Which resource a booking occupied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Resource {
    Die(u32),
    Channel(u32),
}

/// One operation on one resource: ready at `ready_ns`, served over [start_ns, end_ns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Booking {
    pub resource: Resource,
    pub ready_ns: u64,
    pub start_ns: u64,
    pub end_ns: u64,
}

/// Checks a schedule, independently of how it was made: on each resource, bookings do not overlap
/// and every operation that waited (start after ready) found the resource busy over its whole wait.
/// Returns the first violation found.
pub fn check_work_conserving(bookings: &[Booking]) -> Result<(), String> {
    let mut by_resource: std::collections::BTreeMap<Resource, Vec<&Booking>> = Default::default();
    for booking in bookings.iter().filter(|b| b.end_ns > b.start_ns) {
        if booking.start_ns < booking.ready_ns {
            return Err(format!("{booking:?} starts before it is ready"));
        }
        by_resource.entry(booking.resource).or_default().push(booking);
    }
    for (resource, mut list) in by_resource {
        list.sort_by_key(|b| (b.start_ns, b.end_ns));
        // Busy runs: maximal unions of abutting bookings.
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for pair in list.windows(2) {
            if pair[0].end_ns > pair[1].start_ns {
                return Err(format!("{resource:?}: {:?} overlaps {:?}", pair[0], pair[1]));
            }
        }
        for booking in &list {
            match runs.last_mut() {
                Some(run) if run.1 == booking.start_ns => run.1 = booking.end_ns,
                _ => runs.push((booking.start_ns, booking.end_ns)),
            }
        }
        for booking in &list {
            if booking.start_ns > booking.ready_ns {
                // The run that holds the instant just before the start must reach back to the
                // ready time.
                let index = runs.partition_point(|run| run.1 < booking.start_ns);
                let covered = runs.get(index).is_some_and(|run| run.0 <= booking.ready_ns);
                if !covered {
                    return Err(format!("{resource:?} idle before {} while {booking:?} waited", booking.start_ns));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn die(ready_ns: u64, start_ns: u64, end_ns: u64) -> Booking {
        Booking { resource: Resource::Die(0), ready_ns, start_ns, end_ns }
    }

    #[test]
    fn accepts_a_queue_and_rejects_an_idle_wait_and_an_overlap() {
        assert!(check_work_conserving(&[die(0, 0, 10), die(5, 10, 20), die(30, 30, 40)]).is_ok());
        let idle = check_work_conserving(&[die(0, 0, 10), die(5, 12, 20)]).unwrap_err();
        assert!(idle.contains("idle"), "{idle}");
        let overlap = check_work_conserving(&[die(0, 0, 10), die(5, 8, 20)]).unwrap_err();
        assert!(overlap.contains("overlaps"), "{overlap}");
        // Other resources do not cover for this one.
        let other = Booking { resource: Resource::Channel(0), ready_ns: 0, start_ns: 0, end_ns: 50 };
        assert!(check_work_conserving(&[other, die(0, 0, 10), die(5, 12, 20)]).is_err());
    }
}
