//! Reading ahead (issue 17): a trace is read and parsed on a second thread that hands requests to
//! the replay in batches, so that on a machine with two cores the parsing overlaps the simulation
//! (wall time falls; CPU time does not). The requests, and so every result, are the same as when
//! the replay reads the trace itself: one reader, one order.
//!
//! The channel is bounded (`BATCHES_AHEAD` batches of `BATCH_REQUESTS`), so memory stays flat
//! whatever the trace's length. The reader thread's CPU time is reported back so that the run's
//! replay CPU figure still includes the parsing. A reader error reaches the replay at the request
//! where it happened (after every request before it); a replay that stops early drops the channel,
//! which ends the thread at its next batch.

use crate::error::SimulationError;
use ssdlab_workload::{IoRequest, TraceScan, WorkloadError};
use std::sync::mpsc::{sync_channel, Receiver};
use std::thread::JoinHandle;

/// Requests per batch: large enough that the channel costs nothing per request, small enough that
/// the replay starts at once.
const BATCH_REQUESTS: usize = 8192;
/// Batches the reader may run ahead of the replay.
const BATCHES_AHEAD: usize = 4;

enum Message {
    Requests(Vec<IoRequest>),
    End { reordered: u64, cpu_seconds: f64 },
    Failed { error: WorkloadError, cpu_seconds: f64 },
}

/// One loop of a trace, read on its own thread.
pub(crate) struct ReadAhead {
    receiver: Option<Receiver<Message>>,
    batch: std::vec::IntoIter<IoRequest>,
    handle: Option<JoinHandle<()>>,
    path: std::path::PathBuf,
    reordered: u64,
    cpu_seconds: f64,
    done: bool,
}

impl ReadAhead {
    /// Starts reading `scan`'s trace from its first request.
    pub(crate) fn spawn(scan: TraceScan) -> Result<ReadAhead, SimulationError> {
        let path = scan.path.clone();
        let (sender, receiver) = sync_channel(BATCHES_AHEAD);
        let thread = move || {
            let started = crate::cpu_time::thread_cpu_seconds();
            let cpu = || crate::cpu_time::thread_cpu_seconds() - started;
            let mut reader = match scan.reader() {
                Ok(reader) => reader,
                Err(error) => {
                    let _ = sender.send(Message::Failed { error, cpu_seconds: cpu() });
                    return;
                }
            };
            loop {
                let mut batch = Vec::with_capacity(BATCH_REQUESTS);
                let ending = loop {
                    match reader.next_request() {
                        Ok(Some(request)) => {
                            batch.push(request);
                            if batch.len() == BATCH_REQUESTS {
                                break None;
                            }
                        }
                        Ok(None) => break Some(Ok(())),
                        Err(error) => break Some(Err(error)),
                    }
                };
                // A send fails only when the replay has gone: nothing left to do.
                if !batch.is_empty() && sender.send(Message::Requests(batch)).is_err() {
                    return;
                }
                match ending {
                    None => continue,
                    Some(Ok(())) => {
                        let _ = sender.send(Message::End { reordered: reader.reordered(), cpu_seconds: cpu() });
                    }
                    Some(Err(error)) => {
                        let _ = sender.send(Message::Failed { error, cpu_seconds: cpu() });
                    }
                }
                return;
            }
        };
        let handle = std::thread::Builder::new()
            .name("ssdlab-trace-reader".into())
            .spawn(thread)
            .map_err(|source| SimulationError::Workload(WorkloadError::Io { path: path.clone(), source }))?;
        Ok(ReadAhead {
            receiver: Some(receiver),
            batch: Vec::new().into_iter(),
            handle: Some(handle),
            path,
            reordered: 0,
            cpu_seconds: 0.0,
            done: false,
        })
    }

    #[inline]
    pub(crate) fn next_request(&mut self) -> Result<Option<IoRequest>, SimulationError> {
        match self.batch.next() {
            Some(request) => Ok(Some(request)),
            None => self.next_batch(),
        }
    }

    #[cold]
    fn next_batch(&mut self) -> Result<Option<IoRequest>, SimulationError> {
        loop {
            if self.done {
                return Ok(None);
            }
            let Some(receiver) = &self.receiver else { return Ok(None) };
            match receiver.recv() {
                Ok(Message::Requests(batch)) => {
                    self.batch = batch.into_iter();
                    if let Some(request) = self.batch.next() {
                        return Ok(Some(request));
                    }
                }
                Ok(Message::End { reordered, cpu_seconds }) => {
                    self.done = true;
                    self.reordered = reordered;
                    self.cpu_seconds = cpu_seconds;
                    return Ok(None);
                }
                Ok(Message::Failed { error, cpu_seconds }) => {
                    self.done = true;
                    self.cpu_seconds = cpu_seconds;
                    return Err(error.into());
                }
                Err(_) => {
                    // The thread ended without a last message: it panicked (a bug, never input).
                    self.done = true;
                    let source = std::io::Error::other("the trace reader thread stopped without finishing the trace");
                    return Err(SimulationError::Workload(WorkloadError::Io { path: self.path.clone(), source }));
                }
            }
        }
    }

    /// Requests whose timestamp went backwards (known once the whole trace has been read).
    pub(crate) fn reordered(&self) -> u64 {
        self.reordered
    }

    /// CPU time the reader thread spent (known once it has finished).
    pub(crate) fn cpu_seconds(&self) -> f64 {
        self.cpu_seconds
    }
}

impl Drop for ReadAhead {
    fn drop(&mut self) {
        // Closing the channel first ends a thread that is waiting to send.
        drop(self.receiver.take());
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::test_traces::{break_line, csv_trace as trace, scan_of, served_before_error};

    fn key(request: &IoRequest) -> (u64, u64, u64, u64, bool) {
        (
            request.arrival.0,
            request.offset_bytes,
            request.size_bytes,
            request.origin_line,
            request.op == ssdlab_workload::IoOp::Write,
        )
    }

    #[test]
    fn the_reader_thread_yields_the_same_requests_in_the_same_order() {
        let path = trace("same", 3 * BATCH_REQUESTS + 17);
        let scan = scan_of(&path);
        let mut direct = scan.reader().unwrap();
        let mut ahead = ReadAhead::spawn(scan.clone()).unwrap();
        let mut count = 0;
        while let Some(expected) = direct.next_request().unwrap() {
            let got = ahead.next_request().unwrap().expect("as many requests");
            assert_eq!(key(&got), key(&expected));
            count += 1;
        }
        assert!(ahead.next_request().unwrap().is_none() && ahead.next_request().unwrap().is_none());
        assert_eq!(count, 3 * BATCH_REQUESTS + 17);
        assert_eq!(ahead.reordered(), direct.reordered());
        assert!(ahead.reordered() > 0 && ahead.cpu_seconds() > 0.0);
    }

    #[test]
    fn a_trace_changed_under_the_run_fails_after_the_requests_before_the_change() {
        let path = trace("changed", 2 * BATCH_REQUESTS);
        let scan = scan_of(&path);
        // The same length, one line made unreadable after the scan (request `broken`, line + 1).
        let broken = BATCH_REQUESTS + 10;
        break_line(&path, broken + 1);
        let mut ahead = ReadAhead::spawn(scan).unwrap();
        let (served, error) = served_before_error(|| ahead.next_request());
        assert_eq!(served, broken - 1, "every request before the changed line, none after");
        assert!(
            error.to_string().contains(&format!(":{}", broken + 1))
                || error.to_string().contains(&format!("line {}", broken + 1)),
            "{error}"
        );
        assert!(ahead.next_request().unwrap().is_none());
    }

    #[test]
    fn a_replay_that_stops_early_ends_the_reader_thread() {
        let path = trace("early", 8 * BATCH_REQUESTS);
        let scan = scan_of(&path);
        let mut ahead = ReadAhead::spawn(scan).unwrap();
        assert!(ahead.next_request().unwrap().is_some());
        // Dropping joins the thread, which is blocked on a full channel: this returns only if the
        // closed channel ends it.
        drop(ahead);
    }
}
