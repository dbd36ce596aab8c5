//! Password hashing and verification with Argon2id (the RustCrypto `argon2` crate, its default
//! parameters: 19 MiB, t = 2, p = 1), plus the credential rules for new accounts.
//!
//! Hashing is CPU-heavy: call these functions inside `web::block`, never on an actix worker.
//! Unknown users are verified against [`dummy_hash`] so that "no such user" and "wrong password"
//! take about the same time.

use std::sync::LazyLock;

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// Fewest characters a password may have.
pub const PASSWORD_MIN_CHARS: usize = 10;
/// Most characters a password may have (bounds the hashing work per request).
pub const PASSWORD_MAX_CHARS: usize = 256;
/// Fewest characters a username may have.
pub const USERNAME_MIN_CHARS: usize = 3;
/// Most characters a username may have.
pub const USERNAME_MAX_CHARS: usize = 32;

/// Why a password could not be hashed (only a broken RNG or parameters can cause it).
#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(String);

/// Hashes `password` into a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`) with a fresh salt.
pub fn hash_password(password: &str) -> Result<String, HashError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| HashError(e.to_string()))
}

/// Whether `password` matches the PHC string `hash`. A malformed hash never matches.
pub fn verify_password(password: &str, hash: &str) -> bool {
    Argon2::default()
        .verify_password(password.as_bytes(), hash)
        .is_ok()
}

/// A valid Argon2id hash of a random secret, made once, to verify against for unknown users.
pub fn dummy_hash() -> &'static str {
    static DUMMY: LazyLock<String> = LazyLock::new(|| {
        let mut secret = [0u8; 32];
        // A failed RNG leaves zeros: the hash stays valid and still matches no real password
        // because real passwords are at least PASSWORD_MIN_CHARS long.
        let _ = getrandom::fill(&mut secret);
        hash_password(&hex::encode(secret)).unwrap_or_else(|_| {
            "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$\
             wJ4Ve0s+8lYdD6HhL/6N2LoKpR9mi4SxQ5rX4x2nqhM"
                .to_owned()
        })
    });
    &DUMMY
}

/// Fewest zxcvbn score (0 to 4) a new password must reach: 3 is "safely unguessable" (about
/// 10^8 guesses or more).
pub const PASSWORD_MIN_SCORE: u8 = 3;

/// Checks a new password: [`PASSWORD_MIN_CHARS`]..=[`PASSWORD_MAX_CHARS`] characters, and hard
/// to guess (zxcvbn score at least [`PASSWORD_MIN_SCORE`]) also for someone who knows
/// `user_inputs` (the username, and so on). The message is zxcvbn's feedback in plain words.
pub fn validate_password(password: &str, user_inputs: &[&str]) -> Result<(), String> {
    let chars = password.chars().count();
    if chars < PASSWORD_MIN_CHARS {
        return Err(format!(
            "must have at least {PASSWORD_MIN_CHARS} characters"
        ));
    }
    if chars > PASSWORD_MAX_CHARS {
        return Err(format!("must have at most {PASSWORD_MAX_CHARS} characters"));
    }
    let estimate = zxcvbn::zxcvbn(password, user_inputs);
    if u8::from(estimate.score()) >= PASSWORD_MIN_SCORE {
        return Ok(());
    }
    let feedback = estimate.feedback();
    let mut parts = vec!["is too easy to guess.".to_owned()];
    parts.extend(feedback.and_then(|f| f.warning()).map(|w| w.to_string()));
    parts.extend(
        feedback
            .into_iter()
            .flat_map(|f| f.suggestions())
            .map(ToString::to_string),
    );
    if parts.len() == 1 {
        parts.push("Add another word or two. Uncommon words are better.".to_owned());
    }
    Err(parts.join(" "))
}

/// Checks a new username: [`USERNAME_MIN_CHARS`]..=[`USERNAME_MAX_CHARS`] ASCII letters, digits,
/// `_`, `-` or `.`, starting with a letter or digit. Returns the lower-cased uniqueness key.
pub fn validate_username(username: &str) -> Result<String, String> {
    let len = username.chars().count();
    if !(USERNAME_MIN_CHARS..=USERNAME_MAX_CHARS).contains(&len) {
        return Err(format!(
            "must have {USERNAME_MIN_CHARS} to {USERNAME_MAX_CHARS} characters"
        ));
    }
    if !username
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err("may contain only letters a-z, digits, '_', '-' and '.'".to_owned());
    }
    if !username.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err("must start with a letter or a digit".to_owned());
    }
    Ok(username.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_argon2id_with_default_parameters_and_verifies() {
        let hash = hash_password("correct horse battery").unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(verify_password("correct horse battery", &hash));
        assert!(!verify_password("correct horse battery!", &hash));
    }

    #[test]
    fn same_password_hashes_differently_each_time() {
        assert_ne!(
            hash_password("abcdefghijk").unwrap(),
            hash_password("abcdefghijk").unwrap()
        );
    }

    #[test]
    fn dummy_hash_is_a_valid_hash_that_matches_nothing_short() {
        assert!(dummy_hash().starts_with("$argon2id$"));
        assert!(!verify_password("", dummy_hash()));
        assert!(!verify_password("password123", dummy_hash()));
    }

    #[test]
    fn malformed_hash_never_matches() {
        assert!(!verify_password("anything", "not a phc string"));
    }

    #[test]
    fn password_length_bounds() {
        let strong = "correct horse battery staple";
        assert!(validate_password(&"a".repeat(PASSWORD_MIN_CHARS - 1), &[]).is_err());
        assert!(validate_password("Vk3#q9!zTw", &[]).is_ok());
        assert!(validate_password(&strong.repeat(10)[..PASSWORD_MAX_CHARS], &[]).is_ok());
        assert!(validate_password(&strong.repeat(10)[..=PASSWORD_MAX_CHARS], &[]).is_err());
    }

    #[test]
    fn guessable_passwords_are_refused_with_zxcvbn_feedback() {
        for (password, inputs) in [
            ("          ", &[][..]),
            ("aaaaaaaaaa", &[]),
            ("password123", &[]),
            ("qwertyuiop", &[]),
            ("gandalf-the-grey", &["gandalf-the-grey"][..]),
        ] {
            let message = validate_password(password, inputs).unwrap_err();
            assert!(
                message.starts_with("is too easy to guess."),
                "{password}: {message}"
            );
            assert!(
                message.len() > "is too easy to guess.".len() + 10,
                "{message}"
            );
        }
        assert!(validate_password("correct horse battery staple", &["alice"]).is_ok());
    }

    #[test]
    fn usernames_are_validated_and_keyed_case_insensitively() {
        assert_eq!(validate_username("Alice_01").unwrap(), "alice_01");
        assert_eq!(validate_username("bob.smith-2").unwrap(), "bob.smith-2");
        assert!(validate_username("ab").is_err());
        assert!(validate_username(&"a".repeat(USERNAME_MAX_CHARS + 1)).is_err());
        assert!(validate_username("has space").is_err());
        assert!(validate_username("ünïcode").is_err());
        assert!(validate_username("_leading").is_err());
        assert!(validate_username("a<script>").is_err());
    }
}
