//! Random secrets shown once and stored as SHA-256 hex: integration keys (`fad_` + 32 CSPRNG
//! bytes as 64 hex digits) and invitation codes (20 CSPRNG bytes as hex).
//!
//! The plain value lives only in [`PlainSecret`], whose `Debug` is redacted; the database holds
//! [`hash_secret`] of it, so a leaked table does not leak usable keys (crates.io `PlainToken` /
//! `HashedToken`).

use sha2::{Digest, Sha256};

/// Prefix of every integration key; lets the caller extractor tell keys from JWTs.
pub const API_KEY_PREFIX: &str = "fad_";
/// Prefix of every personal access token (a person's credential for a bot).
pub const PERSONAL_TOKEN_PREFIX: &str = "fadp_";
/// Random bytes in an integration key.
pub const API_KEY_BYTES: usize = 32;
/// Random bytes in an invitation code.
pub const INVITE_CODE_BYTES: usize = 20;
/// Characters of a key kept in clear (`fad_` + 8 hex digits) so organisers can tell keys apart.
pub const API_KEY_DISPLAY_PREFIX_CHARS: usize = API_KEY_PREFIX.len() + 8;

/// The operating system's random source failed.
#[derive(Debug, thiserror::Error)]
#[error("random source unavailable: {0}")]
pub struct RandomError(String);

/// A freshly generated secret in clear. Shown to the user once, never logged.
#[derive(Clone, PartialEq, Eq)]
pub struct PlainSecret(String);

impl std::fmt::Debug for PlainSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PlainSecret([redacted])")
    }
}

impl PlainSecret {
    /// A new integration key: `fad_` + [`API_KEY_BYTES`] random bytes in lower-case hex.
    pub fn api_key() -> Result<Self, RandomError> {
        Ok(Self(format!(
            "{API_KEY_PREFIX}{}",
            random_hex(API_KEY_BYTES)?
        )))
    }

    /// A new personal access token: `fadp_` + [`API_KEY_BYTES`] random bytes in lower-case hex.
    pub fn personal_token() -> Result<Self, RandomError> {
        Ok(Self(format!(
            "{PERSONAL_TOKEN_PREFIX}{}",
            random_hex(API_KEY_BYTES)?
        )))
    }

    /// A new invitation code: [`INVITE_CODE_BYTES`] random bytes in lower-case hex.
    pub fn invite_code() -> Result<Self, RandomError> {
        Ok(Self(random_hex(INVITE_CODE_BYTES)?))
    }

    /// A new browser session value: [`API_KEY_BYTES`] random bytes in lower-case hex.
    pub fn session() -> Result<Self, RandomError> {
        Ok(Self(random_hex(API_KEY_BYTES)?))
    }

    /// The secret in clear, to put in the one response that shows it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The stored form: [`hash_secret`] of the clear value.
    pub fn hash(&self) -> String {
        hash_secret(&self.0)
    }

    /// The first [`API_KEY_DISPLAY_PREFIX_CHARS`] characters, safe to list.
    pub fn display_prefix(&self) -> String {
        self.0.chars().take(API_KEY_DISPLAY_PREFIX_CHARS).collect()
    }
}

/// SHA-256 of `secret` as 64 lower-case hex digits. The secrets carry 160+ random bits, so a
/// fast hash is enough (unlike passwords).
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Short invitation codes: 8 characters of Crockford base32 (40 random bits), shown as
/// `K7M2-QX9P` so they can be read across a table, and accepted in any case, with or without the
/// dash, with `I`/`L` read as `1` and `O` as `0`.
///
/// Why 40 bits are enough: 32^8 = 2^40 ≈ 1.1e12 codes. `join` spends the per-address quota of
/// registration and login (default 10 a minute) and needs an account; codes expire (default 7
/// days, at most 90) and may be limited in uses. One address trying for a whole week makes at
/// most 10 × 60 × 24 × 7 ≈ 1.0e5 guesses; with 1,000 live codes on the server each guess hits
/// with p ≈ 1,000 / 1.1e12 ≈ 9e-10, so ≈ 1e-4 per address and week (≈ 1e-3 over 90 days).
/// The codes are stored with a keyed hash ([`super::derived::invite_code_hash`]), since 2^40
/// plain hashes could be tried offline.
pub struct ShortCode;

impl ShortCode {
    /// Crockford's alphabet: digits and letters without I, L, O, U.
    const ALPHABET: &'static [u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    /// Characters of a code.
    pub const LEN: usize = 8;

    /// A new random code in its display form, `XXXX-XXXX`.
    pub fn generate() -> Result<String, RandomError> {
        let mut buf = [0u8; 5];
        getrandom::fill(&mut buf).map_err(|e| RandomError(e.to_string()))?;
        Ok(Self::from_bytes(buf))
    }

    /// The code of 40 bits (five bytes) in its display form, `XXXX-XXXX`.
    pub fn from_bytes(buf: [u8; 5]) -> String {
        let bits = buf.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        let chars: String = (0..Self::LEN)
            .rev()
            .map(|i| char::from(Self::ALPHABET[((bits >> (i * 5)) & 31) as usize]))
            .collect();
        format!("{}-{}", &chars[..4], &chars[4..])
    }

    /// The canonical form of what someone typed (upper case, no dash or spaces, ambiguous
    /// letters mapped), or `None` when it is not a short code (e.g. an old 40-digit code).
    pub fn normalize(input: &str) -> Option<String> {
        let mut out = String::with_capacity(Self::LEN);
        for c in input.chars() {
            let c = match c.to_ascii_uppercase() {
                '-' | ' ' => continue,
                'I' | 'L' => '1',
                'O' => '0',
                other => other,
            };
            if !c.is_ascii() || !Self::ALPHABET.contains(&(c as u8)) || out.len() == Self::LEN {
                return None;
            }
            out.push(c);
        }
        (out.len() == Self::LEN).then_some(out)
    }
}

fn random_hex(bytes: usize) -> Result<String, RandomError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| RandomError(e.to_string()))?;
    Ok(hex::encode(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_key_is_fad_prefix_plus_32_random_bytes_in_hex() {
        let key = PlainSecret::api_key().unwrap();
        let hex_part = key.expose().strip_prefix("fad_").unwrap();
        assert_eq!(hex_part.len(), 64);
        assert!(hex_part.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(key, PlainSecret::api_key().unwrap());
    }

    #[test]
    fn stored_hash_is_sha256_hex_of_the_whole_key() {
        assert_eq!(
            hash_secret("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let key = PlainSecret::api_key().unwrap();
        assert_eq!(key.hash(), hash_secret(key.expose()));
    }

    #[test]
    fn debug_is_redacted() {
        let key = PlainSecret::api_key().unwrap();
        let shown = format!("{key:?}");
        assert!(!shown.contains(key.expose()));
        assert!(!shown.contains(&key.expose()[4..12]));
    }

    #[test]
    fn display_prefix_is_short() {
        let key = PlainSecret::api_key().unwrap();
        assert_eq!(key.display_prefix().len(), 12);
        assert!(key.expose().starts_with(&key.display_prefix()));
    }

    #[test]
    fn short_codes_read_back_in_any_case_with_or_without_the_dash() {
        let code = ShortCode::generate().unwrap();
        assert_eq!(code.len(), 9);
        assert_eq!(&code[4..5], "-");
        let canonical = code.replace('-', "");
        assert_eq!(
            ShortCode::normalize(&code).as_deref(),
            Some(canonical.as_str())
        );
        assert_eq!(
            ShortCode::normalize(&code.to_lowercase()).as_deref(),
            Some(canonical.as_str())
        );
        assert_eq!(
            ShortCode::normalize("k7m2 qx9p").as_deref(),
            Some("K7M2QX9P")
        );
        assert_eq!(
            ShortCode::normalize("olIL-0000").as_deref(),
            Some("01110000")
        );
        assert_ne!(code, ShortCode::generate().unwrap());
    }

    #[test]
    fn long_codes_and_junk_are_not_short_codes() {
        let long = PlainSecret::invite_code().unwrap();
        assert_eq!(ShortCode::normalize(long.expose()), None);
        for junk in ["", "K7M2-QX9", "K7M2-QX9PP", "K7M2-QX9U", "K7M2-QX9é"] {
            assert_eq!(ShortCode::normalize(junk), None, "{junk}");
        }
    }

    #[test]
    fn invite_code_is_40_hex_digits() {
        let code = PlainSecret::invite_code().unwrap();
        assert_eq!(code.expose().len(), 40);
    }
}
