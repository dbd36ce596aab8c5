//! The `POST /api/v1/scenarios` body and its mapping onto the domain's one-shot inputs
//! ([`fad_domain::scenario::one_shot::OneShotSide`], per-side entered dice for
//! [`fad_domain::scenario::side_dice::SideDice`]).
//!
//! An inline force is `{name, platoons, units}`: `platoons` is either a list of `{name, units}`
//! or a number of platoons (P, C12) with the units in a flat `units` list; each unit needs a
//! `name` and a `kind` (`resolve`, `traits`, `quality`, `strength` optional). Inline units get
//! ids `s<side>-u<n>`; recon duty and entered dice may name a unit by id or by its name, and a
//! side by its force id or force name.

use std::collections::BTreeMap;

use fad_domain::dice::{EnteredDice, RollStep};
use fad_domain::ladder::{Quality, Resolve};
use fad_domain::names::Named;
use fad_domain::orders::{Attitude, Mission, Stance};
use fad_domain::roster::{Force, Platoon, Unit, UnitKind};
use fad_domain::rulesets::{Family, RulesetPin, ScenarioSupport};
use fad_domain::scenario::contact_markers::MAX_HOLO_PROJECTORS;
use fad_domain::scenario::non_player::NonPlayerSetup;
use fad_domain::scenario::one_shot::OneShotSide;
use fad_domain::scenario::side_dice::EnteredBySide;
use fad_domain::scenario::{Scenario, ScenarioConfig, SideSetup};
use fad_domain::traits::Trait;
use fad_domain::validation::MAX_STRENGTH;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::FieldError;

/// Most units an inline force may have (a sanity bound on request size).
pub const MAX_INLINE_UNITS: usize = 200;
/// Most platoons an inline force may have.
pub const MAX_PLATOONS: u32 = 20;

/// Entered dice as sent: step → subject → values.
type RawDice = BTreeMap<String, BTreeMap<String, Vec<u8>>>;

/// A one-shot generation request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"sides": [
        {"name": "Red Company", "stance": "offensive", "attitude": "aggressive",
         "units": [{"name": "Alpha Squad", "kind": "squad", "quality": "regular", "resolve": "steady", "strength": 8},
                   {"name": "Bravo Squad", "kind": "squad", "traits": ["infiltration"]}]},
        {"non_player": true, "name": "Raiders",
         "units": [{"name": "Raider Band", "kind": "squad", "quality": "conscript", "strength": 10}]}
    ], "narrative": true, "night_fighting": false}))]
pub struct CreateScenarioRequest {
    /// Exactly two sides; at most one non-player.
    pub sides: Vec<SideBody>,
    /// Roll the narrative circumstances (docs/rules.md §5); default false.
    #[serde(default)]
    pub narrative: bool,
    /// Roll PRE BATTLE EVENTS (optional in the rules); default true.
    #[serde(default)]
    pub pre_battle_events: Option<bool>,
    /// Make the scenario readable by an unguessable link; default false.
    #[serde(default)]
    pub share: bool,
    /// The battle is fought at night: each side adds 1d6 dummy markers (docs/rules.md §3.6), rolled
    /// as step `night_fighting` (subject: the side's force id or name); default false.
    #[serde(default)]
    pub night_fighting: bool,
    /// A commitment from `POST /api/v1/dice/commitments`: the server dice come from its seed,
    /// which the roll log then reveals (each roll's `proof`). Absent: an unannounced seed.
    #[serde(default)]
    pub dice_commitment_id: Option<String>,
    /// Text mixed into the committed seed (1–128 characters; needs `dice_commitment_id`).
    #[serde(default)]
    pub client_seed: Option<String>,
    /// The built-in ruleset the scenario is played under (its id, or `{"id", "version"}`);
    /// default `fad5e`. Only rulesets whose scenario generation is FAD 5e's, as written
    /// (`fad5e`, `fad-basic-advanced`); the scenario then names it.
    #[serde(default)]
    pub ruleset: Option<crate::app::rulesets::RulesetChoice>,
}

/// `platoons`: a list of platoons, or how many platoons the force has (P).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum PlatoonsBody {
    /// P, with the units in the side's flat `units` list.
    Count(u32),
    /// The platoons with their units.
    List(Vec<InlinePlatoon>),
}

/// An inline platoon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InlinePlatoon {
    /// Its name.
    pub name: String,
    /// Its units.
    #[serde(default)]
    pub units: Vec<InlineUnit>,
}

/// An inline unit: what scenario generation needs of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InlineUnit {
    /// Its name (unique within the force if recon duty or dice refer to it).
    pub name: String,
    /// Its kind.
    #[schema(example = "squad")]
    pub kind: UnitKind,
    /// Resolve; absent or null for unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "steady")]
    pub resolve: Option<Resolve>,
    /// Quality; default `regular`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "regular")]
    pub quality: Option<Quality>,
    /// Figures (1–50); default 4 for squads, 2 for weapons teams, 1 otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 50)]
    pub strength: Option<u32>,
    /// Traits (some change recon points, markers or recon duty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<Trait>,
}

/// One side of the request: a stored force (`force_id`) or an inline force, plus its choices.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SideBody {
    /// A stored force the caller may read.
    pub force_id: Option<String>,
    /// Inline force: its name.
    pub name: Option<String>,
    /// Inline force: platoons, or P with a flat `units` list.
    pub platoons: Option<PlatoonsBody>,
    /// Inline force: units (one platoon unless `platoons` is a number).
    #[serde(default)]
    pub units: Vec<InlineUnit>,
    /// A non-player force (docs/rules.md §3.12): stance and attitude are rolled when absent.
    #[serde(default)]
    pub non_player: bool,
    /// Step 1 (required for a player side).
    #[schema(example = "offensive")]
    pub stance: Option<Stance>,
    /// Step 2 (required for a player side).
    #[schema(example = "aggressive")]
    pub attitude: Option<Attitude>,
    /// Step 5's two +1s (S8): none or two different missions.
    #[serde(default)]
    #[schema(value_type = Vec<fad_domain::orders::RolledMission>)]
    pub mission_bonuses: Vec<Mission>,
    /// Step 3: units on recon duty, by id or name.
    #[serde(default)]
    pub recon_unit_ids: Vec<String>,
    /// S14: units sharing a host's marker, by id or name.
    #[serde(default)]
    pub attached_unit_ids: Vec<String>,
    /// Holo Projectors (+1 dummy marker each), at most 100.
    #[serde(default)]
    #[schema(maximum = 100)]
    pub holo_projectors: u32,
    /// Player-entered dice for this side's rolls: step → subject → values.
    #[serde(default)]
    pub dice: BTreeMap<String, BTreeMap<String, Vec<u8>>>,
}

/// A side's force as the scenario names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ForceRef {
    /// The force id used in rolls and the sides (a stored force's id, or `side_1`/`side_2`).
    pub force_id: String,
    /// The force's name.
    pub name: String,
    /// Whether it is a stored force.
    pub stored: bool,
}

/// The inputs of [`fad_domain::scenario::one_shot::generate`], checked.
#[derive(Debug)]
pub struct Prepared {
    /// The two sides.
    pub sides: [OneShotSide; 2],
    /// Names of the forces.
    pub forces: Vec<ForceRef>,
    /// Entered dice per force id.
    pub entered: EnteredBySide,
    /// Options.
    pub config: ScenarioConfig,
    /// Roll the narrative.
    pub narrative: bool,
    /// The ruleset the scenario is played under.
    pub ruleset: RulesetPin,
}

/// The built-in ruleset a one-shot request names: one whose scenario generation is FAD 5e's as
/// written (the machine then runs unchanged).
fn scenario_ruleset(
    choice: Option<crate::app::rulesets::RulesetChoice>,
    errors: &mut Vec<FieldError>,
) -> RulesetPin {
    let Some(choice) = choice else {
        return RulesetPin::default();
    };
    let choice = crate::app::rulesets::Choice::from(choice);
    match fad_domain::rulesets::builtin(&choice.id, choice.version) {
        Some(r) if r.decisions.scenario == ScenarioSupport::Native && r.family == Family::Fad => {
            r.pin()
        }
        Some(r) if r.decisions.scenario == ScenarioSupport::None => {
            errors.push(FieldError::new(
                "ruleset",
                crate::app::battles::scenario::no_scenario_sentence(&r),
            ));
            RulesetPin::default()
        }
        Some(r) => {
            errors.push(FieldError::new(
                "ruleset",
                format!("{} has no scenario generation of FAD 5e's kind", r.name),
            ));
            RulesetPin::default()
        }
        None => {
            errors.push(FieldError::new(
                "ruleset",
                "no built-in ruleset with this id and version; see GET /api/v1/rulesets",
            ));
            RulesetPin::default()
        }
    }
}

fn default_strength(kind: UnitKind) -> u32 {
    match kind {
        UnitKind::Squad | UnitKind::CommandSquad => 4,
        UnitKind::WeaponsTeam => 2,
        _ => 1,
    }
}

fn inline_unit(side: usize, n: usize, u: InlineUnit) -> Unit {
    let strength = u.strength.unwrap_or_else(|| default_strength(u.kind));
    Unit {
        id: format!("s{}-u{}", side + 1, n + 1),
        name: u.name,
        kind: u.kind,
        quality: u.quality.unwrap_or(Quality::Regular),
        resolve: u.resolve,
        strength,
        starting_strength: strength,
        traits: u.traits,
        ..Default::default()
    }
}

/// Builds an inline force, every problem with its path.
pub(crate) fn inline_force(
    i: usize,
    body: &mut SideBody,
    errors: &mut Vec<FieldError>,
) -> Option<Force> {
    let at = |f: &str| format!("sides[{i}].{f}");
    let name = body.name.take().unwrap_or_default();
    if name.trim().is_empty() || name.chars().count() > 100 {
        errors.push(FieldError::new(
            at("name"),
            "an inline force needs a name of 1–100 characters",
        ));
    }
    let flat = std::mem::take(&mut body.units);
    let body_has_list = matches!(body.platoons, Some(PlatoonsBody::List(_)));
    let mut platoons: Vec<(String, Vec<InlineUnit>)> = match body.platoons.take() {
        None => vec![("Platoon 1".to_owned(), flat)],
        Some(PlatoonsBody::Count(p)) => {
            if p == 0 || p > MAX_PLATOONS {
                errors.push(FieldError::new(
                    at("platoons"),
                    format!("between 1 and {MAX_PLATOONS}"),
                ));
            }
            let mut list = vec![("Platoon 1".to_owned(), flat)];
            list.extend((2..=p.min(MAX_PLATOONS)).map(|k| (format!("Platoon {k}"), Vec::new())));
            list
        }
        Some(PlatoonsBody::List(list)) => {
            if !flat.is_empty() {
                errors.push(FieldError::new(
                    at("units"),
                    "give units inside platoons, or platoons as a number",
                ));
            }
            if list.is_empty() || list.len() > MAX_PLATOONS as usize {
                errors.push(FieldError::new(
                    at("platoons"),
                    format!("between 1 and {MAX_PLATOONS} platoons"),
                ));
            }
            list.into_iter().map(|p| (p.name, p.units)).collect()
        }
    };
    let count: usize = platoons.iter().map(|(_, u)| u.len()).sum();
    if count == 0 {
        errors.push(FieldError::new(
            at("units"),
            "an inline force needs at least one unit",
        ));
    }
    if count > MAX_INLINE_UNITS {
        errors.push(FieldError::new(
            at("units"),
            format!("at most {MAX_INLINE_UNITS} units"),
        ));
    }
    for (p, (_, units)) in platoons.iter().enumerate() {
        for (u, unit) in units.iter().enumerate() {
            if unit.strength.is_some_and(|s| s == 0 || s > MAX_STRENGTH) {
                let field = match body_has_list {
                    true => at(&format!("platoons[{p}].units[{u}].strength")),
                    false => at(&format!("units[{u}].strength")),
                };
                errors.push(FieldError::new(
                    field,
                    format!("a unit has 1 to {MAX_STRENGTH} figures"),
                ));
            }
        }
    }
    let mut n = 0;
    let platoons = platoons
        .drain(..)
        .map(|(name, units)| Platoon {
            name,
            units: units
                .into_iter()
                .map(|u| {
                    n += 1;
                    inline_unit(i, n - 1, u)
                })
                .collect(),
        })
        .collect();
    Some(Force { name, platoons })
}

/// Maps a subject given by name to its id: unit names to unit ids, the force name to its id.
fn subject_id(force_id: &str, force: &Force, subject: &str) -> String {
    if subject == force.name {
        return force_id.to_owned();
    }
    if force.unit(subject).is_some() {
        return subject.to_owned();
    }
    let mut named = force.units().filter(|u| u.name == subject);
    match (named.next(), named.next()) {
        (Some(u), None) => u.id.clone(),
        _ => subject.to_owned(),
    }
}

/// Checks the request and maps it onto the domain's inputs. `stored` resolves a `force_id` to
/// `(name, force)` when the caller may read it (`None`: 422 on that field).
pub fn prepare(
    body: CreateScenarioRequest,
    mut stored: impl FnMut(&str) -> Option<(String, Force)>,
) -> Result<Prepared, Vec<FieldError>> {
    let mut errors = Vec::new();
    if body.sides.len() != 2 {
        return Err(vec![FieldError::new("sides", "exactly two sides")]);
    }
    let mut built: Vec<(OneShotSide, ForceRef, RawDice)> = Vec::new();
    for (i, mut side) in body.sides.into_iter().enumerate() {
        let at = |f: &str| format!("sides[{i}].{f}");
        let (force_id, name, force, is_stored) = match side.force_id.take() {
            Some(id) => {
                if side.name.is_some() || side.platoons.is_some() || !side.units.is_empty() {
                    errors.push(FieldError::new(
                        at("force_id"),
                        "give a stored force_id or an inline force, not both",
                    ));
                }
                match stored(&id) {
                    Some((name, force)) => (id, name, force, true),
                    None => {
                        errors.push(FieldError::new(
                            at("force_id"),
                            "no such force, or the caller may not read it",
                        ));
                        continue;
                    }
                }
            }
            None => {
                let Some(force) = inline_force(i, &mut side, &mut errors) else {
                    continue;
                };
                (format!("side_{}", i + 1), force.name.clone(), force, false)
            }
        };
        if side.holo_projectors > MAX_HOLO_PROJECTORS {
            errors.push(FieldError::new(
                at("holo_projectors"),
                format!("at most {MAX_HOLO_PROJECTORS} Holo Projectors"),
            ));
        }
        let one = OneShotSide {
            force_id: force_id.clone(),
            force,
            non_player: side.non_player,
            stance: side.stance,
            attitude: side.attitude,
            mission_bonuses: side.mission_bonuses,
            recon_unit_ids: side.recon_unit_ids,
            attached_unit_ids: side.attached_unit_ids,
            holo_projectors: side.holo_projectors,
        };
        built.push((
            one,
            ForceRef {
                force_id,
                name,
                stored: is_stored,
            },
            side.dice,
        ));
    }
    if built.len() == 2 && built[0].1.force_id == built[1].1.force_id {
        errors.push(FieldError::new(
            "sides[1].force_id",
            "the two sides need different forces",
        ));
    }
    let ruleset = scenario_ruleset(body.ruleset, &mut errors);
    if !errors.is_empty() || built.len() != 2 {
        return Err(errors);
    }
    let config = ScenarioConfig {
        pre_battle_events: body.pre_battle_events.unwrap_or(true),
        one_shot: true,
        night_fighting: body.night_fighting,
        ..ScenarioConfig::default()
    };
    // A throwaway machine answers which dice subjects exist (the same checks the battle
    // workflow uses); an invalid setup is reported by `generate` itself.
    let probe = Scenario::new(
        [0, 1].map(|i| SideSetup {
            force_id: built[i].0.force_id.clone(),
            force: built[i].0.force.clone(),
            non_player: built[i].0.non_player.then_some(NonPlayerSetup {
                stance: built[i].0.stance,
                attitude: built[i].0.attitude,
            }),
        }),
        config,
    )
    .ok();
    let mut entered = EnteredBySide::new();
    for (i, (side, _, dice)) in built.iter().enumerate() {
        let mut steps = EnteredDice::new();
        for (step_name, subjects) in dice {
            let Ok(step) = RollStep::parse(step_name) else {
                errors.push(FieldError::new(
                    format!("sides[{i}].dice.{step_name}"),
                    "is not a dice step of a scenario; use one of: table_edge, mission, mission_tie, recon_return, night_fighting, placement_order, pre_battle_event, pre_battle_event_table, npf_stance, npf_attitude, npf_recon, npf_dispersion, narrative",
                ));
                continue;
            };
            for (subject, values) in subjects {
                let field = format!("sides[{i}].dice.{step_name}.{subject}");
                let id = subject_id(&side.force_id, &side.force, subject);
                let allowed = if step == RollStep::Narrative {
                    body.narrative && id == side.force_id
                } else {
                    probe
                        .as_ref()
                        .is_some_and(|p| p.dice_subject_allowed(i, step, &id))
                };
                if !allowed {
                    errors.push(FieldError::new(
                        field,
                        "not a subject of this side's rolls in this request",
                    ));
                    continue;
                }
                if values.is_empty() {
                    errors.push(FieldError::new(field, "give at least one value"));
                } else if let Some(bad) = values.iter().find(|v| !(1..=6).contains(*v)) {
                    errors.push(FieldError::new(
                        field,
                        format!("{bad} is not a face of the die: enter values from 1 to 6"),
                    ));
                }
                steps.entry(step).or_default().insert(id, values.clone());
            }
        }
        if !steps.is_empty() {
            entered.insert(side.force_id.clone(), steps);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut it = built.into_iter();
    let (Some(a), Some(b)) = (it.next(), it.next()) else {
        return Err(vec![FieldError::new("sides", "exactly two sides")]);
    };
    Ok(Prepared {
        forces: vec![a.1.clone(), b.1.clone()],
        sides: [a.0, b.0],
        entered,
        config,
        narrative: body.narrative,
        ruleset,
    })
}

/// Problems from the domain (`sides[i].…` paths) as field errors.
pub fn problems(problems: Vec<fad_domain::roster::Problem>) -> Vec<FieldError> {
    problems
        .into_iter()
        .map(|p| FieldError::new(p.field, p.message))
        .collect()
}

/// A name list for messages.
pub fn names<T: Named>() -> String {
    T::ALL
        .iter()
        .map(|v| v.name())
        .collect::<Vec<_>>()
        .join(", ")
}
