//! Energy accounted per flash operation (seed 002 §5.5 and seed 004 use per-operation energies).

use crate::config::EnergyConfig;

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct EnergyAccount {
    pub program_uj: f64,
    pub read_sense_uj: f64,
    pub extra_sensing_uj: f64,
    pub transfer_uj: f64,
    pub decode_uj: f64,
    pub erase_uj: f64,
}

impl EnergyAccount {
    pub fn total_uj(&self) -> f64 {
        self.program_uj + self.read_sense_uj + self.extra_sensing_uj + self.transfer_uj + self.decode_uj + self.erase_uj
    }
}

/// Applies a per-operation energy model to an account.
#[derive(Debug, Clone)]
pub struct EnergyMeter {
    pub model: EnergyConfig,
    pub account: EnergyAccount,
}

impl EnergyMeter {
    pub fn new(model: &EnergyConfig) -> Self {
        EnergyMeter { model: model.clone(), account: EnergyAccount::default() }
    }
    #[inline]
    pub fn program(&mut self, pages: usize) {
        self.account.program_uj += self.model.program_page_uj * pages as f64;
    }
    #[inline]
    pub fn sense(&mut self, hard: bool, extra_levels: u32) {
        if hard {
            self.account.read_sense_uj += self.model.read_sense_uj;
        }
        self.account.extra_sensing_uj += self.model.extra_sensing_level_uj * extra_levels as f64;
    }
    #[inline]
    pub fn transfer(&mut self, pages: usize) {
        self.account.transfer_uj += self.model.page_transfer_uj * pages as f64;
    }
    #[inline]
    pub fn decode(&mut self) {
        self.account.decode_uj += self.model.decode_uj;
    }
    #[inline]
    pub fn erase(&mut self) {
        self.account.erase_uj += self.model.erase_block_uj;
    }
}
