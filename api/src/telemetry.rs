//! Logging: tracing to stderr, filtered by `RUST_LOG` (default `info`), as text or JSON
//! (`FAD_LOG_FORMAT`). stdout is kept for command output (`openapi`, `migrate`, the
//! `listening on` line).

use tracing_subscriber::EnvFilter;

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
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().with_current_span(true).try_init(),
    };
    // An unset RUST_LOG is the normal case; only a malformed one deserves a warning.
    if let (Ok(()), Some((value, err))) = (installed, bad_filter) {
        if !value.is_empty() {
            tracing::warn!("ignoring RUST_LOG={value:?} ({err}); logging at info");
        }
    }
}
