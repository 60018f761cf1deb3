//! A trace read on the replay's own thread in batches (issue 17): the reader fills a buffer of
//! requests in one tight loop (record decoding inlined into it), and the replay takes them one by
//! one with an index check. Per request, that replaced three calls that each handed back a
//! `Result` large enough for a trace error with a copy out of a buffer. The requests, their order
//! and any error (after every request before it) are those of the reader itself.

use crate::error::SimulationError;
use ssdlab_workload::{IoRequest, TraceReader, WorkloadError};

/// Requests per batch: the buffer stays in the first-level cache.
const BATCH_REQUESTS: usize = 512;

pub(crate) struct BatchedReader {
    reader: TraceReader,
    batch: Vec<IoRequest>,
    at: usize,
    /// The reader's error, returned once the requests before it have been taken.
    failed: Option<WorkloadError>,
    ended: bool,
}

impl BatchedReader {
    pub(crate) fn new(reader: TraceReader) -> Self {
        BatchedReader { reader, batch: Vec::with_capacity(BATCH_REQUESTS), at: 0, failed: None, ended: false }
    }

    #[inline]
    pub(crate) fn next_request(&mut self) -> Result<Option<IoRequest>, SimulationError> {
        match self.batch.get(self.at) {
            Some(&request) => {
                self.at += 1;
                Ok(Some(request))
            }
            None => self.next_batch(),
        }
    }

    #[cold]
    fn next_batch(&mut self) -> Result<Option<IoRequest>, SimulationError> {
        if let Some(error) = self.failed.take() {
            self.ended = true;
            return Err(error.into());
        }
        if self.ended {
            return Ok(None);
        }
        self.batch.clear();
        self.at = 0;
        if let Err(error) = self.reader.fill(&mut self.batch, BATCH_REQUESTS) {
            self.failed = Some(error);
        }
        if self.batch.is_empty() {
            if let Some(error) = self.failed.take() {
                self.ended = true;
                return Err(error.into());
            }
            self.ended = true;
            return Ok(None);
        }
        self.at = 1;
        Ok(Some(self.batch[0]))
    }

    pub(crate) fn reordered(&self) -> u64 {
        self.reader.reordered()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::test_traces::{break_line, csv_trace, scan_of, served_before_error};
    use ssdlab_workload::TraceScan;

    /// A scanned CSV trace of `lines` requests, line `broken` (1-based, the header is line 1) then
    /// made unreadable when given.
    fn scanned(name: &str, lines: usize, broken: Option<usize>) -> TraceScan {
        let path = csv_trace(&format!("batched-{name}"), lines);
        let scan = scan_of(&path);
        if let Some(line) = broken {
            break_line(&path, line);
        }
        scan
    }

    #[test]
    fn batches_yield_the_readers_requests_in_order() {
        let scan = scanned("same", 3 * BATCH_REQUESTS + 5, None);
        let mut direct = scan.reader().unwrap();
        let mut batched = BatchedReader::new(scan.reader().unwrap());
        while let Some(expected) = direct.next_request().unwrap() {
            assert_eq!(batched.next_request().unwrap(), Some(expected));
        }
        assert_eq!(batched.next_request().unwrap(), None);
        assert_eq!(batched.next_request().unwrap(), None);
    }

    #[test]
    fn an_error_comes_after_every_request_before_it_then_the_end() {
        // In the first batch, on a batch boundary and after it.
        for broken_request in [7, BATCH_REQUESTS, BATCH_REQUESTS + 1, 2 * BATCH_REQUESTS + 3] {
            let line = broken_request + 1;
            let mut batched = BatchedReader::new(
                scanned(&format!("broken{broken_request}"), 3 * BATCH_REQUESTS, Some(line)).reader().unwrap(),
            );
            let (served, error) = served_before_error(|| batched.next_request());
            assert_eq!(served, broken_request - 1, "every request before the changed line");
            assert!(error.to_string().contains(&format!(":{line}")), "{error}");
            assert_eq!(batched.next_request().unwrap(), None);
        }
    }
}
