//! The order of checks on every write under `/api/v1`: credential (401) →
//! permission on the resource (403/404) → the body (400/422) → state and version (409/412).
//!
//! Handlers read their body before their use case checks who is asking, so a body error could
//! tell a caller without permission about the body's rules (and that the resource exists).
//! This middleware looks again at every body error a write answers (400, 413, 415, 422): when
//! the caller may not make that write on the resource its path names, the answer becomes the
//! permission's 403 or 404. Good requests pay nothing; the rules are the use cases' own
//! ([`crate::app::authorization`]), named per route in [`RULES`].

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse, web};

use crate::AppState;
use crate::app::authorization::{Need, authorize_force, campaign_access};
use crate::app::battles::{authorize_battle, owned_forces, player_forces};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::store::forces;

/// Who may make a write, by the resource its path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Permission {
    /// Any member of the campaign `{campaign_id}`.
    CampaignMember,
    /// The organiser of the campaign `{campaign_id}`.
    CampaignOrganiser,
    /// The owner of force `{force_id}` or the organiser.
    ForceEditor,
    /// The organiser of force `{force_id}`'s campaign.
    ForceOrganiser,
    /// A member of the campaign who owns one of its forces, or the organiser (a battle is
    /// between forces: the body names which).
    CampaignForceOwner,
    /// The owner of one of battle `{battle_id}`'s player forces, or the organiser.
    BattleSide,
    /// The organiser of battle `{battle_id}`'s campaign.
    BattleOrganiser,
    /// A member of battle `{battle_id}`'s campaign who owns force `{force_id}` (or organises).
    BattleForceEditor,
    /// The owner of house ruleset `club/{ruleset_slug}`.
    RulesetOwner,
    /// The creator of one-shot scenario `{scenario_id}` (anyone else: 404, as if it did not
    /// exist).
    ScenarioCreator,
}

use Permission::*;

/// Write routes (after `/api/v1`) and their permission. Routes that name no resource
/// (registration, new campaigns, joining, one-shot scenarios, the caller's account) have no
/// permission to check beyond the credential.
const RULES: &[(&str, &str, Permission)] = &[
    ("PUT", "/forces/{force_id}", ForceEditor),
    ("POST", "/forces/{force_id}/archive", ForceEditor),
    ("POST", "/forces/{force_id}/ledger", ForceOrganiser),
    ("PATCH", "/campaigns/{campaign_id}", CampaignOrganiser),
    (
        "PUT",
        "/campaigns/{campaign_id}/settings",
        CampaignOrganiser,
    ),
    (
        "POST",
        "/campaigns/{campaign_id}/invites",
        CampaignOrganiser,
    ),
    (
        "DELETE",
        "/campaigns/{campaign_id}/invites/{_}",
        CampaignOrganiser,
    ),
    (
        "POST",
        "/campaigns/{campaign_id}/api-keys",
        CampaignOrganiser,
    ),
    (
        "DELETE",
        "/campaigns/{campaign_id}/api-keys/{_}",
        CampaignOrganiser,
    ),
    (
        "POST",
        "/campaigns/{campaign_id}/webhooks",
        CampaignOrganiser,
    ),
    (
        "DELETE",
        "/campaigns/{campaign_id}/webhooks/{_}",
        CampaignOrganiser,
    ),
    (
        "POST",
        "/campaigns/{campaign_id}/webhooks/{_}/{_}",
        CampaignOrganiser,
    ),
    (
        "POST",
        "/campaigns/{campaign_id}/webhooks/{_}/deliveries/{_}/{_}",
        CampaignOrganiser,
    ),
    (
        "POST",
        "/campaigns/{campaign_id}/organiser",
        CampaignOrganiser,
    ),
    (
        "DELETE",
        "/campaigns/{campaign_id}/members/{_}",
        CampaignOrganiser,
    ),
    ("POST", "/campaigns/{campaign_id}/leave", CampaignMember),
    ("POST", "/campaigns/{campaign_id}/forces", CampaignMember),
    (
        "POST",
        "/campaigns/{campaign_id}/forces/{_}",
        CampaignMember,
    ),
    (
        "POST",
        "/campaigns/{campaign_id}/battles",
        CampaignForceOwner,
    ),
    (
        "POST",
        "/battles/{battle_id}/aftermath/{force_id}/{_}",
        BattleForceEditor,
    ),
    ("POST", "/battles/{battle_id}/void", BattleOrganiser),
    ("POST", "/battles/{battle_id}/reopen", BattleOrganiser),
    ("PUT", "/battles/{battle_id}/solo/groups", BattleSide),
    (
        "POST",
        "/battles/{battle_id}/solo/groups/{_}/casualties",
        BattleSide,
    ),
    (
        "PUT",
        "/scenarios/{scenario_id}/solo/groups",
        ScenarioCreator,
    ),
    (
        "POST",
        "/scenarios/{scenario_id}/solo/turns",
        ScenarioCreator,
    ),
    (
        "POST",
        "/scenarios/{scenario_id}/solo/groups/{_}/casualties",
        ScenarioCreator,
    ),
    ("POST", "/battles/{battle_id}/{_}", BattleSide),
    ("POST", "/battles/{battle_id}/{_}/{_}", BattleSide),
    ("DELETE", "/battles/{battle_id}/{_}/{_}", BattleSide),
    ("PUT", "/rulesets/club/{ruleset_slug}", RulesetOwner),
    ("DELETE", "/rulesets/club/{ruleset_slug}", RulesetOwner),
];

/// The middleware (see the module doc). Runs after authentication.
pub async fn permission_before_body(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let response = next
        .call(req)
        .await
        .map(ServiceResponse::map_into_boxed_body)?;
    if !is_body_error(response.status()) {
        return Ok(response);
    }
    // Only a body error needs the rule: the request is still there to read it from.
    let request = response.request();
    let rule = rule_for(request.method(), request.path());
    let caller = request.extensions().get::<Caller>().cloned();
    let state = request.app_data::<web::Data<AppState>>().cloned();
    let (Some((permission, ids)), Some(caller), Some(state)) = (rule, caller, state) else {
        return Ok(response);
    };
    match check(&state, caller, permission, ids).await {
        Ok(()) => Ok(response),
        Err(refused) => {
            let (request, _) = response.into_parts();
            Ok(ServiceResponse::new(
                request,
                HttpResponse::from_error(refused),
            ))
        }
    }
}

/// The statuses that answer about the body.
fn is_body_error(status: StatusCode) -> bool {
    [
        StatusCode::BAD_REQUEST,
        StatusCode::PAYLOAD_TOO_LARGE,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        StatusCode::UNPROCESSABLE_ENTITY,
    ]
    .contains(&status)
}

/// The ids a route's path names.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Ids {
    campaign_id: Option<String>,
    force_id: Option<String>,
    battle_id: Option<String>,
    ruleset_slug: Option<String>,
    scenario_id: Option<String>,
}

/// The first rule whose method and pattern match, with the ids the path names.
fn rule_for(method: &Method, path: &str) -> Option<(Permission, Ids)> {
    let rest = path.strip_prefix(crate::routes::API_BASE)?;
    RULES.iter().find_map(|(m, pattern, permission)| {
        if method.as_str() != *m {
            return None;
        }
        captures(pattern, rest).map(|ids| (*permission, ids))
    })
}

/// Matches `path` against `pattern` segment by segment (`{name}` matches any one segment).
fn captures(pattern: &str, path: &str) -> Option<Ids> {
    if pattern.matches('/').count() != path.matches('/').count() {
        return None;
    }
    let mut ids = Ids::default();
    for (want, got) in pattern.split('/').zip(path.split('/')) {
        let value = Some(got.to_owned());
        match want {
            "{campaign_id}" => ids.campaign_id = value,
            "{force_id}" => ids.force_id = value,
            "{battle_id}" => ids.battle_id = value,
            "{ruleset_slug}" => ids.ruleset_slug = value,
            "{scenario_id}" => ids.scenario_id = value,
            "{_}" => {}
            literal if literal == got => {}
            _ => return None,
        }
    }
    Some(ids)
}

/// The refusal of a member who plays no side.
fn not_a_side() -> ApiError {
    ApiError::Forbidden(
        "Only a player whose force takes part, or the campaign's organiser, may do this."
            .to_owned(),
    )
}

/// Whether `caller` holds `permission` on the resources `ids` names.
async fn check(
    state: &AppState,
    caller: Caller,
    permission: Permission,
    ids: Ids,
) -> Result<(), ApiError> {
    state
        .db
        .run(move |conn| {
            let id = |id: &Option<String>| id.clone().unwrap_or_default();
            match permission {
                CampaignMember => {
                    campaign_access(conn, &caller, &id(&ids.campaign_id), Need::Write).map(drop)
                }
                CampaignOrganiser => {
                    campaign_access(conn, &caller, &id(&ids.campaign_id), Need::Organiser).map(drop)
                }
                ForceEditor => {
                    authorize_force(conn, &caller, &id(&ids.force_id), Need::Write).map(drop)
                }
                ForceOrganiser => {
                    let (force, _) =
                        authorize_force(conn, &caller, &id(&ids.force_id), Need::Read)?;
                    campaign_access(conn, &caller, &force.campaign_id, Need::Organiser).map(drop)
                }
                CampaignForceOwner => {
                    let access =
                        campaign_access(conn, &caller, &id(&ids.campaign_id), Need::Write)?;
                    let user_id = access.user_id.clone().unwrap_or_default();
                    if access.is_organiser()
                        || forces::owns_any_in_campaign(conn, &access.campaign_id, &user_id)?
                    {
                        return Ok(());
                    }
                    Err(not_a_side())
                }
                BattleSide => {
                    let (battle, access) =
                        authorize_battle(conn, &caller, &id(&ids.battle_id), Need::Write)?;
                    if access.is_organiser()
                        || !owned_forces(conn, &access, &player_forces(&battle)?)?.is_empty()
                    {
                        return Ok(());
                    }
                    Err(not_a_side())
                }
                BattleOrganiser => {
                    authorize_battle(conn, &caller, &id(&ids.battle_id), Need::Organiser).map(drop)
                }
                BattleForceEditor => {
                    authorize_battle(conn, &caller, &id(&ids.battle_id), Need::Write)?;
                    authorize_force(conn, &caller, &id(&ids.force_id), Need::Write).map(drop)
                }
                RulesetOwner => {
                    crate::app::rulesets::authorize_owner(conn, &caller, &id(&ids.ruleset_slug))
                        .map(drop)
                }
                ScenarioCreator => {
                    let user = crate::app::authorization::person(&caller)?;
                    crate::store::scenarios::find_by_id_and_creator(
                        conn,
                        &id(&ids.scenario_id),
                        user,
                    )?
                    .map(drop)
                    .ok_or_else(|| ApiError::not_found("scenario"))
                }
            }
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_find_their_permission_and_ids() {
        let (permission, ids) = rule_for(&Method::PUT, "/api/v1/forces/f1").unwrap();
        assert_eq!(permission, ForceEditor);
        assert_eq!(ids.force_id.as_deref(), Some("f1"));
        let (permission, ids) =
            rule_for(&Method::POST, "/api/v1/battles/b1/aftermath/f2/roll").unwrap();
        assert_eq!(permission, BattleForceEditor);
        assert_eq!(
            (ids.battle_id.as_deref(), ids.force_id.as_deref()),
            (Some("b1"), Some("f2"))
        );
        assert_eq!(
            rule_for(&Method::POST, "/api/v1/campaigns/c1/forces/generate").map(|r| r.0),
            Some(CampaignMember)
        );
        assert_eq!(
            rule_for(&Method::POST, "/api/v1/campaigns/join").map(|r| r.0),
            None
        );
        assert!(rule_for(&Method::GET, "/api/v1/forces/f1").is_none());
    }
}
