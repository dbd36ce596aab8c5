//! Logging: tracing to stderr, filtered by `RUST_LOG` (default `info`), as text or JSON
//! (`FAD_LOG_FORMAT`). stdout is kept for command output (`openapi`, `migrate`, the
//! `listening on` line).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use tracing_subscriber::EnvFilter;

/// Whether the installed format is JSON (see [`structured`]).
static STRUCTURED: AtomicBool = AtomicBool::new(false);

/// Whether log lines are JSON objects, whose fields log shippers index. The access log line
/// carries its method, path, status and latency as fields only then: a text line already says
/// them in its message, and formatting them twice is a visible share of a fast request's cost.
pub fn structured() -> bool {
    STRUCTURED.load(Ordering::Relaxed)
}

/// Log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log shippers.
    Json,
}

/// Installs the global subscriber. Calling it twice is harmless (the second call is ignored).
pub fn init(format: LogFormat) {
    let (filter, bad_filter) = match EnvFilter::try_from_default_env() {
        Ok(filter) => (filter, None),
        Err(err) => {
            let bad = std::env::var("RUST_LOG").ok().map(|value| (value, err));
            (EnvFilter::new("info"), bad)
        }
    };
    // Colours only for a person at a terminal: escape codes in a log file are noise, and
    // styling every field costs time on every line.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().with_current_span(true).try_init(),
    };
    if installed.is_ok() {
        STRUCTURED.store(format == LogFormat::Json, Ordering::Relaxed);
    }
    // An unset RUST_LOG is the normal case; only a malformed one deserves a warning.
    if let (Ok(()), Some((value, err))) = (installed, bad_filter) {
        if !value.is_empty() {
            tracing::warn!("ignoring RUST_LOG={value:?} ({err}); logging at info");
        }
    }
}
