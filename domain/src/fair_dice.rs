//! Verifiable server dice: the service commits to a seed before it rolls and reveals it after,
//! so anyone can recompute every server roll without the service (docs/rules.md "Verifiable
//! server dice").
//!
//! The derivation is fixed, because a script outside the service must reproduce it:
//! - the seed is 32 random bytes, shown as 64 lowercase hex digits; its commitment is the
//!   lowercase hex SHA-256 of those 32 bytes;
//! - the key is SHA-256(seed bytes ‖ client seed as UTF-8), the client seed being empty when the
//!   request gave none, so a player's text makes the outcome one the service could not choose;
//! - die number k (0, 1, 2, … over every server die the seed produced, in log order) of `s`
//!   sides: for attempt a = 0, 1, …, take h = SHA-256(key ‖ k as 8 bytes big-endian ‖ a as 4
//!   bytes big-endian) and x = the first 4 bytes of h as a big-endian number; the first x below
//!   2³² − (2³² mod s) gives the face x mod s + 1 (rejection keeps every face equally likely).
//!
//! SHA-256 alone, rather than a stream cipher, keeps the recomputation to a few lines in any
//! language's standard library.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bytes in a seed.
pub const SEED_BYTES: usize = 32;

/// A seed as revealed in the roll log: 64 lowercase hex digits.
pub fn seed_hex(seed: &[u8; SEED_BYTES]) -> String {
    hex(seed)
}

/// The commitment to a seed: lowercase hex SHA-256 of its bytes.
pub fn commitment_of(seed: &[u8; SEED_BYTES]) -> String {
    hex(&Sha256::digest(seed))
}

/// Why a text is not a seed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hexadecimal digits (32 bytes)")]
pub struct NotASeed;

/// Reads a seed written as 64 hex digits (either case).
pub fn parse_seed(text: &str) -> Result<[u8; SEED_BYTES], NotASeed> {
    let text = text.trim();
    if text.len() != 2 * SEED_BYTES || !text.is_ascii() {
        return Err(NotASeed);
    }
    let mut seed = [0u8; SEED_BYTES];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| NotASeed)?;
    }
    Ok(seed)
}

fn hex(bytes: &[u8]) -> String {
    // Every server roll writes its seed out: a table, not the formatting machinery.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    s
}

/// The dice a seed (and client seed) produces, die by die.
#[derive(Debug, Clone)]
pub struct DieStream {
    key: [u8; 32],
    next: u64,
}

impl DieStream {
    /// The stream of `seed` mixed with `client_seed`.
    pub fn new(seed: &[u8; SEED_BYTES], client_seed: Option<&str>) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(seed);
        hasher.update(client_seed.unwrap_or("").as_bytes());
        Self {
            key: hasher.finalize().into(),
            next: 0,
        }
    }

    /// The number of the next die.
    pub fn position(&self) -> u64 {
        self.next
    }

    /// The next die of `sides` sides.
    pub fn die(&mut self, sides: u8) -> u8 {
        let face = face(&self.key, self.next, sides);
        self.next += 1;
        face
    }
}

/// Die number `index` of `sides` sides under `key` (see the module's derivation).
fn face(key: &[u8; 32], index: u64, sides: u8) -> u8 {
    let sides = u64::from(sides.max(1));
    let zone = (1u64 << 32) - ((1u64 << 32) % sides);
    let mut attempt: u32 = 0;
    loop {
        let mut hasher = Sha256::new();
        hasher.update(key);
        hasher.update(index.to_be_bytes());
        hasher.update(attempt.to_be_bytes());
        let h = hasher.finalize();
        let x = u64::from(u32::from_be_bytes([h[0], h[1], h[2], h[3]]));
        if x < zone {
            // x mod sides < sides ≤ 255.
            return u8::try_from(x % sides).unwrap_or(0) + 1;
        }
        attempt = attempt.wrapping_add(1);
    }
}

/// What a server roll made from a committed seed records, so it can be checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RollProof {
    /// The commitment offered before the roll.
    pub commitment_id: String,
    /// The seed, revealed: 64 lowercase hex digits whose SHA-256 is the commitment.
    pub seed: String,
    /// The text the request mixed in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_seed: Option<String>,
    /// The number of this roll's first die in the seed's stream.
    pub first_die: u64,
}

/// A committed seed ready to roll: the stream and what each roll records.
#[derive(Debug, Clone)]
pub struct CommittedSeed {
    /// The commitment's id.
    pub commitment_id: String,
    /// The seed.
    pub seed: [u8; SEED_BYTES],
    /// The client seed mixed in.
    pub client_seed: Option<String>,
}

/// One entry of a roll to check: dice written `NdS` and the values the log shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceSpec {
    /// Number of dice.
    pub count: u32,
    /// Sides per die.
    pub sides: u8,
}

/// Why a dice text is not `NdS`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("dice are written like 2d6: a count from 1 to 100, then d, then 2 to 100 sides")]
pub struct NotDice;

impl std::str::FromStr for DiceSpec {
    type Err = NotDice;
    fn from_str(text: &str) -> Result<Self, NotDice> {
        let (count, sides) = text.trim().split_once(['d', 'D']).ok_or(NotDice)?;
        let count: u32 = count.parse().map_err(|_| NotDice)?;
        let sides: u8 = sides.parse().map_err(|_| NotDice)?;
        if !(1..=100).contains(&count) || !(2..=100).contains(&sides) {
            return Err(NotDice);
        }
        Ok(Self { count, sides })
    }
}

/// The values `seed` and `client_seed` give for `dice`, starting at die number `first_die`.
pub fn recompute(
    seed: &[u8; SEED_BYTES],
    client_seed: Option<&str>,
    first_die: u64,
    dice: &[DiceSpec],
) -> Vec<Vec<u8>> {
    let mut stream = DieStream::new(seed, client_seed);
    stream.next = first_die;
    dice.iter()
        .map(|spec| (0..spec.count).map(|_| stream.die(spec.sides)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: [u8; 32] = [7; 32];

    #[test]
    fn the_commitment_is_the_sha256_of_the_seed_bytes() {
        // sha256 of 32 zero bytes, a published constant.
        assert_eq!(
            commitment_of(&[0; 32]),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn a_seed_reads_back_from_its_hex() {
        assert_eq!(parse_seed(&seed_hex(&SEED)), Ok(SEED));
        assert_eq!(parse_seed("abc"), Err(NotASeed));
        assert_eq!(parse_seed(&"zz".repeat(32)), Err(NotASeed));
        assert_eq!(parse_seed(&"é".repeat(32)), Err(NotASeed));
    }

    #[test]
    fn the_derivation_is_pinned() {
        // Fixed values: changing the derivation breaks every published roll, so it must fail.
        let values = recompute(
            &[0; 32],
            None,
            0,
            &[DiceSpec {
                count: 10,
                sides: 6,
            }],
        );
        assert_eq!(values, vec![PINNED_ZERO_SEED_D6.to_vec()]);
    }

    // From docs/verify-dice.py, an independent implementation of the derivation.
    const PINNED_ZERO_SEED_D6: [u8; 10] = [2, 1, 5, 2, 2, 5, 6, 6, 5, 5];

    #[test]
    fn a_client_seed_and_other_dice_are_pinned_too() {
        let values = recompute(
            &SEED,
            Some("table 3"),
            0,
            &[
                DiceSpec { count: 6, sides: 6 },
                DiceSpec { count: 3, sides: 3 },
            ],
        );
        assert_eq!(values, vec![vec![6, 5, 1, 2, 3, 4], vec![3, 2, 2]]);
    }

    #[test]
    fn the_client_seed_changes_the_dice() {
        let plain = recompute(
            &SEED,
            None,
            0,
            &[DiceSpec {
                count: 20,
                sides: 6,
            }],
        );
        let mixed = recompute(
            &SEED,
            Some("table 3"),
            0,
            &[DiceSpec {
                count: 20,
                sides: 6,
            }],
        );
        assert_ne!(plain, mixed);
    }

    #[test]
    fn a_stream_and_a_recomputation_from_any_die_agree() {
        let mut stream = DieStream::new(&SEED, Some("x"));
        let rolled: Vec<u8> = (0..12).map(|_| stream.die(6)).collect();
        let from_five = recompute(&SEED, Some("x"), 5, &[DiceSpec { count: 7, sides: 6 }]);
        assert_eq!(from_five[0], rolled[5..]);
    }

    #[test]
    fn faces_are_fair() {
        let mut stream = DieStream::new(&SEED, None);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(stream.die(6)) - 1] += 1;
        }
        let chi: f64 = counts
            .iter()
            .map(|c| (f64::from(*c) - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi < 20.5, "chi-square {chi} for {counts:?}");
    }

    #[test]
    fn dice_texts_parse() {
        assert_eq!("2d6".parse(), Ok(DiceSpec { count: 2, sides: 6 }));
        assert_eq!("3D3".parse(), Ok(DiceSpec { count: 3, sides: 3 }));
        for bad in ["d6", "0d6", "2d1", "2x6", "101d6", "2d300", ""] {
            assert_eq!(bad.parse::<DiceSpec>(), Err(NotDice), "{bad}");
        }
    }
}
