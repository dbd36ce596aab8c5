//! Server dice seeds.

use crate::error::ApiError;

/// 32 bytes from the OS for the server dice (never seeded in the domain).
pub fn os_seed() -> Result<[u8; 32], ApiError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("no system randomness: {e}")))?;
    Ok(seed)
}
