//! Roster validation: everything a force → platoons → units roster can get wrong, each problem
//! reported with the dotted JSON path of the offending value (`platoons[0].units[2].strength`),
//! and every problem at once rather than the first.
//!
//! Implements the roster constraints of docs/rules.md §1.1 (Droid Troopers never Elite), §1.2 and C17
//! (Fanatic/Zombie Resolve fixed at Steady), §1.8 (powered-armour-only support weapons), §1.11
//! (vehicle armour 3–12 per facing), §1.13 and C18 (single-figure traits, no trait twice), §1.15
//! and C5 (lone-figure kinds), C3/C9 (strength never above the establishment E), C6 and C16
//! (status follows the figures, or for a vehicle its destroyed state). Seed sections: S000 ›
//! UNIT PROFILE, TRAITS, POINT VALUE SYSTEM, CAMPAIGN RULES – QUICK. Upper bounds (names,
//! counts, figures) refuse hostile or absurd input before any rule runs on it. Gear the point value
//! system cannot price is checked by [`crate::points::validate_gear`], which [`unit_problems`]
//! includes, so [`validate_force`] is the one check a roster needs.

use std::collections::BTreeMap;

use crate::kit::{Personality, VehicleState};
use crate::ladder::{LeaderExperience, Quality, Resolve};
use crate::names::Named;
use crate::points::validate_gear;
use crate::roster::{Force, Problem, Unit, UnitKind, UnitStatus, VehicleProfile};
use crate::traits::Trait;

/// Longest force, platoon or unit name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// Longest unit id, in characters (a UUID is 36).
pub const MAX_ID_CHARS: usize = 100;
/// Most platoons in one force (a company is 2–4; this only refuses absurd input).
pub const MAX_PLATOONS: usize = 20;
/// Most units in one platoon.
pub const MAX_UNITS_PER_PLATOON: usize = 100;
/// Most figures in one unit (current or establishment).
pub const MAX_STRENGTH: u32 = 50;
/// Most entries in any list on a unit (traits, weapons, personalities, gear).
pub const MAX_LIST_ITEMS: usize = 50;
/// Highest psionic Strength (a psionic starts with 3).
pub const MAX_PSIONIC_STRENGTH: u32 = 20;
/// Vehicle armour ratings that have a points row (docs/rules.md §1.11).
pub const VEHICLE_ARMOUR_RATINGS: std::ops::RangeInclusive<u8> = 3..=12;
/// Most crew in one vehicle.
pub const MAX_VEHICLE_CREW: u32 = 20;
/// Most passengers in one vehicle.
pub const MAX_VEHICLE_PASSENGERS: u32 = 50;
/// Highest jammer rating (docs/rules.md §1.10: ratings 1–3).
pub const MAX_JAMMER_RATING: u8 = 3;
/// Highest communications rating (docs/rules.md §1.10: ratings 1–4, 0 = no comms gear).
pub const MAX_COMMS_RATING: u8 = 4;

/// Unit kinds that are one figure by definition (docs/rules.md §1.15, C5).
pub const LONE_FIGURE_KINDS: [UnitKind; 3] =
    [UnitKind::Character, UnitKind::Sniper, UnitKind::Psionic];
/// Unit kinds that may carry a leader's Leadership and Branch (docs/rules.md §1.3, §4.2: the platoon
/// HQ has a Novice leader whose Leadership rises).
pub const LEADER_KINDS: [UnitKind; 2] = [UnitKind::Character, UnitKind::CommandSquad];
/// Unit kinds led by a squad leader with an experience rating (docs/rules.md §1.4).
pub const SQUAD_LEADER_KINDS: [UnitKind; 2] = [UnitKind::Squad, UnitKind::CommandSquad];

/// What one ruleset of the FAD family allows on top of the family's own checks: its rungs of
/// the squad-leader ladder, its personalities, and whether every vehicle's crew has a Resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesetLimits {
    /// The ruleset's name, as messages say it.
    pub name: String,
    /// The squad-leader experience rungs it has, lowest first.
    pub leader_experience: Vec<LeaderExperience>,
    /// Where its squad-leader rungs come from, for messages.
    pub leader_experience_rule: String,
    /// Its personalities.
    pub personalities: Vec<Personality>,
    /// The rule requiring every vehicle to carry its crew's Resolve, where one does.
    pub vehicle_resolve_required: Option<String>,
}

impl RulesetLimits {
    /// FAD 5e's limits: its own three squad-leader rungs and eleven personalities; a vehicle's
    /// crew may go unrated (C15).
    pub fn fad5e() -> Self {
        Self {
            name: "FAD 5e".to_owned(),
            leader_experience: LeaderExperience::FAD5E.to_vec(),
            leader_experience_rule: "docs/rules.md §1.4".to_owned(),
            personalities: Personality::FAD5E.to_vec(),
            vehicle_resolve_required: None,
        }
    }
}

/// Checks a whole force under FAD 5e; `Err` lists every problem found, in roster order.
pub fn validate_force(force: &Force) -> Result<(), Vec<Problem>> {
    validate_force_under(force, &RulesetLimits::fad5e())
}

/// Checks a whole force under a FAD-family ruleset's `limits`.
pub fn validate_force_under(force: &Force, limits: &RulesetLimits) -> Result<(), Vec<Problem>> {
    let problems = force_problems_under(force, limits);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Every problem of a force under FAD 5e, in roster order (empty when the force is valid).
pub fn force_problems(force: &Force) -> Vec<Problem> {
    force_problems_under(force, &RulesetLimits::fad5e())
}

/// Every problem of a force under a FAD-family ruleset's `limits`, in roster order.
pub fn force_problems_under(force: &Force, limits: &RulesetLimits) -> Vec<Problem> {
    let mut out = Vec::new();
    check_name(&force.name, "name", &mut out);
    if force.platoons.is_empty() {
        out.push(Problem::new(
            "platoons",
            "a force needs at least one platoon",
        ));
    }
    if force.platoons.len() > MAX_PLATOONS {
        out.push(Problem::new(
            "platoons",
            format!(
                "at most {MAX_PLATOONS} platoons, not {}",
                force.platoons.len()
            ),
        ));
    }
    // First path of each unit id, to name it when the id comes again.
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    for (p, platoon) in force.platoons.iter().enumerate().take(MAX_PLATOONS) {
        let path = format!("platoons[{p}]");
        check_name(&platoon.name, &format!("{path}.name"), &mut out);
        if platoon.units.is_empty() {
            out.push(Problem::new(
                format!("{path}.units"),
                "a platoon needs at least one unit",
            ));
        }
        if platoon.units.len() > MAX_UNITS_PER_PLATOON {
            out.push(Problem::new(
                format!("{path}.units"),
                format!(
                    "at most {MAX_UNITS_PER_PLATOON} units in a platoon, not {}",
                    platoon.units.len()
                ),
            ));
        }
        for (u, unit) in platoon.units.iter().enumerate().take(MAX_UNITS_PER_PLATOON) {
            let unit_path = format!("{path}.units[{u}]");
            out.extend(unit_problems(unit, &unit_path));
            out.extend(limit_problems(unit, &unit_path, limits));
            if let Some(first) = seen.get(unit.id.as_str()) {
                if !unit.id.is_empty() {
                    out.push(Problem::new(
                        format!("{unit_path}.id"),
                        format!("unit id `{}` is already used by {first}", unit.id),
                    ));
                }
            } else {
                seen.insert(&unit.id, unit_path);
            }
        }
    }
    out
}

/// What a unit breaks of a ruleset's `limits`, with paths under `path`.
pub fn limit_problems(unit: &Unit, path: &str, limits: &RulesetLimits) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(e) = unit.leader_experience
        && !limits.leader_experience.contains(&e)
    {
        out.push(Problem::new(
            format!("{path}.leader_experience"),
            format!(
                "{} has no {} squad leader ({}); use one of: {}",
                limits.name,
                e.words(),
                limits.leader_experience_rule,
                words_of(&limits.leader_experience)
            ),
        ));
    }
    for (i, p) in unit.personalities.iter().enumerate() {
        if !limits.personalities.contains(p) {
            out.push(Problem::new(
                format!("{path}.personalities[{i}]"),
                format!(
                    "{} is not a personality of {}; use one of: {}",
                    p.words(),
                    limits.name,
                    words_of(&limits.personalities)
                ),
            ));
        }
    }
    if let Some(rule) = &limits.vehicle_resolve_required
        && unit.kind == UnitKind::Vehicle
        && unit.resolve.is_none()
    {
        out.push(Problem::new(
            format!("{path}.resolve"),
            format!(
                "every vehicle's crew has a Resolve under {} ({rule}); use one of: {}",
                limits.name,
                words_of(Resolve::ALL)
            ),
        ));
    }
    out
}

fn words_of<T: Named>(values: &[T]) -> String {
    values
        .iter()
        .map(|v| v.words())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every problem of one unit, with paths under `path` (e.g. `platoons[0].units[2]`).
pub fn unit_problems(unit: &Unit, path: &str) -> Vec<Problem> {
    let mut c = Checker {
        path,
        out: Vec::new(),
    };
    check_identity(unit, &mut c);
    check_strength(unit, &mut c);
    check_status(unit, &mut c);
    check_ratings(unit, &mut c);
    check_kind_fields(unit, &mut c);
    check_traits(unit, &mut c);
    check_weapons(unit, &mut c);
    check_gear(unit, &mut c);
    if let Some(profile) = &unit.vehicle {
        check_vehicle_profile(profile, &mut c);
    }
    // What the point value system cannot price (weapon traits, munitions, cold suits) is checked
    // next to the prices; it is part of a valid roster all the same.
    c.out.extend(validate_gear(unit, path));
    c.out
}

/// Collects problems under one unit's path.
struct Checker<'a> {
    path: &'a str,
    out: Vec<Problem>,
}

impl Checker<'_> {
    fn push(&mut self, field: &str, message: impl Into<String>) {
        self.out
            .push(Problem::new(format!("{}.{field}", self.path), message));
    }
    fn list_bound(&mut self, field: &str, len: usize) {
        if len > MAX_LIST_ITEMS {
            self.push(
                field,
                format!("at most {MAX_LIST_ITEMS} entries, not {len}"),
            );
        }
    }
}

/// The rules of a force or unit name: not blank, not too long, no control characters.
pub(crate) fn check_name(name: &str, field: &str, out: &mut Vec<Problem>) {
    if name.trim().is_empty() {
        out.push(Problem::new(field, "must not be empty"));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        out.push(Problem::new(
            field,
            format!("at most {MAX_NAME_CHARS} characters, not {chars}"),
        ));
    }
    if name.chars().any(char::is_control) {
        out.push(Problem::new(field, "must not contain control characters"));
    }
}

fn check_identity(unit: &Unit, c: &mut Checker<'_>) {
    if unit.id.trim().is_empty() {
        c.push("id", "must not be empty");
    }
    let chars = unit.id.chars().count();
    if chars > MAX_ID_CHARS {
        c.push(
            "id",
            format!("at most {MAX_ID_CHARS} characters, not {chars}"),
        );
    }
    if unit
        .id
        .chars()
        .any(|ch| ch.is_control() || ch.is_whitespace())
    {
        c.push("id", "must not contain spaces or control characters");
    }
    let mut names = Vec::new();
    check_name(&unit.name, "name", &mut names);
    for p in names {
        c.push("name", p.message);
    }
}

/// E ≥ 1, strength ≤ E (C3, C9), both within bounds; lone-figure kinds are one figure (C5).
fn check_strength(unit: &Unit, c: &mut Checker<'_>) {
    let e = unit.starting_strength;
    if e == 0 {
        c.push(
            "starting_strength",
            "the establishment (initial starting value) is at least 1 figure",
        );
    }
    if e > MAX_STRENGTH {
        c.push(
            "starting_strength",
            format!("at most {MAX_STRENGTH} figures, not {e}"),
        );
    }
    if unit.strength > MAX_STRENGTH {
        c.push(
            "strength",
            format!("at most {MAX_STRENGTH} figures, not {}", unit.strength),
        );
    }
    if e > 0 && unit.strength > e {
        c.push(
            "strength",
            format!(
                "{} figures is more than the establishment of {e}: no unit is raised above its initial starting value (C9)",
                unit.strength
            ),
        );
    }
    if LONE_FIGURE_KINDS.contains(&unit.kind) && e != 1 {
        c.push(
            "starting_strength",
            format!(
                "a {} is a lone figure: establishment 1, not {e} (C5)",
                unit.kind
            ),
        );
    }
}

/// Status follows the figures (C6); a vehicle's follows its destroyed state (C16).
fn check_status(unit: &Unit, c: &mut Checker<'_>) {
    let eliminated = unit.status == UnitStatus::Eliminated;
    if unit.kind == UnitKind::Vehicle {
        let destroyed = unit.vehicle_state == Some(VehicleState::Destroyed);
        if eliminated && !destroyed {
            c.push(
                "status",
                "an eliminated vehicle is one destroyed and not replaced: its vehicle_state is `destroyed` (C16)",
            );
        }
        if destroyed && !eliminated {
            c.push(
                "status",
                "a destroyed vehicle is `eliminated` until it is replaced (C16)",
            );
        }
        return;
    }
    if unit.strength == 0 && !eliminated {
        c.push("status", "a unit with no figures left is `eliminated` (C6)");
    }
    if unit.strength > 0 && eliminated {
        c.push(
            "status",
            format!(
                "an eliminated unit has no figures, not {} (C6)",
                unit.strength
            ),
        );
    }
}

/// Resolve frozen at Steady for Fanatics (C17); no Elite droids (§1.1). A missing Resolve is
/// allowed for any kind: vehicles generally have none (C15), and basic generation's *Unknown
/// Resolve* option leaves it unknown until the unit first takes casualties (§4.1).
fn check_ratings(unit: &Unit, c: &mut Checker<'_>) {
    if let Some(resolve) = unit.resolve {
        if resolve != Resolve::Steady && unit.resolve_frozen() {
            c.push(
                "resolve",
                format!(
                    "a Fanatic (or Zombie) unit's Resolve is fixed at steady, not {resolve} (C17)"
                ),
            );
        }
    }
    if unit.quality == Quality::Elite && unit.traits.contains(&Trait::DroidTroopers) {
        c.push(
            "quality",
            "Droid Troopers may never be Elite (docs/rules.md §1.1)",
        );
    }
}

/// Fields that belong to one kind of unit only.
fn check_kind_fields(unit: &Unit, c: &mut Checker<'_>) {
    let kind = unit.kind;
    let is_vehicle = kind == UnitKind::Vehicle;
    if is_vehicle && unit.vehicle.is_none() {
        c.push(
            "vehicle",
            "a vehicle needs its profile (mobility, armour, crew)",
        );
    }
    if !is_vehicle && unit.vehicle.is_some() {
        c.push(
            "vehicle",
            format!("only a vehicle has a vehicle profile, not a {kind}"),
        );
    }
    if !is_vehicle && unit.vehicle_state.is_some() {
        c.push(
            "vehicle_state",
            format!("only a vehicle has a vehicle_state, not a {kind}"),
        );
    }
    if unit.leadership.is_some() && !LEADER_KINDS.contains(&kind) {
        c.push(
            "leadership",
            format!("only a character or a command squad's leader has Leadership, not a {kind}"),
        );
    }
    if unit.branch.is_some() && !LEADER_KINDS.contains(&kind) {
        c.push(
            "branch",
            format!("only a character or a command squad's leader has a branch, not a {kind}"),
        );
    }
    if unit.leader_experience.is_some() && !SQUAD_LEADER_KINDS.contains(&kind) {
        c.push(
            "leader_experience",
            format!("only a squad has a squad leader, not a {kind}"),
        );
    }
    if kind != UnitKind::Psionic {
        if unit.aptitude.is_some() {
            c.push(
                "aptitude",
                format!("only a psionic has an aptitude, not a {kind}"),
            );
        }
        if unit.psionic_strength.is_some() {
            c.push(
                "psionic_strength",
                format!("only a psionic has psionic Strength, not a {kind}"),
            );
        }
    }
    if let Some(strength) = unit.psionic_strength {
        if strength > MAX_PSIONIC_STRENGTH {
            c.push(
                "psionic_strength",
                format!("at most {MAX_PSIONIC_STRENGTH}, not {strength}"),
            );
        }
    }
}

/// No trait twice; single-figure traits only on one-figure units (§1.13 ¹, C18).
fn check_traits(unit: &Unit, c: &mut Checker<'_>) {
    c.list_bound("traits", unit.traits.len());
    for (i, t) in unit.traits.iter().enumerate().take(MAX_LIST_ITEMS) {
        let field = format!("traits[{i}]");
        if unit.traits[..i].contains(t) {
            c.push(&field, format!("`{t}` is listed twice (C18)"));
        }
        if t.single_figure_only() && unit.starting_strength > 1 {
            c.push(
                &field,
                format!(
                    "`{t}` may only be taken by a single figure, and this unit has an establishment of {} (docs/rules.md §1.13)",
                    unit.starting_strength
                ),
            );
        }
    }
    let options = &unit.trait_options;
    if let Some(m) = options.infect_multiplier {
        if !(m.is_finite() && m > 0.0 && m <= 10.0) {
            c.push(
                "trait_options.infect_multiplier",
                format!("a multiplier above 0 and at most 10, not {m}"),
            );
        }
    }
    if let Some(rp) = options.resilient_points {
        if !(2..=10).contains(&rp) {
            c.push(
                "trait_options.resilient_points",
                format!("Resilient has 2 to 10 RP, not {rp}"),
            );
        }
    }
    c.list_bound(
        "trait_options.bestowed_traits",
        options.bestowed_traits.len(),
    );
}

/// Weapons by kind: support weapons one trooper each, powered-armour-only ones (§1.8), heavy
/// weapons for teams and off-board units.
fn check_weapons(unit: &Unit, c: &mut Checker<'_>) {
    let kind = unit.kind;
    c.list_bound("support_weapons", unit.support_weapons.len());
    c.list_bound("heavy_weapons", unit.heavy_weapons.len());
    if kind == UnitKind::Vehicle {
        if unit.basic_weapon.is_some() {
            c.push(
                "basic_weapon",
                "a vehicle has no squad basic weapon; list its weapons under heavy_weapons",
            );
        }
        if !unit.support_weapons.is_empty() {
            c.push(
                "support_weapons",
                "a vehicle has no squad support weapons; list its weapons under heavy_weapons",
            );
        }
    }
    let carriers = usize::try_from(unit.starting_strength).unwrap_or(usize::MAX);
    if kind != UnitKind::Vehicle && unit.support_weapons.len() > carriers {
        c.push(
            "support_weapons",
            format!(
                "{} support weapons for {} figures: each is carried by one trooper",
                unit.support_weapons.len(),
                unit.starting_strength
            ),
        );
    }
    if !unit.armour.is_powered() {
        for (i, w) in unit.support_weapons.iter().enumerate().take(MAX_LIST_ITEMS) {
            if w.powered_armour_only() {
                c.push(
                    &format!("support_weapons[{i}]"),
                    format!(
                        "`{w}` is for powered armour only, and this unit wears {} (docs/rules.md §1.8)",
                        unit.armour
                    ),
                );
            }
        }
    }
    if matches!(kind, UnitKind::WeaponsTeam | UnitKind::OffBoardArtillery)
        && unit.heavy_weapons.is_empty()
    {
        c.push("heavy_weapons", format!("a {kind} needs its heavy weapon"));
    }
}

/// Gear lists, ratings and powered-armour-only options (docs/rules.md §1.6, §1.10, §4.3).
fn check_gear(unit: &Unit, c: &mut Checker<'_>) {
    for (field, len) in [
        ("personalities", unit.personalities.len()),
        ("abilities", unit.abilities.len()),
        ("basic_weapon_traits", unit.basic_weapon_traits.len()),
        ("support_weapon_traits", unit.support_weapon_traits.len()),
        ("heavy_weapon_traits", unit.heavy_weapon_traits.len()),
        ("munitions", unit.munitions.len()),
        ("armour_addons", unit.armour_addons.len()),
        (
            "powered_armour_upgrades",
            unit.powered_armour_upgrades.len(),
        ),
        ("grenades", unit.grenades.len()),
        ("gadgets", unit.gadgets.len()),
        ("bots", unit.bots.len()),
    ] {
        c.list_bound(field, len);
    }
    // Each member carries at most one personality (as the Experience purchase counts them).
    let members = match (&unit.vehicle, unit.kind) {
        (Some(profile), UnitKind::Vehicle) => profile.crew.max(1),
        _ => unit.starting_strength.max(1),
    };
    if u32::try_from(unit.personalities.len()).unwrap_or(u32::MAX) > members {
        c.push(
            "personalities",
            format!(
                "{} personalities for {members} members: at most one each",
                unit.personalities.len()
            ),
        );
    }
    for (i, a) in unit.abilities.iter().enumerate().take(MAX_LIST_ITEMS) {
        if unit.abilities[..i].contains(a) {
            c.push(&format!("abilities[{i}]"), format!("`{a}` is listed twice"));
        }
    }
    if !unit.armour.is_powered() {
        if unit.linked_weapons {
            c.push(
                "linked_weapons",
                format!(
                    "linked weapons are for powered armour only, and this unit wears {}",
                    unit.armour
                ),
            );
        }
        if !unit.powered_armour_upgrades.is_empty() {
            c.push(
                "powered_armour_upgrades",
                format!(
                    "powered-armour upgrades need powered armour, and this unit wears {}",
                    unit.armour
                ),
            );
        }
    }
    if unit.jammer_rating > MAX_JAMMER_RATING {
        c.push(
            "jammer_rating",
            format!(
                "jammers are rated 0 to {MAX_JAMMER_RATING}, not {}",
                unit.jammer_rating
            ),
        );
    }
    if let Some(rating) = unit.comms_rating {
        if rating > MAX_COMMS_RATING {
            c.push(
                "comms_rating",
                format!("comms are rated 0 to {MAX_COMMS_RATING}, not {rating}"),
            );
        }
    }
    let bots = u32::try_from(unit.bots.len()).unwrap_or(u32::MAX);
    if unit.hover_bot_upgrades > bots {
        c.push(
            "hover_bot_upgrades",
            format!(
                "{} Hover-Bot upgrades for {bots} bots",
                unit.hover_bot_upgrades
            ),
        );
    }
}

/// Armour per facing within the points table (§1.11); crew and passengers within bounds.
fn check_vehicle_profile(profile: &VehicleProfile, c: &mut Checker<'_>) {
    for (facing, rating) in [
        ("front", profile.armour.front),
        ("side", profile.armour.side),
        ("rear", profile.armour.rear),
    ] {
        if !VEHICLE_ARMOUR_RATINGS.contains(&rating) {
            c.push(
                &format!("vehicle.armour.{facing}"),
                format!(
                    "armour ratings run from {} to {}, not {rating} (docs/rules.md §1.11)",
                    VEHICLE_ARMOUR_RATINGS.start(),
                    VEHICLE_ARMOUR_RATINGS.end()
                ),
            );
        }
    }
    if profile.crew > MAX_VEHICLE_CREW {
        c.push(
            "vehicle.crew",
            format!("at most {MAX_VEHICLE_CREW} crew, not {}", profile.crew),
        );
    }
    if profile.multi_role_crew > profile.crew {
        c.push(
            "vehicle.multi_role_crew",
            format!(
                "{} multi-role crewmen among {} crew",
                profile.multi_role_crew, profile.crew
            ),
        );
    }
    if profile.passengers > MAX_VEHICLE_PASSENGERS {
        c.push(
            "vehicle.passengers",
            format!(
                "at most {MAX_VEHICLE_PASSENGERS} passengers, not {}",
                profile.passengers
            ),
        );
    }
    if profile.passenger_fired_weapons > profile.passengers {
        c.push(
            "vehicle.passenger_fired_weapons",
            format!(
                "{} passenger-fired weapons for {} passengers",
                profile.passenger_fired_weapons, profile.passengers
            ),
        );
    }
}

#[cfg(test)]
mod tests;
