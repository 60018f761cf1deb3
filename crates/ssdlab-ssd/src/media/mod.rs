//! Storage media. Today: NAND flash (SLC/MLC/TLC) behind ONFI/toggle channels.
//!
//! The seam for more tiers (SCM addressed by 512 B sectors with in-place overwrite, TLC written in
//! whole blocks; SPEC §5, §7): a tier is a media model with its own timing and write rules plus its own
//! FTL instance; the host side routes each logical page to a tier. Only the NAND tier exists now.

pub mod channel;
pub mod nand;
