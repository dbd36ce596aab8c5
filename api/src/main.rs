//! `fad-campaign`: command-line entry point. Parses the command line and hands over to
//! [`fad_api::run`]; everything else lives in the library so tests and tools can reuse it.

use clap::Parser;
use std::process::ExitCode;

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
