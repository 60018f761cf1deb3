//! `cargo run --release -p ssdlab-ecc --example ecc_curve [SPEC.json]`: runs a frame-error-rate
//! curve (the default spec, or one read from a JSON file) and prints each decoder's summary. The
//! command line (`ssdlab ecc curve`) does the same with caching, tables and figures.

use ssdlab_ecc::curve::{run_curve, CurveSpec};

fn main() {
    let spec: CurveSpec = match std::env::args().nth(1) {
        Some(path) => match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(spec) => spec,
            Err(error) => {
                eprintln!("{path}: {error}");
                std::process::exit(2);
            }
        },
        None => CurveSpec::default(),
    };
    let mut progress = |done: u64, total: u64| {
        eprint!("\r{done}/{total} points");
        Ok(())
    };
    match run_curve(&spec, &mut progress) {
        Ok(table) => {
            eprintln!();
            for p in &table.points {
                println!(
                    "{:<12} rber {:.2e} (pe {:>7.0}) frames {:>6} failures {:>4} fer {:.2e} iters {:.1}{}",
                    p.label,
                    p.point.rber,
                    p.point.pe_cycles,
                    p.point.frames,
                    p.point.failures,
                    p.point.frame_error_rate,
                    p.point.mean_iterations,
                    p.exact_frame_error_rate.map(|e| format!(" exact {e:.2e}")).unwrap_or_default()
                );
            }
            for s in &table.summaries {
                println!(
                    "{:<12} lowest {:?} at-comparison {:?} at-target {:?}",
                    s.label,
                    s.lowest_measured_frame_error_rate,
                    s.tolerable_rber_at_comparison.as_ref().map(|e| e.rber),
                    s.tolerable_rber_at_target.as_ref().map(|e| (e.rber, &e.method))
                );
            }
            println!("{:.1} s on {} threads", table.wall_seconds, table.threads);
        }
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    }
}
