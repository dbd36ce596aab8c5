//! Signed webhooks: where they may point ([`address`]), how a delivery is signed
//! ([`signature`]), the HTTP client ([`client`]) and the background worker that delivers the
//! outbox ([`worker`]). The organiser's use cases are in [`crate::app::webhooks`].

pub mod address;
pub mod client;
pub mod document;
pub mod signature;
pub mod worker;

use std::time::Duration;

use crate::config::WebhookArgs;

/// Seconds before each retry: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.6 hours in
/// all, the schedule Standard Webhooks senders commonly use).
pub const DEFAULT_RETRY_SECS: [u64; 7] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/// Validated webhook settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Whether `http://` and non-public addresses are allowed.
    pub allow_private: bool,
    /// Pause between looks at the queue when it was empty.
    pub poll: Duration,
    /// Longest wait for a receiver's answer.
    pub timeout: Duration,
    /// Waits before each retry; after the last, the delivery is given up.
    pub retries: Vec<Duration>,
    /// Most webhooks per campaign.
    pub max_per_campaign: u32,
    /// `FAD_PUBLIC_URL`, put in front of every link of a payload (empty: links stay paths).
    pub public_url: String,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            allow_private: false,
            poll: Duration::from_secs(1),
            timeout: Duration::from_secs(10),
            retries: DEFAULT_RETRY_SECS.map(Duration::from_secs).to_vec(),
            max_per_campaign: 10,
            public_url: String::new(),
        }
    }
}

impl Settings {
    /// Checks the command-line options.
    pub fn from_args(args: &WebhookArgs) -> anyhow::Result<Self> {
        if args.webhook_poll_ms == 0 || args.webhook_timeout_secs == 0 {
            anyhow::bail!(
                "FAD_WEBHOOK_POLL_MS and FAD_WEBHOOK_TIMEOUT_SECS (--webhook-poll-ms, \
                 --webhook-timeout-secs) must be greater than 0"
            );
        }
        if args.webhook_retry_secs.len() > 50 {
            anyhow::bail!("FAD_WEBHOOK_RETRY_SECS (--webhook-retry-secs) lists at most 50 waits");
        }
        if args.max_webhooks_per_campaign == 0 {
            anyhow::bail!("FAD_MAX_WEBHOOKS_PER_CAMPAIGN must be greater than 0");
        }
        Ok(Self {
            allow_private: args.webhook_allow_private,
            poll: Duration::from_millis(args.webhook_poll_ms),
            timeout: Duration::from_secs(args.webhook_timeout_secs),
            retries: args
                .webhook_retry_secs
                .iter()
                .map(|s| Duration::from_secs(*s))
                .collect(),
            max_per_campaign: args.max_webhooks_per_campaign,
            public_url: String::new(),
        })
    }

    /// How long a claimed delivery stays leased: past the receiver's timeout, so a live
    /// worker always finishes first; a killed one's claim runs out and another retries.
    pub fn lease(&self) -> Duration {
        self.timeout * 3 + Duration::from_secs(5)
    }
}
