//! Runs a preset or config file from Rust alone (for profiling without Python):
//! `cargo run --release -p ssdlab-ssd --example run_preset -- mqsim-default [key=value ...]`

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(name) = args.next() else {
        eprintln!("usage: run_preset PRESET_OR_FILE [key=value ...]");
        std::process::exit(2);
    };
    let overrides: Vec<String> = args.collect();
    let outcome = ssdlab_ssd::presets::resolve(&name, &overrides)
        .map_err(ssdlab_ssd::SimulationError::from)
        .and_then(|config| ssdlab_ssd::run(&config, &mut |_, _, _| Ok(())));
    match outcome {
        Ok(result) => println!("{}", serde_json::to_string_pretty(&result).unwrap_or_default()),
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(1);
        }
    }
}
