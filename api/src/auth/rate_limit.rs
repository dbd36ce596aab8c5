//! Per-client-address rate limit for registration and login (GCRA from `governor`, the engine
//! of `actix-governor`, re-exported by it).
//!
//! Handlers opt in by taking [`AuthRateLimited`] as their first argument (joining a campaign
//! spends the same quota in the application layer,
//! [`crate::app::campaigns::invites::spend_join_attempt`]); the limiter lives in
//! [`super::AuthState`] (in [`AppState`]), so one quota is shared by every worker. Exceeding it answers 429 with
//! `Retry-After` (whole seconds, at least 1). The key is the TCP peer address: behind a reverse
//! proxy every client shares the proxy's address, so size `FAD_AUTH_RATE_PER_MINUTE` for that.

use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;

use actix_governor::governor::clock::{Clock, DefaultClock};
use actix_governor::governor::{DefaultKeyedRateLimiter, Quota};
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::http::header::RETRY_AFTER;
use actix_web::{FromRequest, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::future::{Ready, ready};

use crate::AppState;
use crate::error::{ApiError, Problem};

/// Stale per-address states are dropped once this many addresses are tracked.
const RETAIN_RECENT_ABOVE: usize = 10_000;

/// A keyed limiter: `per_minute` requests per minute per address, with bursts of `burst`.
#[derive(Clone)]
pub struct AuthRateLimiter(Arc<DefaultKeyedRateLimiter<IpAddr>>);

impl std::fmt::Debug for AuthRateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AuthRateLimiter")
    }
}

impl AuthRateLimiter {
    /// A limiter replenishing `per_minute` requests a minute, allowing bursts of `burst`
    /// (both clamped to at least 1).
    pub fn new(per_minute: u32, burst: u32) -> Self {
        let per_minute = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        Self(Arc::new(DefaultKeyedRateLimiter::keyed(
            Quota::per_minute(per_minute).allow_burst(burst),
        )))
    }

    /// Takes one request from `addr`'s quota, or says how many seconds to wait.
    pub fn check(&self, addr: IpAddr) -> Result<(), u64> {
        if self.0.len() > RETAIN_RECENT_ABOVE {
            self.0.retain_recent();
        }
        self.0.check_key(&addr).map_err(|not_until| {
            not_until
                .wait_time_from(DefaultClock::default().now())
                .as_secs()
                .max(1)
        })
    }
}

/// 429 Too Many Requests, as problem+json with `Retry-After`; or the error of a missing state.
#[derive(Debug, thiserror::Error)]
pub enum RateLimitError {
    /// The quota is spent; retry after this many seconds.
    #[error("Too many attempts from this address; retry in {0} s.")]
    Exceeded(u64),
    /// The app was built without [`AppState`].
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl ResponseError for RateLimitError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Exceeded(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Api(inner) => inner.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            Self::Exceeded(seconds) => {
                let mut response =
                    Problem::new(StatusCode::TOO_MANY_REQUESTS, self.to_string()).response();
                response
                    .headers_mut()
                    .insert(RETRY_AFTER, (*seconds).into());
                response
            }
            Self::Api(inner) => inner.error_response(),
        }
    }
}

/// Extractor that spends one unit of the caller's registration/login quota, or fails with 429.
#[derive(Debug, Clone, Copy)]
pub struct AuthRateLimited;

impl FromRequest for AuthRateLimited {
    type Error = RateLimitError;
    type Future = Ready<Result<Self, RateLimitError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let Some(state) = req.app_data::<web::Data<AppState>>() else {
            let missing = ApiError::Internal(anyhow::anyhow!("AppState is not registered"));
            return ready(Err(missing.into()));
        };
        let addr = req
            .peer_addr()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
        ready(
            state
                .auth
                .rate_limiter
                .check(addr)
                .map(|()| AuthRateLimited)
                .map_err(RateLimitError::Exceeded),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_is_allowed_then_refused_with_a_wait() {
        let limiter = AuthRateLimiter::new(1, 3);
        let addr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));
        for _ in 0..3 {
            assert_eq!(limiter.check(addr), Ok(()));
        }
        let wait = limiter.check(addr).unwrap_err();
        assert!((1..=60).contains(&wait), "{wait}");
    }

    #[test]
    fn addresses_have_separate_quotas() {
        let limiter = AuthRateLimiter::new(1, 1);
        assert_eq!(
            limiter.check(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1))),
            Ok(())
        );
        assert_eq!(
            limiter.check(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 2))),
            Ok(())
        );
        assert!(
            limiter
                .check(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)))
                .is_err()
        );
    }
}
