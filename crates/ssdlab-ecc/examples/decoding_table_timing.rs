//! `cargo run --release -p ssdlab-ecc --example decoding_table_timing`: times the default decoding table
//! (seed 002's MLC at 10,000 P/E, one month) and prints its estimates, for an A/B of two builds.
use ssdlab_ecc::decoding_table::DecodingTableSpec;
use ssdlab_ecc::monte_carlo::Codes;
fn main() {
    let spec = DecodingTableSpec::default();
    let t = std::time::Instant::now();
    let table = spec.run(&Codes::storage_4kb()).expect("table");
    println!("{:?}", table.estimated);
    eprintln!("{:.2} s", t.elapsed().as_secs_f64());
}
