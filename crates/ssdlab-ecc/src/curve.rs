//! Frame-error-rate curves (seed 002 Fig. 3 and Fig. 10) and the versioned table that stores them
//! for the SSD read path.
//!
//! A curve puts each decoder's frame error rate against the page's raw bit error rate. Each RBER on
//! the grid is reached through the channel, not by flipping bits: the P/E count is found (by
//! bisection) at which the page's hard-read RBER equals the target after the given retention, and
//! frames are written and read through that channel. So every point is a real stress point and the
//! soft and word-line reads see the matching voltage distributions.
//!
//! What each number is, and how it was obtained, is in the table:
//! - simulated points carry frames, failures and a 95 % Wilson interval;
//! - BCH points also carry the exact binomial-tail failure rate (BCH fails exactly when more than t
//!   bits are wrong, and cells err independently in this channel);
//! - per decoder, the RBER tolerated at `comparison_frame_error_rate` (the lowest rate measured
//!   directly in reasonable time) is interpolated log-log between measured points (or, where the
//!   waterfall is so steep that the last point below it saw no failure, the middle of that
//!   measured bracket, labelled so), and the RBER tolerated at `target_frame_error_rate` (1e-15,
//!   seed 002) is exact for BCH and for LDPC extrapolated by a straight-line fit, weighted by
//!   failures, of log FER against log RBER through the waterfall's low end (the lowest measured
//!   points with failures and a frame error rate of at most 5 %), and labelled so. The waterfall bends (steeper at lower rates), so these extrapolations are rough:
//!   read them as a ranking, not as a design margin.
//!
//! Cost control: each decoder's grid is simulated from the highest RBER down, and stops after
//! `clean_points_before_stop` consecutive points without a failure in `max_frames` frames (lower
//! RBERs would only add more zero-failure points). Resolution where it matters: then up to
//! `refinements` points are added per decoder, each at the geometric middle of the grid interval
//! where the curve crosses `comparison_frame_error_rate`.
//!
//! The table is keyed by a hash of everything that determines it (table version, codes, decoder
//! settings, channel parameters, sensing, grid, stopping rule, seed); a cached table is reused only
//! when the key matches.

use crate::analytic::{binomial_tail, binomial_tolerable_rate};
use crate::channel::{CellKind, Channel, ChannelParameters, Stress};
use crate::monte_carlo::{run_point, Codes, CurvePoint, DecoderKind, StopRule, MIN_SUM_ITERATIONS, MIN_SUM_RULE};
use crate::read_model::LlrSource;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use ssdlab_engine::random::derive_seed;
use std::path::{Path, PathBuf};

/// Bumped whenever the meaning of a table field or the simulation behind it changes.
/// 4: the stop rule is checked every 16 frames on every machine (it was 8 per thread: tables made on
/// machines with other than 2 cores differed).
pub const TABLE_VERSION: u32 = 4;
/// Highest P/E count searched when looking for a target RBER.
const MAX_PE_CYCLES: f64 = 1.0e6;

#[derive(Debug, thiserror::Error)]
pub enum CurveError {
    #[error("ecc curve: field `{field}`: {message}")]
    InvalidSpec { field: &'static str, message: String },
    #[error("ecc curve: raw bit error rate {target:.3e} is out of reach on page {page} after {retention_hours} h of retention: the channel gives {fresh:.3e} fresh and {worn:.3e} at {MAX_PE_CYCLES:.0} P/E cycles (field `rbers`)")]
    RberOutOfReach { target: f64, page: usize, retention_hours: f64, fresh: f64, worn: f64 },
    #[error("ecc curve table {path}: {message}")]
    Table { path: PathBuf, message: String },
    #[error("ecc curve interrupted: {reason}")]
    Interrupted { reason: String },
    #[error(transparent)]
    Settings(#[from] ssdlab_settings::SettingsError),
}

/// The curve specs shipped in `configs/ecc/`, compiled in so `ssdlab ecc curve NAME` works anywhere.
const SHIPPED_SPECS: [(&str, &str); 2] = [
    ("seed002-fig3", include_str!("../../../configs/ecc/seed002-fig3.toml")),
    ("quick", include_str!("../../../configs/ecc/quick.toml")),
];

/// Names and TOML texts of the shipped curve specs.
pub fn shipped_specs() -> &'static [(&'static str, &'static str)] {
    &SHIPPED_SPECS
}

/// What to simulate. Plain data; [`CurveSpec::validate`] checks it once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CurveSpec {
    pub cell: CellKind,
    /// Channel constants; the cell kind's defaults when absent.
    pub channel: Option<ChannelParameters>,
    /// Page of the word line (0 = lower, 1 = upper, 2 = extra for TLC).
    pub page: usize,
    pub retention_hours: f64,
    pub storage_temperature_c: f64,
    pub chip: usize,
    /// Raw bit error rates of the curve's x axis.
    pub rbers: Vec<f64>,
    /// Decoder labels: bch, ldpc-hard, quick-ldpc, ep-ldpc, ldpc-soft-1 .. ldpc-soft-6.
    pub decoders: Vec<String>,
    /// Decoder LLRs from the channel model (`channel`) or estimated from reads of known data
    /// (`estimated`, 2^20 cells per point).
    pub llr_source: LlrSource,
    pub target_failures: u64,
    pub max_frames: u64,
    pub clean_points_before_stop: u32,
    /// Extra points per decoder, each halving (in log) the RBER interval where the curve crosses
    /// `comparison_frame_error_rate`, so the waterfall is resolved wherever it falls.
    pub refinements: u32,
    pub seed: u64,
    pub target_frame_error_rate: f64,
    pub comparison_frame_error_rate: f64,
}

impl Default for CurveSpec {
    fn default() -> Self {
        CurveSpec {
            cell: CellKind::Mlc,
            channel: None,
            page: 1,
            retention_hours: 720.0,
            storage_temperature_c: 40.0,
            chip: 0,
            rbers: log_grid(3e-3, 3e-2, 25),
            decoders: default_decoders(),
            llr_source: LlrSource::Channel,
            target_failures: 40,
            max_frames: 10_000,
            clean_points_before_stop: 2,
            refinements: 4,
            seed: 1,
            target_frame_error_rate: 1e-15,
            comparison_frame_error_rate: 1e-3,
        }
    }
}

pub fn default_decoders() -> Vec<String> {
    let mut labels: Vec<String> = ["bch", "ldpc-hard", "quick-ldpc", "ep-ldpc"].iter().map(|s| s.to_string()).collect();
    labels.extend((1..=6).map(|l| format!("ldpc-soft-{l}")));
    labels
}

/// `count` points from `low` to `high`, evenly spaced in log.
pub fn log_grid(low: f64, high: f64, count: usize) -> Vec<f64> {
    if count < 2 {
        return vec![low];
    }
    (0..count).map(|i| (low.ln() + (high.ln() - low.ln()) * i as f64 / (count - 1) as f64).exp()).collect()
}

impl CurveSpec {
    /// Reads a spec from TOML text (missing fields take their defaults) with `key=value` overrides;
    /// `origin` names the file in errors. The result is validated.
    pub fn from_toml_str(text: &str, origin: &str, overrides: &[String]) -> Result<CurveSpec, CurveError> {
        let spec: CurveSpec = ssdlab_settings::load(text, origin, overrides)?;
        spec.validate()?;
        Ok(spec)
    }

    pub fn channel_parameters(&self) -> ChannelParameters {
        self.channel.clone().unwrap_or_else(|| ChannelParameters::default_for(self.cell))
    }

    pub fn decoder_kinds(&self) -> Result<Vec<DecoderKind>, CurveError> {
        self.decoders
            .iter()
            .map(|label| {
                DecoderKind::from_label(label).ok_or_else(|| CurveError::InvalidSpec {
                    field: "decoders",
                    message: format!("unknown decoder `{label}`; known: {}", default_decoders().join(", ")),
                })
            })
            .collect()
    }

    pub fn validate(&self) -> Result<(), CurveError> {
        let invalid = |field: &'static str, message: String| Err(CurveError::InvalidSpec { field, message });
        let parameters = self.channel_parameters();
        if parameters.cell != self.cell {
            return invalid("channel.cell", format!("is {:?} but `cell` is {:?}", parameters.cell, self.cell));
        }
        if let Err((field, message)) = parameters.validate() {
            return invalid(field, message);
        }
        if self.page >= self.cell.bits() {
            return invalid(
                "page",
                format!("{:?} word lines have pages 0..{}, got {}", self.cell, self.cell.bits() - 1, self.page),
            );
        }
        if !(self.retention_hours >= 0.0 && self.retention_hours.is_finite()) {
            return invalid("retention_hours", format!("must be a non-negative number, got {}", self.retention_hours));
        }
        if self.rbers.is_empty() || self.rbers.iter().any(|&r| !(r > 0.0 && r < 0.5)) {
            return invalid("rbers", "must be a non-empty list of rates in (0, 0.5)".into());
        }
        if self.decoders.is_empty() {
            return invalid("decoders", "must name at least one decoder".into());
        }
        self.decoder_kinds()?;
        if self.max_frames == 0 || self.target_failures == 0 {
            return invalid("max_frames", "max_frames and target_failures must be at least 1".into());
        }
        for (field, value) in [
            ("target_frame_error_rate", self.target_frame_error_rate),
            ("comparison_frame_error_rate", self.comparison_frame_error_rate),
        ] {
            if !(value > 0.0 && value < 1.0) {
                return invalid(field, format!("must lie in (0, 1), got {value}"));
            }
        }
        Ok(())
    }

    /// The stress (P/E count at the spec's retention) at which the page's RBER equals `target`.
    pub fn stress_for_rber(&self, target: f64) -> Result<Stress, CurveError> {
        let parameters = self.channel_parameters();
        let stress = |pe: f64| Stress {
            pe_cycles: pe,
            retention_hours: self.retention_hours,
            storage_temperature_c: self.storage_temperature_c,
            chip: self.chip,
            block_factor: 1.0,
        };
        let rber = |pe: f64| Channel::new(&parameters, stress(pe)).raw_bit_error_rate(self.page);
        let (fresh, worn) = (rber(0.0), rber(MAX_PE_CYCLES));
        if !(fresh <= target && target <= worn) {
            return Err(CurveError::RberOutOfReach {
                target,
                page: self.page,
                retention_hours: self.retention_hours,
                fresh,
                worn,
            });
        }
        // Bisection, 100 halvings. Once the bracket is two adjacent floats its midpoint is one of its
        // ends, whose RBER is known: those halvings are decided without building a channel (same
        // steps, same answer, about 40 % fewer channels).
        let (mut low, mut high) = (0.0, MAX_PE_CYCLES);
        let (mut rber_low, mut rber_high) = (fresh, worn);
        for _ in 0..100 {
            let mid = 0.5 * (low + high);
            let value = if mid == low {
                rber_low
            } else if mid == high {
                rber_high
            } else {
                rber(mid)
            };
            if value < target {
                (low, rber_low) = (mid, value);
            } else {
                (high, rber_high) = (mid, value);
            }
        }
        Ok(stress(0.5 * (low + high)))
    }
}

/// The codes and decoder settings behind a table (part of its key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeDescription {
    pub bch_n: usize,
    pub bch_k: usize,
    pub bch_t: usize,
    pub ldpc_n: usize,
    pub ldpc_k: usize,
    pub ldpc_circulant_size: usize,
    pub ldpc_block_rows: usize,
    pub ldpc_block_columns: usize,
    pub ldpc_column_weight: usize,
    /// FNV-1a digest of the LDPC parity-check matrix (every circulant's position and shift).
    pub ldpc_matrix_digest: String,
    pub min_sum: String,
    pub min_sum_iterations: u32,
}

impl CodeDescription {
    pub fn of(codes: &Codes) -> Self {
        let ldpc = &codes.ldpc;
        let mut digest = Fnv1a::new();
        for c in ldpc.layers.iter().flatten() {
            digest.write(&(c.block_row as u64).to_le_bytes());
            digest.write(&(c.block_column as u64).to_le_bytes());
            digest.write(&(c.shift as u64).to_le_bytes());
        }
        CodeDescription {
            bch_n: codes.bch.n(),
            bch_k: codes.bch.k,
            bch_t: codes.bch.t,
            ldpc_n: ldpc.n(),
            ldpc_k: ldpc.k(),
            ldpc_circulant_size: ldpc.z,
            ldpc_block_rows: ldpc.block_rows,
            ldpc_block_columns: ldpc.block_columns,
            ldpc_column_weight: ldpc.column_weight,
            ldpc_matrix_digest: format!("{:016x}", digest.finish()),
            min_sum: format!("{MIN_SUM_RULE:?}"),
            min_sum_iterations: MIN_SUM_ITERATIONS,
        }
    }
}

/// One simulated point of one decoder's curve.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TablePoint {
    /// Decoder label (see [`DecoderKind::label`]).
    pub label: String,
    /// The RBER asked for; `point.rber` is the channel's RBER at the stress found for it.
    pub target_rber: f64,
    #[serde(flatten)]
    pub point: CurvePoint,
    /// BCH only: exact binomial-tail failure rate at `point.rber`.
    pub exact_frame_error_rate: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExactPoint {
    pub rber: f64,
    pub frame_error_rate: f64,
}

/// An RBER read off a curve, with how it was obtained.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Estimate {
    pub rber: f64,
    pub method: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecoderSummary {
    pub label: String,
    /// Smallest non-zero frame error rate measured on this curve.
    pub lowest_measured_frame_error_rate: Option<f64>,
    pub tolerable_rber_at_comparison: Option<Estimate>,
    pub tolerable_rber_at_target: Option<Estimate>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CurveTable {
    pub version: u32,
    pub key: String,
    pub spec: CurveSpec,
    pub codes: CodeDescription,
    pub points: Vec<TablePoint>,
    pub summaries: Vec<DecoderSummary>,
    /// BCH's exact curve on a dense grid (empty when BCH is not among the decoders), from the
    /// target frame error rate up to the spec's highest RBER, for plotting.
    pub exact_bch: Vec<ExactPoint>,
    pub threads: usize,
    pub wall_seconds: f64,
}

#[derive(Serialize)]
struct KeyMaterial<'a> {
    version: u32,
    codes: &'a CodeDescription,
    spec: &'a CurveSpec,
}

/// The cache key of a spec (with its channel resolved) and codes.
pub fn table_key(spec: &CurveSpec, codes: &CodeDescription) -> String {
    let mut resolved = spec.clone();
    resolved.channel = Some(spec.channel_parameters());
    let material =
        serde_json::to_vec(&KeyMaterial { version: TABLE_VERSION, codes, spec: &resolved }).unwrap_or_default();
    let mut hash = Fnv1a::new();
    hash.write(&material);
    format!("{:016x}", hash.finish())
}

/// Runs every (decoder, RBER) point of the spec. `progress(done, total)` is called after each point;
/// an error from it stops the run.
pub fn run_curve(
    spec: &CurveSpec,
    progress: &mut dyn FnMut(u64, u64) -> Result<(), CurveError>,
) -> Result<CurveTable, CurveError> {
    spec.validate()?;
    run_validated(spec, &Codes::storage_4kb(), progress)
}

fn run_validated(
    spec: &CurveSpec,
    codes: &Codes,
    progress: &mut dyn FnMut(u64, u64) -> Result<(), CurveError>,
) -> Result<CurveTable, CurveError> {
    let started = std::time::Instant::now();
    let description = CodeDescription::of(codes);
    let mut resolved = spec.clone();
    resolved.channel = Some(spec.channel_parameters());
    let parameters = resolved.channel_parameters();
    let decoders = spec.decoder_kinds()?;
    // Each RBER's stress is its own search: side by side on the pool (results in the spec's order).
    let stresses = spec.rbers.par_iter().map(|&r| spec.stress_for_rber(r)).collect::<Result<Vec<_>, _>>()?;
    let mut order: Vec<usize> = (0..spec.rbers.len()).collect();
    order.sort_by(|&a, &b| spec.rbers[b].total_cmp(&spec.rbers[a]));
    let total = (decoders.len() * (spec.rbers.len() + spec.refinements as usize)) as u64;
    let mut done = 0u64;
    let mut points: Vec<TablePoint> = Vec::new();
    let stop = StopRule { target_failures: spec.target_failures, max_frames: spec.max_frames };
    let simulate = |decoder: DecoderKind, target_rber: f64, stress: Stress| -> TablePoint {
        let label = decoder.label();
        let channel = Channel::new(&parameters, stress);
        // The seed depends on the decoder and the RBER, not on the point's position in the grid.
        let seed = derive_seed(spec.seed, &format!("{label}@{:016x}", target_rber.to_bits()));
        let point = run_point(codes, &channel, spec.page, decoder, stop, seed, spec.llr_source);
        let exact =
            (decoder == DecoderKind::Bch).then(|| binomial_tail(codes.bch.n() as u64, codes.bch.t as u64, point.rber));
        TablePoint { label, target_rber, point, exact_frame_error_rate: exact }
    };
    for &decoder in &decoders {
        let mut clean_in_a_row = 0;
        let mut curve: Vec<TablePoint> = Vec::new();
        for &index in &order {
            done += 1;
            if clean_in_a_row >= spec.clean_points_before_stop.max(1) {
                continue;
            }
            let point = simulate(decoder, spec.rbers[index], stresses[index]);
            clean_in_a_row = if point.point.failures == 0 { clean_in_a_row + 1 } else { 0 };
            curve.push(point);
            progress(done, total)?;
        }
        for _ in 0..spec.refinements {
            done += 1;
            curve.sort_by(|a, b| a.target_rber.total_cmp(&b.target_rber));
            let level = spec.comparison_frame_error_rate;
            let Some(pair) =
                curve.windows(2).find(|w| w[0].point.frame_error_rate < level && w[1].point.frame_error_rate >= level)
            else {
                progress(done, total)?;
                continue;
            };
            let (low, high) = (pair[0].target_rber, pair[1].target_rber);
            if high / low < 1.005 {
                progress(done, total)?;
                continue;
            }
            let middle = (low * high).sqrt();
            let point = simulate(decoder, middle, spec.stress_for_rber(middle)?);
            curve.push(point);
            progress(done, total)?;
        }
        points.extend(curve);
    }
    points.sort_by(|a, b| a.label.cmp(&b.label).then(a.target_rber.total_cmp(&b.target_rber)));
    let summaries = decoders.iter().map(|&d| summarise(spec, codes, d, &points)).collect();
    let (n, t) = (codes.bch.n() as u64, codes.bch.t as u64);
    let exact_bch = if decoders.contains(&DecoderKind::Bch) {
        let low = binomial_tolerable_rate(n, t, spec.target_frame_error_rate * 0.1);
        let high = spec.rbers.iter().copied().fold(low, f64::max);
        log_grid(low, high, 80)
            .into_iter()
            .map(|rber| ExactPoint { rber, frame_error_rate: binomial_tail(n, t, rber) })
            .collect()
    } else {
        Vec::new()
    };
    Ok(CurveTable {
        version: TABLE_VERSION,
        key: table_key(spec, &description),
        spec: resolved,
        codes: description,
        points,
        summaries,
        exact_bch,
        threads: rayon::current_num_threads(),
        wall_seconds: started.elapsed().as_secs_f64(),
    })
}

fn summarise(spec: &CurveSpec, codes: &Codes, decoder: DecoderKind, points: &[TablePoint]) -> DecoderSummary {
    let label = decoder.label();
    let mut curve: Vec<MeasuredPoint> = points
        .iter()
        .filter(|p| p.label == label)
        .map(|p| MeasuredPoint {
            rber: p.point.rber,
            frame_error_rate: p.point.frame_error_rate,
            frames: p.point.frames,
        })
        .collect();
    curve.sort_by(|a, b| a.rber.total_cmp(&b.rber));
    let lowest = curve
        .iter()
        .map(|m| m.frame_error_rate)
        .filter(|&f| f > 0.0)
        .fold(None, |acc: Option<f64>, f| Some(acc.map_or(f, |a| a.min(f))));
    let (n, t) = (codes.bch.n() as u64, codes.bch.t as u64);
    let at = |level: f64| -> Option<Estimate> {
        if decoder == DecoderKind::Bch {
            return Some(Estimate { rber: binomial_tolerable_rate(n, t, level), method: "exact binomial tail".into() });
        }
        crossing(&curve, level).or_else(|| extrapolate(&curve, level))
    };
    DecoderSummary {
        label,
        lowest_measured_frame_error_rate: lowest,
        tolerable_rber_at_comparison: at(spec.comparison_frame_error_rate),
        tolerable_rber_at_target: at(spec.target_frame_error_rate),
    }
}

struct MeasuredPoint {
    rber: f64,
    frame_error_rate: f64,
    frames: u64,
}

/// Zero failures in `frames` frames bound the frame error rate below about 3 / frames (95 %, the
/// rule of three); a level under that bound is not one this point measured.
const RULE_OF_THREE: f64 = 3.0;

/// Where the simulated curve (all points, sorted by RBER) first rises through `level`. Between two
/// points with failures the crossing is interpolated in log-log. A waterfall can be so steep that
/// the last point below `level` saw no failure at all (log 0 has no line through it); then, if its
/// frames were enough to tell its rate is below `level`, the crossing is only known to lie in that
/// bracket, and its geometric middle is reported with the bracket in the method.
fn crossing(curve: &[MeasuredPoint], level: f64) -> Option<Estimate> {
    let pair = curve.windows(2).find(|w| w[0].frame_error_rate < level && w[1].frame_error_rate >= level)?;
    let (below, above) = (&pair[0], &pair[1]);
    let (x0, x1, y1) = (below.rber, above.rber, above.frame_error_rate);
    if below.frame_error_rate > 0.0 {
        let (lx0, ly0, lx1, ly1) = (x0.ln(), below.frame_error_rate.ln(), x1.ln(), y1.ln());
        let rber = (lx0 + (level.ln() - ly0) * (lx1 - lx0) / (ly1 - ly0)).exp();
        return Some(Estimate { rber, method: "measured (log-log interpolation between simulated points)".into() });
    }
    if level * (below.frames as f64) < RULE_OF_THREE * (1.0 - 1e-9) {
        return None;
    }
    Some(Estimate {
        rber: (x0 * x1).sqrt(),
        method: format!("measured bracket: no failure in {} frames at RBER {x0:.4e}, frame error rate {y1:.3e} at {x1:.4e}; geometric middle", below.frames),
    })
}

/// How many of the lowest failing points the extrapolation fits.
const EXTRAPOLATION_POINTS: usize = 5;
/// The waterfall's low end: points at or below this frame error rate (when at least two have
/// failures; otherwise those below 0.5).
const LOW_END_FRAME_ERROR_RATE: f64 = 0.05;

/// Weighted straight line through log FER vs log RBER of the (up to five) lowest points with
/// failures on the waterfall's low end, evaluated at `level`. The waterfall bends, steeper at lower
/// rates: a point high on it (a frame error rate of 10 % or more) weighs most by its failures and
/// set a shallow slope, which put hard LDPC below BCH at 1e-15 on the quick spec; the low end alone
/// follows the steepening that continues below. A point with k failures in n
/// frames estimates log FER with variance about (1 - p) / k, so it weighs k / (1 - p): the lowest
/// points, with few failures, cannot swing the slope on their own (refinement packs them within a
/// percent of RBER of each other, where three noisy points made slopes from 40 to 170).
fn extrapolate(curve: &[MeasuredPoint], level: f64) -> Option<Estimate> {
    let low_end =
        curve.iter().filter(|m| m.frame_error_rate > 0.0 && m.frame_error_rate <= LOW_END_FRAME_ERROR_RATE).count()
            >= 2;
    let ceiling = if low_end { LOW_END_FRAME_ERROR_RATE } else { 0.5 };
    let usable: Vec<(f64, f64, f64)> = curve
        .iter()
        .filter(|m| m.frame_error_rate > 0.0 && (m.frame_error_rate <= ceiling && m.frame_error_rate < 0.5))
        .take(EXTRAPOLATION_POINTS)
        .map(|m| {
            let failures = m.frame_error_rate * m.frames as f64;
            (m.rber.ln(), m.frame_error_rate.ln(), failures / (1.0 - m.frame_error_rate))
        })
        .collect();
    if usable.len() < 2 {
        return None;
    }
    let weight: f64 = usable.iter().map(|u| u.2).sum();
    let mean_x = usable.iter().map(|u| u.2 * u.0).sum::<f64>() / weight;
    let mean_y = usable.iter().map(|u| u.2 * u.1).sum::<f64>() / weight;
    let sxy: f64 = usable.iter().map(|u| u.2 * (u.0 - mean_x) * (u.1 - mean_y)).sum();
    let sxx: f64 = usable.iter().map(|u| u.2 * (u.0 - mean_x).powi(2)).sum();
    if sxx <= 0.0 || sxy <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let rber = (mean_x + (level.ln() - mean_y) / slope).exp();
    Some(Estimate {
        rber,
        method: format!(
            "extrapolated: straight line in log FER vs log RBER, weighted by failures, through the {} lowest measured points (slope {slope:.1})",
            usable.len()
        ),
    })
}

impl CurveTable {
    /// Where a table for `key` is cached in `directory`.
    pub fn cache_path(directory: &Path, key: &str) -> PathBuf {
        directory.join(format!("ecc-curve-v{TABLE_VERSION}-{key}.json"))
    }

    pub fn load(path: &Path) -> Result<CurveTable, CurveError> {
        let error = |message: String| CurveError::Table { path: path.to_path_buf(), message };
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        let table: CurveTable =
            serde_json::from_str(&text).map_err(|e| error(format!("line {}, column {}: {e}", e.line(), e.column())))?;
        if table.version != TABLE_VERSION {
            return Err(error(format!(
                "table version {} but this ssdlab reads version {TABLE_VERSION}; rerun the curve",
                table.version
            )));
        }
        Ok(table)
    }

    pub fn save(&self, path: &Path) -> Result<(), CurveError> {
        let error = |message: String| CurveError::Table { path: path.to_path_buf(), message };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| error(e.to_string()))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| error(e.to_string()))?;
        // Write then rename, so an interrupted save never leaves a truncated table behind.
        let partial = path.with_extension("json.partial");
        std::fs::write(&partial, text).map_err(|e| error(e.to_string()))?;
        std::fs::rename(&partial, path).map_err(|e| error(e.to_string()))
    }

    /// Frame error rate of a decoder at a raw bit error rate, for the SSD read path: exact for
    /// BCH; for the others log-log interpolation between measured points, clamped to the measured
    /// range (0 below the lowest failing point, 1 above the highest).
    pub fn frame_error_rate(&self, label: &str, rber: f64) -> Option<f64> {
        if label == "bch" {
            return Some(binomial_tail(self.codes.bch_n as u64, self.codes.bch_t as u64, rber));
        }
        let mut measured: Vec<(f64, f64)> =
            self.points.iter().filter(|p| p.label == label).map(|p| (p.point.rber, p.point.frame_error_rate)).collect();
        if measured.is_empty() {
            return None;
        }
        measured.sort_by(|a, b| a.0.total_cmp(&b.0));
        let failing: Vec<(f64, f64)> = measured.iter().copied().filter(|m| m.1 > 0.0).collect();
        let Some(&first) = failing.first() else { return Some(0.0) };
        if rber < first.0 {
            return Some(0.0);
        }
        for w in failing.windows(2) {
            if rber >= w[0].0 && rber <= w[1].0 {
                let (x0, y0, x1, y1) = (w[0].0.ln(), w[0].1.ln(), w[1].0.ln(), w[1].1.ln());
                return Some((y0 + (rber.ln() - x0) * (y1 - y0) / (x1 - x0)).exp().min(1.0));
            }
        }
        // Beyond the highest failing point: that point's rate (the curve is non-decreasing).
        failing.last().map(|l| l.1)
    }
}

/// Runs the curve unless `cache_directory` holds a table with the same key. Returns the table and
/// whether it came from the cache. A fresh table is written to the cache.
pub fn load_or_run(
    spec: &CurveSpec,
    cache_directory: Option<&Path>,
    progress: &mut dyn FnMut(u64, u64) -> Result<(), CurveError>,
) -> Result<(CurveTable, bool), CurveError> {
    spec.validate()?;
    let codes = Codes::storage_4kb();
    let key = table_key(spec, &CodeDescription::of(&codes));
    if let Some(directory) = cache_directory {
        let path = CurveTable::cache_path(directory, &key);
        if path.exists() {
            let table = CurveTable::load(&path)?;
            if table.key == key {
                return Ok((table, true));
            }
        }
    }
    let table = run_validated(spec, &codes, progress)?;
    if let Some(directory) = cache_directory {
        table.save(&CurveTable::cache_path(directory, &table.key))?;
    }
    Ok((table, false))
}

/// 64-bit FNV-1a: a stable, dependency-free digest for cache keys (not for security).
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(rber: f64, failures: u64, frames: u64) -> MeasuredPoint {
        MeasuredPoint { rber, frame_error_rate: failures as f64 / frames as f64, frames }
    }

    #[test]
    fn crossing_interpolates_between_failing_points() {
        let curve = [point(1e-3, 1, 1000), point(2e-3, 100, 1000)];
        let estimate = crossing(&curve, 1e-2).expect("crosses");
        // log-log line through (1e-3, 1e-3) and (2e-3, 1e-1): slope log(100)/log(2).
        let expected = 1e-3 * 2f64.powf(0.5);
        assert!((estimate.rber / expected - 1.0).abs() < 1e-9, "{}", estimate.rber);
        assert!(estimate.method.starts_with("measured (log-log"));
    }

    #[test]
    fn a_clean_point_brackets_the_crossing_only_at_rates_it_could_measure() {
        let curve = [point(1e-3, 0, 1000), point(4e-3, 100, 1000)];
        let estimate = crossing(&curve, 1e-2).expect("1e-2 is above 3/1000");
        assert!((estimate.rber - 2e-3).abs() < 1e-12);
        assert!(estimate.method.contains("no failure in 1000 frames"), "{}", estimate.method);
        // 1e-4 is below what zero failures in 1000 frames can show: no crossing claimed.
        assert!(crossing(&curve, 1e-4).is_none());
    }

    #[test]
    fn extrapolation_follows_a_power_law_and_skips_saturated_points() {
        // FER = (rber / 1e-2)^40 sampled with plenty of frames, plus a saturated point that must not count.
        let mut curve: Vec<MeasuredPoint> = [8.0e-3, 8.4e-3, 8.8e-3, 9.2e-3]
            .iter()
            .map(|&rber: &f64| MeasuredPoint { rber, frame_error_rate: (rber / 1e-2).powi(40), frames: 1_000_000 })
            .collect();
        curve.push(point(2e-2, 100, 100));
        let estimate = extrapolate(&curve, 1e-15).expect("fits");
        let expected = 1e-2 * 1e-15f64.powf(1.0 / 40.0);
        assert!((estimate.rber / expected - 1.0).abs() < 1e-6, "{} vs {expected}", estimate.rber);
        assert!(estimate.method.contains("slope 40.0"), "{}", estimate.method);
        assert!(extrapolate(&curve[..1], 1e-15).is_none(), "one point gives no line");
    }

    #[test]
    fn extrapolation_follows_the_waterfalls_low_end() {
        // The quick spec's hard-LDPC points: the 12.5 % point high on the waterfall must not set the
        // slope (with it the line crossed 1e-15 at RBER 2.1e-3, below BCH's 4.1e-3).
        let curve = vec![
            point(0.008057, 1, 300),
            point(0.00813, 4, 300),
            point(0.008278, 10, 300),
            point(0.0089, 30, 240),
            point(0.0103, 43, 48),
        ];
        let estimate = extrapolate(&curve, 1e-15).expect("fits");
        assert!(estimate.rber > 4.5e-3 && estimate.rber < 6e-3, "{} ({})", estimate.rber, estimate.method);
        assert!(estimate.method.contains("3 lowest"), "{}", estimate.method);
    }
}
