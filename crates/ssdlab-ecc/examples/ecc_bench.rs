//! `cargo run --release -p ssdlab-ecc --example ecc_bench`: decoder throughput and Monte Carlo rate
//! (see `ssdlab_ecc::bench`; `ssdlab bench ecc` prints the same as a table). Set RBER=... to change
//! the LDPC frames' raw bit error rate.

use ssdlab_ecc::bench::{run, EccBenchSettings};

fn main() {
    let mut settings = EccBenchSettings::default();
    if let Some(rber) = std::env::var("RBER").ok().and_then(|v| v.parse().ok()) {
        settings.ldpc_rber = rber;
    }
    let report = run(&settings);
    let l = &report.ldpc;
    println!("vector unit: {}", report.vector_unit);
    println!(
        "LDPC layered NMS (n=36864, k=32768, 16-bit): {} frames at RBER {:.1e}, mean {:.1} iterations, {} failures",
        l.frames, l.rber, l.mean_iterations, l.failures
    );
    println!("  1 core : {:.1} Mbit/s of information ({:.1} us/frame)", l.one_core_mbit_per_s, l.one_core_us_per_frame);
    println!("  {} cores: {:.1} Mbit/s", report.threads, l.all_cores_mbit_per_s);
    let b = &report.bch;
    println!("BCH (36856, 32768, t=256), {} errors per frame:", b.errors_per_frame);
    println!("  1 core : {:.2} ms/frame ({:.1} Mbit/s)", b.one_core_ms_per_frame, b.one_core_mbit_per_s);
    println!("  {} cores: {:.1} Mbit/s", report.threads, b.all_cores_mbit_per_s);
    for m in &report.monte_carlo {
        println!(
            "Monte Carlo {} at 10k P/E, 1 month (RBER {:.2e}): {} frames, FER {:.3}, {:.0} frames/s",
            m.decoder, m.rber, m.frames, m.frame_error_rate, m.frames_per_second
        );
    }
}
