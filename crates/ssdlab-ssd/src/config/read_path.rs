//! `[read_path]`: read strategy, soft sensing, decoders (their sensing and decode times), data age,
//! the workload class the controller sees, and decoding-failure tables.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The largest `read_path.retention_time_scale`: the retention clock counts u32 milliseconds (49.7
/// days), which a scale of 1e9 spends in 4.3 ms of I/O time; beyond it every page reads as old as
/// the clock can tell almost at once, which `ftl.precondition` ages express directly. (Issue 32:
/// 1e15 made the online workload class step its window every nanosecond and the run hang.)
pub const MAX_RETENTION_TIME_SCALE: f64 = 1e9;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReadPathConfig {
    pub strategy: ReadStrategyKind,
    /// ECC decode time after each transfer.
    pub decode_latency_ns: u64,
    /// Extra time per additional sensing level (soft read).
    pub extra_sensing_latency_ns: u64,
    /// Extra sensing levels of a soft read.
    pub soft_sensing_levels: u32,
    /// Measured time of a full soft sensing (all `soft_sensing_levels` extra levels at once; seed 002
    /// §2.3: about 125 us for seven-level sensing); a step of k levels takes k / levels of it.
    /// Absent: k x `extra_sensing_latency_ns`.
    pub soft_sensing_latency_ns: Option<u64>,
    /// Measured channel time of a full soft read's results (seed 002 §2.3: about 80 us for the
    /// seven-level results of 4 KB at 200 MB/s); a step of k levels takes k / levels of it. Absent: one
    /// page transfer per level.
    pub soft_transfer_latency_ns: Option<u64>,
    /// Look-ahead sensing (seed 002 §3.1): when the die has no queued work, the first soft sensing
    /// starts as soon as the hard sensing ends and is cancelled (RESET) if hard decoding succeeds.
    pub look_ahead: bool,
    /// When look-ahead asks whether the die is free: `after_hard_sensing` (the seed's: "sixlevel
    /// soft-decision sensing immediately starts once hard-decision memory sensing finishes if there
    /// is no outstanding read request for the memory plane"; a read that waited in the die's queue
    /// may still look ahead, one that arrived during the hard sensing stops it) or `at_arrival`
    /// (the die idle when the read arrives, ssdlab's rule before issue 45).
    pub look_ahead_idle_test: LookAheadIdleTest,
    /// Data placement interleaving's cost side (seed 002 §3.3): chip classes whose chips hold the
    /// parts of each other's codewords, e.g. [[0, 2], [1, 3]] (chip class = chip mod the classes
    /// named; partners sit on the same channel). Every read then senses the page's position on
    /// every chip of its group (each die busy for the sensing; the parts together are one page on the
    /// bus), and every host write is padded to whole groups of pages (counted in
    /// `result.interleaving`). The reliability side is the decoding table's (`chip_rows`). Empty: none.
    pub interleave_groups: Vec<Vec<u32>>,
    /// How often decoding fails (the two-step and progressive strategies sample it per read).
    pub decoding: DecodingConfig,
    /// Sensing and decode time of each decoder kind (seed 000's policies choose among them).
    pub decoders: DecodersConfig,
    /// Failure probabilities by decoder, chip class, P/E count and data age (seed 000's policies).
    pub decoder_tables: DecoderTablesConfig,
    /// The data-age clock runs this many times faster than I/O time: a replayed sample of minutes
    /// can stand for the days of retention of the workload it was cut from (see `ftl/retention.rs`).
    /// Above 0 and at most [`MAX_RETENTION_TIME_SCALE`].
    pub retention_time_scale: f64,
    /// A read fails at most this often with the decoder a policy picks before it switches to the
    /// stronger one: the switch points are where the ECC lab's failure probability crosses it.
    pub target_failure_probability: f64,
    /// Seed 000's conventional ECC: where it switches from BCH to soft LDPC.
    pub conventional_switch: ConventionalSwitch,
    /// With `conventional_switch = "design_retention"`: the data age (hours) at which BCH's
    /// tolerable P/E is taken, one switch point for all data.
    pub conventional_retention_hours: f64,
    /// Seed 000's AOA-ECC: Quick-LDPC, then EP-LDPC from a switch P/E count that depends on the
    /// workload class.
    pub aoa_ecc: AoaEccConfig,
    /// The workload class the controller sees (seed 000 Fig. 4): measured online or fixed.
    pub workload_class: WorkloadClassConfig,
}

impl ReadPathConfig {
    /// Sensing time of one extra level: the measured full soft sensing's share when given.
    pub fn extra_sensing_level_ns(&self) -> u64 {
        self.soft_sensing_latency_ns
            .map_or(self.extra_sensing_latency_ns, |total| total / self.soft_sensing_levels.max(1) as u64)
    }
}

impl Default for ReadPathConfig {
    fn default() -> Self {
        ReadPathConfig {
            strategy: ReadStrategyKind::HardDecision,
            decode_latency_ns: 0,
            extra_sensing_latency_ns: 14_000,
            soft_sensing_levels: 6,
            soft_sensing_latency_ns: None,
            soft_transfer_latency_ns: None,
            look_ahead: false,
            look_ahead_idle_test: LookAheadIdleTest::AfterHardSensing,
            interleave_groups: Vec::new(),
            decoding: DecodingConfig::default(),
            decoders: DecodersConfig::default(),
            decoder_tables: DecoderTablesConfig::default(),
            retention_time_scale: 1.0,
            target_failure_probability: 1e-3,
            conventional_switch: ConventionalSwitch::DesignRetention,
            conventional_retention_hours: 144.0,
            aoa_ecc: AoaEccConfig::default(),
            workload_class: WorkloadClassConfig::default(),
        }
    }
}

/// A decoder kind: the decoder together with the sensing that feeds it (the ECC lab's decoders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DecoderKind {
    /// Min-sum LDPC on one hard read (the plain read of every strategy).
    #[default]
    LdpcHard = 0,
    /// Min-sum LDPC with hard plus `soft_sensing_levels` extra sensing levels.
    LdpcSoft = 1,
    /// BCH on one hard read.
    Bch = 2,
    /// Quick-LDPC (seed 000): one page read, LLRs predicted from the read, P/E count and retention.
    QuickLdpc = 3,
    /// EP-LDPC without upper/lower cells (seed 000): the whole word line read (every page of it).
    EpLdpc = 4,
}

/// Number of [`DecoderKind`]s.
pub const DECODER_KINDS: usize = 5;

impl DecoderKind {
    pub const ALL: [DecoderKind; DECODER_KINDS] =
        [DecoderKind::LdpcHard, DecoderKind::LdpcSoft, DecoderKind::Bch, DecoderKind::QuickLdpc, DecoderKind::EpLdpc];

    /// The name in config tables and results.
    pub fn label(self) -> &'static str {
        match self {
            DecoderKind::LdpcHard => "ldpc_hard",
            DecoderKind::LdpcSoft => "ldpc_soft",
            DecoderKind::Bch => "bch",
            DecoderKind::QuickLdpc => "quick_ldpc",
            DecoderKind::EpLdpc => "ep_ldpc",
        }
    }

    pub fn from_label(label: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.label() == label)
    }
}

/// `[read_path.decoders]`: one table per decoder kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct DecodersConfig {
    pub ldpc_hard: DecoderTimingConfig,
    pub ldpc_soft: DecoderTimingConfig,
    pub bch: DecoderTimingConfig,
    pub quick_ldpc: DecoderTimingConfig,
    /// Default: two pages transferred (the word line of an MLC cell).
    pub ep_ldpc: DecoderTimingConfig,
}

impl DecodersConfig {
    pub fn get(&self, kind: DecoderKind) -> &DecoderTimingConfig {
        match kind {
            DecoderKind::LdpcHard => &self.ldpc_hard,
            DecoderKind::LdpcSoft => &self.ldpc_soft,
            DecoderKind::Bch => &self.bch,
            DecoderKind::QuickLdpc => &self.quick_ldpc,
            DecoderKind::EpLdpc => &self.ep_ldpc,
        }
    }
}

/// How long a decoder kind's read senses and decodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct DecoderTimingConfig {
    /// Hard sensing time per page type (lower, upper, extra), or one value for every page type.
    /// Empty: the NAND's `read_latency_ns` (a plain page read).
    pub sensing_latency_ns: Vec<u64>,
    /// Decode time; absent: `read_path.decode_latency_ns`.
    pub decode_latency_ns: Option<u64>,
    /// Pages moved over the channel after the hard sensing; absent: one (EP-LDPC: two, the word line).
    pub transfer_pages: Option<u32>,
    /// Logic gates of the decoder hardware this kind runs on (a cost table: seed 000 counts BCH
    /// 159k and LDPC 470k gates). Kinds on the same hardware give the same `hardware` name.
    pub gates: Option<u64>,
    /// The decoder hardware this kind runs on (LDPC kinds share one decoder in seed 000); absent:
    /// the kind's own name.
    pub hardware: Option<String>,
}

/// `[read_path.decoder_tables]`: failure probability of one read by decoder kind, chip class, P/E
/// count and data age. Produce them with `ssdlab ecc decoder-tables`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct DecoderTablesConfig {
    /// P/E grid, ascending.
    pub pe_cycles: Vec<f64>,
    /// Data-age grid in hours, ascending, above 0 (reads interpolate in ln(hours)).
    pub retention_hours: Vec<f64>,
    /// Decoder label (`bch`, `ldpc_hard`, `ldpc_soft`, `quick_ldpc`, `ep_ldpc`) -> one table per
    /// chip class (an SSD chip uses class `chip mod classes`), each [P/E index][retention index].
    pub failure_probabilities: BTreeMap<String, Vec<Vec<Vec<f64>>>>,
    /// Optional 95 % bounds of each entry of `failure_probabilities` (same labels and shapes;
    /// `ssdlab ecc decoder-tables` writes them: the mean of each page type's Wilson interval). The
    /// read path does not use them; reports state the tolerable P/E's interval from them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub failure_probability_lower_bounds: BTreeMap<String, Vec<Vec<Vec<f64>>>>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub failure_probability_upper_bounds: BTreeMap<String, Vec<Vec<Vec<f64>>>>,
}

/// When look-ahead sensing tests the die for other work (`read_path.look_ahead_idle_test`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LookAheadIdleTest {
    AfterHardSensing,
    AtArrival,
}

/// Where the conventional controller stops trusting BCH.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConventionalSwitch {
    /// At BCH's tolerable P/E for `conventional_retention_hours` old data (the seed's controller,
    /// which knows neither the workload class nor each page's age).
    DesignRetention,
    /// Per read, at BCH's tolerable P/E for that page's own data age (an adaptive controller).
    DataAge,
}

/// `[read_path.aoa_ecc]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AoaEccConfig {
    /// Which decoder a read tries first, from the workload class and the block's wear.
    pub decision_rule: AoaEccDecisionRule,
    /// The data retention each class stands for (seed 000 §3: hot data lives at most a day, cold
    /// data six days or more); the switch P/E of a class is where Quick-LDPC's failure probability
    /// at this age crosses `read_path.target_failure_probability`.
    pub hot_retention_hours: f64,
    pub cold_retention_hours: f64,
    /// Overrides of the computed switch points (P/E counts).
    pub hot_switch_pe_cycles: Option<f64>,
    pub cold_switch_pe_cycles: Option<f64>,
}

impl Default for AoaEccConfig {
    fn default() -> Self {
        AoaEccConfig {
            decision_rule: AoaEccDecisionRule::DominanceAndWear,
            hot_retention_hours: 24.0,
            cold_retention_hours: 144.0,
            hot_switch_pe_cycles: None,
            cold_switch_pe_cycles: None,
        }
    }
}

/// `read_path.aoa_ecc.decision_rule`: how AOA-ECC picks its first decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AoaEccDecisionRule {
    /// Seed 000 §2 (Fig. 2): write-dominant workloads read with EP-LDPC at every wear (decode time
    /// matters little to them and their rewrites cause many errors); read-dominant ones read with
    /// Quick-LDPC below their hot/cold class's switch P/E and with EP-LDPC from it (§3, Fig. 5-6).
    DominanceAndWear,
    /// Every class reads with Quick-LDPC below its hot/cold class's switch P/E and with EP-LDPC from
    /// it; read/write dominance is ignored (ssdlab's rule before issue 36).
    WearOnly,
}

/// `[read_path.workload_class]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WorkloadClassConfig {
    /// `online` (measured over a sliding window) or a fixed class.
    pub mode: WorkloadClassMode,
    /// Window length in hours of data-age time (the retention clock); seed 000 classifies a week.
    pub window_hours: f64,
    /// The window slides in this many steps.
    pub window_steps: u32,
    /// What the read share counts: read requests among requests (`requests`), or pages read among
    /// pages moved (`data`). Seed 000 classes by "読み出しデータの割合" (the share of read data), which
    /// may mean either.
    pub read_share: ReadShareBasis,
}

impl Default for WorkloadClassConfig {
    fn default() -> Self {
        WorkloadClassConfig {
            mode: WorkloadClassMode::Online,
            window_hours: 168.0,
            window_steps: 14,
            read_share: ReadShareBasis::Requests,
        }
    }
}

/// What a workload class's read share counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadShareBasis {
    /// Read requests over all requests.
    Requests,
    /// Pages read over pages read and written.
    Data,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkloadClassMode {
    Online,
    HotReadDominant,
    HotWriteDominant,
    ColdReadDominant,
    ColdWriteDominant,
}

/// Decoding-failure probabilities of one read, by sensing precision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DecodingConfig {
    /// One list per chip class (an SSD chip uses class `chip mod classes`): entry k is the
    /// probability that decoding fails with k extra sensing levels (k = 0: hard decision), up to
    /// `soft_sensing_levels`. Non-increasing along a list (more levels never hurt). Empty: decoding
    /// always succeeds. Produce them with
    /// `ssdlab ecc decoding-table --pe PE --retention-hours HOURS` (`ssdlab_ecc::decoding_table`).
    pub failure_probabilities: Vec<Vec<f64>>,
    /// Which list each chip class uses (chip class = chip mod the length of this list); empty: list
    /// `chip mod lists`. With data placement interleaving (seed 002 §3.3) one list describes the
    /// codewords spread over a group of chips, and every chip of the group uses it
    /// (`ssdlab ecc decoding-table --interleave-group ...` writes both).
    pub chip_rows: Vec<usize>,
    /// Wear dependence: P/E counts (ascending) at which `failure_probabilities_by_pe` holds one
    /// table each (same shape as `failure_probabilities`, which must then be empty). A read of a
    /// block with N erases uses the tables interpolated linearly in N, clamped to the first and
    /// last (`ssdlab ecc decoding-table --pe A --pe B ...` writes both).
    pub pe_cycles: Vec<f64>,
    pub failure_probabilities_by_pe: Vec<Vec<Vec<f64>>>,
    /// Block-to-block spread within a chip (seed 002 Fig. 9): each chip row is this many lists, one
    /// per class of blocks (row = chip row x classes + class; a block's class is a fixed scramble
    /// of its index, so classes hold equal shares of the blocks). `ssdlab ecc decoding-table
    /// --block-factor F ...` writes the lists and this. Absent: no spread.
    pub block_classes: Option<u32>,
    /// With block classes and data placement interleaving: the parts of a codeword, each in a
    /// block of its own whose class is drawn independently (the read block's class for the part on
    /// the read chip, a fixed scramble of (block, part) for the others). Each chip row then holds
    /// one list per multiset of the parts' classes, as non-decreasing tuples in lexicographic order
    /// (`ssdlab ecc decoding-table --interleave-group ... --block-factor ...` writes both), so the
    /// codeword's outcome follows the mean of its n blocks' error rates (seed 002 §3.3). 1: the
    /// read block's class decides alone (one list per class).
    pub codeword_parts: u32,
    /// What one decoding draw decides: each page read on its own (`per_page`), or every page of a
    /// host request together (`per_request`: seed 002 gives its failure rate as "x % of the read
    /// operations", and a 25-page request drawn page by page nearly always meets a failure).
    pub draw: DecodingDraw,
}

impl Default for DecodingConfig {
    fn default() -> Self {
        DecodingConfig {
            failure_probabilities: Vec::new(),
            chip_rows: Vec::new(),
            pe_cycles: Vec::new(),
            failure_probabilities_by_pe: Vec::new(),
            block_classes: None,
            codeword_parts: 1,
            draw: DecodingDraw::PerPage,
        }
    }
}

impl DecodingConfig {
    /// Lists per chip row: one per block class, or one per multiset of the codeword parts'
    /// classes.
    pub fn lists_per_chip_row(&self) -> usize {
        multiset_count(self.block_classes.unwrap_or(1).max(1) as usize, self.codeword_parts.max(1) as usize)
    }
}

/// Non-decreasing tuples of `parts` values out of `classes`: C(classes + parts - 1, parts).
pub fn multiset_count(classes: usize, parts: usize) -> usize {
    (1..=parts).fold(1usize, |count, i| count.saturating_mul(classes + i - 1) / i)
}

/// The most lists one chip row may hold (multisets of the codeword parts' block classes).
const MAX_LISTS_PER_CHIP_ROW: usize = 512;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DecodingDraw {
    #[default]
    PerPage,
    PerRequest,
}

impl DecodingConfig {
    /// Every table with the P/E count it holds for (one table at P/E 0 without wear dependence).
    pub fn tables(&self) -> Vec<(f64, Vec<Vec<f64>>)> {
        if self.pe_cycles.is_empty() {
            vec![(0.0, self.failure_probabilities.clone())]
        } else {
            self.pe_cycles.iter().copied().zip(self.failure_probabilities_by_pe.iter().cloned()).collect()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadStrategyKind {
    /// One hard-decision sensing, transfer and decode; decoding always succeeds.
    HardDecision,
    /// Hard decision, then a full soft read on every page (the worst case of the two-step read).
    AlwaysSoft,
    /// Seed 002's baseline (eq. 1): hard sensing and decoding; on failure, sensing with all
    /// `soft_sensing_levels` extra levels, transfer and decoding.
    TwoStep,
    /// Seed 002 §3.2 (eq. 3-4): on failure, one more extra sensing level per retry until decoding
    /// succeeds or `soft_sensing_levels` is reached.
    Progressive,
    /// Seed 000's conventional ECC: BCH while BCH's failure probability at the block's P/E and the
    /// page's age stays below the target, soft LDPC (hard + all extra levels) after; a failed BCH
    /// read is retried with soft LDPC.
    Conventional,
    /// Seed 000's AOA-ECC: Quick-LDPC below the workload class's switch P/E, EP-LDPC above; a
    /// failed read climbs to EP-LDPC, then soft LDPC.
    AoaEcc,
}

/// Checks the read strategy and its decoding tables. Returns (field path, message) on the first failure.
pub(super) fn validate(read_path: &ReadPathConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    if read_path.soft_sensing_levels == 0 || read_path.soft_sensing_levels > 6 {
        return fail("read_path.soft_sensing_levels", format!("must be 1..=6, got {}", read_path.soft_sensing_levels));
    }
    let levels = read_path.soft_sensing_levels as usize;
    let decoding = &read_path.decoding;
    if decoding.pe_cycles.len() != decoding.failure_probabilities_by_pe.len() {
        return fail(
            "read_path.decoding.failure_probabilities_by_pe",
            format!(
                "has {} tables but pe_cycles has {} entries; one table per P/E count",
                decoding.failure_probabilities_by_pe.len(),
                decoding.pe_cycles.len()
            ),
        );
    }
    if !decoding.pe_cycles.is_empty() && !decoding.failure_probabilities.is_empty() {
        return fail(
            "read_path.decoding.failure_probabilities",
            "give either failure_probabilities or pe_cycles with failure_probabilities_by_pe, not both".into(),
        );
    }
    if let Some(i) = (0..decoding.pe_cycles.len()).find(|&i| {
        !(decoding.pe_cycles[i].is_finite() && decoding.pe_cycles[i] >= 0.0)
            || (i > 0 && decoding.pe_cycles[i] <= decoding.pe_cycles[i - 1])
    }) {
        return fail(
            "read_path.decoding.pe_cycles",
            format!(
                "entry {i} ({}) must be >= 0 and above the one before: the list is ascending",
                decoding.pe_cycles[i]
            ),
        );
    }
    let named: Vec<(String, &Vec<Vec<f64>>)> = if decoding.pe_cycles.is_empty() {
        vec![("read_path.decoding.failure_probabilities".to_string(), &decoding.failure_probabilities)]
    } else {
        decoding
            .failure_probabilities_by_pe
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("read_path.decoding.failure_probabilities_by_pe[{i}]"), t))
            .collect()
    };
    let lists = named[0].1.len();
    for (name, table) in &named {
        if table.len() != lists {
            return fail(
                name,
                format!(
                    "has {} lists but the first table has {lists}; every P/E count needs the same rows",
                    table.len()
                ),
            );
        }
        for (class, list) in table.iter().enumerate() {
            let field = format!("{name}[{class}]");
            if list.len() != levels + 1 {
                return fail(
                    &field,
                    format!(
                        "needs {} entries (hard decision, then 1..={levels} extra sensing levels), got {}",
                        levels + 1,
                        list.len()
                    ),
                );
            }
            if let Some((k, p)) = list.iter().enumerate().find(|(_, p)| !(0.0..=1.0).contains(*p)) {
                return fail(&field, format!("entry {k} is {p}, not a probability in [0, 1]"));
            }
            if let Some(k) = (1..list.len()).find(|&k| list[k] > list[k - 1]) {
                return fail(
                    &field,
                    format!(
                        "entry {k} ({}) exceeds entry {} ({}): more sensing levels never fail more often",
                        list[k],
                        k - 1,
                        list[k - 1]
                    ),
                );
            }
        }
    }
    if let Some(classes) = decoding.block_classes {
        if !(1..=16).contains(&classes) {
            return fail("read_path.decoding.block_classes", format!("must be 1..=16, got {classes}"));
        }
        if decoding.codeword_parts <= 1 && !lists.is_multiple_of(classes as usize) {
            return fail(
                "read_path.decoding.block_classes",
                format!("{classes} classes per chip row, but failure_probabilities has {lists} lists, not a multiple"),
            );
        }
    }
    if !(1..=8).contains(&decoding.codeword_parts) {
        return fail("read_path.decoding.codeword_parts", format!("must be 1..=8, got {}", decoding.codeword_parts));
    }
    let per_row = decoding.lists_per_chip_row();
    if decoding.codeword_parts > 1 {
        if decoding.block_classes.unwrap_or(1) <= 1 {
            return fail(
                "read_path.decoding.codeword_parts",
                "applies with block_classes of at least 2 (without block spread every part sees the same lists)".into(),
            );
        }
        if per_row > MAX_LISTS_PER_CHIP_ROW {
            return fail(
                "read_path.decoding.codeword_parts",
                format!("{} parts over {} block classes make {per_row} lists per chip row, more than {MAX_LISTS_PER_CHIP_ROW}", decoding.codeword_parts, decoding.block_classes.unwrap_or(1)),
            );
        }
        if !lists.is_multiple_of(per_row) {
            return fail(
                "read_path.decoding.codeword_parts",
                format!(
                    "{} parts over {} block classes make {per_row} lists per chip row, but failure_probabilities has {lists} lists, not a multiple (a table with one list per class was computed with shared part classes: set codeword_parts = 1)",
                    decoding.codeword_parts,
                    decoding.block_classes.unwrap_or(1)
                ),
            );
        }
    }
    let chip_row_count = lists / per_row;
    if !decoding.chip_rows.is_empty() && lists == 0 {
        return fail("read_path.decoding.chip_rows", "needs failure_probabilities to point into".into());
    }
    if let Some((chip, row)) = decoding.chip_rows.iter().enumerate().find(|(_, &row)| row >= chip_row_count) {
        return fail(
            "read_path.decoding.chip_rows",
            format!(
                "chip class {chip} uses row {row}, but failure_probabilities has {chip_row_count} chip rows (0..{})",
                chip_row_count.saturating_sub(1)
            ),
        );
    }
    if !read_path.interleave_groups.is_empty() {
        let classes = read_path.interleave_groups.iter().flatten().count() as u32;
        let sizes: Vec<usize> = read_path.interleave_groups.iter().map(Vec::len).collect();
        if sizes.iter().any(|&size| size != sizes[0]) || sizes[0] < 2 {
            return fail(
                "read_path.interleave_groups",
                format!("groups must have one size of at least 2 chips, got sizes {sizes:?}"),
            );
        }
        if let Some(class) = (0..classes)
            .find(|class| read_path.interleave_groups.iter().flatten().filter(|&&c| c == *class).count() != 1)
        {
            return fail(
                "read_path.interleave_groups",
                format!("chip class {class} must be in exactly one group of the classes 0..{classes}"),
            );
        }
        if decoding.codeword_parts > 1 && decoding.codeword_parts as usize != sizes[0] {
            return fail(
                "read_path.decoding.codeword_parts",
                format!(
                    "is {} but read_path.interleave_groups spreads each codeword over {} chips",
                    decoding.codeword_parts, sizes[0]
                ),
            );
        }
        if !decoding.chip_rows.is_empty() {
            for group in &read_path.interleave_groups {
                let rows: Vec<usize> =
                    group.iter().map(|&class| decoding.chip_rows[class as usize % decoding.chip_rows.len()]).collect();
                if rows.iter().any(|&row| row != rows[0]) {
                    return fail("read_path.interleave_groups", format!("group {group:?} shares codewords, so its chips must share a decoding row, but read_path.decoding.chip_rows gives them {rows:?}"));
                }
            }
        }
    }
    let samples_failures = matches!(read_path.strategy, ReadStrategyKind::TwoStep | ReadStrategyKind::Progressive);
    if read_path.look_ahead && !samples_failures {
        return fail(
            "read_path.look_ahead",
            format!("applies to the two_step and progressive strategies, not {:?}", read_path.strategy),
        );
    }
    validate_decoders(read_path)?;
    validate_decoder_tables(&read_path.decoder_tables)?;
    validate_seed000(read_path)
}

fn validate_decoders(read_path: &ReadPathConfig) -> Result<(), (String, String)> {
    for kind in DecoderKind::ALL {
        let timing = read_path.decoders.get(kind);
        let field = |name: &str| format!("read_path.decoders.{}.{name}", kind.label());
        if timing.sensing_latency_ns.len() > 3 {
            return Err((
                field("sensing_latency_ns"),
                format!(
                    "has {} entries; give one per page type (lower, upper, extra) or one for all",
                    timing.sensing_latency_ns.len()
                ),
            ));
        }
        if let Some(index) = timing.sensing_latency_ns.iter().position(|&ns| ns == 0) {
            return Err((
                field("sensing_latency_ns"),
                format!("entry {index} is 0; a sensing takes time (leave the list empty for the NAND's read latency)"),
            ));
        }
        if let Some(pages) = timing.transfer_pages {
            if !(1..=8).contains(&pages) {
                return Err((field("transfer_pages"), format!("must be 1..=8 pages, got {pages}")));
            }
        }
    }
    let mut hardware_gates: BTreeMap<String, (u64, &str)> = BTreeMap::new();
    for kind in DecoderKind::ALL {
        let timing = read_path.decoders.get(kind);
        let Some(gates) = timing.gates else { continue };
        let field = format!("read_path.decoders.{}.gates", kind.label());
        if gates == 0 {
            return Err((field, "must be above 0 (leave it out when unknown)".into()));
        }
        let hardware = timing.hardware.clone().unwrap_or_else(|| kind.label().to_string());
        if let Some((other, other_kind)) = hardware_gates.get(&hardware) {
            if *other != gates {
                return Err((
                    field,
                    format!("is {gates} but {other_kind} runs on the same hardware `{hardware}` with {other} gates"),
                ));
            }
        }
        hardware_gates.insert(hardware, (gates, kind.label()));
    }
    for (field, value) in [
        ("soft_sensing_latency_ns", read_path.soft_sensing_latency_ns),
        ("soft_transfer_latency_ns", read_path.soft_transfer_latency_ns),
    ] {
        if value == Some(0) {
            return Err((format!("read_path.{field}"), "must be above 0 (leave it out for per-level times)".into()));
        }
    }
    let scale = read_path.retention_time_scale;
    if !(scale.is_finite() && scale > 0.0 && scale <= MAX_RETENTION_TIME_SCALE) {
        return Err((
            "read_path.retention_time_scale".into(),
            format!("how many times faster the data-age clock runs than I/O time: must be above 0 and at most {MAX_RETENTION_TIME_SCALE:e}, got {scale} (the clock counts u32 milliseconds, 49.7 days, which a scale of 1e9 spends in 4.3 ms of I/O time; a week replayed in a minute is about 1e4)"),
        ));
    }
    let target = read_path.target_failure_probability;
    if !(target > 0.0 && target < 1.0) {
        return Err(("read_path.target_failure_probability".into(), format!("must be within (0, 1), got {target}")));
    }
    Ok(())
}

fn validate_decoder_tables(tables: &DecoderTablesConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((format!("read_path.decoder_tables.{field}"), message));
    if tables.failure_probabilities.is_empty() {
        return Ok(());
    }
    let ascending =
        |values: &[f64]| (0..values.len()).find(|&i| !values[i].is_finite() || (i > 0 && values[i] <= values[i - 1]));
    if tables.pe_cycles.is_empty() {
        return fail("pe_cycles", "is empty; the tables need a P/E grid".into());
    }
    if let Some(i) = ascending(&tables.pe_cycles).or_else(|| tables.pe_cycles.iter().position(|&pe| pe < 0.0)) {
        return fail(
            "pe_cycles",
            format!("entry {i} ({}) must be >= 0 and above the one before: the grid is ascending", tables.pe_cycles[i]),
        );
    }
    if tables.retention_hours.is_empty() {
        return fail("retention_hours", "is empty; the tables need a retention grid".into());
    }
    if let Some(i) =
        ascending(&tables.retention_hours).or_else(|| tables.retention_hours.iter().position(|&h| h <= 0.0))
    {
        return fail(
            "retention_hours",
            format!(
                "entry {i} ({}) must be above 0 and above the one before: the grid is ascending",
                tables.retention_hours[i]
            ),
        );
    }
    let (pes, ages) = (tables.pe_cycles.len(), tables.retention_hours.len());
    for (label, rows) in &tables.failure_probabilities {
        let name = format!("failure_probabilities.{label}");
        if DecoderKind::from_label(label).is_none() {
            let known: Vec<&str> = DecoderKind::ALL.iter().map(|kind| kind.label()).collect();
            return fail(&name, format!("unknown decoder `{label}`; known: {}", known.join(", ")));
        }
        if rows.is_empty() {
            return fail(&name, "has no chip class; give at least one table".into());
        }
        for (class, by_pe) in rows.iter().enumerate() {
            if by_pe.len() != pes {
                return fail(
                    &format!("{name}[{class}]"),
                    format!("has {} rows but pe_cycles has {pes} entries; one row per P/E count", by_pe.len()),
                );
            }
            for (pe, by_age) in by_pe.iter().enumerate() {
                let field = format!("{name}[{class}][{pe}]");
                if by_age.len() != ages {
                    return fail(
                        &field,
                        format!("has {} entries but retention_hours has {ages}; one per retention time", by_age.len()),
                    );
                }
                if let Some((r, p)) = by_age.iter().enumerate().find(|(_, p)| !(0.0..=1.0).contains(*p)) {
                    return fail(&field, format!("entry {r} is {p}, not a probability in [0, 1]"));
                }
            }
        }
    }
    for (section, bounds) in [
        ("failure_probability_lower_bounds", &tables.failure_probability_lower_bounds),
        ("failure_probability_upper_bounds", &tables.failure_probability_upper_bounds),
    ] {
        for (label, rows) in bounds {
            let name = format!("{section}.{label}");
            let Some(estimates) = tables.failure_probabilities.get(label) else {
                return fail(&name, format!("bounds a table that failure_probabilities lacks (`{label}`)"));
            };
            let shape = |rows: &Vec<Vec<Vec<f64>>>| {
                rows.iter().map(|by_pe| by_pe.iter().map(Vec::len).collect::<Vec<_>>()).collect::<Vec<_>>()
            };
            if shape(rows) != shape(estimates) {
                return fail(
                    &name,
                    format!("must have the shape of failure_probabilities.{label} (chip classes x P/E x retention)"),
                );
            }
            if let Some(p) = rows.iter().flatten().flatten().find(|p| !(0.0..=1.0).contains(*p)) {
                return fail(&name, format!("has {p}, not a probability in [0, 1]"));
            }
        }
    }
    Ok(())
}

fn validate_seed000(read_path: &ReadPathConfig) -> Result<(), (String, String)> {
    let has = |label: &str| read_path.decoder_tables.failure_probabilities.contains_key(label);
    let aoa = &read_path.aoa_ecc;
    for (field, hours) in
        [("hot_retention_hours", aoa.hot_retention_hours), ("cold_retention_hours", aoa.cold_retention_hours)]
    {
        if !(hours.is_finite() && hours > 0.0) {
            return Err((
                format!("read_path.aoa_ecc.{field}"),
                format!("must be a finite number of hours above 0, got {hours}"),
            ));
        }
    }
    for (field, value) in
        [("hot_switch_pe_cycles", aoa.hot_switch_pe_cycles), ("cold_switch_pe_cycles", aoa.cold_switch_pe_cycles)]
    {
        if let Some(pe) = value {
            if !(pe.is_finite() && pe >= 0.0) {
                return Err((format!("read_path.aoa_ecc.{field}"), format!("must be a P/E count >= 0, got {pe}")));
            }
        }
    }
    let hours = read_path.conventional_retention_hours;
    if !(hours.is_finite() && hours > 0.0) {
        return Err((
            "read_path.conventional_retention_hours".into(),
            format!("must be a finite number of hours above 0, got {hours}"),
        ));
    }
    let class = &read_path.workload_class;
    if !(class.window_hours.is_finite() && class.window_hours > 0.0) {
        return Err((
            "read_path.workload_class.window_hours".into(),
            format!("must be a finite number of hours above 0, got {}", class.window_hours),
        ));
    }
    if !(1..=1000).contains(&class.window_steps) {
        return Err((
            "read_path.workload_class.window_steps".into(),
            format!("must be 1..=1000, got {}", class.window_steps),
        ));
    }
    match read_path.strategy {
        ReadStrategyKind::Conventional if !has("bch") => {
            Err(("read_path.decoder_tables.failure_probabilities".into(), "the conventional strategy needs a `bch` table to know when BCH stops being reliable (ssdlab ecc decoder-tables)".into()))
        }
        ReadStrategyKind::AoaEcc if !has("quick_ldpc") && (aoa.hot_switch_pe_cycles.is_none() || aoa.cold_switch_pe_cycles.is_none()) => Err((
            "read_path.decoder_tables.failure_probabilities".into(),
            "the aoa_ecc strategy needs a `quick_ldpc` table to compute its switch points (ssdlab ecc decoder-tables), or both read_path.aoa_ecc.*_switch_pe_cycles".into(),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod retention_scale_tests {
    #[test]
    fn retention_time_scale_has_a_ceiling() {
        for scale in ["1e15", "1e11", "1e300", "0.0", "-1.0"] {
            let error = crate::presets::load("seed000-aoa", &[format!("read_path.retention_time_scale={scale}")])
                .expect_err(scale)
                .to_string();
            assert!(error.contains("read_path.retention_time_scale") && error.contains("at most 1e9"), "{error}");
        }
        assert!(crate::presets::load("seed000-aoa", &["read_path.retention_time_scale=1e9".into()]).is_ok());
    }
}
