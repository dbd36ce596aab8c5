//! Server dice seeds.

use crate::error::ApiError;

/// 32 bytes from the OS for the server dice (never seeded in the domain).
pub fn os_seed() -> Result<[u8; 32], ApiError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("no system randomness: {e}")))?;
    Ok(seed)
}

/// The one check of entered dice counts, for every rolling path (post-battle, scenarios, force
/// generation): `surplus` is what a dice source reports as drawn from but not used up
/// ([`fad_domain::dice::surplus`]): two values for a one-die roll. Any is a 422 naming
/// `dice.<step>.<subject>` (under `at`, such as `sides[0].`, for a request with several
/// sides), before anything is stored.
pub fn refuse_surplus(
    surplus: Vec<fad_domain::dice::DiceError>,
    at: impl Fn(&fad_domain::dice::DiceError) -> String,
) -> Result<(), ApiError> {
    if surplus.is_empty() {
        return Ok(());
    }
    Err(ApiError::Validation(
        surplus
            .iter()
            .map(|e| crate::error::FieldError::new(at(e), e.message()))
            .collect(),
    ))
}
