//! Prints the channel's raw bit error rate against P/E cycles (one month at 40 C), MLC and TLC.
use ssdlab_ecc::channel::{CellKind, Channel, ChannelParameters, Stress};

fn main() {
    println!("pe_cycles  mlc_rber     tlc_rber");
    for pe in [0.0, 1000.0, 2000.0, 3000.0, 5000.0, 7000.0, 10_000.0] {
        let rber = |cell| {
            Channel::new(&ChannelParameters::default_for(cell), Stress::new(pe, 720.0)).mean_raw_bit_error_rate()
        };
        println!("{pe:>9}  {:.3e}  {:.3e}", rber(CellKind::Mlc), rber(CellKind::Tlc));
    }
}
