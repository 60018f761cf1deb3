//! Device geometry and the address newtypes used across the model.
//!
//! Physical layout (global indices, channel-major): plane index = ((channel x chips + chip) x dies +
//! die) x planes + plane; block index = plane index x blocks_per_plane + block; physical page number =
//! block index x pages_per_block + page. Page type within a block: page % bits_per_cell (lower, upper,
//! extra), i.e. word line = page / bits_per_cell. Real devices interleave page types across word lines
//! in vendor-specific orders; this simple order keeps the per-type mix right, which is what timing needs.

use crate::config::{CellType, GeometryConfig};

/// Logical page number, as the FTL sees it (after any host-side middleware).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lpn(pub u32);

/// Physical page number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ppn(pub u32);

/// Global block index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockIndex(pub u32);

/// Global plane index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlaneIndex(pub u32);

#[derive(Debug, Clone)]
pub struct Geometry {
    pub channels: u32,
    pub chips_per_channel: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    pub page_size_bytes: u32,
    pub bits_per_cell: u32,
    /// Plane visited by the k-th step of channel-first striping.
    stripe_planes: Vec<u32>,
}

impl Geometry {
    pub fn new(config: &GeometryConfig, cell: CellType) -> Self {
        let mut geometry = Geometry {
            channels: config.channels,
            chips_per_channel: config.chips_per_channel,
            dies_per_chip: config.dies_per_chip,
            planes_per_die: config.planes_per_die,
            blocks_per_plane: config.blocks_per_plane,
            pages_per_block: config.pages_per_block,
            page_size_bytes: config.page_size_bytes,
            bits_per_cell: cell.bits_per_cell() as u32,
            stripe_planes: Vec::new(),
        };
        let (c, w, d, p) = (geometry.channels, geometry.chips_per_channel, geometry.dies_per_chip, geometry.planes_per_die);
        geometry.stripe_planes = (0..geometry.planes_total())
            .map(|step| {
                let channel = step % c;
                let rest = step / c;
                let chip = rest % w;
                let rest = rest / w;
                let die = rest % d;
                let plane = (rest / d) % p;
                ((channel * w + chip) * d + die) * p + plane
            })
            .collect();
        geometry
    }

    pub fn planes_total(&self) -> u32 {
        self.channels * self.chips_per_channel * self.dies_per_chip * self.planes_per_die
    }
    pub fn dies_total(&self) -> u32 {
        self.channels * self.chips_per_channel * self.dies_per_chip
    }
    pub fn chips_total(&self) -> u32 {
        self.channels * self.chips_per_channel
    }
    pub fn blocks_total(&self) -> u32 {
        self.planes_total() * self.blocks_per_plane
    }
    pub fn pages_total(&self) -> u64 {
        self.blocks_total() as u64 * self.pages_per_block as u64
    }
    pub fn capacity_bytes(&self) -> u64 {
        self.pages_total() * self.page_size_bytes as u64
    }

    /// The plane at step `step` of channel-first striping (channel, then chip, die, plane).
    #[inline]
    pub fn stripe_plane(&self, step: u64) -> PlaneIndex {
        PlaneIndex(self.stripe_planes[(step % self.stripe_planes.len() as u64) as usize])
    }

    #[inline]
    pub fn block_of(&self, ppn: Ppn) -> BlockIndex {
        BlockIndex(ppn.0 / self.pages_per_block)
    }
    #[inline]
    pub fn page_in_block(&self, ppn: Ppn) -> u32 {
        ppn.0 % self.pages_per_block
    }
    #[inline]
    pub fn first_page(&self, block: BlockIndex) -> Ppn {
        Ppn(block.0 * self.pages_per_block)
    }
    #[inline]
    pub fn plane_of_block(&self, block: BlockIndex) -> PlaneIndex {
        PlaneIndex(block.0 / self.blocks_per_plane)
    }
    #[inline]
    pub fn plane_of(&self, ppn: Ppn) -> PlaneIndex {
        self.plane_of_block(self.block_of(ppn))
    }
    #[inline]
    pub fn die_of_plane(&self, plane: PlaneIndex) -> u32 {
        plane.0 / self.planes_per_die
    }
    #[inline]
    pub fn die_of(&self, ppn: Ppn) -> u32 {
        self.die_of_plane(self.plane_of(ppn))
    }
    #[inline]
    pub fn chip_of_die(&self, die: u32) -> u32 {
        die / self.dies_per_chip
    }
    #[inline]
    pub fn channel_of_die(&self, die: u32) -> u32 {
        die / (self.dies_per_chip * self.chips_per_channel)
    }
    /// 0 = lower, 1 = upper, 2 = extra.
    #[inline]
    pub fn page_type(&self, ppn: Ppn) -> usize {
        (self.page_in_block(ppn) % self.bits_per_cell) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn striping_visits_every_plane_channel_first() {
        let config = GeometryConfig { channels: 2, chips_per_channel: 2, dies_per_chip: 2, planes_per_die: 2, blocks_per_plane: 4, pages_per_block: 4, page_size_bytes: 4096 };
        let g = Geometry::new(&config, CellType::Mlc);
        let planes: Vec<u32> = (0..16).map(|s| g.stripe_plane(s).0).collect();
        let mut sorted = planes.clone();
        sorted.sort();
        assert_eq!(sorted, (0..16).collect::<Vec<_>>());
        // Consecutive steps alternate channels.
        let channel = |plane: u32| g.channel_of_die(g.die_of_plane(PlaneIndex(plane)));
        assert_ne!(channel(planes[0]), channel(planes[1]));
    }
}
