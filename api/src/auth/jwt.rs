//! Access tokens: HS256 JWTs signed with `FAD_JWT_SECRET` (`jsonwebtoken`, `rust_crypto` backend).
//!
//! A token carries `sub` (the user id), `iat`, `exp`, `iss`, `aud` and `cv` (the account's
//! credentials generation when it was issued; [`super::caller`] refuses it once a password
//! change has started a new one). Decoding accepts HS256
//! only (so `alg: none` and every other algorithm fail), requires all five claims, checks issuer
//! and audience, and allows 30 s of clock leeway. Keys are built once at start.
//!
//! A token that verified once is remembered with its claims (a bounded map shared by every
//! worker): its next uses only check the expiry again, instead of decoding two base64 parts and
//! two JSON documents and computing the HMAC on every request. Only tokens that passed every
//! check get in, so the map holds nothing a client could forge.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};

/// The `iss` claim of every token this service issues.
pub const ISSUER: &str = "fad-campaign";
/// The `aud` claim of access tokens (one audience per token purpose).
pub const ACCESS_AUDIENCE: &str = "fad-campaign|access";
/// Clock leeway in seconds when checking `exp`.
pub const LEEWAY_SECONDS: u64 = 30;

/// The claims of an access token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// Issued at (seconds since the epoch).
    pub iat: i64,
    /// Expires at (seconds since the epoch).
    pub exp: i64,
    /// Issuer: [`ISSUER`].
    pub iss: String,
    /// Audience: [`ACCESS_AUDIENCE`].
    pub aud: String,
    /// The account's credentials generation at issue (`users.credentials_version`); tokens
    /// issued before the claim existed read as generation 0.
    #[serde(default)]
    pub cv: i64,
}

/// Why a token was refused. Every variant answers 401; the variant only goes to the log.
#[derive(Debug, thiserror::Error)]
#[error("invalid access token: {0}")]
pub struct TokenError(#[from] jsonwebtoken::errors::Error);

/// At most this many verified tokens are remembered; the map starts over when full (each
/// forgotten token is decoded once more).
const VERIFIED_CAPACITY: usize = 10_000;

/// Signing and verification keys plus the token lifetime, built once from the config.
#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    lifetime_seconds: i64,
    /// Tokens that passed [`JwtKeys::verify`], with their claims.
    verified: Arc<Mutex<HashMap<String, Claims>>>,
}

impl std::fmt::Debug for JwtKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtKeys")
            .field("secret", &"[redacted]")
            .field("lifetime_seconds", &self.lifetime_seconds)
            .finish()
    }
}

impl JwtKeys {
    /// Keys for the HMAC `secret`, issuing tokens valid for `lifetime_seconds`.
    pub fn new(secret: &[u8], lifetime_seconds: i64) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        // `iat` has no spec check; the `Claims` type requires it.
        validation.set_required_spec_claims(&["exp", "sub", "iss", "aud"]);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[ACCESS_AUDIENCE]);
        validation.leeway = LEEWAY_SECONDS;
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            lifetime_seconds,
            verified: Arc::default(),
        }
    }

    /// How long issued tokens are valid, in seconds.
    pub fn lifetime_seconds(&self) -> i64 {
        self.lifetime_seconds
    }

    /// Issues an access token for `user_id` of credentials generation `cv`, valid from `now`
    /// for the configured lifetime.
    pub fn issue(&self, user_id: &str, cv: i64, now: DateTime<Utc>) -> Result<String, TokenError> {
        let iat = now.timestamp();
        let claims = Claims {
            sub: user_id.to_owned(),
            iat,
            exp: iat + self.lifetime_seconds,
            iss: ISSUER.to_owned(),
            aud: ACCESS_AUDIENCE.to_owned(),
            cv,
        };
        Ok(encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    /// Verifies signature, algorithm, expiry, issuer and audience; returns the claims. A token
    /// verified before only has its expiry checked again (as `decode` checks it).
    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        let now = Utc::now().timestamp();
        let unexpired = |claims: &Claims| {
            claims.exp >= now.saturating_sub(LEEWAY_SECONDS.try_into().unwrap_or(i64::MAX))
        };
        {
            let verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(claims) = verified.get(token).filter(|c| unexpired(c)) {
                return Ok(claims.clone());
            }
        }
        let claims = decode::<Claims>(token, &self.decoding, &self.validation)?.claims;
        let mut verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if verified.len() >= VERIFIED_CAPACITY {
            verified.clear();
        }
        verified.insert(token.to_owned(), claims.clone());
        Ok(claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    fn keys() -> JwtKeys {
        JwtKeys::new(b"a test secret that is long enough!", 3600)
    }

    /// base64url(`{"alg":"none","typ":"JWT"}`).
    const ALG_NONE_HEADER: &str = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0";

    #[test]
    fn a_remembered_token_verifies_again_until_it_expires() {
        let keys = keys();
        let token = keys.issue("user-1", 0, Utc::now()).unwrap();
        let first = keys.verify(&token).unwrap();
        assert_eq!(keys.verify(&token).unwrap(), first);
        // As if its lifetime had passed while it was remembered: refused, not served from memory.
        let expired_at = Utc::now().timestamp() - i64::try_from(LEEWAY_SECONDS).unwrap() - 1;
        keys.verified.lock().unwrap().get_mut(&token).unwrap().exp = expired_at;
        let stale = keys.verified.lock().unwrap()[&token].clone();
        assert!(keys.verify(&token).is_ok(), "the real token is still valid");
        assert_ne!(
            keys.verified.lock().unwrap()[&token],
            stale,
            "decoded afresh"
        );
        // A token with a forged signature never gets in.
        let forged = format!("{}x", token);
        assert!(keys.verify(&forged).is_err());
        assert!(!keys.verified.lock().unwrap().contains_key(&forged));
    }

    #[test]
    fn issued_token_verifies_with_its_claims() {
        let now = Utc::now();
        let token = keys().issue("user-1", 0, now).unwrap();
        let claims = keys().verify(&token).unwrap();
        assert_eq!(claims.sub, "user-1");
        assert_eq!(claims.iat, now.timestamp());
        assert_eq!(claims.exp, now.timestamp() + 3600);
        assert_eq!(claims.iss, ISSUER);
        assert_eq!(claims.aud, ACCESS_AUDIENCE);
    }

    #[test]
    fn expired_token_is_refused_after_the_leeway() {
        let token = keys()
            .issue("u", 0, Utc::now() - Duration::seconds(3600 + 31))
            .unwrap();
        assert!(keys().verify(&token).is_err());
    }

    #[test]
    fn token_signed_with_another_secret_is_refused() {
        let other = JwtKeys::new(b"another secret entirely, also long", 3600);
        let token = other.issue("u", 0, Utc::now()).unwrap();
        assert!(keys().verify(&token).is_err());
    }

    #[test]
    fn alg_none_token_is_refused() {
        let token = keys().issue("u", 0, Utc::now()).unwrap();
        let payload = token.split('.').nth(1).unwrap();
        let forged = format!("{ALG_NONE_HEADER}.{payload}.");
        assert!(keys().verify(&forged).is_err());
    }

    #[test]
    fn token_with_another_algorithm_is_refused() {
        let secret = b"a test secret that is long enough!";
        let now = Utc::now().timestamp();
        let claims = Claims {
            sub: "u".into(),
            iat: now,
            exp: now + 60,
            iss: ISSUER.into(),
            aud: ACCESS_AUDIENCE.into(),
            cv: 0,
        };
        let token = encode(
            &Header::new(Algorithm::HS512),
            &claims,
            &EncodingKey::from_secret(secret),
        )
        .unwrap();
        assert!(keys().verify(&token).is_err());
    }

    #[test]
    fn wrong_issuer_or_audience_is_refused() {
        let secret = b"a test secret that is long enough!";
        let now = Utc::now().timestamp();
        for (iss, aud) in [
            ("someone-else", ACCESS_AUDIENCE),
            (ISSUER, "fad-campaign|invite"),
        ] {
            let claims = Claims {
                sub: "u".into(),
                iat: now,
                exp: now + 60,
                iss: iss.into(),
                aud: aud.into(),
                cv: 0,
            };
            let token = encode(
                &Header::new(Algorithm::HS256),
                &claims,
                &EncodingKey::from_secret(secret),
            )
            .unwrap();
            assert!(keys().verify(&token).is_err(), "{iss} {aud}");
        }
    }

    #[test]
    fn tampered_payload_is_refused() {
        let now = Utc::now();
        let mine = keys().issue("user-1", 0, now).unwrap();
        let theirs = keys().issue("user-2", 0, now).unwrap();
        let mine: Vec<&str> = mine.split('.').collect();
        let theirs: Vec<&str> = theirs.split('.').collect();
        // user-2's claims under user-1's signature.
        let forged = format!("{}.{}.{}", mine[0], theirs[1], mine[2]);
        assert!(keys().verify(&forged).is_err());
    }

    #[test]
    fn debug_does_not_show_the_secret() {
        assert!(!format!("{:?}", keys()).contains("test secret"));
    }
}
