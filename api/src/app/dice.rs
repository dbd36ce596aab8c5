//! Server dice seeds, and the commitments that make server dice verifiable (see
//! `fad_domain::fair_dice`): a workflow's next server roll uses the seed committed to before.

use fad_domain::fair_dice::{self, CommittedSeed};

use crate::db::Db;
use crate::error::ApiError;
use crate::store::{self, dice_commitments as commitments, dice_commitments::CommitmentRow};

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

/// A commitment to the seed of a workflow's next server roll: its id and the SHA-256 of the
/// seed, shown before the roll; the seed itself appears in the roll log once used.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct DiceCommitment {
    /// The commitment's id (`commitment_id` in the rolls it produced).
    pub id: String,
    /// Lowercase hex SHA-256 of the seed's 32 bytes.
    pub sha256: String,
}

impl From<&CommitmentRow> for DiceCommitment {
    fn from(row: &CommitmentRow) -> Self {
        Self {
            id: row.id.clone(),
            sha256: row.sha256.clone(),
        }
    }
}

/// The longest `client_seed` a request may send, in characters.
pub const CLIENT_SEED_MAX_CHARS: usize = 128;

/// 422 at `client_seed` unless it is 1–128 printable characters.
pub fn check_client_seed(client_seed: Option<&str>) -> Result<(), ApiError> {
    match client_seed {
        Some(text)
            if text.is_empty()
                || text.chars().count() > CLIENT_SEED_MAX_CHARS
                || text.chars().any(char::is_control) =>
        {
            Err(ApiError::validation(
                "client_seed",
                format!(
                    "A client seed is 1 to {CLIENT_SEED_MAX_CHARS} characters of text, without \
                     control characters."
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// A new commitment row for `scope` with a fresh seed from the OS.
pub(crate) fn new_commitment(
    scope: &str,
    expires_at: Option<chrono::NaiveDateTime>,
    client_hash: Option<String>,
) -> Result<CommitmentRow, ApiError> {
    let seed = os_seed()?;
    Ok(CommitmentRow {
        id: store::new_id(),
        scope: scope.to_owned(),
        seed: fair_dice::seed_hex(&seed),
        sha256: fair_dice::commitment_of(&seed),
        created_at: store::now(),
        used_at: None,
        expires_at,
        client_hash,
    })
}

/// The open commitment of a workflow's `scope`, issuing one if none is open (the first read of
/// a workflow made before verifiable dice, or two readers racing: one insert wins).
pub fn open_or_issue(conn: &mut Db, scope: &str) -> Result<CommitmentRow, ApiError> {
    let now = store::now();
    if let Some(row) = commitments::open(conn, scope, now)? {
        return Ok(row);
    }
    let row = new_commitment(scope, None, None)?;
    if commitments::insert_if_none_open(conn, &row)? {
        return Ok(row);
    }
    commitments::open(conn, scope, now)?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("no open dice commitment after insert")))
}

/// The first commitments of new workflows, one per scope (stored with one statement).
pub fn issue_first(conn: &mut Db, scopes: &[String]) -> Result<(), ApiError> {
    let rows = scopes
        .iter()
        .map(|scope| new_commitment(scope, None, None))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(commitments::insert_all(conn, &rows)?)
}

/// The open commitment of `scope` without issuing one (for reads in a read-only transaction).
pub fn open_commitment(conn: &mut Db, scope: &str) -> Result<Option<DiceCommitment>, ApiError> {
    Ok(commitments::open(conn, scope, store::now())?
        .as_ref()
        .map(DiceCommitment::from))
}

/// The committed seed the next server roll of `scope` uses, mixed with `client_seed`.
pub fn seed_for_roll(
    conn: &mut Db,
    scope: &str,
    client_seed: Option<&str>,
) -> Result<CommittedSeed, ApiError> {
    let row = open_or_issue(conn, scope)?;
    committed_seed(&row, client_seed)
}

fn committed_seed(
    row: &CommitmentRow,
    client_seed: Option<&str>,
) -> Result<CommittedSeed, ApiError> {
    Ok(CommittedSeed {
        commitment_id: row.id.clone(),
        seed: fair_dice::parse_seed(&row.seed).map_err(|e| ApiError::Internal(e.into()))?,
        client_seed: client_seed.map(str::to_owned),
    })
}

/// After a workflow's roll in the same transaction: when the dice used the committed seed, it
/// is spent and the next one is offered. A chain whose history nobody reads (`History::Drop`:
/// the roll log keeps each spent seed) replaces the spent row in place, one statement; one
/// whose viewers are shown commitments by what they have seen keeps every row. Returns the
/// commitment to show now.
pub fn after_roll(
    conn: &mut Db,
    scope: &str,
    seed: &CommittedSeed,
    used: bool,
    history: History,
) -> Result<DiceCommitment, ApiError> {
    let next = new_commitment(scope, None, None)?;
    let replaced = match (used, history) {
        (false, _) => None,
        (true, History::Drop) => {
            commitments::replace_spent(conn, &seed.commitment_id, &next)?.then_some(&next)
        }
        (true, History::Keep) => {
            commitments::mark_used(conn, &seed.commitment_id, store::now())?;
            commitments::insert_if_none_open(conn, &next)?.then_some(&next)
        }
    };
    match replaced {
        Some(row) => Ok(DiceCommitment::from(row)),
        None if !used => Ok(DiceCommitment {
            id: seed.commitment_id.clone(),
            sha256: fair_dice::commitment_of(&seed.seed),
        }),
        None => Ok(DiceCommitment::from(&open_or_issue(conn, scope)?)),
    }
}

/// Whether a chain keeps its spent commitments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum History {
    /// Spent ones are replaced in place.
    Drop,
    /// Spent ones stay, marked used.
    Keep,
}

/// The scope of one force's post-battle sequence.
pub fn aftermath_scope(battle_id: &str, force_id: &str) -> String {
    format!("aftermath:{battle_id}:{force_id}")
}

/// The scope of a battle's scenario rolls: one per side (its secret rolls), and the shared one.
pub fn scenario_scope(battle_id: &str, force_id: Option<&str>) -> String {
    match force_id {
        Some(force) => format!("scenario:{battle_id}:{force}"),
        None => format!("scenario:{battle_id}"),
    }
}

/// The scope of commitments issued for one request (a one-shot scenario, a force generation).
const REQUEST_SCOPE: &str = "request";

/// How long a commitment issued for one request stays usable.
const REQUEST_COMMITMENT_TTL_MINUTES: i64 = 60;

/// Commitments one address may be issued per hour: far above a club's game night, far below
/// what would fill the table.
const REQUEST_COMMITMENTS_PER_ADDRESS_PER_HOUR: i64 = 600;

/// Issues a commitment for a single later request (`dice_commitment_id`), public.
pub fn issue_for_request(
    conn: &mut Db,
    client_hash: &str,
) -> Result<(DiceCommitment, chrono::NaiveDateTime), ApiError> {
    crate::quota::serialize(
        conn,
        crate::quota::Scope::AddressDiceCommitments,
        client_hash,
    )?;
    let now = store::now();
    let issued =
        commitments::issued_to_address_since(conn, client_hash, now - chrono::Duration::hours(1))?;
    if issued >= REQUEST_COMMITMENTS_PER_ADDRESS_PER_HOUR {
        return Err(ApiError::TooManyRequests {
            detail: format!(
                "One address may ask for at most {REQUEST_COMMITMENTS_PER_ADDRESS_PER_HOUR} dice \
                 commitments per hour. Try again later."
            ),
            retry_after_secs: 60,
        });
    }
    commitments::delete_expired(conn, now)?;
    let expires_at = now + chrono::Duration::minutes(REQUEST_COMMITMENT_TTL_MINUTES);
    // Each has its own scope, so any number may be open at once.
    let mut row = new_commitment(
        REQUEST_SCOPE,
        Some(expires_at),
        Some(client_hash.to_owned()),
    )?;
    row.scope = format!("{REQUEST_SCOPE}:{}", row.id);
    commitments::insert_if_none_open(conn, &row)?;
    Ok((DiceCommitment::from(&row), expires_at))
}

/// The committed seed of a commitment issued for one request, before the request rolls
/// (outside its transaction): 422 at `dice_commitment_id` when it is not one that is open.
pub fn request_seed(
    conn: &mut Db,
    id: &str,
    client_seed: Option<&str>,
) -> Result<CommittedSeed, ApiError> {
    let unusable = || {
        ApiError::validation(
            "dice_commitment_id",
            "That dice commitment does not exist, was already used or has expired: ask for a new \
             one (POST /api/v1/dice/commitments).",
        )
    };
    let row = commitments::find(conn, id)?.ok_or_else(unusable)?;
    let open = row.used_at.is_none() && row.expires_at.is_some_and(|e| e > store::now());
    if !open || !row.scope.starts_with(REQUEST_SCOPE) {
        return Err(unusable());
    }
    committed_seed(&row, client_seed)
}

/// Spends a request's commitment in the request's transaction: 409 when another request used
/// it first.
pub fn spend_request_commitment(conn: &mut Db, id: &str) -> Result<(), ApiError> {
    if commitments::mark_used(conn, id, store::now())? {
        Ok(())
    } else {
        Err(ApiError::Conflict(
            "That dice commitment was used by another request meanwhile: ask for a new one."
                .to_owned(),
        ))
    }
}

/// The body of `POST /api/v1/dice/verify`: a revealed seed, its commitment and the rolls it
/// made, in log order.
#[derive(Debug, Clone, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seed": "0707070707070707070707070707070707070707070707070707070707070707", "client_seed": "table 3", "sha256": "f0c0b1c3ea5b2a1d0b1e3f5b0c8f4d3e9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d", "dice": ["6d6", "3d3"], "values": [[6, 5, 1, 2, 3, 4], [3, 2, 2]]}))]
pub struct VerifyRequest {
    /// The seed as the roll log shows it (64 hex digits).
    pub seed: String,
    /// The client seed the rolling request sent, if any.
    #[serde(default)]
    pub client_seed: Option<String>,
    /// The commitment shown before the roll (64 hex digits).
    pub sha256: String,
    /// Each roll's dice in log order, like `1d6` or `2d6` (at most 200 rolls).
    pub dice: Vec<String>,
    /// Each roll's values as logged, one list per entry of `dice`.
    pub values: Vec<Vec<u8>>,
    /// The number of the first roll's first die in the seed's stream (the `first_die` of its
    /// proof; 0 when the list starts with the seed's first roll).
    #[serde(default)]
    pub first_die: u64,
}

/// What a seed gives.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct VerifyResponse {
    /// Whether the seed's SHA-256 is the commitment.
    pub commitment_matches: bool,
    /// Whether every value given is the value the seed gives.
    pub values_match: bool,
    /// The values the seed gives, one list per entry of `dice`.
    pub values: Vec<Vec<u8>>,
}

/// The most rolls one verification checks.
const VERIFY_MAX_ROLLS: usize = 200;

/// Recomputes rolls from a revealed seed (public, pure): every problem at once as a 422.
pub fn verify(request: &VerifyRequest) -> Result<VerifyResponse, ApiError> {
    let mut errors = Vec::new();
    let seed = fair_dice::parse_seed(&request.seed)
        .map_err(|e| errors.push(crate::error::FieldError::new("seed", e.to_string())))
        .ok();
    let sha256 = request.sha256.trim().to_ascii_lowercase();
    if sha256.len() != 64 || !sha256.chars().all(|c| c.is_ascii_hexdigit()) {
        errors.push(crate::error::FieldError::new(
            "sha256",
            "a commitment is 64 hexadecimal digits (a SHA-256)",
        ));
    }
    if let Err(ApiError::Validation(mut more)) = check_client_seed(request.client_seed.as_deref()) {
        errors.append(&mut more);
    }
    if request.dice.is_empty() || request.dice.len() > VERIFY_MAX_ROLLS {
        errors.push(crate::error::FieldError::new(
            "dice",
            format!("list 1 to {VERIFY_MAX_ROLLS} rolls"),
        ));
    }
    let specs: Vec<_> = request
        .dice
        .iter()
        .take(VERIFY_MAX_ROLLS)
        .enumerate()
        .filter_map(|(i, text)| {
            text.parse::<fair_dice::DiceSpec>()
                .map_err(|e| {
                    errors.push(crate::error::FieldError::new(
                        format!("dice[{i}]"),
                        e.to_string(),
                    ))
                })
                .ok()
        })
        .collect();
    if request.values.len() != request.dice.len() {
        errors.push(crate::error::FieldError::new(
            "values",
            "give one list of values per entry of dice",
        ));
    }
    let Some(seed) = seed.filter(|_| errors.is_empty()) else {
        return Err(ApiError::Validation(errors));
    };
    let values = fair_dice::recompute(
        &seed,
        request.client_seed.as_deref(),
        request.first_die,
        &specs,
    );
    Ok(VerifyResponse {
        commitment_matches: fair_dice::commitment_of(&seed) == sha256,
        values_match: values == request.values,
        values,
    })
}

/// The server dice of a generation: from the named commitment's seed (checked open before
/// rolling, spent in the insert's transaction), or from an unannounced seed.
pub async fn committed_dice(
    state: &crate::AppState,
    commitment_id: Option<String>,
    client_seed: Option<String>,
) -> Result<fad_domain::dice::ServerDice, ApiError> {
    check_client_seed(client_seed.as_deref())?;
    let Some(id) = commitment_id else {
        if client_seed.is_some() {
            return Err(ApiError::validation(
                "client_seed",
                "A client seed is mixed into a committed seed: send dice_commitment_id too.",
            ));
        }
        return Ok(fad_domain::dice::ServerDice::from_seed(os_seed()?));
    };
    let seed = state
        .db
        .read(move |conn| request_seed(conn, &id, client_seed.as_deref()))
        .await?;
    Ok(fad_domain::dice::ServerDice::committed(seed))
}

/// Spends a request's commitment, if it named one (409 when another request used it first).
pub fn spend(conn: &mut Db, commitment_id: Option<&str>) -> Result<(), ApiError> {
    match commitment_id {
        Some(id) => spend_request_commitment(conn, id),
        None => Ok(()),
    }
}

/// The address of the page that recomputes server roll `roll` from its revealed seed
/// (`/dice/verify?...`), if it has a proof.
pub fn verify_path(roll: &fad_domain::dice::Roll) -> Option<String> {
    let proof = roll
        .proof
        .as_ref()
        .filter(|_| roll.source == fad_domain::dice::RollSource::Server)?;
    let values = roll
        .values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut href = format!(
        "/dice/verify?seed={}&first_die={}&dice={}&values={}",
        proof.seed, proof.first_die, roll.dice, values
    );
    if let Some(client) = &proof.client_seed {
        href.push_str("&client_seed=");
        href.push_str(&url_encode(client));
    }
    Some(href)
}

fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
