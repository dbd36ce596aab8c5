//! A battle's scenario workflow (docs/rules.md §3): the read, the four steps (orders, mission
//! bonuses, tie choice, recon actions), the Assault target declaration and the per-side
//! printable sheet's data, driven by the domain state machine
//! ([`fad_domain::scenario::Scenario`]).
//!
//! Storage: one `battle_scenarios` row per battle ([`BattleScenarioDocument`] as JSON: machine
//! state with both sides' secrets, the roll log, and each side's entered dice not used yet),
//! created by the first submission from the battle's sides, the player forces' rosters at that
//! moment and the campaign's house rules. Before it exists, reads build the same document
//! without storing it.
//!
//! Each step is one transaction ([`crate::app::idempotency`], so `Idempotency-Key` replays the first
//! answer): the battle's row lock, then the step on the machine, then `UPDATE … WHERE version =
//! ?` (a stale body `version` or a lost race is 409). The machine runs every step that needs no
//! more input (the non-player side's automatic choices included), so `state` always names what
//! it waits for and `waiting_for` from whom.
//!
//! Who acts and who sees what: a caller acts for the player sides whose force it owns; an
//! organiser who plays neither side (a referee) acts for both; anyone else acts for none. A
//! caller sees the sides it acts for in full and the rest only as the rules have revealed
//! ([`fad_domain::scenario::view`]): an opponent and an integration key see the same, and so do
//! the battle read, list and timeline.

pub mod assault;
pub mod choice;
pub mod dice_commitments;
pub mod missions;
pub mod non_player;
pub mod orders;
pub mod read;
pub mod recon;
pub mod versions;

use fad_domain::lifecycle::BattleState;
use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use fad_domain::dice::{EnteredDice, RollLog, RollStep, ServerDice, check_entry_count};
use fad_domain::names::Named;
use fad_domain::scenario::next_dice::ScenarioDueRoll;
use fad_domain::scenario::side_dice::{EnteredBySide, SideDice};
use fad_domain::scenario::{
    Scenario, ScenarioConfig, ScenarioError, ScenarioState, ScenarioView, SideSetup, Viewer,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::dice::os_seed;
use crate::app::scenario_request::ForceRef;
use crate::auth::{AuthUser, CampaignAccess, Need};
use crate::db::Db;
use crate::error::{ApiError, FieldError};
use crate::store::events::{Event, EventType};
use crate::store::{self, battle_scenarios, battles, campaigns};

use super::{Side, authorize_battle, lock_battle_quietly, step_events, touch_battle};
use crate::app::idempotency::{self, Answer, Write};

use non_player::NON_PLAYER_ID;

/// Entered dice as sent: step → subject → values.
pub type RawDice = BTreeMap<String, BTreeMap<String, Vec<u8>>>;

/// The steps a player may enter dice for in a battle's scenario (the non-player side's rolls
/// and the tie pick are the service's).
pub const ENTERABLE_STEPS: [RollStep; 8] = [
    RollStep::TableEdge,
    RollStep::NightFighting,
    RollStep::Mission,
    RollStep::ReconReturn,
    RollStep::PlacementOrder,
    RollStep::ReconBlock,
    RollStep::PreBattleEvent,
    RollStep::PreBattleEventTable,
];

/// The steps a player may enter dice for on behalf of a battle's non-player side (the players
/// roll for it at the table, docs/rules.md §3.12), subject `non_player` unless a unit, platoon or
/// mission is named.
pub const NON_PLAYER_STEPS: [RollStep; 13] = [
    RollStep::NightFighting,
    RollStep::NpfStance,
    RollStep::NpfAttitude,
    RollStep::NpfRecon,
    RollStep::NpfDispersion,
    RollStep::NpfBlock,
    RollStep::MissionTie,
    RollStep::TableEdge,
    RollStep::Mission,
    RollStep::ReconReturn,
    RollStep::ReconBlock,
    RollStep::PreBattleEvent,
    RollStep::PreBattleEventTable,
];

impl crate::store::doc::StoredDoc for BattleScenarioDocument {
    const KIND: &'static str = "battle scenario";
}

/// What is stored per battle (a stored document in `battle_scenarios.document`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleScenarioDocument {
    /// The machine state (both sides' secrets).
    pub scenario: Scenario,
    /// The sides' forces, in side order.
    pub forces: Vec<ForceRef>,
    /// Every roll, in order.
    #[serde(default)]
    pub rolls: RollLog,
    /// Entered values waiting for their roll, per force id (secret to that side).
    #[serde(default)]
    pub pending_dice: EnteredBySide,
    /// Each viewer's version; absent in documents stored before there were per-viewer
    /// versions (the row's version then stands for every viewer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view_versions: Option<versions::ViewVersions>,
}

/// A battle's scenario as one caller may see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BattleScenarioResponse {
    /// The battle.
    pub battle_id: String,
    /// Optimistic-concurrency version of the scenario as this caller sees it: it changes only
    /// when what the caller sees changes (0 until then), never because the other side made a
    /// secret choice. A submission may send it as `version` (the one its caller gets from
    /// `GET .../scenario` without `force_id`, or from its previous submission) and is refused
    /// with 409 when it is stale.
    pub version: i64,
    /// The player forces the caller acts for (and sees in full); empty for an integration key
    /// or a member who plays neither side. A referee (an organiser who plays neither side)
    /// acts for every player side and also sees a non-player side in full.
    pub acting_for: Vec<String>,
    /// The sides' forces, in side order (a non-player side is `non_player`).
    pub forces: Vec<ForceRef>,
    /// `state` (`orders`, `mission_bonuses`, `mission_choice`, `recon`, `ready`),
    /// `waiting_for` (force ids), `recon_prompt` (`turn` or `block`), `night_fighting`,
    /// `escalating_engagement`,
    /// `table_edge_chooser`, `first_to_place_markers`, `marker_placement`, `objectives`,
    /// `recon`, `escalating_setup`, and `sides`: per side `force_id`, `non_player`,
    /// `orders_submitted`, `mission_bonuses_submitted` and, as far as the caller may see them,
    /// `stance`, `attitude`, `recon_points`, `recon_unit_ids`, `table_edge_roll`,
    /// `deployment_zone_inches`, `field_defences`, `mission_bonuses`, `mission_rolls`,
    /// `mission_totals`, `tied_missions`, `mission`, `bonus`, `bonus_traits` (each
    /// `{trait, unit_id, unit_name}`: the unit it goes to), `contact_markers` (own side),
    /// `night_fighting_roll` (own side), `contact_marker_total`, `recon_duty`, `dispersion`,
    /// `pre_battle_events`.
    #[serde(flatten)]
    pub scenario: ScenarioView,
    /// Rolls the caller may see, in order: the whole log for `GET`, this request's rolls for a
    /// submission.
    pub rolls: RollLog,
    /// The caller's entered values that no roll has used yet (force id → step → subject →
    /// values); once the scenario is `ready` these are values the rules never called for.
    #[schema(value_type = BTreeMap<String, fad_domain::dice::EnteredDiceSchema>)]
    pub unused_dice: EnteredBySide,
    /// The rolls the next step may make, as the post-battle sequence announces its own: each
    /// `{step, subject, force_id, unit_name?, dice, why}`, for the sides the caller acts for
    /// (and the non-player side's, which the players roll at the table). Enter them in the next
    /// submission's `dice` (or `non_player_dice`), one value per die; empty once `ready`.
    pub next_dice: Vec<ScenarioDueRoll>,
    /// The commitments to the seeds of the next server rolls the caller may see: one for rolls
    /// of neither side and one per side the caller sees in full. Each roll's `proof` reveals
    /// its seed once the roll is shown.
    pub dice_commitments: Vec<dice_commitments::ScenarioDiceCommitment>,
}

/// The battle's sides as stored.
fn battle_sides(battle: &battles::Battle) -> Result<Vec<Side>, ApiError> {
    serde_json::from_str(&battle.sides).map_err(|e| ApiError::Internal(e.into()))
}

/// Builds a fresh document from the battle's sides, the forces' current rosters and the
/// campaign's house rules.
pub fn build(conn: &mut Db, battle: &battles::Battle) -> Result<BattleScenarioDocument, ApiError> {
    let sides = battle_sides(battle)?;
    // Both player forces in one statement.
    let ids: Vec<String> = sides.iter().filter_map(|s| s.force_id.clone()).collect();
    let rows = store::forces::find_many(conn, &ids)?;
    let mut setups = Vec::new();
    let mut forces = Vec::new();
    for (i, side) in sides.iter().enumerate() {
        match (&side.force_id, &side.non_player) {
            (Some(id), _) => {
                let row = rows
                    .iter()
                    .find(|r| r.id == *id)
                    .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("battle force {id}")))?;
                let roster = row.roster().map_err(|e| ApiError::Internal(e.into()))?;
                forces.push(ForceRef {
                    force_id: id.clone(),
                    name: row.name.clone(),
                    stored: true,
                });
                setups.push(SideSetup {
                    force_id: id.clone(),
                    force: roster,
                    non_player: None,
                });
            }
            (None, np) => {
                let parsed = non_player::parse(i, &np.clone().unwrap_or_default())
                    .map_err(ApiError::Validation)?;
                forces.push(ForceRef {
                    force_id: NON_PLAYER_ID.to_owned(),
                    name: parsed.force.name.clone(),
                    stored: false,
                });
                setups.push(SideSetup {
                    force_id: NON_PLAYER_ID.to_owned(),
                    force: parsed.force,
                    non_player: Some(parsed.setup),
                });
            }
        }
    }
    let campaign =
        campaigns::find_by_id(conn, &battle.campaign_id)?.ok_or_else(super::battle_not_found)?;
    let settings = campaign
        .settings()
        .map_err(|e| ApiError::Internal(e.into()))?;
    let config = ScenarioConfig {
        house_rules: settings.house_rules,
        pre_battle_events: true,
        one_shot: false,
        night_fighting: battle
            .options()
            .map_err(|e| ApiError::Internal(e.into()))?
            .night_fighting,
    };
    let setups: [SideSetup; 2] = setups
        .try_into()
        .map_err(|_| ApiError::Internal(anyhow::anyhow!("a battle has two sides")))?;
    let scenario = Scenario::new(setups, config).map_err(super::problems)?;
    Ok(BattleScenarioDocument {
        scenario,
        forces,
        rolls: Vec::new(),
        pending_dice: EnteredBySide::new(),
        view_versions: None,
    })
}

/// The stored row (if the workflow has started; its document is the one answered) and the
/// document.
pub fn load(
    conn: &mut Db,
    battle: &battles::Battle,
) -> Result<
    (
        Option<battle_scenarios::BattleScenarioRow<()>>,
        BattleScenarioDocument,
    ),
    ApiError,
> {
    let stored = battle_scenarios::find::<BattleScenarioDocument>(conn, &battle.id)?;
    // The same work whether a row is stored or not: the first secret choice stores it, so a
    // read that took longer (or shorter), or ran other statements, once it exists would tell
    // the opponent that a choice was made. Each path decodes the sides' rosters once (from the
    // stored document, or from the forces' rows for a fresh one) and runs the same statements:
    // a stored scenario's read also reads the rows the fresh build reads, leaving them undecoded.
    match stored {
        Some(row) => {
            read_as_build_does(conn, battle)?;
            let battle_scenarios::BattleScenarioRow {
                battle_id,
                document,
                version,
                created_at,
                updated_at,
            } = row;
            let meta = battle_scenarios::BattleScenarioRow {
                battle_id,
                document: (),
                version,
                created_at,
                updated_at,
            };
            Ok((Some(meta), document))
        }
        None => Ok((None, build(conn, battle)?)),
    }
}

/// The statements of [`build`], their rows left undecoded (see [`load`]).
fn read_as_build_does(conn: &mut Db, battle: &battles::Battle) -> Result<(), ApiError> {
    let ids: Vec<String> = battle_sides(battle)?
        .into_iter()
        .filter_map(|s| s.force_id)
        .collect();
    store::forces::find_many(conn, &ids)?;
    campaigns::find_by_id(conn, &battle.campaign_id)?;
    Ok(())
}

/// Whom a caller acts for in a battle's scenario.
pub struct Acting {
    /// The player sides whose force it owns, or, for a referee, every player side.
    pub sides: Vec<usize>,
    /// An organiser who plays neither side: besides acting for the player sides it sees the
    /// whole scenario, a non-player side's secrets included.
    pub referee: bool,
}

/// Whom the caller acts for: the player sides whose force it owns, or, for an organiser who
/// plays neither side (a referee), every player side.
pub fn acting_sides(
    conn: &mut Db,
    access: &CampaignAccess,
    scenario: &Scenario,
) -> Result<Acting, ApiError> {
    let Some(user) = access.user_id.as_deref() else {
        return Ok(Acting {
            sides: Vec::new(),
            referee: false,
        });
    };
    // One statement for every side, and only the owners: no roster is read to say whose it is.
    let players: Vec<String> = scenario
        .sides
        .iter()
        .filter(|s| !s.is_non_player())
        .map(|s| s.force_id.clone())
        .collect();
    let theirs = store::battles::owned_by(conn, user, &players)?;
    let owned: Vec<usize> = scenario
        .sides
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_non_player() && theirs.contains(&s.force_id))
        .map(|(i, _)| i)
        .collect();
    if owned.is_empty() && access.is_organiser() {
        return Ok(Acting {
            sides: (0..2)
                .filter(|i| !scenario.sides[*i].is_non_player())
                .collect(),
            referee: true,
        });
    }
    Ok(Acting {
        sides: owned,
        referee: false,
    })
}

/// The viewer for a caller acting for `sides` (one side: that side; both: everything).
pub fn viewer_of(sides: &[usize]) -> Viewer {
    match sides {
        [] => Viewer::Outsider,
        [one] => Viewer::Side(*one),
        _ => Viewer::Everything,
    }
}

/// Whether `viewer` sees side `i` in full.
fn sees_side(viewer: Viewer, i: usize) -> bool {
    match viewer {
        Viewer::Everything => true,
        Viewer::Side(s) => s == i,
        Viewer::Outsider => false,
    }
}

impl BattleScenarioResponse {
    /// The response for `viewer`, with `rolls` filtered to what it may see.
    pub fn new(
        battle_id: &str,
        version: i64,
        doc: &BattleScenarioDocument,
        viewer: Viewer,
        rolls: &[fad_domain::dice::Roll],
    ) -> Self {
        let sc = &doc.scenario;
        let acting_for = (0..2)
            .filter(|i| sees_side(viewer, *i) && !sc.sides[*i].is_non_player())
            .map(|i| sc.sides[i].force_id.clone())
            .collect::<Vec<_>>();
        let mut unused_dice: EnteredBySide = doc
            .pending_dice
            .iter()
            .filter(|(force, _)| acting_for.contains(force))
            .map(|(f, d)| (f.clone(), d.clone()))
            .collect();
        if sc.tie_choice_masked(viewer) {
            unroll_missions(&mut unused_dice, &doc.rolls, &acting_for);
        }
        let next_dice = announced_dice(sc, viewer);
        Self {
            battle_id: battle_id.to_owned(),
            version,
            next_dice,
            acting_for,
            forces: doc.forces.clone(),
            scenario: sc.view_for(viewer),
            rolls: sc.visible_rolls(rolls, viewer),
            unused_dice,
            dice_commitments: Vec::new(),
        }
    }
}

/// Puts the mission dice the players of `acting_for` entered back among their unused dice,
/// as they were before step 5 rolled: while the tie choice is shown to them as the bonus step
/// still open ([`Scenario::tie_choice_masked`]), dice gone from their unused ones would tell
/// that the missions were rolled.
fn unroll_missions(
    unused: &mut EnteredBySide,
    log: &[fad_domain::dice::Roll],
    acting_for: &[String],
) {
    for roll in log.iter().filter(|r| {
        r.step == RollStep::Mission
            && r.source == fad_domain::dice::RollSource::Player
            && r.force_id.as_ref().is_some_and(|f| acting_for.contains(f))
    }) {
        let Some(force) = roll.force_id.clone() else {
            continue;
        };
        let values = unused
            .entry(force)
            .or_default()
            .entry(RollStep::Mission)
            .or_default()
            .entry(roll.subject.clone())
            .or_default();
        values.splice(0..0, roll.values.iter().copied());
    }
}

/// The next step's rolls `viewer` may see: those of the sides it sees in full, and a non-player
/// side's (the players roll them at the table) except its recon-duty returns, which would
/// tell its secret recon units.
fn announced_dice(sc: &Scenario, viewer: Viewer) -> Vec<ScenarioDueRoll> {
    sc.next_dice_for(viewer)
        .into_iter()
        .filter(|roll| {
            let Some(i) = sc.side_index(&roll.force_id) else {
                return false;
            };
            sees_side(viewer, i)
                || (sc.sides[i].is_non_player()
                    && viewer != Viewer::Outsider
                    && roll.step != RollStep::ReconReturn)
        })
        .collect()
}

/// The public view of a battle's scenario (battle list, timeline, integration keys), once
/// something of it is public.
pub fn public_view(conn: &mut Db, battle_id: &str) -> Result<Option<ScenarioView>, ApiError> {
    let Some(row) = battle_scenarios::find::<BattleScenarioDocument>(conn, battle_id)? else {
        return Ok(None);
    };
    let doc = row.document;
    // Until something public happens the workflow looks unstarted: a stored row alone would
    // tell that a side has made its first secret choice.
    if versions::stored(&doc, row.version).outsider == 0 {
        return Ok(None);
    }
    Ok(Some(doc.scenario.view_for(Viewer::Outsider)))
}

/// Checks a side's entered dice: known steps a player may enter, subjects of this side's
/// rolls, one or more values of 1..=6. Problems name `dice.<step>.<subject>`.
pub fn check_dice(
    scenario: &Scenario,
    side: usize,
    raw: &RawDice,
) -> Result<EnteredDice, ApiError> {
    check_dice_at(scenario, side, raw, &ENTERABLE_STEPS, "dice")
}

/// [`check_dice`] for the steps `allowed`, naming problems under `at`.
fn check_dice_at(
    scenario: &Scenario,
    side: usize,
    raw: &RawDice,
    allowed: &[RollStep],
    at: &str,
) -> Result<EnteredDice, ApiError> {
    let mut errors = Vec::new();
    let mut out = EnteredDice::new();
    for (step_name, subjects) in raw {
        let step = match RollStep::parse(step_name) {
            Ok(step) if allowed.contains(&step) => step,
            _ => {
                errors.push(FieldError::new(
                    format!("{at}.{step_name}"),
                    format!(
                        "not a step entered here in a battle's scenario; accepted: {}",
                        allowed
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
                continue;
            }
        };
        for (subject, values) in subjects {
            let field = format!("{at}.{step_name}.{subject}");
            if !scenario.dice_subject_allowed(side, step, subject) {
                errors.push(FieldError::new(
                    field,
                    "not a subject of this side's rolls in this scenario",
                ));
                continue;
            }
            if values.is_empty() || values.len() > 20 {
                errors.push(FieldError::new(field, "give 1 to 20 values"));
            } else if let Some(bad) = values.iter().find(|v| !(1..=6).contains(*v)) {
                errors.push(FieldError::new(
                    field,
                    format!("{bad} is not a face of the die: enter values from 1 to 6"),
                ));
            } else if let Some(e) = check_entry_count(step, subject, values.len()) {
                // The roll may come with a later submission (the other side's): a typo must be
                // refused now, while its author is asking.
                errors.push(FieldError::new(field, e.message()));
            } else {
                out.entry(step)
                    .or_default()
                    .insert(subject.clone(), values.clone());
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// A scenario error as an HTTP error.
pub fn scenario_error(e: ScenarioError) -> ApiError {
    e.into()
}

/// What every submission carries besides its step's fields.
pub trait Submission: Send + 'static {
    /// The side it is for.
    fn force_id(&self) -> &str;
    /// Entered dice for this side's rolls.
    fn dice(&self) -> &RawDice;
    /// Dice the players rolled at the table for the non-player side.
    fn non_player_dice(&self) -> &RawDice;
    /// The scenario version the client saw, if it sends one.
    fn version(&self) -> Option<i64>;
    /// Words the caller mixes into the seed of its own side's server rolls.
    fn client_seed(&self) -> Option<&str>;
    /// Applies the step to the machine for side `side`.
    fn apply(
        self,
        scenario: &mut Scenario,
        side: usize,
        dice: &mut SideDice,
    ) -> Result<(), ScenarioError>;
}

/// 422 with the ruleset's own sentence when the campaign's ruleset offers no scenario
/// generation (`gzg-fma-1999`, M11): nothing is rolled or stored.
fn refuse_without_scenarios(conn: &mut Db, campaign_id: &str) -> Result<(), ApiError> {
    let ruleset = crate::app::forces::campaign_ruleset(conn, campaign_id)?;
    if ruleset.decisions.scenario == fad_domain::rulesets::ScenarioSupport::None {
        return Err(ApiError::validation(
            "scenario",
            no_scenario_sentence(&ruleset),
        ));
    }
    Ok(())
}

/// Why a ruleset offers no scenario generation, in a sentence for people.
pub fn no_scenario_sentence(ruleset: &fad_domain::rulesets::Ruleset) -> String {
    if ruleset.family == fad_domain::rulesets::Family::Fma {
        format!(
            "No scenario is generated under {}: {}.",
            ruleset.name,
            fad_domain::rulesets::gzg_fma_1999::NO_SCENARIO_SENTENCE
        )
    } else {
        format!("No scenario is generated under {}.", ruleset.name)
    }
}

/// Runs one submission: authorize, lock the battle, check the side and version, merge the
/// entered dice, step the machine, store with a version check, answer as the side sees it.
pub async fn submit<S: Submission>(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    step: &'static str,
    submission: S,
    write: Write,
) -> Result<Answer<BattleScenarioResponse>, ApiError> {
    let caller = user.caller();
    let seed = os_seed()?;
    idempotency::run(state, write, move |conn| {
        let (_, access) = authorize_battle(conn, &caller, &battle_id, Need::Write)?;
        crate::app::dice::check_client_seed(submission.client_seed())?;
        let battle = lock_battle_quietly(conn, &battle_id)?;
        refuse_without_scenarios(conn, &battle.campaign_id)?;
        let (row, mut doc) = load(conn, &battle)?;
        let row_version = row.as_ref().map_or(0, |r| r.version);
        let versions = versions::stored(&doc, row_version);
        let side = doc
            .scenario
            .side_index(submission.force_id())
            .ok_or_else(|| ApiError::validation("force_id", "not a side of this battle"))?;
        if doc.scenario.sides[side].is_non_player() {
            return Err(ApiError::validation(
                "force_id",
                "the non-player side acts by the rules of docs/rules.md §3.12 and takes no input",
            ));
        }
        let acting = acting_sides(conn, &access, &doc.scenario)?;
        if !acting.sides.contains(&side) {
            return Err(ApiError::Forbidden(
                "Only the force's owner, or an organiser who plays neither side, may act for it."
                    .to_owned(),
            ));
        }
        if battle.state != BattleState::Scenario {
            return Err(ApiError::Conflict(
                "The battle has a result: its scenario is closed.".to_owned(),
            ));
        }
        // The caller's version is that of what it sees (as `GET .../scenario` without
        // `force_id` shows it).
        let viewer = if acting.referee {
            Viewer::Everything
        } else {
            viewer_of(&acting.sides)
        };
        let current = versions.of(viewer);
        if let Some(v) = submission.version()
            && v != current
        {
            return Err(ApiError::Conflict(format!(
                "The scenario changed (version {current}, not {v}); reload and retry."
            )));
        }
        let force_id = doc.scenario.sides[side].force_id.clone();
        let entered = check_dice(&doc.scenario, side, submission.dice())?;
        let mut pending = doc.pending_dice.clone();
        let mut entered_now = std::collections::BTreeSet::new();
        let mine = pending.entry(force_id.clone()).or_default();
        for (step, subjects) in entered {
            for subject in subjects.keys() {
                entered_now.insert((force_id.clone(), step, subject.clone()));
            }
            mine.entry(step).or_default().extend(subjects);
        }
        if !submission.non_player_dice().is_empty() {
            let np = (0..2)
                .find(|i| doc.scenario.sides[*i].is_non_player())
                .ok_or_else(|| {
                    ApiError::validation("non_player_dice", "this battle has no non-player side")
                })?;
            let entered = check_dice_at(
                &doc.scenario,
                np,
                submission.non_player_dice(),
                &NON_PLAYER_STEPS,
                "non_player_dice",
            )?;
            let theirs = pending.entry(NON_PLAYER_ID.to_owned()).or_default();
            for (step, subjects) in entered {
                for subject in subjects.keys() {
                    entered_now.insert((NON_PLAYER_ID.to_owned(), step, subject.clone()));
                }
                theirs.entry(step).or_default().extend(subjects);
            }
        }
        pending.retain(|_, d| !d.is_empty());
        let dice = SideDice::new(&pending, ServerDice::from_seed(seed)).map_err(ApiError::from)?;
        let side_ids = [
            doc.scenario.sides[0].force_id.clone(),
            doc.scenario.sides[1].force_id.clone(),
        ];
        let client = submission
            .client_seed()
            .map(|words| (force_id.as_str(), words));
        let (seeds, mut dice) =
            dice_commitments::Seeds::take(conn, &battle_id, &side_ids, dice, client)?;
        let before = versions::Sight::of(&battle_id, &doc)?;
        let step_before = step_events::PublicStep::of(&doc.scenario);
        let was_ready = doc.scenario.state == ScenarioState::Ready;
        submission
            .apply(&mut doc.scenario, side, &mut dice)
            .map_err(scenario_error)?;
        // Values entered with this request that a roll drew from but did not use up (a tie
        // re-roll that did not happen) are refused like on every rolling path; values waiting
        // from an earlier request were checked when they were entered.
        let surplus: Vec<_> = dice
            .surplus()
            .into_iter()
            .filter(|(force, e)| {
                let (step, subject) = e.step_subject();
                entered_now.contains(&(force.clone(), step, subject.to_owned()))
            })
            .collect();
        let np_fields: Vec<_> = surplus
            .iter()
            .filter(|(force, _)| force == NON_PLAYER_ID)
            .map(|(_, e)| e.field())
            .collect();
        crate::app::dice::refuse_surplus(surplus.into_iter().map(|(_, e)| e).collect(), |e| {
            let field = e.field();
            if np_fields.contains(&field) {
                format!("non_player_{field}")
            } else {
                field
            }
        })?;
        seeds.settle(conn, &dice)?;
        let rolls = dice.take_log();
        doc.pending_dice = dice.unused();
        doc.rolls.extend(rolls.iter().cloned());
        let after = versions::Sight::of(&battle_id, &doc)?;
        let next_versions = before.advance(&after, versions);
        doc.view_versions = Some(next_versions);
        // The battle's own version and time move only with what everyone sees.
        if before.public_changed(&after) {
            touch_battle(conn, &battle_id)?;
        }
        let now = store::now();
        let document = doc.clone();
        match row {
            None => battle_scenarios::insert(
                conn,
                battle_scenarios::BattleScenarioRow {
                    battle_id: battle_id.clone(),
                    document,
                    version: 1,
                    created_at: now,
                    updated_at: now,
                },
            )?,
            Some(row) => {
                let next = battle_scenarios::BattleScenarioRow {
                    battle_id: row.battle_id,
                    document,
                    version: row.version + 1,
                    created_at: row.created_at,
                    updated_at: now,
                };
                if !battle_scenarios::update_if_version(conn, next)? {
                    return Err(ApiError::Conflict(
                        "A concurrent submission changed the scenario; reload and retry."
                            .to_owned(),
                    ));
                }
            }
        }
        if let Some(event) = step_events::changed(
            &step_before,
            &step_events::PublicStep::of(&doc.scenario),
            &battle.campaign_id,
            &battle_id,
            battle.state.as_str(),
        ) {
            store::events::append(conn, &event)?;
        }
        if !was_ready && doc.scenario.state == ScenarioState::Ready {
            let event = Event::battle(
                EventType::BattleScenarioReady,
                &battle.campaign_id,
                &battle_id,
                battle.state.as_str(),
            );
            store::events::append(conn, &event)?;
        }
        tracing::info!(battle.id = %battle_id, step, "Scenario step submitted");
        let mut response =
            BattleScenarioResponse::new(&battle_id, next_versions.of(viewer), &doc, viewer, &rolls);
        let visible = doc.scenario.visible_rolls(&doc.rolls, viewer);
        response.dice_commitments =
            dice_commitments::shown(conn, &battle_id, &side_ids, viewer, &visible)?;
        Ok((StatusCode::OK, response))
    })
    .await
}

/// The OpenAPI schema of a submission's `dice`: step → subject → values, for the steps a
/// player enters ([`ENTERABLE_STEPS`]), 1 to 20 values of 1–6 per subject.
pub struct DiceEntries;

impl utoipa::PartialSchema for DiceEntries {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        dice_schema(
            &ENTERABLE_STEPS,
            "Player-entered dice for this side's rolls: step → subject → values.",
        )
    }
}

impl utoipa::ToSchema for DiceEntries {}

/// The OpenAPI schema of `non_player_dice`: the non-player side's rolls made at the table
/// ([`NON_PLAYER_STEPS`]; subject `non_player`, or a unit id, platoon name or mission name).
pub struct NonPlayerDiceEntries;

impl utoipa::PartialSchema for NonPlayerDiceEntries {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        dice_schema(
            &NON_PLAYER_STEPS,
            "Dice rolled at the table for the non-player side (docs/rules.md §3.12): step → subject → values.",
        )
    }
}

impl utoipa::ToSchema for NonPlayerDiceEntries {}

fn dice_schema(
    allowed: &[RollStep],
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    {
        use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, ObjectBuilder, Type};
        let die = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(1))
            .maximum(Some(6));
        let values = ArrayBuilder::new()
            .items(die)
            .min_items(Some(1))
            .max_items(Some(20));
        let subjects = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "subject (a unit id, the side's force id, a mission name, …) → values",
            ))
            .additional_properties(Some(values))
            .build();
        let mut steps = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(description))
            .additional_properties(Some(AdditionalProperties::FreeForm(false)));
        for step in allowed {
            steps = steps.property(step.to_string(), subjects.clone());
        }
        steps.into()
    }
}
