//! Standard Webhooks signing: `whsec_` secrets, and `v1,<base64 HMAC-SHA256 of
//! "{id}.{timestamp}.{body}">` keyed by the base64-decoded part after `whsec_`, so receivers
//! verify with any Standard Webhooks library.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The prefix of a signing secret.
pub const SECRET_PREFIX: &str = "whsec_";

/// Random bytes in a new secret (the scheme asks for 24 to 64).
const SECRET_BYTES: usize = 32;

/// A new signing secret: `whsec_` + base64 of 32 random bytes.
pub fn new_secret() -> Result<String, getrandom::Error> {
    let mut key = [0u8; SECRET_BYTES];
    getrandom::fill(&mut key)?;
    Ok(format!("{SECRET_PREFIX}{}", STANDARD.encode(key)))
}

/// The HMAC key of a `whsec_…` secret; `None` when it is not one.
pub fn key_of(secret: &str) -> Option<Vec<u8>> {
    STANDARD
        .decode(secret.strip_prefix(SECRET_PREFIX)?)
        .ok()
        .filter(|k| !k.is_empty())
}

/// The `webhook-signature` header value for one message.
pub fn sign(key: &[u8], msg_id: &str, timestamp: i64, body: &str) -> String {
    // HMAC accepts keys of any length; an empty one is refused by `key_of` beforehand.
    let mut mac = match Hmac::<Sha256>::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => return String::new(),
    };
    mac.update(format!("{msg_id}.{timestamp}.{body}").as_bytes());
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vector published with the Standard Webhooks specification.
    #[test]
    fn signs_the_published_test_vector() {
        let key = key_of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap_or_default();
        let signature = sign(
            &key,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            r#"{"test": 2432232314}"#,
        );
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn new_secrets_are_prefixed_random_and_decode_to_32_bytes() {
        let a = new_secret().unwrap_or_default();
        let b = new_secret().unwrap_or_default();
        assert!(a.starts_with(SECRET_PREFIX));
        assert_ne!(a, b);
        assert_eq!(key_of(&a).map(|k| k.len()), Some(SECRET_BYTES));
        assert_eq!(key_of("nope"), None);
    }
}
