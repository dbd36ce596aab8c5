//! Step 6, EXPERIENCE: campaign points and the purchase menu (docs/rules.md §2.1–§2.2, C5, C7, C8,
//! C11–C14, C16–C19; S000 › CAMPAIGN RULES – QUICK › EXPERIENCE).
//!
//! Purchases are checked one after another against the roster as the earlier ones left it, so
//! several purchases may go to one unit within the ladder limits (C14). Every problem is
//! reported at once and nothing is applied unless all are fine.

use serde::{Deserialize, Serialize};

use super::changes::{UnitEvent, UnitEventRecord};
use super::resolve_change::resolve_can_change;
use super::tables::{CampaignTables, d6_row};
use crate::house_rules::HouseRules;
use crate::kit::{Personality, VehicleState};
use crate::ladder::{Ladder, Quality, Resolve};
use crate::named_enum;
use crate::names::Named;
use crate::roster::{Force, Problem, Unit, UnitKind, UnitStatus};
use crate::traits::Trait;

named_enum! {
    /// An item of the experience menu.
    pub enum PurchaseItem("purchase item") {
        /// Improve a unit's Quality one step; never to Elite (C8).
        ImproveQuality = "improve_quality",
        /// Improve a unit's Resolve one step, up to Determined; not Fanatic units (C8, C17).
        ImproveResolve = "improve_resolve",
        /// Roll one extra d6 for the reinforcement pool (C11).
        ExtraReinforcementDie = "extra_reinforcement_die",
        /// Return an eliminated lone figure to active duty (C5).
        ReturnLoneFigure = "return_lone_figure",
        /// Fully repair a damaged vehicle (C16).
        RepairVehicle = "repair_vehicle",
        /// Grant a Personality to a member of a unit.
        GrantPersonality = "grant_personality",
        /// Improve a leader's Leadership one step, up to Heroic (C19).
        ImproveLeadership = "improve_leadership",
        /// Replace an eliminated vehicle (C16); it then rolls for Quality Loss (C7).
        ReplaceVehicle = "replace_vehicle",
        /// Assign a trait to a unit, within the trait restrictions (C18).
        AssignTrait = "assign_trait",
    }
}

/// One row of the experience menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MenuRow {
    /// The item.
    pub item: PurchaseItem,
    /// Its cost in campaign points.
    pub cost: u32,
    /// Whether the ruleset sells it (FAD 5e sells every item).
    pub enabled: bool,
}

/// The experience menu with its costs (docs/rules.md §2.2 EXPERIENCE).
pub const EXPERIENCE_MENU: [MenuRow; 9] = [
    MenuRow {
        item: PurchaseItem::ImproveQuality,
        cost: 1,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::ImproveResolve,
        cost: 1,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::ExtraReinforcementDie,
        cost: 1,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::ReturnLoneFigure,
        cost: 1,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::RepairVehicle,
        cost: 1,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::GrantPersonality,
        cost: 1,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::ImproveLeadership,
        cost: 1,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::ReplaceVehicle,
        cost: 2,
        enabled: true,
    },
    MenuRow {
        item: PurchaseItem::AssignTrait,
        cost: 2,
        enabled: true,
    },
];

impl PurchaseItem {
    /// The item's cost from [`EXPERIENCE_MENU`].
    pub fn cost(self) -> u32 {
        EXPERIENCE_MENU
            .iter()
            .find(|row| row.item == self)
            .map_or(0, |row| row.cost)
    }
    /// Whether the item names a unit.
    pub fn needs_unit(self) -> bool {
        self != Self::ExtraReinforcementDie
    }
}

/// CP per platoon after each battle (docs/rules.md §2.1 step 6).
pub const CP_PER_PLATOON: u32 = 2;

/// Campaign points earned in one sequence: the ruleset's points per platoon (2 in FAD 5e) × P,
/// P counted at the start of the battle (C12).
pub fn campaign_points_earned(battle_start: &Force, tables: &CampaignTables) -> u32 {
    tables
        .cp_per_platoon
        .saturating_mul(battle_start.platoon_count())
}

/// The other rulesets' own words for two items (docs/rules.md §10, §11), accepted in requests.
/// Not aliases of the enum: FAD 5e's vocabulary lists those, and its bytes stay as they were.
pub const ITEM_WORDS: [(&str, PurchaseItem); 3] = [
    ("improve_experience", PurchaseItem::ImproveQuality),
    ("improve_training", PurchaseItem::ImproveQuality),
    ("improve_motivation", PurchaseItem::ImproveResolve),
];

impl PurchaseItem {
    /// The item named `word`: its own name, an alias, or another ruleset's word for it.
    pub fn read(word: &str) -> Result<Self, crate::names::UnknownName> {
        let wanted = word.trim().to_lowercase().replace([' ', '-'], "_");
        match ITEM_WORDS.iter().find(|(w, _)| *w == wanted) {
            Some((_, item)) => Ok(*item),
            None => Self::parse(word),
        }
    }
}

fn item_or_word<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PurchaseItem, D::Error> {
    let raw = <std::borrow::Cow<'de, str> as Deserialize>::deserialize(d)?;
    PurchaseItem::read(&raw).map_err(serde::de::Error::custom)
}

/// One purchase (`{item, unit_id?, personality?, trait?}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Purchase {
    /// The item (`improve_experience`, `improve_training` and `improve_motivation` are read as
    /// the items they name).
    #[serde(deserialize_with = "item_or_word")]
    pub item: PurchaseItem,
    /// The unit, for every item but `extra_reinforcement_die`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_id: Option<String>,
    /// The personality, for `grant_personality`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub personality: Option<Personality>,
    /// The trait, for `assign_trait`.
    #[serde(default, rename = "trait", skip_serializing_if = "Option::is_none")]
    pub trait_: Option<Trait>,
}

impl Purchase {
    /// A purchase of `item` for `unit_id`.
    pub fn of(item: PurchaseItem, unit_id: Option<&str>) -> Self {
        Self {
            item,
            unit_id: unit_id.map(str::to_owned),
            personality: None,
            trait_: None,
        }
    }
}

/// What a valid list of purchases does.
#[derive(Debug, Clone, PartialEq)]
pub struct PurchaseEffects {
    /// The roster after the purchases.
    pub roster: Force,
    /// Campaign points spent.
    pub spent: u32,
    /// Extra reinforcement dice bought.
    pub extra_dice: usize,
    /// Events, one per purchase plus any Quality Loss roll a replaced vehicle made.
    pub events: Vec<UnitEventRecord>,
}

/// Applies `purchases` to `roster` (the roster after steps 1–4) with `available` CP, at the
/// prices of `tables`' menu; an item the menu does not sell is refused naming `ruleset`.
/// `quality_roll` gives the Quality Loss d6 of a vehicle replaced for 2 CP (C7), by unit id.
pub fn apply_purchases(
    roster: &Force,
    purchases: &[Purchase],
    available: u32,
    rules: &HouseRules,
    tables: &CampaignTables,
    ruleset: &str,
    quality_roll: &mut dyn FnMut(&str) -> Result<u8, Problem>,
) -> Result<PurchaseEffects, Vec<Problem>> {
    let mut out = roster.clone();
    let mut problems = Vec::new();
    let mut events = Vec::new();
    let mut extra_dice = 0;
    let mut spent = 0u32;
    for (i, p) in purchases.iter().enumerate() {
        let at = |f: &str| format!("purchases[{i}].{f}");
        if !tables.sells(p.item) {
            problems.push(Problem::new(
                at("item"),
                format!("{} is not sold under {ruleset}", p.item),
            ));
            continue;
        }
        let cost = tables.cost(p.item);
        spent = spent.saturating_add(cost);
        let mut local = Vec::new();
        if p.personality.is_some() && p.item != PurchaseItem::GrantPersonality {
            local.push(Problem::new(
                at("personality"),
                "only grant_personality takes a personality",
            ));
        }
        if p.trait_.is_some() && p.item != PurchaseItem::AssignTrait {
            local.push(Problem::new(at("trait"), "only assign_trait takes a trait"));
        }
        if !p.item.needs_unit() {
            if p.unit_id.is_some() {
                local.push(Problem::new(
                    at("unit_id"),
                    "extra_reinforcement_die is for the force, not a unit",
                ));
            }
            if local.is_empty() {
                extra_dice += 1;
            }
            problems.append(&mut local);
            continue;
        }
        let Some(unit_id) = p.unit_id.as_deref() else {
            local.push(Problem::new(
                at("unit_id"),
                format!("{} needs a unit_id", p.item),
            ));
            problems.append(&mut local);
            continue;
        };
        let Some(unit) = out.unit_mut(unit_id) else {
            local.push(Problem::new(at("unit_id"), "no such unit in this force"));
            problems.append(&mut local);
            continue;
        };
        if let Some(personality) = p.personality
            && p.item == PurchaseItem::GrantPersonality
            && !tables.grants(personality)
        {
            local.push(Problem::new(
                at("personality"),
                format!(
                    "{} is not a personality of {ruleset}; grant one of: {}",
                    personality.words(),
                    tables
                        .grantable()
                        .iter()
                        .map(|g| g.words())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let mut next = unit.clone();
        match apply_one(&mut next, p, rules) {
            Ok(()) if local.is_empty() => {
                events.push(UnitEventRecord::new(
                    unit_id,
                    UnitEvent::Purchase {
                        item: p.item,
                        cost,
                        personality: p.personality,
                        trait_: p.trait_,
                    },
                ));
                if p.item == PurchaseItem::ReplaceVehicle {
                    match quality_roll(unit_id) {
                        Ok(roll) => {
                            let from = next.quality;
                            let row = d6_row(&tables.quality_loss, roll);
                            next.quality = super::quality_loss::quality_after(from, row);
                            events.push(UnitEventRecord::new(
                                unit_id,
                                UnitEvent::QualityLoss {
                                    roll,
                                    from,
                                    to: next.quality,
                                },
                            ));
                        }
                        Err(problem) => local.push(problem),
                    }
                }
                *unit = next;
            }
            Ok(()) => {}
            Err((field, message)) => local.push(Problem::new(at(field), message)),
        }
        problems.append(&mut local);
    }
    if spent > available {
        problems.push(Problem::new(
            "purchases",
            format!("the purchases cost {spent} CP, but only {available} CP are available"),
        ));
    }
    if problems.is_empty() {
        Ok(PurchaseEffects {
            roster: out,
            spent,
            extra_dice,
            events,
        })
    } else {
        Err(problems)
    }
}

/// Checks one purchase against `unit` as it stands and applies it; the error names the field.
fn apply_one(
    unit: &mut Unit,
    p: &Purchase,
    rules: &HouseRules,
) -> Result<(), (&'static str, String)> {
    let fail = |m: &str| Err(("unit_id", m.to_owned()));
    if unit.fma.is_some() {
        // A figure's grade and Motivation live in its profile (M8).
        let figure = match p.item {
            PurchaseItem::ImproveQuality => Some(super::figures::improve_experience(unit)),
            PurchaseItem::ImproveResolve => Some(super::figures::improve_motivation(unit)),
            PurchaseItem::ReturnLoneFigure => Some(super::figures::check_return(unit)),
            _ => None,
        };
        match figure {
            Some(Err(message)) => return Err(("unit_id", message)),
            Some(Ok(())) if p.item != PurchaseItem::ReturnLoneFigure => return Ok(()),
            _ => {}
        }
    }
    match p.item {
        PurchaseItem::ImproveQuality => {
            if unit.quality.up() == Quality::Elite || unit.quality == Quality::Elite {
                return fail("no unit may be elevated to Elite (C8)");
            }
            unit.quality = unit.quality.up();
        }
        PurchaseItem::ImproveResolve => {
            if super::roll_steps::resolve_unknown(unit) {
                return fail(
                    "the unit's Resolve is still unknown: it is rolled the first time the unit takes casualties, and cannot be improved before then",
                );
            }
            let Some(resolve) = unit.resolve else {
                return fail("the unit has no Resolve rating (C15)");
            };
            if unit.resolve_frozen() {
                return fail("a Fanatic or Zombie unit's Resolve is fixed at Steady (C17)");
            }
            if !resolve_can_change(unit) {
                return fail("an off-board unit cannot change its starting Resolve");
            }
            if resolve.is_top() {
                return fail("Resolve is already Determined, the top of the ladder (C8)");
            }
            unit.resolve = Some(resolve.up());
        }
        PurchaseItem::ExtraReinforcementDie => {}
        PurchaseItem::ReturnLoneFigure => {
            if !unit.is_lone_figure() {
                return fail("not a lone figure (a unit whose establishment is one figure, C5)");
            }
            if unit.status != UnitStatus::Eliminated && unit.strength > 0 {
                return fail("the lone figure is not eliminated");
            }
            unit.strength = unit.starting_strength;
            unit.status = UnitStatus::Active;
        }
        PurchaseItem::RepairVehicle => {
            if unit.kind != UnitKind::Vehicle {
                return fail("not a vehicle");
            }
            if unit.vehicle_state != Some(VehicleState::Damaged) {
                return fail("the vehicle is not damaged (C16)");
            }
            unit.vehicle_state = Some(VehicleState::Operational);
        }
        PurchaseItem::GrantPersonality => {
            let Some(personality) = p.personality else {
                return Err((
                    "personality",
                    "Grant a personality: choose the personality".into(),
                ));
            };
            if unit.status == UnitStatus::Eliminated {
                return fail("an eliminated unit has no member to grant a personality to");
            }
            let members = match &unit.vehicle {
                Some(profile) if unit.kind == UnitKind::Vehicle => profile.crew.max(1),
                _ => unit.starting_strength.max(1),
            };
            if u32::try_from(unit.personalities.len()).unwrap_or(u32::MAX) >= members {
                return fail("every member of the unit already has a personality");
            }
            unit.personalities.push(personality);
        }
        PurchaseItem::ImproveLeadership => {
            if let Some(leadership) = unit.leadership {
                if leadership.is_top() {
                    return fail("Leadership is already Heroic, the top of the ladder (C19)");
                }
                unit.leadership = Some(leadership.up());
            } else if let (true, Some(experience)) = (
                rules.squad_leader_experience_purchasable,
                unit.leader_experience,
            ) {
                let Some(raised) = experience.raised() else {
                    return fail("the squad leader is already a Veteran");
                };
                unit.leader_experience = Some(raised);
            } else {
                return fail("only a character's Leadership can be improved (C19)");
            }
        }
        PurchaseItem::ReplaceVehicle => {
            if unit.kind != UnitKind::Vehicle {
                return fail("not a vehicle");
            }
            if unit.status != UnitStatus::Eliminated
                || unit.vehicle_state != Some(VehicleState::Destroyed)
            {
                return fail("only an eliminated (destroyed, not replaced) vehicle (C16)");
            }
            unit.vehicle_state = Some(VehicleState::Operational);
            unit.status = UnitStatus::Active;
        }
        PurchaseItem::AssignTrait => {
            let Some(t) = p.trait_ else {
                return Err(("trait", "Assign a trait: choose the trait".into()));
            };
            check_trait(unit, t).map_err(|m| ("trait", m))?;
            unit.traits.push(t);
        }
    }
    Ok(())
}

/// C18: the trait texts' own restrictions. (Command Vehicle is a vehicle property, not one of
/// the 65 traits, so its "one vehicle, then no HQ" rule has nothing to check here.)
pub fn check_trait(unit: &Unit, t: Trait) -> Result<(), String> {
    if unit.has_trait(t) {
        return Err(format!(
            "the unit already has {}; a trait cannot be taken twice (C18)",
            t.title()
        ));
    }
    if t.single_figure_only() && !unit.is_lone_figure() {
        return Err(format!("{} goes only to a lone figure (C18)", t.title()));
    }
    if t.freezes_resolve() && unit.resolve != Some(Resolve::Steady) {
        return Err(format!(
            "{} may be assigned only to a Steady unit (C17, C18)",
            t.title()
        ));
    }
    if t == Trait::DroidTroopers && unit.quality == Quality::Elite {
        return Err("Droid Troopers may not be Elite (C18)".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::testkit::{character, force_of, squad, vehicle, with_kind};
    use crate::ladder::{LeaderExperience, Leadership};
    use crate::names::Named;

    /// At FAD 5e's prices.
    fn apply_purchases(
        roster: &Force,
        purchases: &[Purchase],
        available: u32,
        rules: &HouseRules,
        quality_roll: &mut dyn FnMut(&str) -> Result<u8, Problem>,
    ) -> Result<PurchaseEffects, Vec<Problem>> {
        let tables = CampaignTables::fad5e();
        super::apply_purchases(
            roster,
            purchases,
            available,
            rules,
            &tables,
            "FAD 5e",
            quality_roll,
        )
    }

    /// At FAD 5e's rate.
    fn campaign_points_earned(battle_start: &Force) -> u32 {
        super::campaign_points_earned(battle_start, &CampaignTables::fad5e())
    }

    fn no_roll(_: &str) -> Result<u8, Problem> {
        Ok(6)
    }

    fn buy(
        roster: &Force,
        purchases: &[Purchase],
        available: u32,
    ) -> Result<PurchaseEffects, Vec<Problem>> {
        apply_purchases(
            roster,
            purchases,
            available,
            &HouseRules::default(),
            &mut no_roll,
        )
    }

    fn one(item: PurchaseItem, unit: &str) -> Purchase {
        Purchase::of(item, Some(unit))
    }

    #[test]
    fn experience_menu_costs_match_the_table() {
        use PurchaseItem::*;
        let costs: Vec<(PurchaseItem, u32)> =
            PurchaseItem::ALL.iter().map(|i| (*i, i.cost())).collect();
        assert_eq!(
            costs,
            [
                (ImproveQuality, 1),
                (ImproveResolve, 1),
                (ExtraReinforcementDie, 1),
                (ReturnLoneFigure, 1),
                (RepairVehicle, 1),
                (GrantPersonality, 1),
                (ImproveLeadership, 1),
                (ReplaceVehicle, 2),
                (AssignTrait, 2)
            ]
        );
        assert_eq!(
            PurchaseItem::parse("replace_vehicle"),
            Ok(PurchaseItem::ReplaceVehicle)
        );
    }

    #[test]
    fn c12_two_campaign_points_per_platoon_minimum_one() {
        assert_eq!(
            campaign_points_earned(&force_of(vec![vec![squad("a", 8)]])),
            2
        );
        let three = force_of(vec![vec![squad("a", 8)], vec![squad("b", 8)], vec![]]);
        assert_eq!(campaign_points_earned(&three), 6);
        assert_eq!(campaign_points_earned(&force_of(vec![])), 2);
    }

    #[test]
    fn improve_quality_one_step_but_c8_never_to_elite() {
        let mut s = squad("s", 8);
        s.quality = Quality::Rabble;
        let f = force_of(vec![vec![s]]);
        let q = one(PurchaseItem::ImproveQuality, "s");
        let got = buy(&f, &[q.clone(), q.clone()], 2).unwrap();
        assert_eq!(got.roster.unit("s").unwrap().quality, Quality::Regular);
        assert_eq!(got.spent, 2);
        let errors = buy(&f, &[q.clone(), q.clone(), q], 3).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "purchases[2].unit_id");
        assert!(errors[0].message.contains("Elite"));
    }

    #[test]
    fn c8_an_elite_unit_cannot_buy_quality() {
        let mut s = squad("s", 8);
        s.quality = Quality::Elite;
        let f = force_of(vec![vec![s]]);
        assert!(buy(&f, &[one(PurchaseItem::ImproveQuality, "s")], 1).is_err());
    }

    #[test]
    fn c8_improve_resolve_up_to_determined_only() {
        let f = force_of(vec![vec![squad("s", 8)]]); // Steady
        let r = one(PurchaseItem::ImproveResolve, "s");
        let got = buy(&f, std::slice::from_ref(&r), 1).unwrap();
        assert_eq!(
            got.roster.unit("s").unwrap().resolve,
            Some(Resolve::Determined)
        );
        let errors = buy(&f, &[r.clone(), r], 2).unwrap_err();
        assert_eq!(errors[0].field, "purchases[1].unit_id");
        assert!(errors[0].message.contains("Determined"));
    }

    #[test]
    fn c17_fanatic_and_zombie_units_cannot_buy_resolve() {
        for t in [Trait::Fanatic, Trait::Zombie] {
            let mut s = squad("s", 8);
            s.traits = vec![t];
            let f = force_of(vec![vec![s]]);
            let errors = buy(&f, &[one(PurchaseItem::ImproveResolve, "s")], 1).unwrap_err();
            assert!(errors[0].message.contains("C17"));
        }
    }

    #[test]
    fn c15_a_vehicle_without_resolve_cannot_buy_resolve() {
        let f = force_of(vec![vec![vehicle("v")]]);
        assert!(buy(&f, &[one(PurchaseItem::ImproveResolve, "v")], 1).is_err());
    }

    #[test]
    fn extra_reinforcement_die_counts_dice_and_takes_no_unit() {
        let f = force_of(vec![vec![squad("s", 8)]]);
        let die = Purchase::of(PurchaseItem::ExtraReinforcementDie, None);
        let got = buy(&f, &[die.clone(), die.clone()], 2).unwrap();
        assert_eq!(got.extra_dice, 2);
        assert_eq!(got.roster, f);
        let errors = buy(
            &f,
            &[Purchase::of(PurchaseItem::ExtraReinforcementDie, Some("s"))],
            1,
        )
        .unwrap_err();
        assert_eq!(errors[0].field, "purchases[0].unit_id");
    }

    #[test]
    fn c5_return_an_eliminated_lone_figure_for_one_cp() {
        let mut c = character("c");
        c.strength = 0;
        c.status = UnitStatus::Eliminated;
        let f = force_of(vec![vec![c, squad("s", 8)]]);
        let got = buy(&f, &[one(PurchaseItem::ReturnLoneFigure, "c")], 1).unwrap();
        let c = got.roster.unit("c").unwrap();
        assert_eq!((c.strength, c.status), (1, UnitStatus::Active));
        // Not for a squad, nor for a lone figure still on duty.
        assert!(buy(&f, &[one(PurchaseItem::ReturnLoneFigure, "s")], 1).is_err());
        let on_duty = force_of(vec![vec![character("c")]]);
        assert!(buy(&on_duty, &[one(PurchaseItem::ReturnLoneFigure, "c")], 1).is_err());
    }

    #[test]
    fn c16_repair_only_a_damaged_vehicle() {
        let mut v = vehicle("v");
        v.vehicle_state = Some(VehicleState::Damaged);
        let f = force_of(vec![vec![v, vehicle("ok"), squad("s", 8)]]);
        let got = buy(&f, &[one(PurchaseItem::RepairVehicle, "v")], 1).unwrap();
        assert_eq!(
            got.roster.unit("v").unwrap().vehicle_state,
            Some(VehicleState::Operational)
        );
        assert!(buy(&f, &[one(PurchaseItem::RepairVehicle, "ok")], 1).is_err());
        assert!(buy(&f, &[one(PurchaseItem::RepairVehicle, "s")], 1).is_err());
    }

    #[test]
    fn c16_c7_replace_an_eliminated_vehicle_for_two_cp_and_roll_quality_loss() {
        let mut v = vehicle("v");
        v.vehicle_state = Some(VehicleState::Destroyed);
        v.status = UnitStatus::Eliminated;
        let f = force_of(vec![vec![v]]);
        let p = one(PurchaseItem::ReplaceVehicle, "v");
        assert!(buy(&f, std::slice::from_ref(&p), 1).is_err()); // costs 2
        let mut asked = Vec::new();
        let got = apply_purchases(&f, &[p], 2, &HouseRules::default(), &mut |id| {
            asked.push(id.to_owned());
            Ok(2)
        })
        .unwrap();
        assert_eq!(asked, ["v"]);
        let v = got.roster.unit("v").unwrap();
        assert_eq!(v.status, UnitStatus::Active);
        assert_eq!(v.vehicle_state, Some(VehicleState::Operational));
        assert_eq!(v.quality, Quality::Conscript); // Regular, rolled 2
        assert_eq!(got.spent, 2);
    }

    #[test]
    fn grant_personality_needs_a_personality_and_a_member_without_one() {
        let f = force_of(vec![vec![character("c")]]);
        let mut p = one(PurchaseItem::GrantPersonality, "c");
        let errors = buy(&f, std::slice::from_ref(&p), 1).unwrap_err();
        assert_eq!(errors[0].field, "purchases[0].personality");
        p.personality = Some(Personality::Medic);
        let got = buy(&f, std::slice::from_ref(&p), 1).unwrap();
        assert_eq!(
            got.roster.unit("c").unwrap().personalities,
            [Personality::Medic]
        );
        assert!(buy(&f, &[p.clone(), p.clone()], 2).is_err()); // one figure, one personality
        let mut gone = character("c");
        gone.strength = 0;
        gone.status = UnitStatus::Eliminated;
        assert!(buy(&force_of(vec![vec![gone]]), &[p], 1).is_err());
    }

    #[test]
    fn c19_improve_leadership_for_characters_up_to_heroic() {
        let mut c = character("c");
        c.leadership = Some(Leadership::Inspiring);
        let f = force_of(vec![vec![c, squad("s", 8)]]);
        let l = one(PurchaseItem::ImproveLeadership, "c");
        let got = buy(&f, std::slice::from_ref(&l), 1).unwrap();
        assert_eq!(
            got.roster.unit("c").unwrap().leadership,
            Some(Leadership::Heroic)
        );
        let errors = buy(&f, &[l.clone(), l], 2).unwrap_err();
        assert!(errors[0].message.contains("Heroic"));
    }

    #[test]
    fn c19_squad_leader_experience_is_not_for_sale_by_default() {
        let mut s = squad("s", 8);
        s.leader_experience = Some(LeaderExperience::Inexperienced);
        let f = force_of(vec![vec![s]]);
        let p = one(PurchaseItem::ImproveLeadership, "s");
        let errors = buy(&f, std::slice::from_ref(&p), 1).unwrap_err();
        assert!(errors[0].message.contains("C19"));
        let rules = HouseRules {
            squad_leader_experience_purchasable: true,
            ..HouseRules::default()
        };
        let got = apply_purchases(&f, &[p.clone(), p.clone()], 2, &rules, &mut no_roll).unwrap();
        assert_eq!(
            got.roster.unit("s").unwrap().leader_experience,
            Some(LeaderExperience::Veteran)
        );
        assert!(apply_purchases(&f, &[p.clone(), p.clone(), p], 3, &rules, &mut no_roll).is_err());
    }

    fn assign(unit: &str, t: Trait) -> Purchase {
        Purchase {
            trait_: Some(t),
            ..one(PurchaseItem::AssignTrait, unit)
        }
    }

    #[test]
    fn c18_hero_legend_villain_and_hq_only_to_lone_figures() {
        let f = force_of(vec![vec![character("c"), squad("s", 8)]]);
        for t in [Trait::Hero, Trait::Legend, Trait::Villain, Trait::Hq] {
            assert!(buy(&f, &[assign("c", t)], 2).is_ok(), "{t} on a character");
            let errors = buy(&f, &[assign("s", t)], 2).unwrap_err();
            assert_eq!(errors[0].field, "purchases[0].trait");
        }
    }

    #[test]
    fn c18_fanatic_only_to_a_steady_unit() {
        let mut s = squad("s", 8);
        let f = force_of(vec![vec![s.clone()]]);
        assert!(buy(&f, &[assign("s", Trait::Fanatic)], 2).is_ok());
        // Bought Resolve first: no longer Steady.
        let errors = buy(
            &f,
            &[
                one(PurchaseItem::ImproveResolve, "s"),
                assign("s", Trait::Fanatic),
            ],
            3,
        )
        .unwrap_err();
        assert!(errors[0].message.contains("Steady"));
        s.resolve = Some(Resolve::Uncertain);
        let f = force_of(vec![vec![s]]);
        assert!(buy(&f, &[assign("s", Trait::Zombie)], 2).is_err());
    }

    #[test]
    fn c17_c18_after_fanatic_the_resolve_purchase_is_refused() {
        let f = force_of(vec![vec![squad("s", 8)]]);
        let errors = buy(
            &f,
            &[
                assign("s", Trait::Fanatic),
                one(PurchaseItem::ImproveResolve, "s"),
            ],
            3,
        )
        .unwrap_err();
        assert_eq!(errors[0].field, "purchases[1].unit_id");
    }

    #[test]
    fn c18_droid_troopers_may_not_be_elite() {
        let mut s = squad("s", 8);
        s.quality = Quality::Elite;
        let f = force_of(vec![vec![s]]);
        assert!(buy(&f, &[assign("s", Trait::DroidTroopers)], 2).is_err());
        let f = force_of(vec![vec![squad("s", 8)]]);
        assert!(buy(&f, &[assign("s", Trait::DroidTroopers)], 2).is_ok());
    }

    #[test]
    fn c18_a_trait_cannot_be_taken_twice_even_when_implied() {
        let f = force_of(vec![vec![squad("s", 8)]]);
        let errors = buy(
            &f,
            &[assign("s", Trait::Tough), assign("s", Trait::Tough)],
            4,
        )
        .unwrap_err();
        assert_eq!(errors[0].field, "purchases[1].trait");
        let mut z = squad("z", 8);
        z.traits = vec![Trait::Zombie];
        let f = force_of(vec![vec![z]]);
        assert!(buy(&f, &[assign("z", Trait::Relentless)], 2).is_err());
    }

    #[test]
    fn c14_several_purchases_may_go_to_one_unit() {
        let mut s = squad("s", 8);
        s.quality = Quality::Conscript;
        s.resolve = Some(Resolve::Uncertain);
        let f = force_of(vec![vec![s]]);
        let got = buy(
            &f,
            &[
                one(PurchaseItem::ImproveQuality, "s"),
                one(PurchaseItem::ImproveResolve, "s"),
                one(PurchaseItem::ImproveResolve, "s"),
                assign("s", Trait::Tough),
            ],
            5,
        )
        .unwrap();
        let s = got.roster.unit("s").unwrap();
        assert_eq!(s.quality, Quality::Regular);
        assert_eq!(s.resolve, Some(Resolve::Determined));
        assert_eq!(s.traits, [Trait::Tough]);
        assert_eq!(got.events.len(), 4);
    }

    #[test]
    fn spending_more_than_available_is_refused_and_every_problem_is_reported() {
        let f = force_of(vec![vec![
            squad("s", 8),
            with_kind(squad("w", 2), UnitKind::WeaponsTeam),
        ]]);
        let errors = buy(
            &f,
            &[
                one(PurchaseItem::ImproveQuality, "nobody"),
                Purchase::of(PurchaseItem::ImproveQuality, None),
                assign("s", Trait::Tough),
            ],
            2,
        )
        .unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            ["purchases[0].unit_id", "purchases[1].unit_id", "purchases"]
        );
    }
}
