//! A fixed, seeded bijection of the logical page space: page p goes to (a x p + b) mod N with a
//! coprime to N. Stateless, so it exercises the remapping seam (and the integrity oracle through it)
//! without any table; it also scatters sequential host writes over planes.

use super::Middleware;
use crate::ftl::Ftl;
use crate::geometry::Lpn;

pub struct Permutation {
    pages: u64,
    multiplier: u64,
    offset: u64,
}

impl Permutation {
    pub fn new(pages: u64, seed: u64) -> Self {
        let pages = pages.max(1);
        let mut multiplier = (seed | 1) % pages;
        if multiplier == 0 {
            multiplier = 1;
        }
        while gcd(multiplier, pages) != 1 {
            multiplier = (multiplier + 2) % pages;
            if multiplier == 0 {
                multiplier = 1;
            }
        }
        Permutation { pages, multiplier, offset: (seed >> 17) % pages }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Middleware for Permutation {
    fn name(&self) -> &'static str {
        "permutation"
    }
    fn write_target(&mut self, host: Lpn, _ftl: &Ftl, _now_ns: u64) -> Lpn {
        self.read_target(host).unwrap_or(host)
    }
    fn read_target(&self, host: Lpn) -> Option<Lpn> {
        let mapped = ((host.0 as u128 * self.multiplier as u128 + self.offset as u128) % self.pages as u128) as u32;
        Some(Lpn(mapped))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_a_bijection() {
        for pages in [1u64, 2, 10, 97, 1000] {
            let p = Permutation::new(pages, 12345);
            let mut seen = vec![false; pages as usize];
            for page in 0..pages {
                let target = p.read_target(Lpn(page as u32)).unwrap().0 as usize;
                assert!(!seen[target]);
                seen[target] = true;
            }
        }
    }
}
