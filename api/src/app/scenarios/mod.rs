//! One-shot scenarios (outside any campaign): generating one ([`create`]), reading one as its
//! creator, listing the caller's, reading one through a share link or (signed out) by its id,
//! keeping a signed-out one, the share links themselves, and the sweep of expired ones
//! ([`expiry`]).

pub mod create;
pub mod document;
pub mod expiry;
pub mod generate;

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::person;
use crate::auth::Caller;
use crate::auth::derived::{Purpose, link_token};
use crate::auth::secret::hash_secret;
use crate::error::ApiError;
use crate::paging::Page;
use crate::store::scenarios::{self, ScenarioRow};

/// The two links of a shared scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareLinks {
    /// The printable sheet.
    pub sheet: String,
    /// The same scenario as JSON.
    pub api: String,
}

/// A stored scenario with its share links, when it is shared and they can be made again.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioRecord {
    /// The stored row.
    pub row: ScenarioRow,
    /// Its share links (`None`: not shared, or shared before links could be read again).
    pub links: Option<ShareLinks>,
    /// Each side's sheet, in side order (empty for scenarios generated before sheets per side).
    pub side_links: Vec<String>,
}

/// The share token of scenario `id`: derived from the id with the service secret, never stored
/// (the row keeps its SHA-256 for the lookup), so the creator can read the link again while a
/// leaked table gives nothing usable (see [`crate::auth::derived`]).
pub fn share_token(state: &AppState, id: &str) -> Result<String, ApiError> {
    link_token(state.jwt_secret.expose(), Purpose::ScenarioLink, id)
}

/// The token of side `side`'s sheet of scenario `id` (0 or 1), derived like [`share_token`].
pub fn side_token(state: &AppState, id: &str, side: usize) -> Result<String, ApiError> {
    link_token(
        state.jwt_secret.expose(),
        Purpose::ScenarioSideLink,
        &format!("{id}/side/{}", side + 1),
    )
}

/// The links to each side's sheet, in side order, when the row has them and they can be made
/// again (under the secret they were made with).
pub fn side_links(state: &AppState, row: &ScenarioRow) -> Result<Vec<String>, ApiError> {
    let stored = [&row.side1_token_hash, &row.side2_token_hash];
    let mut links = Vec::new();
    for (side, hash) in stored.into_iter().enumerate() {
        let Some(hash) = hash else {
            return Ok(Vec::new());
        };
        let token = side_token(state, &row.id, side)?;
        if hash_secret(&token) != *hash {
            return Ok(Vec::new());
        }
        links.push(state.config.link(&format!("/scenarios/side/{token}")));
    }
    Ok(links)
}

/// Reads a scenario through one side's sheet token: the row and that side's index.
pub async fn read_side_sheet(
    state: &AppState,
    token: &str,
) -> Result<(ScenarioRow, usize), ApiError> {
    let hash = hash_secret(token);
    state
        .db
        .run(move |conn| {
            scenarios::find_by_side_hash(conn, &hash)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await
}

/// The share token of a shared row, when it can be recomputed (rows shared before tokens were
/// derived, or under another service secret, cannot).
pub fn current_share_token(
    state: &AppState,
    row: &ScenarioRow,
) -> Result<Option<String>, ApiError> {
    let Some(stored) = row.share_token_hash.as_deref() else {
        return Ok(None);
    };
    let token = share_token(state, &row.id)?;
    Ok((hash_secret(&token) == stored).then_some(token))
}

/// The printable sheet and JSON links of a share token.
pub fn share_links(state: &AppState, token: &str) -> ShareLinks {
    ShareLinks {
        sheet: state.config.link(&format!("/scenarios/shared/{token}")),
        api: state
            .config
            .link(&format!("/api/v1/scenarios/shared/{token}")),
    }
}

fn record(state: &AppState, row: ScenarioRow) -> Result<ScenarioRecord, ApiError> {
    let links = current_share_token(state, &row)?.map(|t| share_links(state, &t));
    let side_links = side_links(state, &row)?;
    Ok(ScenarioRecord {
        row,
        links,
        side_links,
    })
}

/// Reads a scenario the caller created, with its share links (anyone else gets 404).
pub async fn read_scenario(
    state: &AppState,
    caller: &Caller,
    scenario_id: &str,
) -> Result<ScenarioRecord, ApiError> {
    let user_id = person(caller)?.to_owned();
    let id = scenario_id.to_owned();
    let row = state
        .db
        .run(move |conn| {
            scenarios::find_by_id_and_creator(conn, &id, &user_id)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await?;
    record(state, row)
}

/// Lists the scenarios the caller generated, newest first, a page at a time, each with its
/// share links.
pub async fn list_scenarios(
    state: &AppState,
    caller: &Caller,
    page: Page,
) -> Result<Listed<ScenarioRecord>, ApiError> {
    let user_id = person(caller)?.to_owned();
    let page = page.keyset("scenarios", &user_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let rows = state
        .db
        .run(move |conn| {
            Ok(scenarios::list_for_creator(
                conn,
                &user_id,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (rows, next) = page.finish(rows, |r| (r.created_at, r.id.clone()))?;
    let items = rows
        .into_iter()
        .map(|row| record(state, row))
        .collect::<Result<_, _>>()?;
    Ok(Listed { items, next })
}

/// Reads a scenario through its share token (no account needed).
pub async fn read_shared_scenario(state: &AppState, token: &str) -> Result<ScenarioRow, ApiError> {
    let hash = hash_secret(token);
    state
        .db
        .run(move |conn| {
            scenarios::find_by_share_hash(conn, &hash)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await
}

/// Reads a scenario for its printable sheet: the viewer's own, or one generated signed out
/// (no creator; its unguessable id is its link) that has not expired. Anything else is 404.
pub async fn read_sheet(
    state: &AppState,
    viewer: Option<&str>,
    scenario_id: &str,
) -> Result<ScenarioRecord, ApiError> {
    let (id, viewer) = (scenario_id.to_owned(), viewer.map(str::to_owned));
    let row = state
        .db
        .run(move |conn| {
            scenarios::find_by_id_for_viewer(conn, &id, viewer.as_deref())?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await?;
    record(state, row)
}

/// The claim token of a scenario generated signed out: what the generating browser holds (a
/// cookie) to keep it later. Derived from the id with the service secret, never stored, and
/// never shown with the scenario, so holding its id or share link is not holding its claim.
pub fn claim_token(state: &AppState, id: &str) -> Result<String, ApiError> {
    link_token(state.jwt_secret.expose(), Purpose::ScenarioClaim, id)
}

/// Whether `claim` is scenario `id`'s claim token (compared as hashes, in constant time per
/// byte of the hash).
pub fn holds_claim(state: &AppState, id: &str, claim: Option<&str>) -> Result<bool, ApiError> {
    let Some(claim) = claim else {
        return Ok(false);
    };
    let expected = hash_secret(&claim_token(state, id)?);
    let given = hash_secret(claim);
    Ok(expected
        .bytes()
        .zip(given.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0)
}

/// Keeps a scenario generated signed out: the caller becomes its creator and it no longer
/// expires. Only the browser that generated it may (it sends the scenario's claim token,
/// `claim`); a scenario is never kept by someone who only holds its link. Keeping one's own
/// again changes nothing; another person's, an expired or an unknown one is 404; one
/// generated signed out without its claim is 403.
pub async fn keep_scenario(
    state: &AppState,
    caller: &Caller,
    scenario_id: &str,
    claim: Option<&str>,
) -> Result<(), ApiError> {
    let user_id = person(caller)?.to_owned();
    let id = scenario_id.to_owned();
    let claimed = holds_claim(state, scenario_id, claim)?;
    state
        .db
        .transaction(move |conn| {
            if scenarios::find_by_id_and_creator(conn, &id, &user_id)?.is_some() {
                return Ok(());
            }
            if !claimed {
                return match scenarios::find_by_id_for_viewer(conn, &id, None)? {
                    Some(_) => Err(ApiError::Forbidden(
                        "Only the browser that generated this scenario may keep it.".to_owned(),
                    )),
                    None => Err(ApiError::not_found("scenario")),
                };
            }
            if scenarios::keep(conn, &id, &user_id)? {
                Ok(())
            } else {
                Err(ApiError::not_found("scenario"))
            }
        })
        .await
}

/// A stored force the generator page offers a signed-in person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickableForce {
    /// The force id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its campaign's name.
    pub campaign: String,
}

/// The live forces of the person's campaigns (the ones they may read), by campaign, for the
/// generator's pickers.
pub async fn pickable_forces(
    state: &AppState,
    caller: &Caller,
) -> Result<Vec<PickableForce>, ApiError> {
    use crate::app::overview::LIST_LIMIT;
    use crate::store::{campaigns, forces};
    let user_id = person(caller)?.to_owned();
    state
        .db
        .read(move |conn| {
            let mut out = Vec::new();
            for (campaign, _role) in campaigns::list_for_user(conn, &user_id, None, LIST_LIMIT)? {
                for (force, _owner) in
                    forces::list_for_campaign(conn, &campaign.id, false, None, LIST_LIMIT)?
                {
                    out.push(PickableForce {
                        id: force.id,
                        name: force.name,
                        campaign: campaign.name.clone(),
                    });
                }
            }
            Ok(out)
        })
        .await
}
