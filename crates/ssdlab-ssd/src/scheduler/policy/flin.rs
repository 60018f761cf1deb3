//! FLIN, the Flash-Level INterference-aware scheduler (Tavakkol et al., "FLIN: Enabling Fairness
//! and Enhancing Performance in Modern NVMe Solid State Drives", ISCA 2018, Section 5; parameters
//! from MQSim 7ec40e3's `SSD_Device.cpp`, where its construction is commented out, and the order of
//! its steps from a later MQSim's `TSU_FLIN.cpp`, whose service functions dispatch). The paper's three
//! stages, paraphrased (its Section 5 text was not at hand when this was written: check the wording
//! against it before citing):
//!
//! 1. *Fairness-aware queue insertion* (against the interference from the flows' intensity and
//!    access pattern): per chip and priority class, a read queue and a write queue.
//!    Each epoch FLIN classifies each flow as low- or high-intensity by the transactions it sent to
//!    the chip in the last epoch (thresholds `alpha`). A transaction of a low-intensity flow is
//!    inserted after the last transaction of the low-intensity flows (ahead of every high-intensity
//!    one); one of a high-intensity flow goes at the tail, and then, with the slowdown of a
//!    transaction estimated as its shared time over its estimated alone time, if fairness (min
//!    slowdown / max slowdown) is below F_thr and the new transaction's flow has the largest
//!    slowdown, it moves forward up to the low-intensity part (and is marked so that later
//!    high-intensity transactions do not pass it); otherwise it goes to the position, between the
//!    tail and its flow's previous transaction, that maximises fairness.
//! 2. *Priority-aware queue arbitration*: weighted round robin over the priority classes' queues
//!    picks the read and the write in line (here as `priority_out_of_order`: urgent first, then
//!    high, medium and low with weights 4, 2, 1).
//! 3. *Wait-balancing transaction selection*: of the read and the write in line, the one with the
//!    larger proportional wait, PW = T_wait / T_service, where T_wait counts the time waited so far
//!    plus the service of the other one (and of the GC work done before the write) should it go
//!    first. Garbage collection's copies are charged to the writes: when the write is selected, GCM
//!    of the pending GC copies go before it, GCM = pending GC reads x the write's flow's writes
//!    since the die's last GC / all flows' writes since then, and their time counts in both PWs.
//!
//! How it runs here: ssdlab's policies choose at grant time from the die's waiting list, so the
//! queue order of stage 1 is rebuilt at each grant by inserting the waiting host transactions of a
//! class one by one in arrival order with the paper's rules, and the head of the result is the one
//! the paper's queue would serve next. It differs in one respect: the paper places a transaction
//! once, when it arrives, with the estimates of that moment; here every placement uses the
//! estimates of the grant (waits grown since, transactions already served gone), so a place can
//! differ from the one the paper gave at arrival when the waits have since changed the slowdowns.
//! The low-before-high split and the F_thr rule give the same order either way.
//!
//! Estimates (cheap): a transaction's service is its die's lower-page read plus a page transfer,
//! lower-page program, or erase; its shared time is its wait so far, plus the service of what is
//! ahead of it in the queue, plus its own; its alone time is the service of its own flow's
//! transactions ahead of it plus its own. The die is free at a grant, so the paper's T_chip_busy is
//! 0 there. The intensity is counted per die (MQSim: per chip) over the arrivals at the die
//! (queued or not), the thresholds being alpha / dies / page size transactions per epoch.
//!
//! Left out: the paper's mapping-table traffic is not in its queues; here mapping-table reads
//! (writes) are the read (write) in line whenever one waits, as in MQSim's `get_read_slot`. GC goes
//! first while it is urgent on the die (below the hard threshold, as for the other policies) and
//! when nothing else waits; the paper's check of the plane's free pages is ssdlab's GC trigger,
//! which queues GC only when it is due. The suspension test asks whether the newcomer would be
//! picked, without the paper's T_chip_busy.

use super::out_of_order::rank;
use super::{Candidate, OperationKind, SchedulingPolicy, NO_FLOW};
use crate::config::{FlinConfig, PriorityClass};

/// The round-robin order of the weighted classes, and their weights (as `priority_out_of_order`).
const CLASSES: [(PriorityClass, u32); 3] =
    [(PriorityClass::High, 4), (PriorityClass::Medium, 2), (PriorityClass::Low, 1)];

/// Reads and writes: the two queues of each class and the two intensities of each flow.
const READ: usize = 0;
const WRITE: usize = 1;

#[derive(Debug, Clone, Copy)]
struct RoundRobin {
    /// Index in `CLASSES` of the class whose turn it is, and the picks it has left.
    turn: usize,
    credit: u32,
}

impl RoundRobin {
    /// The class (index in `CLASSES`) served next among those `present`.
    fn peek(&self, present: impl Fn(PriorityClass) -> bool) -> Option<usize> {
        (0..CLASSES.len()).map(|step| (self.turn + step) % CLASSES.len()).find(|&index| present(CLASSES[index].0))
    }
    /// Class `index` was served.
    fn consume(&mut self, index: usize) {
        if index != self.turn {
            self.turn = index;
            self.credit = CLASSES[index].1;
        }
        self.credit = self.credit.saturating_sub(1);
        if self.credit == 0 {
            self.turn = (self.turn + 1) % CLASSES.len();
            self.credit = CLASSES[self.turn].1;
        }
    }
}

#[derive(Debug, Clone)]
struct DieState {
    /// Per flow: its transactions that arrived in this epoch, [reads, writes].
    recent: Vec<[u64; 2]>,
    /// Per flow: high intensity in this epoch, [reads, writes].
    high: Vec<[bool; 2]>,
    /// Per flow: host writes served since the die's last GC erase.
    writes_since_gc: Vec<u64>,
    /// The round robin of the reads' classes and of the writes'.
    turns: [RoundRobin; 2],
}

#[derive(Debug, Clone)]
pub struct Flin {
    epoch_ns: u64,
    /// Per die and epoch: a flow with this many reads (writes) is of high intensity.
    alpha: [u64; 2],
    fairness_threshold: f64,
    /// The epoch (now / epoch_ns) the classifications are of.
    epoch: u64,
    dies: Vec<DieState>,
}

/// What stage 3 chose: the index in the list, and the class whose turn it used.
struct Choice {
    index: usize,
    class: Option<(usize, usize)>,
}

impl Flin {
    pub fn new(config: &FlinConfig, dies: usize, page_bytes: u64) -> Flin {
        let per_die = |bytes: u64| bytes / (dies.max(1) as u64) / page_bytes.max(1);
        let die = DieState {
            recent: Vec::new(),
            high: Vec::new(),
            writes_since_gc: Vec::new(),
            turns: [RoundRobin { turn: 0, credit: CLASSES[0].1 }; 2],
        };
        Flin {
            epoch_ns: config.epoch_ns.max(1),
            alpha: [per_die(config.alpha_read_bytes), per_die(config.alpha_write_bytes)],
            fairness_threshold: config.fairness_threshold,
            epoch: 0,
            dies: vec![die; dies],
        }
    }

    /// Classifies the flows when `now_ns` is in a later epoch: by the last epoch's arrivals, or all
    /// low when a whole epoch passed without any classification (nothing arrived anywhere).
    fn roll(&mut self, now_ns: u64) {
        let epoch = now_ns / self.epoch_ns;
        if epoch == self.epoch {
            return;
        }
        let next = epoch == self.epoch + 1;
        for die in &mut self.dies {
            die.high.resize(die.recent.len(), [false; 2]);
            for (high, recent) in die.high.iter_mut().zip(die.recent.iter_mut()) {
                for direction in [READ, WRITE] {
                    high[direction] = next && recent[direction] >= self.alpha[direction];
                }
                *recent = [0; 2];
            }
        }
        self.epoch = epoch;
    }

    /// Whether `flow` is of high intensity in `direction` at `die` at `now_ns` (reading a pending
    /// classification without making it, for `goes_first`).
    fn is_high(&self, die: usize, flow: u8, direction: usize, now_ns: u64) -> bool {
        if flow == NO_FLOW {
            return false;
        }
        let state = &self.dies[die];
        let epoch = now_ns / self.epoch_ns;
        if epoch == self.epoch {
            state.high.get(flow as usize).is_some_and(|high| high[direction])
        } else if epoch == self.epoch + 1 {
            state.recent.get(flow as usize).is_some_and(|recent| recent[direction] >= self.alpha[direction])
        } else {
            false
        }
    }

    /// Stage 1: the queue (indices in `waiting`) that the paper's insertion builds from `members`
    /// (one class's host reads or writes, in arrival order).
    fn stage_one(
        &self,
        die: usize,
        now_ns: u64,
        waiting: &[Candidate],
        members: &[usize],
        direction: usize,
    ) -> Vec<usize> {
        let mut queue: Vec<usize> = Vec::with_capacity(members.len());
        // Transactions moved forward by the F_thr rule: no later high-intensity one passes them.
        let mut barriers: Vec<usize> = Vec::new();
        let mut low_tail = 0;
        for &member in members {
            let flow = waiting[member].flow;
            if !self.is_high(die, flow, direction, now_ns) {
                queue.insert(low_tail, member);
                low_tail += 1;
                self.place_for_fairness(&mut queue, 0, low_tail - 1, now_ns, waiting, &barriers);
                continue;
            }
            queue.push(member);
            let at = queue.len() - 1;
            let (fairness, worst) = self.mean_slowdown_fairness(&queue, low_tail, now_ns, waiting);
            if fairness < self.fairness_threshold && worst == Some(flow) {
                // Forward, past other flows' transactions, up to the low-intensity part.
                let mut position = at;
                while position > low_tail
                    && waiting[queue[position - 1]].flow != flow
                    && !barriers.contains(&queue[position - 1])
                {
                    position -= 1;
                }
                queue.remove(at);
                queue.insert(position, member);
                barriers.push(member);
            } else {
                self.place_for_fairness(&mut queue, low_tail, at, now_ns, waiting, &barriers);
            }
        }
        queue
    }

    /// The slowdown of each transaction of `queue` in its place: (shared time, alone time).
    fn times(queue: &[usize], now_ns: u64, waiting: &[Candidate]) -> Vec<(f64, f64)> {
        let mut ahead = 0u64;
        let mut flows_ahead: Vec<(u8, u64)> = Vec::new();
        queue
            .iter()
            .map(|&index| {
                let candidate = &waiting[index];
                let service = candidate.service_ns.max(1);
                let own_ahead = flows_ahead.iter().find(|(flow, _)| *flow == candidate.flow).map_or(0, |entry| entry.1);
                let shared = now_ns.saturating_sub(candidate.since_ns) + ahead + service;
                let alone = own_ahead + service;
                ahead += service;
                match flows_ahead.iter_mut().find(|(flow, _)| *flow == candidate.flow) {
                    Some(entry) => entry.1 += service,
                    None => flows_ahead.push((candidate.flow, service)),
                }
                (shared as f64, alone as f64)
            })
            .collect()
    }

    /// Fairness over the flows of `queue[from..]`: min over max of their mean slowdowns, and the
    /// flow with the largest (None with fewer than two flows).
    fn mean_slowdown_fairness(
        &self,
        queue: &[usize],
        from: usize,
        now_ns: u64,
        waiting: &[Candidate],
    ) -> (f64, Option<u8>) {
        let times = Self::times(queue, now_ns, waiting);
        let mut flows: Vec<(u8, f64, u32)> = Vec::new();
        for (position, &index) in queue.iter().enumerate().skip(from) {
            let (shared, alone) = times[position];
            let flow = waiting[index].flow;
            match flows.iter_mut().find(|entry| entry.0 == flow) {
                Some(entry) => {
                    entry.1 += shared / alone;
                    entry.2 += 1;
                }
                None => flows.push((flow, shared / alone, 1)),
            }
        }
        if flows.len() < 2 {
            return (1.0, None);
        }
        let mut worst = (flows[0].0, f64::MIN);
        let mut least = f64::MAX;
        for &(flow, sum, count) in &flows {
            let mean = sum / count as f64;
            if mean > worst.1 {
                worst = (flow, mean);
            }
            least = least.min(mean);
        }
        (least / worst.1, Some(worst.0))
    }

    /// Moves `queue[new]` to the position in `start..=new` that maximises fairness (min over max
    /// of the slowdowns of `queue[start..=new]`), not past its own flow's previous transaction nor
    /// a barrier; it stays where it is unless a place is strictly fairer.
    fn place_for_fairness(
        &self,
        queue: &mut Vec<usize>,
        start: usize,
        new: usize,
        now_ns: u64,
        waiting: &[Candidate],
        barriers: &[usize],
    ) {
        if new == start {
            return;
        }
        let member = queue[new];
        let new_service = waiting[member].service_ns.max(1) as f64;
        let times = Self::times(&queue[..new], now_ns, waiting);
        let (new_shared_at_tail, new_alone) = Self::times(&queue[..=new], now_ns, waiting)[new];
        // Slowdowns before `p` are unchanged; from `p` on they grow by the new one's service.
        let span = new - start;
        let mut suffix = vec![(f64::MAX, f64::MIN); span + 1];
        for offset in (0..span).rev() {
            let (shared, alone) = times[start + offset];
            let slowdown = (shared + new_service) / alone;
            suffix[offset] = (suffix[offset + 1].0.min(slowdown), suffix[offset + 1].1.max(slowdown));
        }
        let mut prefix = vec![(f64::MAX, f64::MIN); span + 1];
        for offset in 0..span {
            let (shared, alone) = times[start + offset];
            let slowdown = shared / alone;
            prefix[offset + 1] = (prefix[offset].0.min(slowdown), prefix[offset].1.max(slowdown));
        }
        let fairness_at = |offset: usize, new_shared: f64| {
            let slowdown = new_shared / new_alone;
            let least = prefix[offset].0.min(suffix[offset].0).min(slowdown);
            let most = prefix[offset].1.max(suffix[offset].1).max(slowdown);
            least / most
        };
        let mut best = (span, fairness_at(span, new_shared_at_tail));
        let mut new_shared = new_shared_at_tail;
        for offset in (0..span).rev() {
            let passed = queue[start + offset];
            if waiting[passed].flow == waiting[member].flow || barriers.contains(&passed) {
                break;
            }
            new_shared -= waiting[passed].service_ns.max(1) as f64;
            let fairness = fairness_at(offset, new_shared);
            if fairness > best.1 {
                best = (offset, fairness);
            }
        }
        if best.0 != span {
            queue.remove(new);
            queue.insert(start + best.0, member);
        }
    }

    /// The head of `class`'s queue of host transactions of `kind` (stage 1).
    fn head(
        &self,
        die: usize,
        now_ns: u64,
        waiting: &[Candidate],
        kind: OperationKind,
        class: PriorityClass,
    ) -> Option<usize> {
        let mut members: Vec<usize> = (0..waiting.len())
            .filter(|&index| waiting[index].kind == kind && waiting[index].priority == class)
            .collect();
        if members.len() <= 1 {
            return members.first().copied();
        }
        members.sort_by_key(|&index| waiting[index].sequence);
        let direction = if kind == OperationKind::HostWrite { WRITE } else { READ };
        self.stage_one(die, now_ns, waiting, &members, direction).first().copied()
    }

    /// The read (`direction` READ) or write in line: a mapping-table one first, else stage 2 over
    /// the classes and stage 1 within the class. Returns (index, the class turn used).
    fn in_line(&self, die: usize, now_ns: u64, waiting: &[Candidate], direction: usize) -> Option<Choice> {
        let (mapping, host) = if direction == READ {
            (OperationKind::MappingRead, OperationKind::HostRead)
        } else {
            (OperationKind::MappingWrite, OperationKind::HostWrite)
        };
        let oldest = |kind: OperationKind, class: Option<PriorityClass>| {
            (0..waiting.len())
                .filter(|&index| {
                    waiting[index].kind == kind && class.is_none_or(|class| waiting[index].priority == class)
                })
                .min_by_key(|&index| waiting[index].sequence)
        };
        if let Some(index) = oldest(mapping, None) {
            return Some(Choice { index, class: None });
        }
        if let Some(index) = oldest(host, Some(PriorityClass::Urgent)) {
            return Some(Choice { index, class: None });
        }
        let present = |class: PriorityClass| waiting.iter().any(|c| c.kind == host && c.priority == class);
        let turn = self.dies[die].turns[direction].peek(present)?;
        let index = self.head(die, now_ns, waiting, host, CLASSES[turn].0)?;
        Some(Choice { index, class: Some((direction, turn)) })
    }

    /// Stage 3 (and GC): what the die serves next.
    fn choose(&self, die: usize, now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> Choice {
        let is_gc = |kind: OperationKind| {
            matches!(kind, OperationKind::GcRead | OperationKind::GcWrite | OperationKind::GcErase)
        };
        let oldest_gc = || {
            (0..waiting.len()).filter(|&index| is_gc(waiting[index].kind)).min_by_key(|&index| waiting[index].sequence)
        };
        if gc_urgent && waiting.iter().any(|c| is_gc(c.kind) || c.kind == OperationKind::MappingRead) {
            return Choice { index: super::oldest_of_lowest_rank(waiting, |c| rank(c.kind, true)), class: None };
        }
        let read = self.in_line(die, now_ns, waiting, READ);
        let write = self.in_line(die, now_ns, waiting, WRITE);
        let (read, write) = match (read, write) {
            (None, None) => {
                // Only GC waits: its steps in order.
                let index = oldest_gc().unwrap_or(0);
                return Choice { index, class: None };
            }
            (Some(read), None) => return read,
            (None, Some(write)) => return self.gc_before(die, waiting, write, oldest_gc()),
            (Some(read), Some(write)) => (read, write),
        };
        let (r, w) = (&waiting[read.index], &waiting[write.index]);
        let read_cost = r.service_ns.max(1) as f64;
        let write_cost = w.service_ns.max(1) as f64;
        let copies = self.gc_copies(die, waiting, w);
        let gc_time = if copies == 0 {
            0.0
        } else {
            let erase = waiting.iter().find(|c| c.kind == OperationKind::GcErase).map_or(0.0, |c| c.service_ns as f64);
            copies as f64 * (read_cost + write_cost) + erase
        };
        let read_wait = now_ns.saturating_sub(r.since_ns) as f64;
        let write_wait = now_ns.saturating_sub(w.since_ns) as f64;
        let read_proportional_wait = (read_wait + write_cost + gc_time) / read_cost;
        let write_proportional_wait = (write_wait + read_cost + gc_time) / write_cost;
        if read_proportional_wait >= write_proportional_wait {
            read
        } else {
            self.gc_before(die, waiting, write, oldest_gc())
        }
    }

    /// GCM: of the pending GC copies (GC reads), those charged to the write `write`'s flow, in
    /// proportion to its share of the die's host writes since the last GC.
    fn gc_copies(&self, die: usize, waiting: &[Candidate], write: &Candidate) -> u64 {
        let pending = waiting.iter().filter(|c| c.kind == OperationKind::GcRead).count() as u64;
        if pending == 0 || write.flow == NO_FLOW {
            return 0;
        }
        let counts = &self.dies[die].writes_since_gc;
        let total: u64 = counts.iter().sum();
        let own = counts.get(write.flow as usize).copied().unwrap_or(0);
        if total == 0 {
            return 0;
        }
        pending * own / total
    }

    /// The write was selected: its flow's share of the GC work goes first.
    fn gc_before(&self, die: usize, waiting: &[Candidate], write: Choice, oldest_gc: Option<usize>) -> Choice {
        match oldest_gc {
            Some(gc) if self.gc_copies(die, waiting, &waiting[write.index]) > 0 => Choice { index: gc, class: None },
            _ => write,
        }
    }
}

impl SchedulingPolicy for Flin {
    fn pick(&mut self, die: u32, now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> usize {
        self.roll(now_ns);
        let choice = self.choose(die as usize, now_ns, waiting, gc_urgent);
        let state = &mut self.dies[die as usize];
        if let Some((direction, turn)) = choice.class {
            state.turns[direction].consume(turn);
        }
        let chosen = &waiting[choice.index];
        match chosen.kind {
            OperationKind::HostWrite if chosen.flow != NO_FLOW => {
                let flow = chosen.flow as usize;
                if state.writes_since_gc.len() <= flow {
                    state.writes_since_gc.resize(flow + 1, 0);
                }
                state.writes_since_gc[flow] += 1;
            }
            OperationKind::GcErase => state.writes_since_gc.iter_mut().for_each(|count| *count = 0),
            _ => {}
        }
        choice.index
    }

    fn goes_first(&self, die: u32, candidate: &Candidate, now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> bool {
        let mut all = waiting.to_vec();
        all.push(*candidate);
        self.choose(die as usize, now_ns, &all, gc_urgent).index == waiting.len()
    }

    fn arrived(&mut self, die: u32, now_ns: u64, candidate: &Candidate) {
        self.roll(now_ns);
        if !candidate.kind.is_host() || candidate.flow == NO_FLOW {
            return;
        }
        let state = &mut self.dies[die as usize];
        let flow = candidate.flow as usize;
        if state.recent.len() <= flow {
            state.recent.resize(flow + 1, [0; 2]);
        }
        let direction = if candidate.kind == OperationKind::HostWrite { WRITE } else { READ };
        state.recent[flow][direction] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{candidate, OperationKind::*};
    use super::*;
    use crate::config::PriorityClass::*;

    /// One die of 4 KiB pages, 1 us epochs; a flow is of high read (write) intensity after 2 reads
    /// (writes) in an epoch.
    fn flin() -> Flin {
        let config = FlinConfig {
            epoch_ns: 1_000,
            alpha_read_bytes: 2 * 4096,
            alpha_write_bytes: 2 * 4096,
            ..FlinConfig::default()
        };
        Flin::new(&config, 1, 4096)
    }

    /// A host read of `flow`, waiting since `since_ns`, of 100 ns service.
    fn read(flow: u8, sequence: u64, since_ns: u64) -> Candidate {
        Candidate { flow, since_ns, service_ns: 100, ..candidate(HostRead, Medium, sequence) }
    }

    /// Flow 1's three reads since 1000 ns, then flow 0's one since 1010 ns.
    fn backlog() -> Vec<Candidate> {
        vec![read(1, 1, 1_000), read(1, 2, 1_000), read(1, 3, 1_000), read(0, 4, 1_010)]
    }

    #[test]
    fn a_low_intensity_flow_goes_ahead_of_a_high_intensity_backlog() {
        let mut policy = flin();
        // Epoch 0: flow 1 sends three reads to the die (at least 2: high intensity in epoch 1).
        for sequence in 0..3 {
            policy.arrived(0, 10, &read(1, sequence, 10));
        }
        let waiting = backlog();
        assert_eq!(policy.pick(0, 1_100, &waiting, false), 3);
        // It would also suspend a program for it, and not for another of flow 1's reads.
        assert!(policy.goes_first(0, &read(0, 9, 1_100), 1_100, &waiting[..3], false));
        assert!(!policy.goes_first(0, &read(1, 9, 1_100), 1_100, &waiting[..3], false));
        // Without the classification (nothing arrived in epoch 0) the oldest goes first.
        assert_eq!(flin().pick(0, 1_100, &waiting, false), 0);
    }

    #[test]
    fn a_new_transaction_takes_the_place_that_maximises_fairness() {
        // All low intensity. At 1100 ns, flow 0's read at the tail would be slowed down 4.9x
        // ((90 waited + 300 ahead + 100) / 100) against flow 1's 2, 1.5 and 1.33: fairness 0.27.
        // Before flow 1's second read, slowdowns 2, 2, 1.67 and 2.9: fairness 0.57, the best
        // (before the third: 0.38; at the head: 1.67 / 3 = 0.56).
        let policy = flin();
        let waiting = backlog();
        assert_eq!(policy.stage_one(0, 1_100, &waiting, &[0, 1, 2, 3], READ), vec![0, 3, 1, 2]);
        // Flow 1's reads keep their order: a transaction never passes its own flow's.
        let same_flow = vec![read(1, 1, 1_000), read(1, 2, 1_000), read(1, 3, 1_000), read(1, 4, 1_010)];
        assert_eq!(policy.stage_one(0, 1_100, &same_flow, &[0, 1, 2, 3], READ), vec![0, 1, 2, 3]);
    }

    #[test]
    fn below_the_fairness_threshold_the_most_slowed_down_flow_moves_forward() {
        let mut policy = flin();
        // Both flows of high read intensity in epoch 1.
        for (sequence, flow) in [0, 0, 1, 1].into_iter().enumerate() {
            policy.arrived(0, 10, &read(flow, sequence as u64, 10));
        }
        policy.roll(1_000);
        // Flow 1's six reads since 1000 ns; flow 0's since 1000 ns and 1010 ns arrive after them.
        let mut waiting: Vec<Candidate> = (1..=6).map(|sequence| read(1, sequence, 1_000)).collect();
        waiting.push(read(0, 7, 1_000));
        waiting.push(read(0, 8, 1_010));
        let order = policy.stage_one(0, 1_100, &waiting, &(0..8).collect::<Vec<_>>(), READ);
        // Flow 0's mean slowdown is the largest and fairness is below 0.6: its second read moves
        // forward to just behind its first (which fairness placed), and is not passed.
        let first = order.iter().position(|&index| index == 6).expect("flow 0's first");
        let second = order.iter().position(|&index| index == 7).expect("flow 0's second");
        assert_eq!(second, first + 1, "{order:?}");
        assert!(first < 6, "{order:?}");
    }

    #[test]
    fn the_read_or_the_write_with_the_larger_proportional_wait_goes_first() {
        let mut policy = flin();
        let read = Candidate { since_ns: 9_950, service_ns: 100, ..candidate(HostRead, Medium, 2) };
        let write = |since_ns| Candidate { since_ns, service_ns: 1_000, ..candidate(HostWrite, Medium, 1) };
        // Read: (50 waited + 1000 of the write) / 100 = 10.5; write: (5000 + 100) / 1000 = 5.1.
        assert_eq!(policy.pick(0, 10_000, &[write(5_000), read], false), 1);
        // Write waited 20 us: (20000 + 100) / 1000 = 20.1 > (50 + 1000) / 100.
        assert_eq!(policy.pick(0, 30_000, &[write(9_900), Candidate { since_ns: 29_950, ..read }], false), 0);
        // GC waits: the write's flow's share of the copies goes before the write when the write
        // wins. With no host write served since the last GC, none is charged to it...
        let gc = Candidate { since_ns: 0, service_ns: 100, ..candidate(GcRead, Medium, 0) };
        let mut fresh = flin();
        assert_eq!(fresh.pick(0, 30_000, &[write(9_900), gc], false), 0);
        // ...once flow 0 has had a write served, its share (all of the one copy) goes first...
        assert_eq!(fresh.pick(0, 30_000, &[write(9_900), gc], false), 1);
        // ...until an erase ends the collection.
        let erase = Candidate { service_ns: 3_000, ..candidate(GcErase, Medium, 0) };
        assert_eq!(fresh.pick(0, 30_000, &[erase], false), 0);
        assert_eq!(fresh.pick(0, 30_000, &[write(9_900), gc], false), 0);
        // Urgent GC goes before everything.
        assert_eq!(policy.pick(0, 30_000, &[write(9_900), read, gc], true), 2);
    }
}
