//! `fad-campaign`: command-line entry point. Parses the command line and hands over to
//! [`fad_api::run`]; everything else lives in the library so tests and tools can reuse it.

use clap::Parser;
use std::process::ExitCode;

/// mimalloc rather than glibc's malloc: fewer instructions per allocation (glibc's was about a
/// sixth of a post-battle step's, bench/profile.py).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = fad_api::config::Cli::parse();
    fad_api::telemetry::init(cli.log_format);
    match fad_api::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // `{:#}` prints the whole cause chain on one line: the message a user acts on.
            tracing::error!("{err:#}");
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
