//! The CPU time a thread has used: what the replay and the trace reader cost, for the speed fields
//! of a result and the benchmarks.

/// CPU time of the calling thread, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    let mut spec = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own; CLOCK_THREAD_CPUTIME_ID is always valid on Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut spec) };
    if status == 0 {
        spec.tv_sec as f64 + spec.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}
