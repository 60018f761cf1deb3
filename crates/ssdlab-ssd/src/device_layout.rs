//! The device's physical layout across its tiers: which tier, die, channel and plane a physical page
//! belongs to, and each tier's media profile.
//!
//! What it models: a device made of tiers (a set of dies with one media profile, its own channels
//! and its own local [`Geometry`]: an MLC tier at 256 pages per block beside a TLC tier at 384).
//! Global numbering concatenates the tiers in layout order: physical pages, blocks, planes, dies and
//! channels of tier k follow those of tier k-1, so a physical page number alone says its tier (the
//! mapping table needs no tier field) and the scheduler sees one array of dies and one of channels.
//! A device without tiers is one tier whose offsets are all zero: its numbering is exactly the old
//! one, and every lookup takes the one-tier branch first.
//! What it leaves out: tiers sharing a channel (each tier owns its channels). SCM is not a tier: seed
//! 001's SCM is a stage in front of the NAND path with banks and channels of its own
//! (`simulation/data_path/hybrid_scm/`, `scheduler/scm.rs`).

use crate::config::{CellType, DeviceConfig, EnergyConfig, TierSpec};
use crate::geometry::{BlockIndex, Geometry, PlaneIndex, Ppn};
use crate::media::channel::ChannelTiming;
use crate::media::nand::NandTiming;
use crate::tier::TierId;

/// One tier's layout: its profile and where its pieces start in the global numbering (the tier
/// vocabulary: `tier.rs`).
#[derive(Debug, Clone)]
pub struct TierLayout {
    pub name: String,
    pub geometry: Geometry,
    pub cell_type: CellType,
    pub nand: NandTiming,
    pub channel_timing: ChannelTiming,
    /// Time to move one page over one of this tier's channels.
    pub page_transfer_ns: u64,
    pub energy: EnergyConfig,
    /// The I/O pins of this tier's channels (their energy: `io_pins.rs`).
    pub io_pins: crate::io_pins::IoPins,
    pub bus_width_bits: u32,
    pub endurance_pe_cycles: u32,
    /// Written in whole blocks (block-modify-write on overwrite).
    pub block_unit: bool,
    /// A block-unit tier keeps an open block per plane for pages moving in, striped over them
    /// (`open_incoming_blocks = "one_per_plane"`), rather than one block at a time.
    pub striped_incoming: bool,
    /// A block-modify-write sends the new data to the write tier (`overwrite_target = "write_tier"`).
    pub overwrite_to_write_tier: bool,
    /// With `overwrite_to_write_tier`: the overwritten page's block is rewritten (block-modify-write,
    /// `overwritten_block = "rewritten"`) rather than left to garbage collection.
    pub overwrite_rewrites_block: bool,
    pub first_page: u32,
    pub first_block: u32,
    pub first_plane: u32,
    pub first_die: u32,
    pub first_channel: u32,
    pub first_chip: u32,
}

impl TierLayout {
    pub fn pages(&self) -> u32 {
        self.geometry.pages_total() as u32
    }
    pub fn contains_page(&self, ppn: Ppn) -> bool {
        ppn.0 >= self.first_page && ppn.0 - self.first_page < self.pages()
    }
    /// The tier-local page of a global one.
    #[inline]
    pub fn local(&self, ppn: Ppn) -> Ppn {
        Ppn(ppn.0 - self.first_page)
    }
    #[inline]
    pub fn global(&self, local: Ppn) -> Ppn {
        Ppn(local.0 + self.first_page)
    }
}

#[derive(Debug, Clone)]
pub struct DeviceLayout {
    tiers: Vec<TierLayout>,
    /// Global die -> tier index.
    die_tier: Vec<u8>,
    /// Global die -> global channel.
    die_channel: Vec<u32>,
    /// Global channel -> tier index.
    channel_tier: Vec<u8>,
    single: bool,
    /// The first tier's geometry, kept here so a one-tier lookup is one load away.
    first_geometry: Geometry,
}

impl DeviceLayout {
    /// The layout of a validated device config.
    pub fn new(device: &DeviceConfig) -> Self {
        let mut layout = Self::from_specs(&device.tiers());
        if let (Some(ganging), [tier]) = (crate::config::GangingConfig::of(device), layout.tiers.as_mut_slice()) {
            // A ganged device stripes logical pages over a gang's chips first (DiskSim's order).
            tier.geometry.stripe_by_gangs(ganging.chips_per_gang);
            layout.first_geometry = tier.geometry.clone();
        }
        layout
    }

    pub fn from_specs(specs: &[TierSpec]) -> Self {
        let mut tiers = Vec::with_capacity(specs.len());
        let (mut page, mut block, mut plane, mut die, mut channel, mut chip) = (0u32, 0u32, 0u32, 0u32, 0u32, 0u32);
        for spec in specs {
            let geometry = Geometry::new(&spec.geometry, spec.nand.cell_type);
            let channel_timing = ChannelTiming::new(&spec.channel);
            let tier = TierLayout {
                name: spec.name.clone(),
                page_transfer_ns: channel_timing.transfer_ns(geometry.page_size_bytes as u64),
                channel_timing,
                cell_type: spec.nand.cell_type,
                nand: NandTiming::new(&spec.nand),
                energy: spec.energy.clone(),
                io_pins: crate::io_pins::IoPins::of(&spec.channel),
                bus_width_bits: spec.channel.bus_width_bits,
                endurance_pe_cycles: spec.nand.endurance_pe_cycles,
                block_unit: spec.write_unit == crate::config::WriteUnit::Block,
                striped_incoming: spec.write_unit == crate::config::WriteUnit::Block
                    && spec.open_incoming_blocks == crate::config::OpenIncomingBlocks::OnePerPlane,
                overwrite_to_write_tier: spec.write_unit == crate::config::WriteUnit::Block
                    && spec.overwrite_target == crate::config::OverwriteTarget::WriteTier,
                overwrite_rewrites_block: spec.overwritten_block == crate::config::OverwrittenBlock::Rewritten,
                first_page: page,
                first_block: block,
                first_plane: plane,
                first_die: die,
                first_channel: channel,
                first_chip: chip,
                geometry,
            };
            page += tier.geometry.pages_total() as u32;
            block += tier.geometry.blocks_total();
            plane += tier.geometry.planes_total();
            die += tier.geometry.dies_total();
            channel += tier.geometry.channels;
            chip += tier.geometry.chips_total();
            tiers.push(tier);
        }
        let mut die_tier = Vec::with_capacity(die as usize);
        let mut die_channel = Vec::with_capacity(die as usize);
        for (index, tier) in tiers.iter().enumerate() {
            for local in 0..tier.geometry.dies_total() {
                die_tier.push(index as u8);
                die_channel.push(tier.first_channel + tier.geometry.channel_of_die(local));
            }
        }
        let channel_tier = tiers
            .iter()
            .enumerate()
            .flat_map(|(index, tier)| std::iter::repeat_n(index as u8, tier.geometry.channels as usize))
            .collect();
        let first_geometry = tiers.first().map(|tier| tier.geometry.clone()).unwrap_or_else(|| {
            Geometry::new(
                &crate::config::GeometryConfig {
                    channels: 1,
                    chips_per_channel: 1,
                    dies_per_chip: 1,
                    planes_per_die: 1,
                    blocks_per_plane: 1,
                    pages_per_block: 1,
                    page_size_bytes: 4096,
                },
                CellType::Slc,
            )
        });
        DeviceLayout { single: tiers.len() == 1, tiers, die_tier, die_channel, channel_tier, first_geometry }
    }

    pub fn tiers(&self) -> &[TierLayout] {
        &self.tiers
    }
    #[inline(always)]
    pub fn tier(&self, tier: TierId) -> &TierLayout {
        &self.tiers[tier.index()]
    }
    #[inline(always)]
    pub fn is_single(&self) -> bool {
        self.single
    }
    pub fn tier_index(&self, name: &str) -> Option<TierId> {
        self.tiers.iter().position(|tier| tier.name == name).map(TierId::new)
    }

    /// The tier holding a global physical page.
    #[inline]
    pub fn tier_of(&self, ppn: Ppn) -> TierId {
        if self.single {
            return TierId::FIRST;
        }
        TierId::new(self.tiers.iter().rposition(|tier| ppn.0 >= tier.first_page).unwrap_or(0))
    }
    #[inline(always)]
    pub fn tier_of_die(&self, die: u32) -> TierId {
        self.tier_of_die_given(self.single, die)
    }
    /// The tier a global channel belongs to.
    #[inline(always)]
    pub fn tier_of_channel(&self, channel: u32) -> TierId {
        self.tier_of_channel_given(self.single, channel)
    }
    /// [`DeviceLayout::tier_of_channel`], the one-tier test done by the caller.
    #[inline(always)]
    pub fn tier_of_channel_given(&self, one_tier: bool, channel: u32) -> TierId {
        if one_tier {
            return TierId::FIRST;
        }
        TierId(self.channel_tier[channel as usize])
    }
    pub fn tier_of_block(&self, block: BlockIndex) -> TierId {
        if self.single {
            return TierId::FIRST;
        }
        TierId::new(self.tiers.iter().rposition(|tier| block.0 >= tier.first_block).unwrap_or(0))
    }
    pub fn tier_of_plane(&self, plane: PlaneIndex) -> TierId {
        if self.single {
            return TierId::FIRST;
        }
        TierId::new(self.tiers.iter().rposition(|tier| plane.0 >= tier.first_plane).unwrap_or(0))
    }

    /// [`DeviceLayout::die_of`] with the one-tier test done by the caller (hot loops read
    /// [`DeviceLayout::is_single`] once into a register instead of loading it at every lookup).
    #[inline(always)]
    pub fn die_of_given(&self, one_tier: bool, ppn: Ppn) -> u32 {
        if one_tier {
            return self.first_geometry.die_of(ppn);
        }
        self.die_of_tiered(ppn)
    }
    /// [`DeviceLayout::page_type`], the one-tier test done by the caller.
    #[inline(always)]
    pub fn page_type_given(&self, one_tier: bool, ppn: Ppn) -> usize {
        if one_tier {
            return self.first_geometry.page_type(ppn);
        }
        self.page_type_tiered(ppn)
    }
    /// [`DeviceLayout::channel_of_die`], the one-tier test done by the caller.
    #[inline(always)]
    pub fn channel_of_die_given(&self, one_tier: bool, die: u32) -> u32 {
        if one_tier {
            return self.first_geometry.channel_of_die(die);
        }
        self.die_channel[die as usize]
    }
    /// [`DeviceLayout::tier_of_die`], the one-tier test done by the caller.
    #[inline(always)]
    pub fn tier_of_die_given(&self, one_tier: bool, die: u32) -> TierId {
        if one_tier {
            return TierId::FIRST;
        }
        TierId(self.die_tier[die as usize])
    }
    /// Global die and plane of a global physical page.
    #[inline(always)]
    pub fn die_and_plane_of(&self, ppn: Ppn) -> (u32, PlaneIndex) {
        if self.single {
            return (self.first_geometry.die_of(ppn), self.first_geometry.plane_of(ppn));
        }
        (self.die_of_tiered(ppn), self.plane_of_tiered(ppn))
    }

    /// Global die of a global physical page.
    #[inline(always)]
    pub fn die_of(&self, ppn: Ppn) -> u32 {
        self.die_of_given(self.single, ppn)
    }
    #[inline(never)]
    fn die_of_tiered(&self, ppn: Ppn) -> u32 {
        let tier = &self.tiers[self.tier_of(ppn).index()];
        tier.first_die + tier.geometry.die_of(tier.local(ppn))
    }
    /// Global plane of a global physical page.
    #[inline(always)]
    pub fn plane_of(&self, ppn: Ppn) -> PlaneIndex {
        if self.single {
            return self.first_geometry.plane_of(ppn);
        }
        self.plane_of_tiered(ppn)
    }
    #[inline(never)]
    fn plane_of_tiered(&self, ppn: Ppn) -> PlaneIndex {
        let tier = &self.tiers[self.tier_of(ppn).index()];
        PlaneIndex(tier.first_plane + tier.geometry.plane_of(tier.local(ppn)).0)
    }
    /// Global block of a global physical page.
    #[inline(always)]
    pub fn block_of(&self, ppn: Ppn) -> BlockIndex {
        if self.single {
            return self.first_geometry.block_of(ppn);
        }
        self.block_of_tiered(ppn)
    }
    #[inline(never)]
    fn block_of_tiered(&self, ppn: Ppn) -> BlockIndex {
        let tier = &self.tiers[self.tier_of(ppn).index()];
        BlockIndex(tier.first_block + tier.geometry.block_of(tier.local(ppn)).0)
    }
    /// Page type (0 lower, 1 upper, 2 extra) of a global physical page in its tier's cells.
    #[inline(always)]
    pub fn page_type(&self, ppn: Ppn) -> usize {
        self.page_type_given(self.single, ppn)
    }
    #[inline(never)]
    fn page_type_tiered(&self, ppn: Ppn) -> usize {
        let tier = &self.tiers[self.tier_of(ppn).index()];
        tier.geometry.page_type(tier.local(ppn))
    }
    /// The first page of a global block.
    pub fn first_page_of_block(&self, block: BlockIndex) -> Ppn {
        let tier = &self.tiers[self.tier_of_block(block).index()];
        tier.global(tier.geometry.first_page(BlockIndex(block.0 - tier.first_block)))
    }
    /// The global plane of a global block.
    pub fn plane_of_block(&self, block: BlockIndex) -> PlaneIndex {
        if self.single {
            return self.first_geometry.plane_of_block(block);
        }
        let tier = &self.tiers[self.tier_of_block(block).index()];
        PlaneIndex(tier.first_plane + tier.geometry.plane_of_block(BlockIndex(block.0 - tier.first_block)).0)
    }
    /// The global planes of a global die (consecutive).
    pub fn planes_of_die(&self, die: u32) -> std::ops::Range<u32> {
        let tier = &self.tiers[self.tier_of_die(die).index()];
        let first = tier.first_plane + (die - tier.first_die) * tier.geometry.planes_per_die;
        first..first + tier.geometry.planes_per_die
    }
    /// The global die of a global plane.
    pub fn die_of_plane(&self, plane: PlaneIndex) -> u32 {
        if self.single {
            return self.first_geometry.die_of_plane(plane);
        }
        let tier = &self.tiers[self.tier_of_plane(plane).index()];
        tier.first_die + tier.geometry.die_of_plane(PlaneIndex(plane.0 - tier.first_plane))
    }
    /// The die of a global block, the one-tier test done by the caller.
    #[inline(always)]
    pub fn die_of_block_given(&self, one_tier: bool, block: BlockIndex) -> u32 {
        if one_tier {
            return self.first_geometry.die_of(self.first_geometry.first_page(block));
        }
        self.die_of_tiered(self.first_page_of_block(block))
    }
    #[inline(always)]
    pub fn channel_of_die(&self, die: u32) -> u32 {
        self.channel_of_die_given(self.single, die)
    }
    /// Global chip of a global die (chips numbered across tiers like dies).
    pub fn chip_of_die(&self, die: u32) -> u32 {
        if self.single {
            return self.first_geometry.chip_of_die(die);
        }
        // (Tiers may differ in dies per chip: chips are counted tier by tier.)
        let tier = &self.tiers[self.tier_of_die(die).index()];
        tier.first_chip + tier.geometry.chip_of_die(die - tier.first_die)
    }
    /// Global dies of a global chip.
    pub fn dies_of_chip(&self, chip: u32) -> std::ops::Range<u32> {
        let Some(tier) = self.tiers.iter().rev().find(|tier| chip >= tier.first_chip) else { return 0..0 };
        if chip - tier.first_chip >= tier.geometry.chips_total() {
            return 0..0;
        }
        let start = tier.first_die + (chip - tier.first_chip) * tier.geometry.dies_per_chip;
        start..start + tier.geometry.dies_per_chip
    }

    pub fn dies_total(&self) -> u32 {
        self.die_tier.len() as u32
    }
    pub fn channels_total(&self) -> u32 {
        self.tiers.iter().map(|tier| tier.geometry.channels).sum()
    }
    pub fn chips_total(&self) -> u32 {
        self.tiers.iter().map(|tier| tier.geometry.chips_total()).sum()
    }
    pub fn planes_total(&self) -> u32 {
        self.tiers.iter().map(|tier| tier.geometry.planes_total()).sum()
    }
    pub fn pages_total(&self) -> u64 {
        self.tiers.iter().map(|tier| tier.geometry.pages_total()).sum()
    }
    pub fn capacity_bytes(&self) -> u64 {
        self.tiers.iter().map(|tier| tier.geometry.capacity_bytes()).sum()
    }
    pub fn page_size_bytes(&self) -> u32 {
        self.tiers[0].geometry.page_size_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ChannelConfig, GeometryConfig, NandConfig};

    fn spec(name: &str, cell_type: CellType, channels: u32, pages_per_block: u32) -> TierSpec {
        TierSpec {
            name: name.into(),
            field_prefix: format!("device.tiers.{name}"),
            geometry: GeometryConfig {
                channels,
                chips_per_channel: 1,
                dies_per_chip: 2,
                planes_per_die: 2,
                blocks_per_plane: 8,
                pages_per_block,
                page_size_bytes: 4096,
            },
            nand: NandConfig {
                cell_type,
                read_latency_ns: vec![50_000],
                program_latency_ns: vec![500_000],
                erase_latency_ns: 3_000_000,
                multi_plane: true,
                endurance_pe_cycles: 3000,
            },
            channel: ChannelConfig {
                transfer_rate_mts: 200.0,
                bus_width_bits: 8,
                command_overhead_ns: 0,
                io_voltage_v: 0.0,
                pin_capacitance_pf: 0.0,
                data_pins: None,
                control_pins: 0,
                pin_activity_factor: 1.0,
                pin_toggling: crate::config::PinToggling::DataOnly,
                link_ends: 1,
            },
            energy: EnergyConfig::default(),
            overprovisioning_fraction: None,
            write_unit: crate::config::WriteUnit::Page,
            overwrite_target: crate::config::OverwriteTarget::RewrittenBlock,
            overwritten_block: crate::config::OverwrittenBlock::Rewritten,
            open_incoming_blocks: crate::config::OpenIncomingBlocks::One,
        }
    }

    #[test]
    fn tiers_with_different_blocks_concatenate() {
        let layout =
            DeviceLayout::from_specs(&[spec("mlc", CellType::Mlc, 2, 256), spec("tlc", CellType::Tlc, 1, 384)]);
        let mlc_pages = 2 * 2 * 2 * 8 * 256; // channels x dies x planes x blocks x pages
        assert_eq!(layout.tier(TierId(1)).first_page, mlc_pages);
        assert_eq!(layout.tier(TierId(1)).first_die, 4);
        assert_eq!(layout.tier(TierId(1)).first_channel, 2);
        assert_eq!(layout.dies_total(), 6);
        // The TLC tier's first page: its die 4, channel 2, plane 8, block 64; TLC page types cycle by 3.
        let first_tlc = Ppn(mlc_pages);
        assert_eq!(layout.tier_of(first_tlc), TierId(1));
        assert_eq!(layout.die_of(first_tlc), 4);
        assert_eq!(layout.channel_of_die(4), 2);
        assert_eq!(layout.plane_of(first_tlc), PlaneIndex(8));
        assert_eq!(layout.block_of(first_tlc), BlockIndex(64));
        assert_eq!(layout.page_type(Ppn(mlc_pages + 2)), 2);
        assert_eq!(layout.page_type(Ppn(mlc_pages + 3)), 0);
        // The last MLC page is still MLC, on die 3 (channel 1).
        let last_mlc = Ppn(mlc_pages - 1);
        assert_eq!(layout.tier_of(last_mlc), TierId(0));
        assert_eq!(layout.die_of(last_mlc), 3);
        assert_eq!(layout.channel_of_die(3), 1);
        // A TLC block is 384 pages: the second TLC block starts 384 pages in.
        assert_eq!(layout.first_page_of_block(BlockIndex(65)), Ppn(mlc_pages + 384));
        assert_eq!(layout.chip_of_die(5), 2);
        assert_eq!(layout.dies_of_chip(2), 4..6);
    }

    #[test]
    fn chips_are_numbered_tier_by_tier_when_dies_per_chip_differ() {
        // mlc: 2 channels x 1 chip x 2 dies; tlc: 1 channel x 1 chip x 1 die (dies 4).
        let mut tlc = spec("tlc", CellType::Tlc, 1, 384);
        tlc.geometry.dies_per_chip = 1;
        let layout = DeviceLayout::from_specs(&[spec("mlc", CellType::Mlc, 2, 256), tlc]);
        assert_eq!((layout.chip_of_die(3), layout.chip_of_die(4)), (1, 2));
        assert_eq!((layout.dies_of_chip(1), layout.dies_of_chip(2), layout.dies_of_chip(3)), (2..4, 4..5, 0..0));
    }

    #[test]
    fn one_tier_numbering_is_the_geometry() {
        let layout = DeviceLayout::from_specs(&[spec("nand", CellType::Mlc, 2, 256)]);
        let geometry = &layout.tier(TierId(0)).geometry;
        for ppn in [0u32, 255, 256, 4095, 8191].map(Ppn) {
            assert_eq!(layout.die_of(ppn), geometry.die_of(ppn));
            assert_eq!(layout.plane_of(ppn), geometry.plane_of(ppn));
            assert_eq!(layout.page_type(ppn), geometry.page_type(ppn));
        }
    }
}
