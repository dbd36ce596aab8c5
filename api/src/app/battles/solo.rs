//! Solo play (docs/rules.md `solo`): a non-player side run by the rules during the battle. The
//! player splits it into groups, then starts each turn; every group that tests takes its
//! Discipline Test and the answer says, per group, what it does in the rules' words with a link
//! to the rule. One use case per function, for a campaign battle's non-player side and for a
//! one-shot scenario's alike ([`Owner`]).
//!
//! Who may: for a battle, its players (owners of its player forces) and the campaign's
//! organiser write; members and the campaign's integration keys read. For a one-shot scenario,
//! its creator. Checks run 401 → 404/403 → 422 → 409; a battle's solo play opens once its
//! scenario is ready and closes with its result.
//!
//! Storage: one `solo_states` row per battle or scenario ([`SoloState`] as JSON) with a version:
//! each write is one transaction that checks the version it read, so of two turns started at
//! once one is written and the other gets 409 (or, with the same `Idempotency-Key`, the first
//! answer). A battle's write also bumps the battle's version, which wakes the live page of every
//! viewer, and a turn appends a `battle.solo_turn` event.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use fad_domain::dice::{EnteredDice, RollLog, RollStep, ServerDice, TableDice};
use fad_domain::lifecycle::BattleState;
use fad_domain::names::Named;
use fad_domain::roster::Force;
use fad_domain::scenario::ScenarioState;
use fad_domain::solo::{
    self, Approach, CasualtyEntry, GroupSpec, SoloState, TestResult, Turn, TurnError,
    discipline::TEST_DICE,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::idempotency::{self, Answer, Write};
use crate::auth::{AuthUser, Caller, Need};
use crate::db::Db;
use crate::error::{ApiError, FieldError};
use crate::store;
use crate::store::events::{Event, EventType};
use crate::store::solo::{self as rows, Owner};

use super::scenario::non_player::NON_PLAYER_ID;
use super::{authorize_battle, lock_battle_quietly, touch_battle};

/// Which solo play a request is for: a battle's or a one-shot scenario's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A campaign battle.
    Battle(String),
    /// A one-shot scenario.
    Scenario(String),
}

impl Target {
    fn owner(&self) -> Owner<'_> {
        match self {
            Self::Battle(id) => Owner::Battle(id),
            Self::Scenario(id) => Owner::Scenario(id),
        }
    }
    fn path(&self) -> String {
        match self {
            Self::Battle(id) => format!("/api/v1/battles/{id}/solo"),
            Self::Scenario(id) => format!("/api/v1/scenarios/{id}/solo"),
        }
    }
}

/// `PUT .../solo/groups`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"groups": [{"name": "Hill", "units": ["s2-u1"], "approach": "hold",
    "objective": "the farmhouse", "rallying_point": "the woods", "discipline": 4}]}))]
pub struct GroupsRequest {
    /// The groups, each at most a platoon; every unit in at most one group.
    pub groups: Vec<GroupSpec>,
    /// The solo version the client saw (from `GET .../solo`); a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
}

/// `POST .../solo/turns`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"dice": {"discipline": {"Hill": [4, 2, 6]}}, "arrived": []}))]
pub struct TurnRequest {
    /// Dice rolled at the table: `{"discipline": {"<group name>": [a, b, c]}}`; groups left out
    /// are rolled by the service.
    #[serde(default)]
    #[schema(schema_with = solo_dice_schema)]
    pub dice: BTreeMap<String, BTreeMap<String, Vec<u8>>>,
    /// Falling-back groups that have reached their defensible position: they test again this
    /// turn.
    #[serde(default)]
    pub arrived: Vec<String>,
    /// The solo version the client saw; a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Text mixed into the committed seed of the server dice (1–128 characters).
    #[serde(default)]
    pub client_seed: Option<String>,
}

/// The OpenAPI schema of a turn's `dice`: `discipline` → group name → its three dice.
fn solo_dice_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, ObjectBuilder, Type};
    let die = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(1))
        .maximum(Some(6));
    let three = ArrayBuilder::new()
        .items(die)
        .min_items(Some(3))
        .max_items(Some(3));
    let groups = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("group name → its Discipline Test's three dice"))
        .additional_properties(Some(three))
        .build();
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "Dice rolled at the table, by step (only `discipline`), then group name.",
        ))
        .property("discipline", groups)
        .additional_properties(Some(
            AdditionalProperties::<utoipa::openapi::schema::Schema>::FreeForm(false),
        ))
        .build()
}

/// `POST .../solo/groups/{name}/casualties`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"lost": 2}))]
pub struct CasualtiesRequest {
    /// Figures the group lost (added to its running casualties).
    pub lost: u32,
}

/// A unit of the non-player force, for picking groups.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SoloUnit {
    /// The unit id (use it in a group's `units`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its platoon's name.
    pub platoon: String,
    /// Its Quality test target (2–5).
    pub quality_target: u8,
    /// Its figures.
    pub strength: u32,
    /// The group it is in, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// What one group does this turn.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GroupTurnView {
    /// The group.
    pub name: String,
    /// Its Discipline for the test (a die at or above it passes).
    pub discipline: u8,
    /// Dice that passed; absent when it did not test (falling back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passes: Option<u8>,
    /// The test's dice.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<u8>,
    /// `carry_out` (2–3 passes), `hold` (1), `fall_back` (0) or `falling_back` (no test).
    pub result: TestResult,
    /// What it does, in the rules' words.
    pub orders: String,
    /// The rule in the rules reference.
    pub rules_url: String,
    /// Figures it had lost when the turn started.
    pub casualties: u32,
}

/// One turn of the log.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TurnView {
    /// Turn number, from 1.
    pub turn: u32,
    /// Groups that had arrived at their defensible position.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arrived: Vec<String>,
    /// Each group.
    pub groups: Vec<GroupTurnView>,
    /// The turn's rolls (step `discipline`, subject the group's name).
    pub rolls: RollLog,
}

/// A group and where it stands.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GroupView {
    /// Its name.
    pub name: String,
    /// Its units' ids.
    pub units: Vec<String>,
    /// Its units' names, in the same order.
    pub unit_names: Vec<String>,
    /// Its Approach.
    pub approach: Approach,
    /// What it targets or holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
    /// Where it rallies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rallying_point: Option<String>,
    /// Its Discipline now (2–5).
    pub discipline: u8,
    /// Its Discipline when set up.
    pub starting_discipline: u8,
    /// Its figures when set up.
    pub figures: u32,
    /// Figures lost so far.
    pub casualties: u32,
    /// Half the group are casualties: its Discipline has worsened one step.
    pub aborted: bool,
    /// On its way to the nearest defensible position: no tests until it arrives.
    pub falling_back: bool,
}

/// A non-player side's solo play.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SoloResponse {
    /// Version of the solo state (0 before groups are set up); send it back as `version`.
    pub version: i64,
    /// The non-player force's name.
    pub force_name: String,
    /// Whether turns may be played and groups set now (a battle's scenario must be ready and
    /// the battle without a result).
    pub open: bool,
    /// Whether the caller may set the groups, start turns and record casualties (a player of
    /// the battle or the organiser; a scenario's creator).
    pub can_act: bool,
    /// Why not, in plain words, when it is not open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_because: Option<String>,
    /// The next turn's number.
    pub next_turn: u32,
    /// The non-player force's units.
    pub units: Vec<SoloUnit>,
    /// The groups.
    pub groups: Vec<GroupView>,
    /// Every turn, oldest first.
    pub turns: Vec<TurnView>,
    /// Every casualty entry, oldest first.
    pub casualty_log: Vec<CasualtyEntry>,
    /// Every solo roll, in order (the turns' rolls together).
    pub rolls: RollLog,
    /// The commitment to the seed of the next turn's server dice (in `GET`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice_commitment: Option<crate::app::dice::DiceCommitment>,
}

/// The answer to a turn.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TurnResponse {
    /// The turn played.
    pub turn: u32,
    /// What each group does this turn.
    pub groups: Vec<GroupTurnView>,
    /// This turn's rolls.
    pub rolls: RollLog,
    /// Entered values no roll used (a group falling back takes no test): step → group → values.
    #[schema(value_type = fad_domain::dice::EnteredDiceSchema)]
    pub unused_dice: EnteredDice,
    /// The solo version after the turn.
    pub version: i64,
    /// The commitment to the seed of the next turn's server dice.
    pub dice_commitment: crate::app::dice::DiceCommitment,
}

/// The answer to a casualty entry.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CasualtyResponse {
    /// The group after the losses.
    pub group: GroupView,
    /// The entry, with whether it made the group abort.
    pub entry: CasualtyEntry,
    /// The solo version after it.
    pub version: i64,
}

/// The link to a rule of the rules reference.
pub fn rules_url(anchor: &str) -> String {
    format!("/rules#{anchor}")
}

/// What the caller works on: the non-player force, its side's id for the roll log, and whether
/// solo play is open.
struct Context {
    force: Force,
    force_id: String,
    open: Result<(), String>,
    campaign_id: Option<String>,
    battle_state: Option<BattleState>,
    can_act: bool,
}

fn not_non_player() -> ApiError {
    ApiError::Conflict(
        "This battle has no non-player side: solo play runs a force nobody controls.".to_owned(),
    )
}

/// Loads the battle or scenario with the caller's access and its non-player force.
fn context(
    conn: &mut Db,
    caller: &Caller,
    target: &Target,
    need: Need,
) -> Result<Context, ApiError> {
    match target {
        Target::Battle(id) => {
            let (battle, access) = authorize_battle(conn, caller, id, need)?;
            let players = super::player_forces(&battle)?;
            let can_act =
                access.is_organiser() || !super::owned_forces(conn, &access, &players)?.is_empty();
            if need != Need::Read && !can_act {
                return Err(ApiError::Forbidden(
                    "Only the battle's players and the campaign's organiser may run its non-player side."
                        .to_owned(),
                ));
            }
            // The same reads whether the scenario's row is stored or not: the first secret
            // choice stores it, and a battle page whose cost moved with it would tell the
            // opponent (`scenario::load` builds the fresh document either way).
            let (stored, doc) = super::scenario::load(conn, &battle)?;
            let Some(np) = doc.scenario.sides.iter().find(|s| s.is_non_player()) else {
                return Err(not_non_player());
            };
            let open = if battle.state != BattleState::Scenario {
                Err("The battle has a result: solo play is over.".to_owned())
            } else if stored.is_none() || doc.scenario.state != ScenarioState::Ready {
                Err("The scenario is not set up yet: finish its steps (orders, missions, recon) first, then run the non-player side.".to_owned())
            } else {
                Ok(())
            };
            Ok(Context {
                force: np.force.clone(),
                force_id: NON_PLAYER_ID.to_owned(),
                open,
                campaign_id: Some(battle.campaign_id.clone()),
                battle_state: Some(battle.state),
                can_act,
            })
        }
        Target::Scenario(id) => {
            let user = crate::app::authorization::person(caller)?;
            let row = store::scenarios::find_by_id_and_creator(conn, id, user)?
                .ok_or_else(|| ApiError::not_found("scenario"))?;
            let doc = crate::app::scenarios::document::ScenarioDocument::of_row(&row)?;
            let Some(np) = doc.scenario.sides.iter().find(|s| s.is_non_player()) else {
                return Err(ApiError::Conflict(
                    "This scenario has no non-player side: solo play runs a force nobody controls."
                        .to_owned(),
                ));
            };
            Ok(Context {
                force: np.force.clone(),
                force_id: np.force_id.clone(),
                open: Ok(()),
                campaign_id: None,
                battle_state: None,
                can_act: true,
            })
        }
    }
}

fn group_view(force: &Force, g: &solo::Group) -> GroupView {
    GroupView {
        name: g.name.clone(),
        unit_names: g
            .units
            .iter()
            .map(|id| {
                force
                    .unit(id)
                    .map_or_else(|| id.clone(), |u| u.name.clone())
            })
            .collect(),
        units: g.units.clone(),
        approach: g.approach,
        objective: g.objective.clone(),
        rallying_point: g.rallying_point.clone(),
        discipline: g.discipline,
        starting_discipline: g.starting_discipline,
        figures: g.figures,
        casualties: g.casualties,
        aborted: g.aborted,
        falling_back: g.falling_back,
    }
}

fn turn_groups(turn: &Turn) -> Vec<GroupTurnView> {
    turn.groups
        .iter()
        .map(|g| GroupTurnView {
            name: g.name.clone(),
            discipline: g.discipline,
            passes: g.passes,
            values: g.values.clone(),
            result: g.result,
            orders: g.orders.clone(),
            rules_url: rules_url(&g.anchor),
            casualties: g.casualties,
        })
        .collect()
}

fn response(ctx: &Context, state: &SoloState, version: i64) -> SoloResponse {
    let owner_of = |id: &str| {
        state
            .groups
            .iter()
            .find(|g| g.units.iter().any(|u| u == id))
            .map(|g| g.name.clone())
    };
    SoloResponse {
        version,
        force_name: ctx.force.name.clone(),
        open: ctx.open.is_ok(),
        can_act: ctx.can_act,
        closed_because: ctx.open.clone().err(),
        next_turn: u32::try_from(state.turns.len()).unwrap_or(u32::MAX - 1) + 1,
        units: ctx
            .force
            .platoons
            .iter()
            .flat_map(|p| {
                p.units.iter().map(|u| SoloUnit {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    platoon: p.name.clone(),
                    quality_target: u.quality.row().test_target,
                    strength: u.strength,
                    group: owner_of(&u.id),
                })
            })
            .collect(),
        groups: state
            .groups
            .iter()
            .map(|g| group_view(&ctx.force, g))
            .collect(),
        turns: state
            .turns
            .iter()
            .map(|t| TurnView {
                turn: t.turn,
                arrived: t.arrived.clone(),
                groups: turn_groups(t),
                rolls: t.rolls.clone(),
            })
            .collect(),
        casualty_log: state.casualty_log.clone(),
        rolls: state.turns.iter().flat_map(|t| t.rolls.clone()).collect(),
        dice_commitment: None,
    }
}

/// The stored state and its version (empty and 0 before groups are set up).
fn load(conn: &mut Db, target: &Target) -> Result<(SoloState, i64), ApiError> {
    Ok(rows::find(conn, target.owner())?
        .map(|r| (r.document, r.version))
        .unwrap_or_default())
}

fn check_version(sent: Option<i64>, current: i64) -> Result<(), ApiError> {
    match sent {
        Some(v) if v != current => Err(ApiError::Conflict(format!(
            "Solo play changed meanwhile (version {current}, not {v}); reload and try again."
        ))),
        _ => Ok(()),
    }
}

/// Stores `doc` as the next version and, for a battle, bumps the battle (waking live viewers).
fn save(conn: &mut Db, target: &Target, doc: &SoloState, version: i64) -> Result<(), ApiError> {
    if let Target::Battle(id) = target {
        touch_battle(conn, id)?;
    }
    if !rows::save(conn, target.owner(), doc, version, store::now())? {
        return Err(ApiError::Conflict(
            "Someone else changed solo play at the same moment; reload and try again.".to_owned(),
        ));
    }
    Ok(())
}

/// Locks a battle's row so writes of one battle run one after the other.
fn lock(conn: &mut Db, target: &Target) -> Result<(), ApiError> {
    if let Target::Battle(id) = target {
        lock_battle_quietly(conn, id)?;
    }
    Ok(())
}

/// `GET .../solo`.
pub async fn read_solo(
    state: &AppState,
    caller: Caller,
    target: Target,
) -> Result<SoloResponse, ApiError> {
    let read_target = target.clone();
    let answer = state
        .db
        .read(move |conn| solo_in(conn, &caller, &read_target))
        .await?;
    with_commitment(state, &target, answer).await
}

/// What `GET .../solo` answers, read inside the caller's read transaction (the battle page
/// reads it with everything else it shows); [`with_commitment`] completes it.
pub fn solo_in(conn: &mut Db, caller: &Caller, target: &Target) -> Result<SoloResponse, ApiError> {
    let ctx = context(conn, caller, target, Need::Read)?;
    let (doc, version) = load(conn, target)?;
    let mut answer = response(&ctx, &doc, version);
    answer.dice_commitment = crate::app::dice::open_commitment(conn, &solo_scope(target))?;
    Ok(answer)
}

/// `answer` with its dice commitment: the first read offers the first turn's (a write, once).
pub async fn with_commitment(
    state: &AppState,
    target: &Target,
    mut answer: SoloResponse,
) -> Result<SoloResponse, ApiError> {
    if answer.dice_commitment.is_none() {
        let scope = solo_scope(target);
        let row = state
            .db
            .write_one(move |conn| crate::app::dice::open_or_issue(conn, &scope))
            .await?;
        answer.dice_commitment = Some((&row).into());
    }
    Ok(answer)
}

/// The chain of dice commitments of one solo play.
fn solo_scope(target: &Target) -> String {
    format!("solo:{}", target.path())
}

/// `PUT .../solo/groups`: sets the groups (before the first turn).
pub async fn set_groups(
    state: &AppState,
    user: &AuthUser,
    target: Target,
    request: GroupsRequest,
    write: Write,
) -> Result<Answer<SoloResponse>, ApiError> {
    let caller = user.caller();
    idempotency::run(state, write, move |conn| {
        let ctx = context(conn, &caller, &target, Need::Write)?;
        let groups = solo::form_groups(&ctx.force, &request.groups).map_err(ApiError::from)?;
        if let Err(why) = &ctx.open {
            return Err(ApiError::Conflict(why.clone()));
        }
        lock(conn, &target)?;
        let (mut doc, version) = load(conn, &target)?;
        check_version(request.version, version)?;
        if !doc.turns.is_empty() {
            return Err(ApiError::Conflict(format!(
                "Turn {} has been played: the groups stay as they are for the rest of the battle.",
                doc.turns.len()
            )));
        }
        doc.groups = groups;
        save(conn, &target, &doc, version + 1)?;
        Ok((StatusCode::OK, response(&ctx, &doc, version + 1)))
    })
    .await
}

/// Checks entered dice: only `discipline`, subjects that are groups, three values of 1–6.
fn check_dice(
    raw: &BTreeMap<String, BTreeMap<String, Vec<u8>>>,
    doc: &SoloState,
) -> Result<EnteredDice, ApiError> {
    let mut errors = Vec::new();
    let mut out = EnteredDice::new();
    for (step, subjects) in raw {
        if step != RollStep::Discipline.name() {
            errors.push(FieldError::new(
                format!("dice.{step}"),
                "Only Discipline Tests are rolled in solo play; enter them under discipline.",
            ));
            continue;
        }
        for (name, values) in subjects {
            let field = format!("dice.discipline.{name}");
            let Some(group) = solo::group(doc, name) else {
                errors.push(FieldError::new(field, "No group has this name."));
                continue;
            };
            if values.len() != TEST_DICE {
                errors.push(FieldError::new(
                    field,
                    format!(
                        "A Discipline Test is 3 dice; {} were entered for {}.",
                        values.len(),
                        group.name
                    ),
                ));
            } else if let Some(bad) = values.iter().find(|v| !(1..=6).contains(*v)) {
                errors.push(FieldError::new(
                    field,
                    format!("{bad} is not a face of the die: enter values from 1 to 6."),
                ));
            } else {
                out.entry(RollStep::Discipline)
                    .or_default()
                    .insert(group.name.clone(), values.clone());
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// `POST .../solo/turns`: plays the next turn.
pub async fn play_turn(
    state: &AppState,
    user: &AuthUser,
    target: Target,
    request: TurnRequest,
    write: Write,
) -> Result<Answer<TurnResponse>, ApiError> {
    let caller = user.caller();
    crate::app::dice::check_client_seed(request.client_seed.as_deref())?;
    idempotency::run(state, write, move |conn| {
        let ctx = context(conn, &caller, &target, Need::Write)?;
        lock(conn, &target)?;
        let (mut doc, version) = load(conn, &target)?;
        let entered = check_dice(&request.dice, &doc)?;
        if let Err(why) = &ctx.open {
            return Err(ApiError::Conflict(why.clone()));
        }
        check_version(request.version, version)?;
        let scope = solo_scope(&target);
        let seed = crate::app::dice::seed_for_roll(conn, &scope, request.client_seed.as_deref())?;
        let mut dice =
            TableDice::new(&entered, ServerDice::committed(seed.clone())).map_err(|e| {
                e.into_iter().next().map_or_else(
                    || ApiError::Internal(anyhow::anyhow!("dice")),
                    ApiError::from,
                )
            })?;
        let turn = match solo::play_turn(&mut doc, &request.arrived, &mut dice, Some(&ctx.force_id))
        {
            Ok(turn) => turn,
            Err(TurnError::NoGroups) => {
                return Err(ApiError::Conflict(
                    "Set up the non-player force's groups before the first turn.".to_owned(),
                ));
            }
            Err(TurnError::Invalid(problems)) => return Err(problems.into()),
            Err(TurnError::Dice(e)) => return Err(e.into()),
        };
        save(conn, &target, &doc, version + 1)?;
        let dice_commitment = crate::app::dice::after_roll(
            conn,
            &scope,
            &seed,
            dice.used_commitment(),
            crate::app::dice::History::Drop,
        )?;
        if let (Target::Battle(id), Some(campaign), Some(battle_state)) =
            (&target, &ctx.campaign_id, ctx.battle_state)
        {
            let event = Event::battle(
                EventType::BattleSoloTurn,
                campaign,
                id,
                battle_state.as_str(),
            );
            store::events::append(conn, &event)?;
        }
        tracing::info!(target = %target.path(), turn = turn.turn, "Solo turn played");
        Ok((
            StatusCode::OK,
            TurnResponse {
                turn: turn.turn,
                groups: turn_groups(&turn),
                rolls: turn.rolls.clone(),
                unused_dice: dice.unused(),
                version: version + 1,
                dice_commitment,
            },
        ))
    })
    .await
}

/// `POST .../solo/groups/{name}/casualties`: adds a group's losses.
pub async fn add_casualties(
    state: &AppState,
    user: &AuthUser,
    target: Target,
    name: String,
    request: CasualtiesRequest,
    write: Write,
) -> Result<Answer<CasualtyResponse>, ApiError> {
    let caller = user.caller();
    idempotency::run(state, write, move |conn| {
        let ctx = context(conn, &caller, &target, Need::Write)?;
        lock(conn, &target)?;
        let (mut doc, version) = load(conn, &target)?;
        if request.lost == 0 {
            return Err(ApiError::validation(
                "lost",
                "Enter the figures lost, at least 1.",
            ));
        }
        // Closed solo play has no groups to name: say why rather than "no such group".
        if let Err(why) = &ctx.open {
            return Err(ApiError::Conflict(why.clone()));
        }
        if solo::group(&doc, &name).is_none() {
            return Err(ApiError::NotFound(
                "No group of the non-player force has this name.".to_owned(),
            ));
        }
        let entry = solo::add_casualties(&mut doc, &name, request.lost)
            .map_err(|p| ApiError::from(vec![p]))?;
        save(conn, &target, &doc, version + 1)?;
        let group = solo::group(&doc, &name)
            .map(|g| group_view(&ctx.force, g))
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("solo group vanished")))?;
        Ok((
            StatusCode::OK,
            CasualtyResponse {
                group,
                entry,
                version: version + 1,
            },
        ))
    })
    .await
}

/// Every solo roll of a battle, for the battle's roll log and its export.
pub fn battle_rolls(conn: &mut Db, battle_id: &str) -> Result<RollLog, ApiError> {
    Ok(rows::find(conn, Owner::Battle(battle_id))?
        .map(|r| r.document.turns.into_iter().flat_map(|t| t.rolls).collect())
        .unwrap_or_default())
}
