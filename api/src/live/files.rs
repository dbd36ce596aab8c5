//! The open-file limit, checked at start: every live stream holds a socket, so a process
//! allowed 1,024 open files cannot hold 5,000 streams. The soft limit is raised to the hard one
//! (allowed without privileges), and one log line says how many streams fit.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Files kept for everything but streams: the pool, the listener, logs, other clients.
const RESERVED: u64 = 256;

/// What the check found, for the log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenFiles {
    /// The soft limit before the check (`None`: unlimited).
    pub before: Option<u64>,
    /// The soft limit now.
    pub now: Option<u64>,
    /// Streams that fit under `now` beside [`RESERVED`] other files.
    pub streams: Option<u64>,
}

/// Raises the soft open-file limit to the hard one if it is lower, and says how many streams
/// fit.
pub fn raise() -> OpenFiles {
    let limit = getrlimit(Resource::Nofile);
    let before = limit.current;
    let now = if limit.current != limit.maximum
        && setrlimit(
            Resource::Nofile,
            Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            },
        )
        .is_ok()
    {
        getrlimit(Resource::Nofile).current
    } else {
        before
    };
    OpenFiles {
        before,
        now,
        streams: now.map(|n| n.saturating_sub(RESERVED)),
    }
}

/// Checks the limit against `max_streams` (`FAD_MAX_STREAMS`) and logs the outcome: info when
/// the streams fit, a warning naming the fix when they do not.
pub fn check(max_streams: usize) {
    let found = raise();
    let shown = |n: Option<u64>| n.map_or_else(|| "unlimited".to_owned(), |n| n.to_string());
    let wanted = u64::try_from(max_streams).unwrap_or(u64::MAX);
    match found.streams {
        Some(fit) if fit < wanted => tracing::warn!(
            open_files = %shown(found.now),
            max_streams,
            "open-file limit {} (was {}) leaves room for about {fit} live streams, fewer than \
             FAD_MAX_STREAMS={max_streams}: raise the limit (ulimit -n, LimitNOFILE=) or lower \
             FAD_MAX_STREAMS, else streams beyond it fail to open",
            shown(found.now),
            shown(found.before),
        ),
        _ => tracing::info!(
            open_files = %shown(found.now),
            max_streams,
            "open-file limit {} (was {}): room for FAD_MAX_STREAMS={max_streams} live streams",
            shown(found.now),
            shown(found.before),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_ends_at_the_hard_one() {
        let found = raise();
        let limit = getrlimit(Resource::Nofile);
        assert_eq!(found.now, limit.current);
        assert_eq!(
            limit.current, limit.maximum,
            "the soft limit was not raised"
        );
        assert_eq!(
            found.streams,
            limit.current.map(|n| n.saturating_sub(RESERVED))
        );
    }
}
