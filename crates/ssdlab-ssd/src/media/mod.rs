//! Storage media. Today: NAND flash (SLC/MLC/TLC) behind ONFI/toggle channels, one profile per tier
//! (`crate::device_layout`). SCM addressed by 512 B sectors with in-place overwrite (seed 001, SPEC
//! §5) is a profile without erase and a store beside the block store; not built yet.

pub mod channel;
pub mod nand;
