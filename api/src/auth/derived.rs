//! Link tokens and short-code hashes keyed by the service secret (the secret that signs access
//! tokens, through a key of its own per purpose).
//!
//! Share links must be readable again later ("several calls return the same link"), yet the
//! database must not hold them in a usable form. So a link's token is not stored at all: it is
//! the HMAC of the link's random row id under a key derived from the service secret, and the
//! row keeps only the id and the SHA-256 of the token (for the lookup when the link is opened).
//! A database leak alone then gives neither the links nor a way to compute them; the service
//! can always recompute the same link from the row. The token is a PRF of a 122-bit random id
//! under a 256-bit key, and 256 bits long itself: nobody without the secret can guess one.
//! Changing the secret changes every token: old links then stop working (the stored hash no
//! longer matches), and asking for the link again makes a new one.
//!
//! Short invitation codes (40 bits, [`super::secret::ShortCode`]) are stored the same keyed way:
//! a plain SHA-256 of 40 bits could be reversed by trying every code in minutes.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::error::ApiError;

/// What a derived value is for; each purpose has its own key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A battle side's shared sheet.
    BattleSheetLink,
    /// A one-shot scenario's share link.
    ScenarioLink,
    /// A one-shot scenario's sheet for one side.
    ScenarioSideLink,
    /// The stored hash of a short invitation code.
    InviteCode,
    /// An invitation's short code itself, from its row id: the organiser's list shows each
    /// open invitation's link again, and only the hash of the code is stored.
    InviteCodeOfRow,
    /// The stored hash of a client address (signed-out generation's per-address limit).
    ClientAddress,
    /// The claim on a scenario generated signed out, held by the browser that generated it.
    ScenarioClaim,
}

impl Purpose {
    fn context(self) -> &'static [u8] {
        match self {
            Self::BattleSheetLink => b"fad-campaign battle sheet link v1",
            Self::ScenarioLink => b"fad-campaign scenario share link v1",
            Self::ScenarioSideLink => b"fad-campaign scenario side sheet link v1",
            Self::InviteCode => b"fad-campaign short invite code v1",
            Self::InviteCodeOfRow => b"fad-campaign invite code of a row v1",
            Self::ClientAddress => b"fad-campaign client address v1",
            Self::ScenarioClaim => b"fad-campaign scenario claim v1",
        }
    }
}

fn mac(secret: &[u8], purpose: Purpose, input: &str) -> Result<[u8; 32], ApiError> {
    let internal = |e: hmac::digest::InvalidLength| ApiError::Internal(e.into());
    let mut derive = Hmac::<Sha256>::new_from_slice(secret).map_err(internal)?;
    derive.update(purpose.context());
    let key = derive.finalize().into_bytes();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(internal)?;
    mac.update(input.as_bytes());
    let mut out = [0u8; 32];
    out.copy_from_slice(&mac.finalize().into_bytes());
    Ok(out)
}

/// The link token of row `id` for `purpose`: 43 URL-safe characters (256 bits).
pub fn link_token(secret: &[u8], purpose: Purpose, id: &str) -> Result<String, ApiError> {
    Ok(URL_SAFE_NO_PAD.encode(mac(secret, purpose, id)?))
}

/// The short code of invitation row `id`, in its display form (`K7M2-QX9P`): 40 bits of a keyed
/// PRF of the row's random id, so the service can show the link again without storing it.
pub fn invite_code_of_row(secret: &[u8], id: &str) -> Result<String, ApiError> {
    let mac = mac(secret, Purpose::InviteCodeOfRow, id)?;
    let mut bytes = [0u8; 5];
    bytes.copy_from_slice(&mac[..5]);
    Ok(super::secret::ShortCode::from_bytes(bytes))
}

/// The stored form of a short invitation code (already normalized), as 64 hex digits.
pub fn invite_code_hash(secret: &[u8], normalized_code: &str) -> Result<String, ApiError> {
    Ok(hex::encode(mac(
        secret,
        Purpose::InviteCode,
        normalized_code,
    )?))
}

/// The stored form of a client address, as 64 hex digits: keyed, because the address space is
/// small enough to reverse a plain hash by trying every address.
pub fn client_address_hash(secret: &[u8], address: &str) -> Result<String, ApiError> {
    Ok(hex::encode(mac(secret, Purpose::ClientAddress, address)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn tokens_are_stable_per_id_and_differ_by_id_purpose_and_secret() {
        let a = link_token(SECRET, Purpose::BattleSheetLink, "id-1").unwrap();
        assert_eq!(
            a,
            link_token(SECRET, Purpose::BattleSheetLink, "id-1").unwrap()
        );
        assert_eq!(a.len(), 43);
        assert_ne!(
            a,
            link_token(SECRET, Purpose::BattleSheetLink, "id-2").unwrap()
        );
        assert_ne!(
            a,
            link_token(SECRET, Purpose::ScenarioLink, "id-1").unwrap()
        );
        let other = b"fedcba9876543210fedcba9876543210";
        assert_ne!(
            a,
            link_token(other, Purpose::BattleSheetLink, "id-1").unwrap()
        );
    }

    #[test]
    fn invite_hash_is_keyed() {
        let h = invite_code_hash(SECRET, "K7M2QX9P").unwrap();
        assert_eq!(h.len(), 64);
        assert_ne!(h, super::super::secret::hash_secret("K7M2QX9P"));
    }
}
