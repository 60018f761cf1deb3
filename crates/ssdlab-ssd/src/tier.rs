//! Tiers: the groups of NAND chips of one cell type a device is built from (one tier on most devices;
//! MLC and TLC in seed 004's array). SCM is not a tier: seed 001's SCM is a stage in front of the NAND
//! path. Here live the tier id and the fixed-size per-tier arrays the scheduler's hot paths index
//! without bounds checks.
//!
//! The tier vocabulary: a tier is named by its [`TierId`] everywhere at run time; `config::TierConfig`
//! is a `[device.tiers.NAME]` table as written, `config::TierSpec` a tier's geometry, NAND and channel
//! resolved from the config (the top-level tables on a one-tier device), and
//! `device_layout::TierLayout` where the tier sits in the device's global numbering and its timing.
//!
//! Left out: tiers are fixed at build time (no tier is added or removed during a run).

/// Tiers a device may have (the config allows at most this many; MLC+TLC needs two, and
/// the per-tier arrays stay within a few cache lines of the scheduler's hot fields).
pub const MAX_TIERS: usize = 4;

/// A tier of the device: its position in the layout (0 = the first tier configured; on a one-tier
/// device always 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TierId(pub u8);

impl TierId {
    pub const FIRST: TierId = TierId(0);

    /// The tier at `index` of the layout (at most [`MAX_TIERS`] tiers exist; the config checks it).
    #[inline(always)]
    pub fn new(index: usize) -> TierId {
        debug_assert!(index < MAX_TIERS, "tier {index} of at most {MAX_TIERS}");
        TierId(index as u8)
    }

    /// The position in per-tier lists.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The first `count` tiers, in order.
    pub fn all(count: usize) -> impl DoubleEndedIterator<Item = TierId> {
        (0..count).map(TierId::new)
    }
}

impl std::fmt::Display for TierId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tier {}", self.0)
    }
}

/// One value per possible tier in a fixed array: the scheduler's hot paths index it by [`TierId`]
/// with a mask instead of a bounds check (a tier id is always below [`MAX_TIERS`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct PerTier<T>([T; MAX_TIERS]);

const TIER_MASK: usize = MAX_TIERS - 1;
const _: () = assert!(MAX_TIERS.is_power_of_two(), "the mask needs a power of two");

impl<T> PerTier<T> {
    pub fn from_fn(f: impl FnMut(usize) -> T) -> Self {
        PerTier(std::array::from_fn(f))
    }

    /// Every slot, in tier order (slots past the device's tiers hold defaults).
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }
}

impl<T> std::ops::Index<TierId> for PerTier<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, tier: TierId) -> &T {
        &self.0[tier.index() & TIER_MASK]
    }
}

impl<T> std::ops::IndexMut<TierId> for PerTier<T> {
    #[inline(always)]
    fn index_mut(&mut self, tier: TierId) -> &mut T {
        &mut self.0[tier.index() & TIER_MASK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_tier_values_are_found_by_tier_id() {
        let mut values: PerTier<u32> = PerTier::from_fn(|index| index as u32 * 10);
        values[TierId::new(2)] += 1;
        assert_eq!(values[TierId::new(2)], 21);
        assert_eq!(values[TierId::FIRST], 0);
        assert_eq!(TierId::all(3).map(TierId::index).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(TierId::new(1).to_string(), "tier 1");
    }
}
