//! Device geometry and the address newtypes used across the model.
//!
//! Physical layout (global indices, channel-major): plane index = ((channel x chips + chip) x dies +
//! die) x planes + plane; block index = plane index x blocks_per_plane + block; physical page number =
//! block index x pages_per_block + page. Page type within a block: page % bits_per_cell (lower, upper,
//! extra), i.e. word line = page / bits_per_cell. Real devices interleave page types across word lines
//! in vendor-specific orders; this simple order keeps the per-type mix right, which is what timing needs.
//!
//! Striping (where consecutive logical pages go under static allocation): a walk over the planes in
//! one of MQSim's 24 plane allocation orders (`ftl.plane_allocation_order`, the first unit changing
//! fastest), over the whole device or over a subset of its units (a flow confined to some channels,
//! chips, dies and planes, `host/flows/resources.rs`), each unit visited in the order its list
//! gives, as MQSim's `Address_Mapping_Unit_Page_Level::allocate_plane_for_user_write`.

use crate::config::{CellType, GeometryConfig, PlaneAllocationOrder, StripeUnit};

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

/// Division by a geometry dimension: a shift when it is a power of two (the usual case), else a
/// hardware division. Address arithmetic runs several times per page operation.
#[derive(Debug, Clone, Copy)]
struct Divisor {
    value: u32,
    shift: u32,
    power_of_two: bool,
}

impl Divisor {
    fn new(value: u32) -> Self {
        let value = value.max(1);
        Divisor { value, shift: value.trailing_zeros(), power_of_two: value.is_power_of_two() }
    }
    #[inline]
    fn div(self, x: u32) -> u32 {
        if self.power_of_two {
            x >> self.shift
        } else {
            x / self.value
        }
    }
    #[inline]
    fn rem(self, x: u32) -> u32 {
        if self.power_of_two {
            x & (self.value - 1)
        } else {
            x % self.value
        }
    }
}

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
    /// Plane visited by the k-th step of striping (`set_stripe_order`; channel-first by default).
    stripe_planes: Vec<u32>,
    by_pages_per_block: Divisor,
    by_blocks_per_plane: Divisor,
    by_planes_per_die: Divisor,
    by_dies_per_chip: Divisor,
    by_dies_per_channel: Divisor,
    by_bits_per_cell: Divisor,
    by_planes_total: Divisor,
    /// Pages per die: a physical page's die in one division (the hottest geometry question).
    by_pages_per_die: Divisor,
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
            by_pages_per_block: Divisor::new(config.pages_per_block),
            by_blocks_per_plane: Divisor::new(config.blocks_per_plane),
            by_planes_per_die: Divisor::new(config.planes_per_die),
            by_dies_per_chip: Divisor::new(config.dies_per_chip),
            by_dies_per_channel: Divisor::new(config.dies_per_chip * config.chips_per_channel),
            by_bits_per_cell: Divisor::new(cell.bits_per_cell() as u32),
            by_planes_total: Divisor::new(1),
            by_pages_per_die: Divisor::new(config.pages_per_block * config.blocks_per_plane * config.planes_per_die),
        };
        geometry.by_planes_total = Divisor::new(geometry.planes_total());
        geometry.set_stripe_order(PlaneAllocationOrder::Cwdp);
        geometry
    }

    /// Stripes every plane in `order` (the first unit changing fastest).
    pub fn set_stripe_order(&mut self, order: PlaneAllocationOrder) {
        let all = |count: u32| (0..count).collect::<Vec<u32>>();
        let units =
            [all(self.channels), all(self.chips_per_channel), all(self.dies_per_chip), all(self.planes_per_die)];
        self.stripe_planes = self.stripe_over(order, &units);
    }

    /// The global planes of a subset of the units in striping order: `units` lists, in the order
    /// they are visited, the channels, the chips within a channel, the dies within a chip and the
    /// planes within a die taken (validated: in range, none twice, none empty). Step k of the walk
    /// takes, for each unit, entry (k / (the sizes of the faster units)) mod (its size) of its list:
    /// MQSim's arithmetic for its 24 schemes.
    pub fn stripe_over(&self, order: PlaneAllocationOrder, units: &[Vec<u32>; 4]) -> Vec<u32> {
        let index = |unit: StripeUnit| unit as usize;
        let steps: usize = units.iter().map(Vec::len).product();
        (0..steps)
            .map(|step| {
                let mut rest = step;
                let mut chosen = [0u32; 4];
                for unit in order.units() {
                    let list = &units[index(unit)];
                    chosen[index(unit)] = list[rest % list.len()];
                    rest /= list.len();
                }
                let [channel, chip, die, plane] = chosen;
                ((channel * self.chips_per_channel + chip) * self.dies_per_chip + die) * self.planes_per_die + plane
            })
            .collect()
    }

    /// Static striping for DiskSim's ganged device (`[device.ganging]`): consecutive stripe steps go
    /// to the chips of one gang in turn, then to the next gang, then to the next die and plane
    /// (ssd_gang.c: page p is on element `g x n + p mod n` of gang `g = (p / n) mod gangs`).
    pub fn stripe_by_gangs(&mut self, chips_per_gang: u32) {
        let (n, chips, d, p) = (chips_per_gang.max(1), self.chips_total(), self.dies_per_chip, self.planes_per_die);
        let gangs = (chips / n).max(1);
        self.stripe_planes = (0..self.planes_total())
            .map(|step| {
                let chip = ((step / n) % gangs) * n + step % n;
                let rest = step / (n * gangs);
                let die = rest % d;
                let plane = (rest / d) % p;
                (chip * d + die) * p + plane
            })
            .collect();
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

    /// The plane at step `step` of striping (channel, then chip, die, plane by default).
    #[inline]
    pub fn stripe_plane(&self, step: u64) -> PlaneIndex {
        // Logical page numbers and cursors fit in 32 bits of stripe position after the remainder.
        let position = if self.by_planes_total.power_of_two {
            (step as u32) & (self.by_planes_total.value - 1)
        } else {
            (step % self.by_planes_total.value as u64) as u32
        };
        PlaneIndex(self.stripe_planes[position as usize])
    }

    #[inline]
    pub fn block_of(&self, ppn: Ppn) -> BlockIndex {
        BlockIndex(self.by_pages_per_block.div(ppn.0))
    }
    #[inline]
    pub fn page_in_block(&self, ppn: Ppn) -> u32 {
        self.by_pages_per_block.rem(ppn.0)
    }
    #[inline]
    pub fn first_page(&self, block: BlockIndex) -> Ppn {
        Ppn(block.0 * self.pages_per_block)
    }
    #[inline]
    pub fn plane_of_block(&self, block: BlockIndex) -> PlaneIndex {
        PlaneIndex(self.by_blocks_per_plane.div(block.0))
    }
    #[inline]
    pub fn plane_of(&self, ppn: Ppn) -> PlaneIndex {
        self.plane_of_block(self.block_of(ppn))
    }
    #[inline]
    pub fn die_of_plane(&self, plane: PlaneIndex) -> u32 {
        self.by_planes_per_die.div(plane.0)
    }
    #[inline]
    pub fn die_of(&self, ppn: Ppn) -> u32 {
        self.by_pages_per_die.div(ppn.0)
    }
    #[inline]
    pub fn chip_of_die(&self, die: u32) -> u32 {
        self.by_dies_per_chip.div(die)
    }
    #[inline]
    pub fn channel_of_die(&self, die: u32) -> u32 {
        self.by_dies_per_channel.div(die)
    }
    /// 0 = lower, 1 = upper, 2 = extra.
    #[inline]
    pub fn page_type(&self, ppn: Ppn) -> usize {
        self.by_bits_per_cell.rem(self.page_in_block(ppn)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn striping_visits_every_plane_channel_first() {
        let config = GeometryConfig {
            channels: 2,
            chips_per_channel: 2,
            dies_per_chip: 2,
            planes_per_die: 2,
            blocks_per_plane: 4,
            pages_per_block: 4,
            page_size_bytes: 4096,
        };
        let g = Geometry::new(&config, CellType::Mlc);
        let planes: Vec<u32> = (0..16).map(|s| g.stripe_plane(s).0).collect();
        let mut sorted = planes.clone();
        sorted.sort();
        assert_eq!(sorted, (0..16).collect::<Vec<_>>());
        // Consecutive steps alternate channels.
        let channel = |plane: u32| g.channel_of_die(g.die_of_plane(PlaneIndex(plane)));
        assert_ne!(channel(planes[0]), channel(planes[1]));
    }

    fn tiny(channels: u32, chips: u32, dies: u32, planes: u32) -> Geometry {
        let config = GeometryConfig {
            channels,
            chips_per_channel: chips,
            dies_per_chip: dies,
            planes_per_die: planes,
            blocks_per_plane: 4,
            pages_per_block: 4,
            page_size_bytes: 4096,
        };
        Geometry::new(&config, CellType::Slc)
    }

    /// (channel, chip, die, plane) of a global plane.
    fn units_of(g: &Geometry, plane: u32) -> (u32, u32, u32, u32) {
        let p = plane % g.planes_per_die;
        let die = plane / g.planes_per_die;
        (
            die / (g.dies_per_chip * g.chips_per_channel),
            (die / g.dies_per_chip) % g.chips_per_channel,
            die % g.dies_per_chip,
            p,
        )
    }

    #[test]
    fn cwdp_is_the_channel_first_formula() {
        let g = tiny(3, 2, 2, 2);
        for step in 0..24u32 {
            let (c, w, d) = (3, 2, 2);
            let channel = step % c;
            let chip = (step / c) % w;
            let die = (step / (c * w)) % d;
            let plane = step / (c * w * d);
            assert_eq!(g.stripe_plane(step as u64).0, ((channel * w + chip) * d + die) * 2 + plane);
        }
    }

    #[test]
    fn orders_match_hand_computed_sequences() {
        // 2 channels x 2 chips x 1 die x 2 planes; plane index = (channel x 2 + chip) x 2 + plane.
        let mut g = tiny(2, 2, 1, 2);
        let walk = |g: &Geometry| (0..8).map(|s| units_of(g, g.stripe_plane(s).0)).collect::<Vec<_>>();
        g.set_stripe_order(PlaneAllocationOrder::Cwdp);
        assert_eq!(
            walk(&g),
            [
                (0, 0, 0, 0),
                (1, 0, 0, 0),
                (0, 1, 0, 0),
                (1, 1, 0, 0),
                (0, 0, 0, 1),
                (1, 0, 0, 1),
                (0, 1, 0, 1),
                (1, 1, 0, 1)
            ]
        );
        // CPWD: channel fastest, then plane, then chip (MQSim: plane = (lpn / C) % P, chip = (lpn / (P C)) % W).
        g.set_stripe_order(PlaneAllocationOrder::Cpwd);
        assert_eq!(
            walk(&g),
            [
                (0, 0, 0, 0),
                (1, 0, 0, 0),
                (0, 0, 0, 1),
                (1, 0, 0, 1),
                (0, 1, 0, 0),
                (1, 1, 0, 0),
                (0, 1, 0, 1),
                (1, 1, 0, 1)
            ]
        );
        // PWDC: plane fastest, channel slowest.
        g.set_stripe_order(PlaneAllocationOrder::Pwdc);
        assert_eq!(
            walk(&g),
            [
                (0, 0, 0, 0),
                (0, 0, 0, 1),
                (0, 1, 0, 0),
                (0, 1, 0, 1),
                (1, 0, 0, 0),
                (1, 0, 0, 1),
                (1, 1, 0, 0),
                (1, 1, 0, 1)
            ]
        );
        // WCPD: chip fastest, then channel, then plane.
        g.set_stripe_order(PlaneAllocationOrder::Wcpd);
        assert_eq!(
            walk(&g),
            [
                (0, 0, 0, 0),
                (0, 1, 0, 0),
                (1, 0, 0, 0),
                (1, 1, 0, 0),
                (0, 0, 0, 1),
                (0, 1, 0, 1),
                (1, 0, 0, 1),
                (1, 1, 0, 1)
            ]
        );
    }

    #[test]
    fn every_order_visits_every_plane_once() {
        let mut g = tiny(2, 3, 2, 2);
        for order in PlaneAllocationOrder::ALL {
            g.set_stripe_order(order);
            let mut planes: Vec<u32> = (0..g.planes_total() as u64).map(|s| g.stripe_plane(s).0).collect();
            planes.sort();
            assert_eq!(planes, (0..g.planes_total()).collect::<Vec<_>>(), "{}", order.name());
        }
    }

    #[test]
    fn a_subset_is_walked_in_its_lists_order() {
        // Channels [1, 0] (in that order), chip 1 only, every die and plane of a 2 x 2 x 1 x 2 device.
        let g = tiny(2, 2, 1, 2);
        let planes = g.stripe_over(PlaneAllocationOrder::Cwdp, &[vec![1, 0], vec![1], vec![0], vec![0, 1]]);
        let units: Vec<_> = planes.iter().map(|&p| units_of(&g, p)).collect();
        assert_eq!(units, [(1, 1, 0, 0), (0, 1, 0, 0), (1, 1, 0, 1), (0, 1, 0, 1)]);
    }
}
