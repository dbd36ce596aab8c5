//! The rules vocabulary as one document (served as `GET /api/v1/rules`): every closed set of
//! names a client may send, in table order, with the numbers and one-line descriptions of the
//! tables that define them. Everything here is read from those tables (the enumerations, their
//! documentation lines and the rule functions), never restated, so it cannot drift from what the
//! service accepts.

use serde::Serialize;

use crate::campaign::PurchaseItem;
use crate::house_rules::HouseRules;
use crate::kit::{Armour, BasicWeapon, HeavyWeapon, Mobility, Personality, SupportWeapon};
use crate::ladder::{Aptitude, LeaderExperience, Leadership, Quality, Resolve};
use crate::names::Named;
use crate::orders::{Attitude, Mission, Stance};
use crate::roster::UnitKind;
use crate::scenario::missions::{mission_bonus, mission_detail};
use crate::traits::Trait;

/// One word of the vocabulary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Term {
    /// The name to send.
    pub name: &'static str,
    /// What it means or does, in one line (from its table).
    pub description: String,
    /// Other spellings the service also accepts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<&'static str>,
    /// The docs/rules.md anchor of the rule that defines it, e.g. `1.1` or `C9`.
    pub rules_id: &'static str,
    /// Where that rule is on the rules page, e.g. `/rules#1.1`.
    pub rules_url: String,
}

impl Term {
    fn of<T: Named>(value: T, rules_id: &'static str) -> Self {
        Self {
            name: value.name(),
            description: value.description(),
            aliases: value.aliases().to_vec(),
            rules_id,
            rules_url: format!("/rules#{rules_id}"),
        }
    }
}

/// A Quality step with its table row (docs/rules.md §1.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QualityTerm {
    /// The word.
    #[serde(flatten)]
    pub term: Term,
    /// Quality Test target number: a die at or above it is a success.
    pub test_target: u8,
    /// Points factor (docs/rules.md §4.3).
    pub points_factor: f64,
}

/// A Leadership step (docs/rules.md §1.3).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeadershipTerm {
    /// The word.
    #[serde(flatten)]
    pub term: Term,
    /// The leadership value (re-rolls and same-branch modifier).
    pub value: u8,
    /// Points added to the character's figure cost.
    pub points: f64,
}

/// A squad-leader experience step (docs/rules.md §1.4).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeaderExperienceTerm {
    /// The word.
    #[serde(flatten)]
    pub term: Term,
    /// Modifier to each die of the squad's Morale Tests.
    pub morale_modifier: i8,
}

/// An armour type (docs/rules.md §1.6).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArmourTerm {
    /// The word.
    #[serde(flatten)]
    pub term: Term,
    /// The armour rating.
    pub rating: i8,
    /// Points per figure.
    pub points: f64,
}

/// A priced item: a weapon, mobility or personality.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PricedTerm {
    /// The word.
    #[serde(flatten)]
    pub term: Term,
    /// Points (docs/rules.md §4.3).
    pub points: f64,
    /// The usual crew (heavy weapons only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crew: Option<u8>,
    /// Where it may be used (empty: any unit that carries this kind of item).
    pub restrictions: Vec<String>,
}

/// A unit trait (docs/rules.md §1.13).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TraitTerm {
    /// The word.
    #[serde(flatten)]
    pub term: Term,
    /// The points multiplier; absent where the rules give no cost.
    pub multiplier: Option<f64>,
    /// Where it may be used (empty: any unit).
    pub restrictions: Vec<String>,
}

/// An item of the experience menu (docs/rules.md §2.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchaseTerm {
    /// The word (`purchases[].item`); the description states its limits.
    #[serde(flatten)]
    pub term: Term,
    /// Its cost in campaign points.
    pub cost: u32,
    /// Whether the purchase names a unit (`unit_id`).
    pub needs_unit: bool,
}

/// A mission (docs/rules.md §3.10).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MissionTerm {
    /// The word.
    #[serde(flatten)]
    pub term: Term,
    /// Whether it is on the mission table (may be named for a bonus or a choice); Escalating
    /// Engagement is not: only a tie produces it.
    pub rolled: bool,
    /// The objective.
    pub objective: &'static str,
    /// The victory condition.
    pub victory: &'static str,
    /// What the mission's bonus gives for the battle.
    pub bonus: crate::scenario::missions::MissionBonus,
}

/// A house-rule switch of a campaign's settings (docs/rules.md §6).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HouseRuleTerm {
    /// The settings field (`house_rules.<name>`) and what it switches.
    #[serde(flatten)]
    pub term: Term,
    /// The accepted values of a choice; empty for a yes/no switch (`true` or `false`).
    pub values: Vec<&'static str>,
}

/// The whole vocabulary (`GET /api/v1/rules`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Vocabulary {
    /// Troop Quality, lowest first.
    pub quality: Vec<QualityTerm>,
    /// Resolve, lowest first.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resolve: Vec<Term>,
    /// Character Leadership, lowest first.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leadership: Vec<LeadershipTerm>,
    /// Squad-leader experience, lowest first.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leader_experience: Vec<LeaderExperienceTerm>,
    /// Skill and psionic aptitude, lowest first.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aptitude: Vec<Term>,
    /// Unit kinds.
    pub unit_kinds: Vec<Term>,
    /// Personal armour.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub armour: Vec<ArmourTerm>,
    /// Squad basic weapons (small arms).
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub basic_weapons: Vec<PricedTerm>,
    /// Support weapons.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub support_weapons: Vec<PricedTerm>,
    /// Heavy weapons.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heavy_weapons: Vec<PricedTerm>,
    /// Vehicle mobility.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mobility: Vec<PricedTerm>,
    /// Unit traits.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<TraitTerm>,
    /// Personalities.
    // Left out only by a family without it (never in FAD 5e's answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub personalities: Vec<PricedTerm>,
    /// The experience menu (post-battle purchases).
    pub experience_menu: Vec<PurchaseTerm>,
    /// Missions, the eight of the mission table first.
    pub missions: Vec<MissionTerm>,
    /// Stances, with their effects.
    pub stances: Vec<Term>,
    /// Attitudes, with their effects.
    pub attitudes: Vec<Term>,
    /// House-rule switches.
    pub house_rules: Vec<HouseRuleTerm>,
    /// The value of every house-rule switch in a new campaign (the settled readings).
    pub house_rule_defaults: HouseRules,
}

/// One house-rule switch: its settings field, rules id, description and accepted values.
pub(crate) struct HouseRuleRow {
    pub(crate) name: &'static str,
    pub(crate) rules_id: &'static str,
    pub(crate) description: &'static str,
    pub(crate) values: &'static [&'static str],
}

/// The switches of [`HouseRules`], in its field order (a test checks the names and values).
pub(crate) const HOUSE_RULE_ROWS: [HouseRuleRow; 10] = [
    HouseRuleRow {
        name: "full_strength",
        rules_id: "C3",
        description: "What \"full strength\" means for a 5–6 replacement roll: the establishment E, or the strength at the start of the battle.",
        values: &["establishment", "battle_start"],
    },
    HouseRuleRow {
        name: "lone_figure_return",
        rules_id: "C5",
        description: "Whether a lone figure returns to duty on a 5–6 replacement roll, or only when bought back for 1 CP.",
        values: &["on_five_or_six", "never"],
    },
    HouseRuleRow {
        name: "bank_campaign_points",
        rules_id: "C13",
        description: "Unspent campaign points are banked for the next battle (true) or lost.",
        values: &[],
    },
    HouseRuleRow {
        name: "vehicle_resolve_change",
        rules_id: "C15",
        description: "Every damaged or destroyed-and-replaced vehicle rolls Resolve Change, an unrated crew counting as Steady (otherwise only a crew with a Resolve rolls).",
        values: &[],
    },
    HouseRuleRow {
        name: "squad_leader_experience_purchasable",
        rules_id: "C19",
        description: "Squad-leader experience can be bought like Leadership.",
        values: &[],
    },
    HouseRuleRow {
        name: "missions_hidden",
        rules_id: "S11",
        description: "Missions are hidden from the opponent (Escalating Engagement is always public).",
        values: &[],
    },
    HouseRuleRow {
        name: "strict_one_marker_per_unit",
        rules_id: "S14",
        description: "One True marker for every unit, even attached or embarked ones (otherwise they share their host's).",
        values: &[],
    },
    HouseRuleRow {
        name: "npf_recon_reading",
        rules_id: "S25",
        description: "Which non-player forces roll per platoon to send one more squad on recon duty: those with an Offensive stance, or those with an Aggressive attitude.",
        values: &["offensive_stance", "aggressive_attitude"],
    },
    HouseRuleRow {
        name: "squad_strength_roll",
        rules_id: "F1",
        description: "Basic force generation rolls squad strength once per player or once per squad.",
        values: &["per_player", "per_squad"],
    },
    HouseRuleRow {
        name: "morale_modifier",
        rules_id: "F3",
        description: "A squad leader's ±1 to Morale Tests applies to each die or as one success.",
        values: &["per_die", "per_success"],
    },
];

fn terms<T: Named>(rules_id: &'static str) -> Vec<Term> {
    T::ALL.iter().map(|v| Term::of(*v, rules_id)).collect()
}

fn priced<T: Named>(
    rules_id: &'static str,
    points: impl Fn(T) -> f64,
    restrictions: impl Fn(T) -> Vec<String>,
) -> Vec<PricedTerm> {
    priced_of(T::ALL, rules_id, points, restrictions)
}

/// [`priced`] over some of an enumeration's values (FAD 5e's own, where a value belongs to
/// another ruleset).
fn priced_of<T: Named>(
    values: &[T],
    rules_id: &'static str,
    points: impl Fn(T) -> f64,
    restrictions: impl Fn(T) -> Vec<String>,
) -> Vec<PricedTerm> {
    values
        .iter()
        .map(|v| PricedTerm {
            term: Term::of(*v, rules_id),
            points: points(*v),
            crew: None,
            restrictions: restrictions(*v),
        })
        .collect()
}

/// Puts a FAD-family ruleset's own squad-leader rungs and personalities in place of FAD 5e's.
pub(crate) fn use_family_words(
    words: &mut Vocabulary,
    leaders: &[LeaderExperience],
    personalities: &[Personality],
) {
    words.leader_experience = leaders
        .iter()
        .map(|l| LeaderExperienceTerm {
            term: Term::of(*l, "1.4"),
            morale_modifier: l.morale_modifier(),
        })
        .collect();
    words.personalities = priced_of(personalities, "1.12", Personality::points, |_| {
        vec!["at most one per member of the unit (§1.12)".to_owned()]
    });
}

fn trait_restrictions(t: Trait) -> Vec<String> {
    let mut out = Vec::new();
    if t.single_figure_only() {
        out.push("single-figure units only (§1.13, C18)".to_owned());
    }
    if t.freezes_resolve() {
        out.push("bought after a battle only for a Steady unit (C17, C18)".to_owned());
    }
    if t == Trait::DroidTroopers {
        out.push("bought after a battle only for a unit that is not Elite (C18)".to_owned());
    }
    out
}

/// The vocabulary, built from the domain's tables.
pub fn vocabulary() -> Vocabulary {
    let none = |_| Vec::new();
    Vocabulary {
        quality: Quality::ALL
            .iter()
            .map(|q| QualityTerm {
                term: Term::of(*q, "1.1"),
                test_target: q.row().test_target,
                points_factor: q.row().points_factor,
            })
            .collect(),
        resolve: terms::<Resolve>("1.2"),
        leadership: Leadership::ALL
            .iter()
            .map(|l| LeadershipTerm {
                term: Term::of(*l, "1.3"),
                value: l.value(),
                points: l.points(),
            })
            .collect(),
        leader_experience: LeaderExperience::FAD5E
            .iter()
            .map(|l| LeaderExperienceTerm {
                term: Term::of(*l, "1.4"),
                morale_modifier: l.morale_modifier(),
            })
            .collect(),
        aptitude: terms::<Aptitude>("1.5"),
        unit_kinds: terms::<UnitKind>("1.15"),
        armour: Armour::ALL
            .iter()
            .map(|a| ArmourTerm {
                term: Term::of(*a, "1.6"),
                rating: a.rating(),
                points: a.points(),
            })
            .collect(),
        basic_weapons: priced::<BasicWeapon>("1.7", BasicWeapon::points, none),
        support_weapons: priced::<SupportWeapon>("1.8", SupportWeapon::points, |w| {
            if w.powered_armour_only() {
                vec!["units in powered armour only (§1.8)".to_owned()]
            } else {
                Vec::new()
            }
        }),
        heavy_weapons: HeavyWeapon::ALL
            .iter()
            .map(|w| PricedTerm {
                term: Term::of(*w, "1.9"),
                points: w.points(),
                crew: Some(w.crew()),
                restrictions: Vec::new(),
            })
            .collect(),
        mobility: priced::<Mobility>("1.11", Mobility::points, |_| {
            vec!["vehicles only (`vehicle.mobility`)".to_owned()]
        }),
        traits: Trait::ALL
            .iter()
            .map(|t| TraitTerm {
                term: Term::of(*t, "1.13"),
                multiplier: t.multiplier(),
                restrictions: trait_restrictions(*t),
            })
            .collect(),
        personalities: priced_of(&Personality::FAD5E, "1.12", Personality::points, |_| {
            vec!["at most one per member of the unit (§1.12)".to_owned()]
        }),
        experience_menu: PurchaseItem::ALL
            .iter()
            .map(|p| PurchaseTerm {
                term: Term::of(*p, "2.2"),
                cost: p.cost(),
                needs_unit: p.needs_unit(),
            })
            .collect(),
        missions: Mission::ALL
            .iter()
            .map(|m| {
                let detail = mission_detail(*m);
                MissionTerm {
                    term: Term::of(*m, "3.10"),
                    rolled: Mission::ROLLED.contains(m),
                    objective: detail.objective,
                    victory: detail.victory,
                    bonus: mission_bonus(*m),
                }
            })
            .collect(),
        stances: terms::<Stance>("3.1"),
        attitudes: terms::<Attitude>("3.2"),
        house_rules: HOUSE_RULE_ROWS
            .iter()
            .map(|r| HouseRuleTerm {
                term: Term {
                    name: r.name,
                    description: r.description.to_owned(),
                    aliases: Vec::new(),
                    rules_id: r.rules_id,
                    rules_url: format!("/rules#{}", r.rules_id),
                },
                values: r.values.to_vec(),
            })
            .collect(),
        house_rule_defaults: HouseRules::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_a_description_and_a_rules_link() {
        let v = vocabulary();
        let json = serde_json::to_value(&v).unwrap();
        for (list, entries) in json.as_object().unwrap() {
            let Some(entries) = entries.as_array() else {
                continue;
            };
            assert!(!entries.is_empty(), "{list} is empty");
            for e in entries {
                let name = e["name"].as_str().unwrap();
                assert!(
                    !e["description"].as_str().unwrap().is_empty(),
                    "{list}.{name} has no description"
                );
                let id = e["rules_id"].as_str().unwrap();
                assert_eq!(e["rules_url"], format!("/rules#{id}"));
            }
        }
        assert_eq!(v.traits.len(), 65);
        assert_eq!(v.missions.iter().filter(|m| m.rolled).count(), 8);
    }

    /// `GET /api/v1/rules` as the service answered before rulesets existed (ETag
    /// `"2a4b6c85a08c551c05944714"`): FAD 5e's vocabulary must keep every byte.
    #[test]
    fn the_vocabulary_bytes_are_those_captured_before_rulesets() {
        let golden = include_str!("../../tests/golden/rules-vocabulary.json");
        assert_eq!(serde_json::to_string(&vocabulary()).unwrap(), golden);
    }

    #[test]
    fn house_rule_rows_name_every_switch_and_its_values() {
        let defaults = serde_json::to_value(HouseRules::default()).unwrap();
        let fields: Vec<&String> = defaults.as_object().unwrap().keys().collect();
        let mut names: Vec<&str> = HOUSE_RULE_ROWS.iter().map(|r| r.name).collect();
        names.sort_unstable();
        let mut sorted: Vec<&str> = fields.iter().map(|s| s.as_str()).collect();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        for row in &HOUSE_RULE_ROWS {
            let candidates: Vec<serde_json::Value> = if row.values.is_empty() {
                vec![true.into(), false.into()]
            } else {
                row.values.iter().map(|v| (*v).into()).collect()
            };
            for value in candidates {
                let body = serde_json::json!({ row.name: value });
                let parsed: Result<HouseRules, _> = serde_json::from_value(body);
                assert!(parsed.is_ok(), "{} = {value} is refused", row.name);
            }
        }
    }
}
