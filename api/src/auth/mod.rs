//! Authentication and authorization: who is calling, and what they may do.
//!
//! - [`password`]: Argon2id hashing, username and password rules.
//! - [`jwt`]: HS256 access tokens.
//! - [`secret`]: integration keys and invitation codes, shown once and stored as SHA-256.
//! - [`caller`]: resolving credentials, and the [`Caller`] and [`AuthUser`] extractors.
//! - [`gate`]: the middleware that authenticates every operation declaring `security` before
//!   its handler's extractors run.
//! - [`accounts`]: the accounts known to exist.
//! - [`policy`]: [`campaign_access`], the one authorization rule for campaign-scoped resources.
//! - [`rate_limit`]: the per-address limit on registration and login.
//!
//! # Recipe for a handler
//!
//! A read that integration keys may make (standings, battles, forces, scenarios) takes
//! [`Caller`] and asks [`campaign_access`] for `Need::Read` on the first line of its database
//! closure:
//!
//! ```ignore
//! #[get("/campaigns/{campaign_id}/forces")]
//! pub async fn list_forces(
//!     caller: Caller,
//!     state: web::Data<AppState>,
//!     path: web::Path<String>,
//! ) -> Result<web::Json<Vec<ForceResponse>>, ApiError> {
//!     let campaign_id = path.into_inner();
//!     let forces = state
//!         .db
//!         .run(move |conn| {
//!             let access = campaign_access(conn, &caller, &campaign_id, Need::Read)?;
//!             Ok(store::forces::list_for_campaign(conn, &campaign_id)?)
//!         })
//!         .await?;
//!     // `access.user_id` is None for a key: show it only what is public.
//!     …
//! }
//! ```
//!
//! A write takes [`AuthUser`] instead (a key gets 403 before the handler body runs; a revoked
//! key or bad token 401), builds `let caller = user.caller();`, and inside
//! `state.db.transaction(…)` asks for `Need::Write`, or `Need::Organiser` for organiser-only
//! actions. A resource with its own id (`/forces/{id}`, `/battles/{id}`) loads its row first,
//! then calls [`campaign_access`] with the row's `campaign_id`; an unknown id and a refused
//! outsider both answer 404 (use [`policy::campaign_not_found`] or the same `not_found`).
//! Owner-only writes check `access.is_user_or_organiser(&force.owner_id)` and answer 403
//! otherwise (the caller is a member, so the resource's existence is no secret). Secrets such as
//! a side's hidden orders are filtered by `access.user_id`; an integration key
//! (`user_id: None`) sees only what is public.
//!
//! Statuses: 401 no or bad credentials (missing, malformed, expired, forged, revoked key);
//! 404 not a member (or a key of another campaign); 403 a member or this campaign's key
//! attempting what its role or read-only key does not allow (403: authenticated).
//!
//! The handler's `#[utoipa::path]` must declare `security(("bearer" = []))`, or
//! `security(("bearer" = []), ("api_key" = []))` where keys may read: [`gate`] authenticates
//! exactly the operations that declare it (an extractor of an undeclared one answers 500).
//!
//! Every new endpoint also gets a row in the authorization table test
//! (`tests/authorization.rs`, `ROWS`).

pub mod accounts;
pub mod caller;
pub mod derived;
pub mod gate;
pub mod jwt;
pub mod password;
pub mod policy;
pub mod rate_limit;
pub mod secret;

pub use caller::{AuthUser, Caller};
pub use gate::SecurityTable;
pub use jwt::JwtKeys;
pub use policy::{CampaignAccess, Need, access_with_membership, campaign_access};
pub use rate_limit::{AuthRateLimited, AuthRateLimiter};

/// Shared authentication state, registered once as `web::Data<AuthState>`.
#[derive(Debug, Clone)]
pub struct AuthState {
    /// Keys that sign and verify access tokens.
    pub jwt: JwtKeys,
    /// The registration/login rate limiter.
    pub rate_limiter: AuthRateLimiter,
    /// Accounts seen to exist (tokens of unknown accounts get 401).
    pub accounts: accounts::KnownAccounts,
}

impl AuthState {
    /// Builds the state from the HMAC secret, token lifetime and login rate limit.
    pub fn new(
        jwt_secret: &[u8],
        token_lifetime_seconds: i64,
        auth_rate_per_minute: u32,
        auth_rate_burst: u32,
    ) -> Self {
        Self {
            jwt: JwtKeys::new(jwt_secret, token_lifetime_seconds),
            rate_limiter: AuthRateLimiter::new(auth_rate_per_minute, auth_rate_burst),
            accounts: accounts::KnownAccounts::default(),
        }
    }
}
