//! Arithmetic in GF(2^m) for 2 <= m <= 16 by log/antilog tables.
//!
//! Elements are u16 bit patterns in the polynomial basis of a primitive polynomial; `alpha` is the
//! root x. The antilog table is stored twice over so `exp[a + b]` needs no reduction for logs below
//! the group order. Source: Lin & Costello, *Error Control Coding*, ch. 2.

/// Primitive polynomials (with the x^m term) for m = 2..=16; from Lin & Costello, table 2.7.
const PRIMITIVE: [u32; 17] = [
    0,
    0,
    0b111,
    0b1011,
    0b10011,
    0b100101,
    0b1000011,
    0b10001001,
    0b100011101,
    0b1000010001,
    0b10000001001,
    0b100000000101,
    0b1000001010011,
    0b10000000011011,
    0b100010001000011,
    0b1000000000000011,
    0b10001000000001011,
];

#[derive(Debug, Clone)]
pub struct GaloisField {
    pub m: u32,
    /// Multiplicative group order, 2^m - 1.
    pub order: u32,
    exp: Vec<u16>,
    log: Vec<u32>,
}

impl GaloisField {
    pub fn new(m: u32) -> Self {
        assert!((2..=16).contains(&m), "GF(2^m) supported for 2 <= m <= 16");
        let order = (1u32 << m) - 1;
        let mut exp = vec![0u16; 2 * order as usize + 2];
        let mut log = vec![0u32; 1 << m];
        let mut value = 1u32;
        for i in 0..order {
            exp[i as usize] = value as u16;
            log[value as usize] = i;
            value <<= 1;
            if value & (1 << m) != 0 {
                value ^= PRIMITIVE[m as usize];
            }
        }
        for i in order as usize..exp.len() {
            exp[i] = exp[i - order as usize];
        }
        GaloisField { m, order, exp, log }
    }

    /// alpha^power for any power (reduced modulo the group order).
    #[inline]
    pub fn alpha_pow(&self, power: u64) -> u16 {
        self.exp[(power % self.order as u64) as usize]
    }
    #[inline]
    pub fn exp(&self, log: u32) -> u16 {
        self.exp[log as usize]
    }
    /// Discrete log of a non-zero element.
    #[inline]
    pub fn log(&self, value: u16) -> u32 {
        debug_assert!(value != 0);
        self.log[value as usize]
    }
    #[inline]
    pub fn mul(&self, a: u16, b: u16) -> u16 {
        if a == 0 || b == 0 {
            0
        } else {
            self.exp[(self.log[a as usize] + self.log[b as usize]) as usize]
        }
    }
    #[inline]
    pub fn inverse(&self, a: u16) -> u16 {
        debug_assert!(a != 0);
        self.exp[((self.order - self.log[a as usize]) % self.order) as usize]
    }
    #[inline]
    pub fn div(&self, a: u16, b: u16) -> u16 {
        if a == 0 {
            0
        } else {
            self.exp[(self.log[a as usize] + self.order - self.log[b as usize]) as usize]
        }
    }
    /// The antilog table (length 2 x order + 2), for tight loops that work in the log domain.
    pub fn exp_table(&self) -> &[u16] {
        &self.exp
    }

    /// The minimal polynomial of alpha^power over GF(2), as coefficient bits (bit i = x^i).
    pub fn minimal_polynomial(&self, power: u32) -> Vec<u8> {
        // Product of (x - alpha^(power 2^j)) over the cyclotomic coset; coefficients end in GF(2).
        let mut coset = Vec::new();
        let mut member = power % self.order;
        loop {
            coset.push(member);
            member = (member * 2) % self.order;
            if member == coset[0] {
                break;
            }
        }
        let mut poly: Vec<u16> = vec![1];
        for &root_log in &coset {
            let root = self.exp(root_log);
            let mut next = vec![0u16; poly.len() + 1];
            for (i, &c) in poly.iter().enumerate() {
                next[i + 1] ^= c;
                next[i] ^= self.mul(c, root);
            }
            poly = next;
        }
        poly.iter()
            .map(|&c| {
                debug_assert!(c <= 1, "minimal polynomial coefficients lie in GF(2)");
                c as u8
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_axioms_hold_for_small_fields() {
        for m in 2..=8 {
            let field = GaloisField::new(m);
            for a in 1..=field.order as u16 {
                assert_eq!(field.mul(a, field.inverse(a)), 1);
                assert_eq!(field.div(field.mul(a, 7 % field.order as u16 + 1), 7 % field.order as u16 + 1), a);
            }
        }
    }

    #[test]
    fn every_primitive_polynomial_generates_the_whole_group() {
        for m in 2..=16 {
            let field = GaloisField::new(m);
            let mut seen = vec![false; 1 << m];
            for i in 0..field.order {
                let v = field.exp(i) as usize;
                assert!(!seen[v], "m={m}: alpha^{i} repeats");
                seen[v] = true;
            }
        }
    }

    #[test]
    fn minimal_polynomial_has_its_root() {
        let field = GaloisField::new(16);
        for power in [1u32, 3, 257, 511] {
            let poly = field.minimal_polynomial(power);
            let root = field.alpha_pow(power as u64);
            let mut value = 0u16;
            let mut x_pow = 1u16;
            for &c in &poly {
                if c == 1 {
                    value ^= x_pow;
                }
                x_pow = field.mul(x_pow, root);
            }
            assert_eq!(value, 0, "alpha^{power}");
        }
        // alpha^257 lies in the subfield GF(2^8): its minimal polynomial has degree 8.
        assert_eq!(field.minimal_polynomial(257).len() - 1, 8);
    }
}
