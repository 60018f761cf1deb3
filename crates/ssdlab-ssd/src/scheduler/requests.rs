//! The scheduler's host requests: a request opened, the chains it waits for, its completion (or,
//! for background work that carries host bytes, its report to the data path).

use super::*;

impl FlashScheduler {
    /// A host request enters the device at `now`; returns its id. Its chains are started with
    /// [`Waiter::Request`]`(id)`, then [`FlashScheduler::close_request`] is called. When its last
    /// chain is booked, (tag, completion time) appears in [`FlashScheduler::completions`] and the id
    /// may be reused by the next request opened.
    pub fn open_request(&mut self, now: SimTime, tag: RequestTag) -> u32 {
        let id = self.requests.allocate();
        *self.requests.get_mut(id) = RequestProgress::new(now, tag);
        self.breakdown_opened(id, now);
        if self.die_queues.is_some() {
            // A reused slot must not keep the priority of the request that had it.
            self.set_request_flow(id, u8::MAX);
        }
        id
    }

    /// All of the request's chains have been started.
    pub fn close_request(&mut self, id: u32, now: SimTime) {
        self.finish(Waiter::Request(id), now);
    }

    /// Requests completed (their last chain booked) since the list was last cleared.
    pub fn completions(&mut self) -> &mut Vec<(RequestTag, SimTime, u32)> {
        &mut self.completions
    }

    #[inline]
    pub(super) fn add_wait(&mut self, waiter: Waiter) {
        match waiter {
            Waiter::Request(id) => self.requests.get_mut(id).outstanding += 1,
            Waiter::WriteGroup(group) => self.write_groups.get_mut(group).waiting_reads += 1,
            Waiter::Gate(gate) => self.gates.get_mut(gate).waiting += 1,
            Waiter::Nobody => {}
        }
    }

    /// A chain that `waiter` waits for ends at `time` (at or after the current event's time).
    #[inline]
    pub(super) fn finish(&mut self, waiter: Waiter, time: SimTime) {
        match waiter {
            Waiter::Request(id) => {
                let progress = self.requests.get_mut(id);
                progress.completion = progress.completion.max(time);
                progress.outstanding -= 1;
                if progress.outstanding == 0 {
                    let (completion, tag, held) = (progress.completion, progress.tag(), progress.held);
                    if held {
                        if let Some(gate) = self.gate.as_mut() {
                            gate.statistics.requests_held += 1;
                        }
                    }
                    self.requests.release(id);
                    if tag.background {
                        // The one report of background work to the data path: the end of work that
                        // carries host bytes (a DRAM cache's destage), which the cache collects to
                        // know when those bytes are safe. Work that carries none (a translation
                        // page's write-back) reports nothing, so nobody has to drain it.
                        if tag.size_bytes > 0 {
                            self.background_completions.push((completion, tag.size_bytes));
                        }
                    } else {
                        self.completions.push((tag, completion, id));
                        if self.breakdowns.is_some() {
                            self.breakdown_completed(id, completion);
                        }
                    }
                }
            }
            Waiter::WriteGroup(id) => {
                let group = self.write_groups.get_mut(id);
                group.ready = group.ready.max(time);
                group.waiting_reads -= 1;
                if group.waiting_reads == 0 && group.closed && !group.held {
                    let ready = group.ready;
                    self.events.schedule(ready, (FlashEvent::GroupTransfer { group: id }).pack());
                }
            }
            Waiter::Gate(gate) => self.gate_read_ended(gate, time),
            Waiter::Nobody => {}
        }
    }
}
