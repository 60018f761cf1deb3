//! # ssdlab-ecc
//!
//! The ECC lab: real codes and a NAND threshold-voltage channel, to compute how often each decoder
//! fails at a given raw bit error rate and sensing precision (seed 002 §2.2 and §4, SPEC §4.1).
//! It knows nothing of SSDs; the SSD read path consumes the tables it produces.
//!
//! - [`galois`]: GF(2^m) arithmetic.
//! - [`bits`]: packed bit vectors.
//! - [`bch`]: binary BCH, systematic encoder, Berlekamp-Massey + Chien decoder.
//! - [`ldpc`]: quasi-cyclic LDPC (girth >= 6), linear-time encoder, layered min-sum decoders.
//! - [`channel`]: the NAND threshold-voltage channel (MLC/TLC, wear, retention, interference, chips).
//! - [`sensing`], [`read_model`]: hard and soft reads, Quick-LDPC and EP-LDPC inputs, their LLRs.
//! - [`monte_carlo`]: deterministic multi-threaded frame error rates with Wilson intervals.
//! - [`analytic`]: exact BCH failure (binomial and beta-binomial tails).
//! - [`decoder_tables`]: failure probability by decoder x P/E x retention, tolerable P/E (seed 000).
//! - [`curve`]: FER-vs-RBER curves and the versioned, cached table the SSD read path loads.
//! - [`bench`]: decoder throughput and Monte Carlo rate.

pub mod analytic;
pub mod bch;
pub mod bench;
pub mod bits;
pub mod calibration;
pub mod channel;
pub mod curve;
pub mod decoder_tables;
pub mod decoding_table;
pub mod galois;
pub mod ldpc;
pub mod monte_carlo;
pub mod read_model;
pub mod sensing;
