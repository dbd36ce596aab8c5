//! Routes for battles, results and the post-battle sequence (API.md › Battles; docs/rules.md §2;
//! issue 6), under `/api/v1`. Handlers live one per file in this directory and are registered
//! in [`configure`]; this module holds what they share: the response shapes, the access checks
//! and [`idempotent`], the `Idempotency-Key` wrapper every battle POST runs in.
//!
//! When the losses hit the roster: recording a result snapshots each player force's roster as
//! "battle start" (with the force version) and validates the losses against it; nothing in the
//! stored roster changes until that force's aftermath is finalized, which commits losses,
//! steps 1–6 and the player's choices as one history entry (cause `battle`, with the roll log)
//! plus the ledger entries, in one transaction. A disputed pending result thus changes nothing.

pub mod aftermath;
pub mod confirm;
pub mod create;
pub mod list;
pub mod names;
pub mod read;
pub mod reopen;
pub mod result;
pub mod revert;
pub mod scenario;
pub mod timeline;
pub mod void;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::AppState;
use crate::auth::{Caller, CampaignAccess, Need, campaign_access};
use crate::db::Db;
use crate::error::ApiError;
use crate::store::idempotency::{self, IdempotentResponse};
use crate::store::{self, aftermath as rows, battles};

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(create::create_battle)
        .service(list::list_battles)
        .service(read::get_battle)
        .service(result::record_result)
        .service(confirm::confirm_result)
        .service(void::void_battle)
        .service(reopen::reopen_battle)
        .service(timeline::get_timeline)
        .service(aftermath::read::get_aftermath)
        .service(aftermath::roll::roll_aftermath)
        .service(aftermath::reinforcements::reinforce_aftermath)
        .service(aftermath::purchases::purchase_aftermath)
        .service(aftermath::finalize::finalize_aftermath)
        .service(scenario::read::get_scenario)
        .service(scenario::sheet::get_scenario_sheet)
        .service(scenario::share::share_sheet)
        .service(scenario::share::revoke_sheet)
        .service(scenario::orders::submit_orders)
        .service(scenario::missions::submit_mission_bonuses)
        .service(scenario::choice::submit_mission_choice)
        .service(scenario::recon::submit_recon_action)
        .service(scenario::assault::declare_assault_target);
}

/// Battle states.
pub mod states {
    /// Created; no result yet (a scenario may be played).
    pub const SCENARIO: &str = "scenario";
    /// A result is recorded and waits for confirmation.
    pub const PENDING: &str = "pending";
    /// The result stands; the player sides run their post-battle sequences.
    pub const AFTERMATH: &str = "aftermath";
    /// Every player side has finalized.
    pub const COMPLETE: &str = "complete";
    /// Voided by the organiser: its effects are undone and it counts for nothing.
    pub const VOID: &str = "void";
}

/// A body with no fields: empty, or `{}`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct EmptyBody {}

/// One side of a battle: a stored force or a non-player force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Side {
    /// The stored force, for a player side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_id: Option<String>,
    /// The non-player force's description, for a non-player side: optional `name`, `stance`
    /// and `attitude` (rolled when absent, docs/rules.md §3.12) and an inline force (`platoons`,
    /// `units`) as in `POST /scenarios`; any other field is refused. A chosen `stance` and
    /// `attitude` are left out of what battle reads, lists and the timeline show until the
    /// scenario reveals them (when orders close) or the battle has a result; a referee sees
    /// them in `GET /battles/{id}` once the scenario has started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_player: Option<scenario::non_player::NonPlayerBody>,
    /// The player side's owner's display name (or username), in battle reads and lists;
    /// read-only (a request that sends it is refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub owner_name: Option<String>,
}

/// The recorded result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattleResult {
    /// `win` or `draw`.
    pub outcome: String,
    /// The winning force; `null` for a draw or when the non-player side won.
    pub winner_force_id: Option<String>,
    /// Per-unit losses, each with the force it belongs to.
    pub losses: Vec<RecordedLoss>,
}

/// One unit's losses in a recorded result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecordedLoss {
    /// The force the unit belongs to.
    pub force_id: String,
    /// The unit.
    pub unit_id: String,
    /// Figures lost (C2).
    pub figures_lost: u32,
    /// Wiped out (C4).
    pub eliminated: bool,
    /// `damaged` or `destroyed`, for vehicles.
    pub vehicle_damage: Option<String>,
    /// A recon unit destroyed by ambush (C2).
    pub destroyed_on_recon: bool,
}

/// One player side's post-battle sequence, in brief.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AftermathSummary {
    /// The force.
    pub force_id: String,
    /// `open` (nothing rolled yet), `rolling` (some roll steps made), `rolled` or `finalized`.
    pub stage: String,
    /// The step version.
    pub version: i64,
}

/// A battle.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BattleResponse {
    /// The battle id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// `scenario`, `pending`, `aftermath`, `complete` or `void`.
    pub state: String,
    /// The two sides.
    pub sides: Vec<Side>,
    /// The result, once recorded.
    pub result: Option<BattleResult>,
    /// Who recorded the result.
    pub result_by: Option<String>,
    /// Who confirmed it.
    pub confirmed_by: Option<String>,
    /// Each player side's post-battle sequence, once the result is recorded.
    pub aftermath: Vec<AftermathSummary>,
    /// The scenario as the caller may see it, once its workflow has started (`GET
    /// /battles/{id}` shows the caller's own side in full; lists, the timeline and integration
    /// keys only what the rules have revealed to both sides). See `GET .../scenario`.
    #[schema(value_type = Option<Object>)]
    pub scenario: Option<fad_domain::scenario::ScenarioView>,
    /// The organiser's voids and reopenings, oldest first (a reopening keeps the result and
    /// the rolls it discarded).
    pub corrections: Vec<battles::Correction>,
    /// The battle is fought at night (docs/rules.md §3.6: each side adds 1d6 dummy markers).
    pub night_fighting: bool,
    /// Optimistic-concurrency version.
    pub version: i64,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// Last change (RFC 3339 UTC).
    pub updated_at: DateTime<Utc>,
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{e}"))
}

impl BattleResponse {
    /// The response for a stored battle and its aftermath rows.
    pub fn new(
        battle: battles::Battle,
        aftermaths: &[rows::AftermathRow],
    ) -> Result<Self, ApiError> {
        let sides: Vec<Side> = serde_json::from_str(&battle.sides).map_err(internal)?;
        let result = battle
            .result
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(internal)?;
        let corrections = battle.corrections().map_err(internal)?;
        let night_fighting = battle.options().map_err(internal)?.night_fighting;
        Ok(Self {
            corrections,
            night_fighting,
            id: battle.id,
            campaign_id: battle.campaign_id,
            state: battle.state,
            sides,
            result,
            result_by: battle.result_by,
            confirmed_by: battle.confirmed_by,
            aftermath: aftermaths
                .iter()
                .map(|r| AftermathSummary {
                    force_id: r.force_id.clone(),
                    stage: r.stage.clone(),
                    version: r.version,
                })
                .collect(),
            scenario: None,
            version: battle.version,
            created_at: battle.created_at.and_utc(),
            updated_at: battle.updated_at.and_utc(),
        })
    }

    /// Loads the battle's aftermath rows and builds the response, with the scenario's public
    /// view.
    pub fn load(conn: &mut Db, battle: battles::Battle) -> Result<Self, ApiError> {
        let aftermaths = rows::list_for_battle(conn, &battle.id)?;
        Self::new(battle, &aftermaths)?.with_public_scenario(conn)
    }

    /// Adds the scenario as everyone may see it (what the rules have revealed to both sides),
    /// and hides a non-player side's chosen stance and attitude until then.
    pub fn with_public_scenario(mut self, conn: &mut Db) -> Result<Self, ApiError> {
        self.scenario = scenario::public_view(conn, &self.id)?;
        self.hide_non_player_choices();
        Ok(self)
    }

    /// Drops `stance` and `attitude` from a non-player side's description while the battle's
    /// scenario has not revealed them (docs/rules.md §3.0: secret until steps 4–5, which the
    /// workflow runs when orders close); a battle with a result shows them.
    pub fn hide_non_player_choices(&mut self) {
        let revealed = self.state != states::SCENARIO
            || self
                .scenario
                .as_ref()
                .is_some_and(|v| v.state > fad_domain::scenario::ScenarioState::Orders);
        if revealed {
            return;
        }
        for side in &mut self.sides {
            if let Some(description) = &mut side.non_player {
                description.stance = None;
                description.attitude = None;
            }
        }
    }
}

/// The 404 for a battle the caller may not see.
pub fn battle_not_found() -> ApiError {
    ApiError::not_found("battle")
}

/// Loads a battle and checks the caller's access to its campaign (outsiders get 404).
pub fn authorize_battle(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    need: Need,
) -> Result<(battles::Battle, CampaignAccess), ApiError> {
    let battle = battles::find_by_id(conn, battle_id)?.ok_or_else(battle_not_found)?;
    let access = campaign_access(conn, caller, &battle.campaign_id, need).map_err(|e| match e {
        ApiError::NotFound(_) => battle_not_found(),
        other => other,
    })?;
    Ok((battle, access))
}

/// The player forces of a battle's sides.
pub fn player_forces(battle: &battles::Battle) -> Result<Vec<String>, ApiError> {
    let sides: Vec<Side> = serde_json::from_str(&battle.sides).map_err(internal)?;
    Ok(sides.into_iter().filter_map(|s| s.force_id).collect())
}

/// Whether the caller owns one of `force_ids` (returns the owned ids, in `force_ids` order).
/// One statement whatever the number of forces.
pub fn owned_forces(
    conn: &mut Db,
    access: &CampaignAccess,
    force_ids: &[String],
) -> Result<Vec<String>, ApiError> {
    use diesel::prelude::*;

    use crate::schema::forces as t;
    let Some(user_id) = access.user_id.as_deref() else {
        return Ok(Vec::new());
    };
    if force_ids.is_empty() {
        return Ok(Vec::new());
    }
    let owned: Vec<String> = t::table
        .filter(t::id.eq_any(force_ids))
        .filter(t::owner_id.eq(user_id))
        .select(t::id)
        .load(conn)?;
    Ok(force_ids
        .iter()
        .filter(|id| owned.contains(id))
        .cloned()
        .collect())
}

/// Takes the battle's row lock for the rest of the transaction (bumps its version): battle
/// writes of one battle then run one after the other, across server processes too, and each
/// sees what the previous one committed. One statement (`UPDATE … RETURNING`); returns the
/// battle as locked.
pub fn lock_battle(conn: &mut Db, battle_id: &str) -> Result<battles::Battle, ApiError> {
    use diesel::prelude::*;

    use crate::schema::battles as t;
    diesel::update(t::table.filter(t::id.eq(battle_id)))
        .set((
            t::version.eq(t::version + 1),
            t::updated_at.eq(store::now()),
        ))
        // `RETURNING` every column, in the table's order (as `Battle` is declared).
        .get_result::<battles::Battle>(conn)
        .optional()?
        .ok_or_else(battle_not_found)
}

/// [`lock_battle`] without changing the row: for a write that may be a side's secret (a
/// scenario step), whose battle `version` and `updated_at` must not move unless what everyone
/// sees changed ([`touch_battle`]).
pub fn lock_battle_quietly(conn: &mut Db, battle_id: &str) -> Result<battles::Battle, ApiError> {
    use diesel::prelude::*;

    use crate::schema::battles as t;
    diesel::update(t::table.filter(t::id.eq(battle_id)))
        .set(t::version.eq(t::version))
        .get_result::<battles::Battle>(conn)
        .optional()?
        .ok_or_else(battle_not_found)
}

/// Bumps a battle's version and `updated_at` (after [`lock_battle_quietly`]).
pub fn touch_battle(conn: &mut Db, battle_id: &str) -> Result<(), ApiError> {
    use diesel::prelude::*;

    use crate::schema::battles as t;
    diesel::update(t::table.filter(t::id.eq(battle_id)))
        .set((
            t::version.eq(t::version + 1),
            t::updated_at.eq(store::now()),
        ))
        .execute(conn)?;
    Ok(())
}

/// [`lock_battle`] then [`authorize_battle`]'s access check on the locked row: two statements
/// instead of four. The lock comes first; a refused caller's transaction rolls back, so taking
/// it changes nothing for them.
pub fn lock_authorized(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    need: Need,
) -> Result<(battles::Battle, CampaignAccess), ApiError> {
    let battle = lock_battle(conn, battle_id)?;
    let access = campaign_access(conn, caller, &battle.campaign_id, need).map_err(|e| match e {
        ApiError::NotFound(_) => battle_not_found(),
        other => other,
    })?;
    Ok((battle, access))
}

/// Reads the `Idempotency-Key` header (at most 200 characters).
pub fn idempotency_key(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    match req.headers().get("idempotency-key") {
        None => Ok(None),
        Some(value) => {
            let key = value
                .to_str()
                .map_err(|_| ApiError::bad_request("Idempotency-Key must be visible ASCII."))?
                .trim();
            if key.is_empty() || key.len() > idempotency::MAX_KEY_LEN {
                return Err(ApiError::validation(
                    "Idempotency-Key",
                    "must be 1 to 200 characters",
                ));
            }
            Ok(Some(key.to_owned()))
        }
    }
}

/// Runs a battle write in one transaction, honouring `Idempotency-Key`: the same key with the
/// same body returns the stored first response (nothing runs again), with another body 422.
/// The first response is stored in the write's own transaction, so two concurrent first uses of
/// one key cannot both commit (the primary key decides); the loser then answers the winner's
/// stored response.
pub async fn idempotent<F>(
    state: &AppState,
    user_id: &str,
    scope: String,
    key: Option<String>,
    body: &[u8],
    work: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(&mut Db) -> Result<(StatusCode, Value), ApiError> + Send + 'static,
{
    let hash = idempotency::hash_body(body);
    let user = user_id.to_owned();
    let (k, s, h) = (key.clone(), scope.clone(), hash.clone());
    let outcome = state
        .db
        .transaction(move |conn| {
            if let Some(key) = &k {
                if let Some(stored) = idempotency::find(conn, &user, &s, key)? {
                    return replay(&stored, &h);
                }
            }
            let (status, value) = work(conn)?;
            if let Some(key) = k {
                idempotency::insert(
                    conn,
                    &IdempotentResponse {
                        user_id: user,
                        scope: s,
                        idempotency_key: key,
                        request_hash: h,
                        status: i32::from(status.as_u16()),
                        response: value.to_string(),
                        created_at: store::now(),
                    },
                )?;
            }
            Ok((status, value))
        })
        .await;
    let (status, value) = match (outcome, key) {
        (Ok(done), _) => done,
        (Err(err), Some(key)) => {
            // A concurrent first use of the same key may have won; answer as it did.
            let user = user_id.to_owned();
            let stored = state
                .db
                .run(move |conn| Ok(idempotency::find(conn, &user, &scope, &key)?))
                .await?;
            match stored {
                Some(stored) => replay(&stored, &hash)?,
                None => return Err(err),
            }
        }
        (Err(err), None) => return Err(err),
    };
    Ok(HttpResponse::build(status).json(value))
}

fn replay(stored: &IdempotentResponse, hash: &str) -> Result<(StatusCode, Value), ApiError> {
    if stored.request_hash != hash {
        return Err(ApiError::validation(
            "Idempotency-Key",
            "this key was used with a different request body",
        ));
    }
    let status = u16::try_from(stored.status)
        .ok()
        .and_then(|s| StatusCode::from_u16(s).ok())
        .ok_or_else(|| internal("stored status"))?;
    let value = serde_json::from_str(&stored.response).map_err(internal)?;
    Ok((status, value))
}

/// Converts domain problems into a 422.
pub fn problems(list: Vec<fad_domain::roster::Problem>) -> ApiError {
    ApiError::Validation(
        list.into_iter()
            .map(|p| crate::error::FieldError::new(p.field, p.message))
            .collect(),
    )
}

/// Serializes a response value.
pub fn to_value<T: Serialize>(value: &T) -> Result<Value, ApiError> {
    serde_json::to_value(value).map_err(internal)
}

/// Parses a JSON body; an empty body reads as `{}`.
pub fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        crate::extract::parse_json(b"{}")
    } else {
        crate::extract::parse_json(body)
    }
}
