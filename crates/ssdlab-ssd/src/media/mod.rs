//! Storage media: NAND flash (SLC/MLC/TLC) behind ONFI/toggle channels, one profile per tier
//! (`crate::device_layout`), and storage-class memory addressed by 512 B sectors with in-place
//! overwrite (seed 001, SPEC §5; its sector store is `crate::scm`).

pub mod channel;
pub mod nand;
pub mod scm;
