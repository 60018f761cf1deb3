//! NAND array timing per page type (lower/upper/extra) and block erase.
//! Values come from the device preset (datasheets and the seeds; see configs/).

use crate::config::NandConfig;

#[derive(Debug, Clone, Default)]
pub struct NandTiming {
    pub read_ns: [u64; 3],
    pub program_ns: [u64; 3],
    pub erase_ns: u64,
}

impl NandTiming {
    pub fn new(config: &NandConfig) -> Self {
        let expand = |values: &[u64]| {
            let mut out = [0u64; 3];
            for (index, slot) in out.iter_mut().enumerate() {
                *slot = *values.get(index).or(values.last()).unwrap_or(&0);
            }
            out
        };
        NandTiming {
            read_ns: expand(&config.read_latency_ns),
            program_ns: expand(&config.program_latency_ns),
            erase_ns: config.erase_latency_ns,
        }
    }
}
