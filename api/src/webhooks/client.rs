//! The HTTP client of the delivery worker (ureq, blocking: the worker is a thread of its own).
//! Every address a host name resolves to is checked as the connection is made (see
//! [`address`]), no redirect is followed and no proxy is used, so a delivery reaches only
//! the addresses the checks allowed.

use std::io;

use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::webhooks::{Settings, address};

/// One signed delivery.
#[derive(Debug)]
pub struct Signed<'a> {
    /// `webhook-id`: the event's id.
    pub msg_id: &'a str,
    /// `webhook-timestamp`: this attempt's time, Unix seconds.
    pub timestamp: i64,
    /// `webhook-signature`.
    pub signature: String,
    /// The JSON body.
    pub body: &'a str,
}

/// The delivery client.
#[derive(Debug)]
pub struct Client {
    agent: ureq::Agent,
}

/// Resolves like the system does, then refuses the lot if any address is not allowed.
#[derive(Debug)]
struct CheckedResolver {
    inner: DefaultResolver,
    allow_private: bool,
}

impl Resolver for CheckedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let addrs = self.inner.resolve(uri, config, timeout)?;
        for addr in addrs.iter() {
            address::check_ip(addr.ip(), self.allow_private).map_err(|refused| {
                ureq::Error::Io(io::Error::new(io::ErrorKind::PermissionDenied, refused.0))
            })?;
        }
        Ok(addrs)
    }
}

impl Client {
    /// A client with the settings' timeout and address rule.
    pub fn new(settings: &Settings) -> Self {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(settings.timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .max_redirects_will_error(false)
            .proxy(None)
            .user_agent(concat!(
                "fad-campaign/",
                env!("CARGO_PKG_VERSION"),
                " webhooks"
            ))
            .build();
        let resolver = CheckedResolver {
            inner: DefaultResolver::default(),
            allow_private: settings.allow_private,
        };
        Self {
            agent: ureq::Agent::with_parts(config, DefaultConnector::new(), resolver),
        }
    }

    /// POSTs a delivery; the receiver's status code, or why there was none, in plain words.
    pub fn post(&self, target: &address::Target, signed: &Signed<'_>) -> Result<u16, String> {
        let response = self
            .agent
            .post(target.url.as_str())
            .header("content-type", "application/json")
            .header("webhook-id", signed.msg_id)
            .header("webhook-timestamp", signed.timestamp.to_string())
            .header("webhook-signature", signed.signature.as_str())
            .send(signed.body)
            .map_err(describe)?;
        Ok(response.status().as_u16())
    }
}

/// A transport error in words for the delivery log.
fn describe(error: ureq::Error) -> String {
    match error {
        ureq::Error::Timeout(_) => "no answer within the timeout".to_owned(),
        ureq::Error::HostNotFound => "the host cannot be found".to_owned(),
        ureq::Error::Io(e) if e.kind() == io::ErrorKind::PermissionDenied => e.to_string(),
        ureq::Error::Io(e) => format!("connection failed: {e}"),
        other => format!("delivery failed: {other}"),
    }
}
