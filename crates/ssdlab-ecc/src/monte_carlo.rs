//! Monte Carlo frame error rates of the decoders over the NAND channel.
//!
//! Each frame is real random data, encoded, written to cells (the other pages of the word line carry
//! random data too, so the channel is asymmetric and data dependent), read through the channel
//! model and decoded (LDPC frames by the decoder; a BCH frame by its error count, which decides a
//! bounded-distance decoder's outcome exactly, see `simulate_frame`). Frame f draws from its own stream seeded by (seed, f), and frames run in
//! batches on the rayon pool; the tally is folded in frame order and stops only at batch boundaries,
//! so the result is the same for any number of threads. Stopping: at `target_failures` failures or
//! `max_frames` frames. Confidence: Wilson score interval at 95 %.

use crate::bch::BchCode;
use crate::channel::Channel;
use crate::ldpc::min_sum::{CheckNodeRule, MinSumDecoder};
use crate::ldpc::QcLdpcCode;
use crate::read_model::{LlrSource, ReadInput, ReadModel};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use ssdlab_engine::random::{splitmix64, Xoshiro256PlusPlus};

/// A decoder together with the read that feeds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "decoder")]
pub enum DecoderKind {
    /// BCH (t = 256) on one hard read of the page.
    Bch,
    /// Min-sum on one hard read with a fixed LLR magnitude.
    LdpcHard,
    /// Quick-LDPC (seed 000): one hard read, LLRs predicted from P/E count and retention.
    QuickLdpc,
    /// EP-LDPC without upper/lower cells (seed 000): the whole word line read hard.
    EpLdpc,
    /// Min-sum with hard plus `extra_levels` soft sensing levels.
    LdpcSoft { extra_levels: u32 },
}

impl DecoderKind {
    pub fn read_input(self) -> ReadInput {
        match self {
            DecoderKind::Bch | DecoderKind::LdpcHard => ReadInput::Hard,
            DecoderKind::QuickLdpc => ReadInput::Quick,
            DecoderKind::EpLdpc => ReadInput::WordLine,
            DecoderKind::LdpcSoft { extra_levels } => ReadInput::Soft { extra_levels },
        }
    }

    /// Short stable name used in tables, figures and the command line.
    pub fn label(self) -> String {
        match self {
            DecoderKind::Bch => "bch".into(),
            DecoderKind::LdpcHard => "ldpc-hard".into(),
            DecoderKind::QuickLdpc => "quick-ldpc".into(),
            DecoderKind::EpLdpc => "ep-ldpc".into(),
            DecoderKind::LdpcSoft { extra_levels } => format!("ldpc-soft-{extra_levels}"),
        }
    }

    /// Parses a [`DecoderKind::label`].
    pub fn from_label(label: &str) -> Option<Self> {
        match label {
            "bch" => Some(DecoderKind::Bch),
            "ldpc-hard" => Some(DecoderKind::LdpcHard),
            "quick-ldpc" => Some(DecoderKind::QuickLdpc),
            "ep-ldpc" => Some(DecoderKind::EpLdpc),
            _ => {
                let levels: u32 = label.strip_prefix("ldpc-soft-")?.parse().ok()?;
                (1..=crate::sensing::MAX_EXTRA_LEVELS)
                    .contains(&levels)
                    .then_some(DecoderKind::LdpcSoft { extra_levels: levels })
            }
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct StopRule {
    pub target_failures: u64,
    pub max_frames: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CurvePoint {
    pub decoder: DecoderKind,
    pub page: usize,
    pub pe_cycles: f64,
    pub retention_hours: f64,
    pub chip: usize,
    /// Raw bit error rate of the page from the channel model (exact).
    pub rber: f64,
    /// Raw bit errors observed over the simulated frames.
    pub measured_rber: f64,
    pub frames: u64,
    pub failures: u64,
    pub frame_error_rate: f64,
    pub ci95_low: f64,
    pub ci95_high: f64,
    pub mean_iterations: f64,
}

/// The codes a Monte Carlo run uses (built once; both are deterministic constructions).
pub struct Codes {
    pub bch: BchCode,
    pub ldpc: QcLdpcCode,
}

impl Codes {
    pub fn storage_4kb() -> Self {
        Codes { bch: BchCode::storage_4kb(), ldpc: QcLdpcCode::storage_4kb() }
    }
}

struct FrameResult {
    failed: bool,
    bit_errors: u64,
    bits: u64,
    iterations: u32,
}

pub fn wilson_interval(failures: u64, frames: u64) -> (f64, f64) {
    wilson_interval_at(failures, frames, 1.959_963_985)
}

/// Wilson score interval for `z` standard deviations (1.96 for 95 %, 3.29 for 99.9 %).
pub fn wilson_interval_at(failures: u64, frames: u64, z: f64) -> (f64, f64) {
    if frames == 0 {
        return (0.0, 1.0);
    }
    let n = frames as f64;
    let p = failures as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn frame_seed(seed: u64, frame: u64) -> u64 {
    let mut state = seed ^ frame.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    splitmix64(&mut state)
}

/// Min-sum settings used by every LDPC decoder of the lab (normalized, factor 0.75; 20 iterations).
pub const MIN_SUM_RULE: CheckNodeRule = CheckNodeRule::Normalized { factor: 0.75 };
pub const MIN_SUM_ITERATIONS: u32 = 20;

/// Simulates one curve point.
/// Cells read (with known data) to estimate LLRs when they come from data, not the channel.
pub const LLR_TRAINING_CELLS: usize = 1 << 20;

pub fn run_point(
    codes: &Codes,
    channel: &Channel,
    page: usize,
    decoder: DecoderKind,
    stop: StopRule,
    seed: u64,
    llr_source: LlrSource,
) -> CurvePoint {
    let reads = [ChipRead::new(channel, page, decoder, llr_source, seed)];
    let (frames, failures, bit_errors, bits, iterations) = run_frames(codes, &reads, decoder, stop, seed);
    let (ci95_low, ci95_high) = wilson_interval(failures, frames);
    CurvePoint {
        decoder,
        page,
        pe_cycles: channel.stress.pe_cycles,
        retention_hours: channel.stress.retention_hours,
        chip: channel.stress.chip,
        rber: channel.raw_bit_error_rate(page),
        measured_rber: if bits > 0 { bit_errors as f64 / bits as f64 } else { 0.0 },
        frames,
        failures,
        frame_error_rate: if frames > 0 { failures as f64 / frames as f64 } else { 0.0 },
        ci95_low,
        ci95_high,
        mean_iterations: if frames > 0 { iterations as f64 / frames as f64 } else { 0.0 },
    }
}

/// Frame error rate of codewords spread evenly over several chips (seed 002 §3.3, n-way data
/// placement interleaving): the codeword's bits are cut into `channels.len()` contiguous equal
/// parts, part j stored on (and read from) chip j's channel; the decoder sees each part's LLRs
/// from its own chip. Returns (frames, failures).
pub fn run_interleaved(
    codes: &Codes,
    channels: &[Channel],
    page: usize,
    decoder: DecoderKind,
    stop: StopRule,
    seed: u64,
) -> (u64, u64) {
    let run = run_interleaved_measured(codes, channels, page, decoder, stop, seed);
    (run.frames, run.failures)
}

/// What [`run_interleaved_measured`] counted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InterleavedRun {
    pub frames: u64,
    pub failures: u64,
    /// Raw bit errors over bits read, over the whole codeword (all its parts): the error rate the
    /// decoder faced.
    pub measured_rber: f64,
}

/// [`run_interleaved`] with the raw bit error rate the codewords met, so that a test can check that
/// a spread codeword sees the mean of its parts' error rates.
pub fn run_interleaved_measured(
    codes: &Codes,
    channels: &[Channel],
    page: usize,
    decoder: DecoderKind,
    stop: StopRule,
    seed: u64,
) -> InterleavedRun {
    let reads: Vec<ChipRead> =
        channels.iter().map(|channel| ChipRead::new(channel, page, decoder, LlrSource::Channel, seed)).collect();
    let (frames, failures, bit_errors, bits, _) = run_frames(codes, &reads, decoder, stop, seed);
    InterleavedRun { frames, failures, measured_rber: if bits > 0 { bit_errors as f64 / bits as f64 } else { 0.0 } }
}

/// How one chip's cells are read: its sampling model and the decoder input of each fine region.
struct ChipRead {
    model: ReadModel,
    /// Per fine region (a `u8` index: these tables need no bounds checks in the per-bit loops): the
    /// decoder input, and the page bit read.
    llr_of_fine: [i16; 256],
    page_bit_of_fine: [u8; 256],
}

impl ChipRead {
    fn new(channel: &Channel, page: usize, decoder: DecoderKind, llr_source: LlrSource, seed: u64) -> Self {
        let mut model = ReadModel::new(channel, page, decoder.read_input());
        if llr_source == LlrSource::Estimated {
            // Training reads draw from their own stream, apart from the frames'.
            model.estimate_llrs(LLR_TRAINING_CELLS, &mut Xoshiro256PlusPlus::seed_from_u64(frame_seed(seed, u64::MAX)));
        }
        let mut llr_of_fine = [0i16; 256];
        let mut page_bit_of_fine = [0u8; 256];
        for (fine, &class) in model.class_of_fine.iter().enumerate().take(256) {
            llr_of_fine[fine] = MinSumDecoder::quantize(model.class_llrs[class as usize]);
            page_bit_of_fine[fine] = model.page_bit_of_fine[fine];
        }
        ChipRead { model, llr_of_fine, page_bit_of_fine }
    }
}

/// Frames between two checks of the stop rule. It used to be 8 per thread of the pool, so the tables
/// depended on the machine's cores; 16 is what it was on the 2-core machines every shipped table and
/// test was made on, so their numbers are unchanged.
pub const BATCH_FRAMES: u64 = 16;

/// Simulates frames in parallel batches until the stop rule holds; returns (frames, failures,
/// bit errors, bits, decoder iterations).
///
/// The stop rule is checked after every batch of [`BATCH_FRAMES`] frames (the frames counted, and so
/// the tables, depend on that; a fixed batch makes them the same on every machine). To keep the pool
/// busy, several batches are simulated in one parallel pass when the failures so far say the point
/// will need them (up to 8 batches, or 2 per thread on larger machines, half the batches expected to
/// remain); their results are then taken batch by batch with the rule checked between batches, so the
/// counts are exactly those of one batch at a time, and frames past the stop are simulated and dropped.
fn run_frames(
    codes: &Codes,
    reads: &[ChipRead],
    decoder: DecoderKind,
    stop: StopRule,
    seed: u64,
) -> (u64, u64, u64, u64, u64) {
    let batch = BATCH_FRAMES;
    let most_ahead = (2 * rayon::current_num_threads() as u64).max(8);
    let (mut frames, mut failures, mut bit_errors, mut bits, mut iterations) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut ahead = 1u64;
    while frames < stop.max_frames && failures < stop.target_failures {
        let count = (batch * ahead).min(stop.max_frames - frames);
        let results: Vec<FrameResult> = (frames..frames + count)
            .into_par_iter()
            .map_init(
                || (MinSumDecoder::new(&codes.ldpc, MIN_SUM_RULE, MIN_SUM_ITERATIONS), Vec::new(), Vec::new()),
                |(ldpc_decoder, fine, quantized), frame| {
                    simulate_frame(codes, reads, decoder, ldpc_decoder, fine, quantized, frame_seed(seed, frame))
                },
            )
            .collect();
        for slice in results.chunks(batch as usize) {
            if !(frames < stop.max_frames && failures < stop.target_failures) {
                break;
            }
            for result in slice {
                frames += 1;
                failures += result.failed as u64;
                bit_errors += result.bit_errors;
                bits += result.bits;
                iterations += result.iterations as u64;
            }
        }
        // Batches expected to remain at the failure rate so far (all of them without a failure yet).
        let left = stop.max_frames.saturating_sub(frames).div_ceil(batch);
        let expected = if failures == 0 {
            left
        } else {
            (stop.target_failures.saturating_sub(failures) * frames).div_ceil(failures * batch).min(left)
        };
        ahead = (expected / 2).clamp(1, most_ahead);
    }
    (frames, failures, bit_errors, bits, iterations)
}

/// Chip j's share of a codeword of `length` bits cut into `reads.len()` contiguous parts:
/// [j * length / parts, (j + 1) * length / parts).
fn parts<'a>(
    reads: &'a [ChipRead],
    length: usize,
) -> impl Iterator<Item = (&'a ChipRead, std::ops::Range<usize>)> + 'a {
    let count = reads.len();
    reads.iter().enumerate().map(move |(j, read)| (read, j * length / count..(j + 1) * length / count))
}

fn simulate_frame(
    codes: &Codes,
    reads: &[ChipRead],
    decoder: DecoderKind,
    ldpc_decoder: &mut MinSumDecoder<'_>,
    fine: &mut Vec<u8>,
    quantized: &mut Vec<i16>,
    seed: u64,
) -> FrameResult {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    match decoder {
        DecoderKind::Bch => {
            let data: Vec<u8> = (0..codes.bch.k / 8).map(|_| rng.next_u64() as u8).collect();
            let clean = codes.bch.encode(&data);
            let bits: Vec<u8> = (0..clean.len()).map(|i| clean.get(i) as u8).collect();
            fine.resize(bits.len(), 0);
            let mut bit_errors = 0u64;
            for (read, range) in parts(reads, bits.len()) {
                read.model.sample(&bits[range.clone()], &mut rng, &mut fine[range.clone()]);
                bit_errors += fine[range.clone()]
                    .iter()
                    .zip(&bits[range])
                    .map(|(&f, &bit)| (read.page_bit_of_fine[f as usize] != bit) as u64)
                    .sum::<u64>();
            }
            // A bounded-distance decoder's outcome is its error count: up to t errors are always
            // corrected; with more, the decoder either fails or flips at most t bits (its locator
            // is refused above degree t, `BchCode::decode`), which cannot reach the codeword sent.
            // So the frame fails exactly when it has more than t errors, and the decoder (about
            // 70 % of a BCH frame's time) need not run; `bch_outcome_is_its_error_count` checks
            // the rule against the decoder around t.
            let failed = bit_errors > codes.bch.t as u64;
            FrameResult { failed, bit_errors, bits: clean.len() as u64, iterations: 0 }
        }
        _ => {
            let code = &codes.ldpc;
            let info: Vec<u8> = (0..code.k()).map(|_| (rng.next_u64() & 1) as u8).collect();
            let word = code.encode(&info);
            fine.resize(word.len(), 0);
            let mut bit_errors = 0u64;
            quantized.clear();
            for (read, range) in parts(reads, word.len()) {
                read.model.sample(&word[range.clone()], &mut rng, &mut fine[range.clone()]);
                quantized.extend(fine[range.clone()].iter().zip(&word[range]).map(|(&f, &bit)| {
                    bit_errors += (read.page_bit_of_fine[f as usize] != bit) as u64;
                    read.llr_of_fine[f as usize]
                }));
            }
            let outcome = ldpc_decoder.decode(quantized);
            let failed = !outcome.success || !ldpc_decoder.information_matches(&info);
            FrameResult { failed, bit_errors, bits: word.len() as u64, iterations: outcome.iterations }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{CellKind, ChannelParameters, Stress};

    /// The rule the BCH frames use instead of decoding: the decoder fails (or returns a word other
    /// than the one sent) exactly when the frame has more than t errors.
    #[test]
    fn bch_outcome_is_its_error_count() {
        let code = BchCode::storage_4kb();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for errors in [0, 1, code.t - 1, code.t, code.t + 1, code.t + 2, code.t + 40, 3 * code.t] {
            for _ in 0..3 {
                let data: Vec<u8> = (0..code.k / 8).map(|_| rng.next_u64() as u8).collect();
                let clean = code.encode(&data);
                let mut received = clean.clone();
                let mut flipped = std::collections::BTreeSet::new();
                while flipped.len() < errors {
                    flipped.insert((rng.next_u64() % clean.len() as u64) as usize);
                }
                for &position in &flipped {
                    received.flip(position);
                }
                let failed = code.decode(&mut received).is_err() || received != clean;
                assert_eq!(failed, errors > code.t, "{errors} errors");
            }
        }
    }

    #[test]
    fn parts_cover_the_codeword_once_in_order() {
        let parameters = ChannelParameters::default_for(CellKind::Mlc);
        let channel = Channel::new(&parameters, Stress::new(0.0, 0.0));
        for (length, count) in [(36_864, 1), (36_864, 2), (36_864, 4), (10, 3), (7, 4)] {
            let reads: Vec<ChipRead> =
                (0..count).map(|_| ChipRead::new(&channel, 0, DecoderKind::LdpcHard, LlrSource::Channel, 1)).collect();
            let ranges: Vec<std::ops::Range<usize>> = parts(&reads, length).map(|(_, r)| r).collect();
            assert_eq!(ranges.len(), count);
            assert_eq!((ranges[0].start, ranges[count - 1].end), (0, length));
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start), "{ranges:?}");
        }
    }

    #[test]
    fn a_point_is_the_same_on_any_number_of_threads() {
        // The stop rule stops this point after a few batches (40 failures at a high error rate), so
        // how frames are grouped would show in the counts if it depended on the pool.
        let codes = Codes::storage_4kb();
        let channel = Channel::new(&ChannelParameters::default_for(CellKind::Mlc), Stress::new(14_000.0, 720.0));
        let stop = StopRule { target_failures: 40, max_frames: 2_000 };
        let point = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| run_point(&codes, &channel, 1, DecoderKind::LdpcHard, stop, 9, LlrSource::Channel))
        };
        let one = point(1);
        assert!(one.failures >= 40 && one.frames < 2_000 && one.frames % BATCH_FRAMES == 0, "{one:?}");
        for threads in [2, 3, 8] {
            let other = point(threads);
            assert_eq!(
                (other.frames, other.failures, other.measured_rber),
                (one.frames, one.failures, one.measured_rber),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn interleaving_a_good_and_a_bad_chip_lands_between_them() {
        let codes = Codes::storage_4kb();
        let parameters = ChannelParameters::default_for(CellKind::Mlc);
        // Chip 3 (factor 1.09) fails hard decisions often at 10k P/E, chip 2 (0.97) almost never.
        let channel = |chip| Channel::new(&parameters, Stress { chip, ..Stress::new(10_000.0, 720.0) });
        let stop = StopRule { target_failures: u64::MAX, max_frames: 200 };
        let alone =
            |chip| run_interleaved(&codes, &[channel(chip)], 1, DecoderKind::LdpcHard, stop, 5).1 as f64 / 200.0;
        let (weak, strong) = (alone(3), alone(2));
        let (_, mixed) = run_interleaved(&codes, &[channel(2), channel(3)], 1, DecoderKind::LdpcHard, stop, 5);
        let mixed = mixed as f64 / 200.0;
        assert!(weak > 0.5 && strong < 0.05, "weak {weak}, strong {strong}");
        assert!(mixed < weak / 2.0, "interleaved {mixed} vs weak chip alone {weak}");
    }
}
