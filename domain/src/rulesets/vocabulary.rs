//! A ruleset's vocabulary (`GET /api/v1/rulesets/{id}`, `GET /api/v1/campaigns/{id}/rules`): the
//! words of `GET /api/v1/rules` with the ruleset's own costs and defaults, plus its ladders with
//! their names, the post-battle roll steps with their tables, the menu, the option switches with
//! the campaign's values, its lists and its readings. Built from the ruleset value, never
//! restated.

use serde::Serialize;
use serde_json::Value;

use super::{Family, LadderNames, Lists, Ruleset};
use crate::campaign::PurchaseItem;
use crate::campaign::roll_steps::ROLL_STEPS;
use crate::dice::RollStep;
use crate::house_rules::HouseRules;
use crate::names::Named;
use crate::vocabulary::{HOUSE_RULE_ROWS, Vocabulary, vocabulary};

/// A post-battle roll step with its die and table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RollStepTerm {
    /// The step, as in `next_step` and the `dice` object.
    pub step: RollStep,
    /// Its name for people.
    pub label: String,
    /// The dice it rolls, e.g. `1d6` (per unit) or `2d6` (the pool).
    pub die: String,
    /// The row for each face 1–6, in words of the step's table; empty where the total counts.
    pub rows: Vec<String>,
}

/// An experience-menu item with the ruleset's cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MenuTerm {
    /// The item (`purchases[].item`).
    pub item: PurchaseItem,
    /// Its cost in campaign points.
    pub cost: u32,
    /// Whether the ruleset sells it.
    pub enabled: bool,
    /// What it does and its limits, in one line.
    pub limits: String,
    /// Whether it names a unit.
    pub needs_unit: bool,
}

/// An option switch with the ruleset's default and the campaign's value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OptionTerm {
    /// The switch (`house_rules.<name>`).
    pub name: &'static str,
    /// What it switches.
    pub description: &'static str,
    /// Its accepted values; empty for a yes/no switch.
    pub values: Vec<&'static str>,
    /// A new campaign's value under this ruleset: `true`/`false` for a yes/no switch, else one
    /// of `values`.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<SwitchValue>))]
    pub default: Value,
    /// The campaign's value, in the same form.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<SwitchValue>))]
    pub value: Value,
    /// The rule's id on the rules page.
    pub rules_id: &'static str,
}

/// What an option switch holds, as the document names it: `true`/`false` for a yes/no switch,
/// else one of its `values` (`null`, outside this type, when it is not set).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum SwitchValue {
    /// A yes/no switch.
    Switch(bool),
    /// One of the switch's `values`.
    Word(String),
}

/// A reading with its link.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReadingTerm {
    /// Its id.
    pub id: String,
    /// The reading.
    pub text: String,
    /// Where it is on the ruleset's page: `/rules/{id}#{reading}`.
    pub rules_url: String,
}

/// A ruleset's vocabulary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RulesetVocabulary {
    /// The ruleset's id.
    pub id: String,
    /// Its version.
    pub version: u32,
    /// Its family.
    pub family: Family,
    /// Its name.
    pub name: String,
    /// What it is, in one line.
    pub summary: String,
    /// Every word of `GET /api/v1/rules`, with this ruleset's menu costs and option defaults.
    #[serde(flatten)]
    pub words: Vocabulary,
    /// The ladders with their roles, rung names and numbers.
    pub ladders: Vec<LadderNames>,
    /// The post-battle roll steps in order.
    pub roll_steps: Vec<RollStepTerm>,
    /// The experience menu.
    pub menu: Vec<MenuTerm>,
    /// The option switches.
    pub options: Vec<OptionTerm>,
    /// The lists, with additions.
    pub lists: Lists,
    /// The readings.
    pub readings: Vec<ReadingTerm>,
    /// The one-page skirmish unit model's words (that family only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_page: Option<super::one_page_skirmish::vocabulary::OnePageWords>,
    /// The FMA figure model's words (that family only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fma: Option<super::gzg_fma_1999::vocabulary::FmaWords>,
}

fn rows<T: Serialize>(table: &[T; 6]) -> Vec<String> {
    table
        .iter()
        .map(|row| match serde_json::to_value(row) {
            Ok(Value::String(s)) => s,
            _ => String::new(),
        })
        .collect()
}

fn roll_steps(ruleset: &Ruleset) -> Vec<RollStepTerm> {
    let t = &ruleset.tables;
    let no_resolve = ruleset.decisions.resolve == super::ResolveRule::Absent;
    // Figures roll the casualty table in place of replacements, never lose Quality and have no
    // unknown Motivation (M4, M5).
    let figures = ruleset.decisions.casualties == super::Casualties::Examination;
    ROLL_STEPS
        .iter()
        .filter(|step| {
            !(no_resolve && matches!(step, RollStep::UnknownResolve | RollStep::ResolveChange))
        })
        .filter(|step| {
            if figures {
                !matches!(
                    step,
                    RollStep::Replacement | RollStep::QualityLoss | RollStep::UnknownResolve
                )
            } else {
                **step != RollStep::Casualty
            }
        })
        .map(|step| {
            let (label, die, rows) = match step {
                RollStep::Casualty => (
                    "Casualty",
                    "1d6".to_owned(),
                    t.casualty.as_ref().map(rows).unwrap_or_default(),
                ),
                RollStep::ResolveChange if figures => (
                    super::gzg_fma_1999::MOTIVATION_CHANGE,
                    "1d6".to_owned(),
                    rows(&t.resolve_change),
                ),
                RollStep::Replacement => (
                    "Infantry replacements",
                    "1d6".to_owned(),
                    rows(&t.replacement),
                ),
                RollStep::VehicleReplacement => (
                    "Vehicle replacements",
                    "1d6".to_owned(),
                    rows(&t.vehicle_replacement),
                ),
                RollStep::QualityLoss => ("Quality loss", "1d6".to_owned(), rows(&t.quality_loss)),
                RollStep::UnknownResolve => (
                    "Unknown Resolve",
                    "1d6".to_owned(),
                    rows(&t.unknown_resolve),
                ),
                RollStep::ResolveChange => {
                    ("Resolve change", "1d6".to_owned(), rows(&t.resolve_change))
                }
                _ => ("Reinforcements", format!("{}d6", t.pool_dice), Vec::new()),
            };
            RollStepTerm {
                step: *step,
                label: label.to_owned(),
                die,
                rows,
            }
        })
        .collect()
}

/// The `pricing` switch, offered only by a ruleset without points of its own (B6).
fn pricing_option(ruleset: &Ruleset, options: &HouseRules) -> Option<OptionTerm> {
    (ruleset.decisions.pricing == super::Pricing::None).then(|| OptionTerm {
        name: "pricing",
        description: "Price forces by FAD 5e's point system (fad5e); left out, forces are unpriced",
        values: vec!["fad5e"],
        default: Value::Null,
        value: serde_json::to_value(options.pricing).unwrap_or(Value::Null),
        rules_id: "B6",
    })
}

/// The vocabulary of `ruleset` for a campaign whose switches are `options`.
pub fn ruleset_vocabulary(ruleset: &Ruleset, options: &HouseRules) -> RulesetVocabulary {
    let t = &ruleset.tables;
    let mut words = vocabulary();
    for term in &mut words.experience_menu {
        if let Ok(item) = PurchaseItem::parse(term.term.name) {
            term.cost = t.cost(item);
        }
    }
    let limits = ruleset.limits();
    if limits.leader_experience != crate::ladder::LeaderExperience::FAD5E
        || limits.personalities != crate::kit::Personality::FAD5E
    {
        crate::vocabulary::use_family_words(
            &mut words,
            &limits.leader_experience,
            &limits.personalities,
        );
    }
    words.house_rule_defaults = ruleset.options;
    let one_page = (ruleset.family == Family::OnePage)
        .then(|| super::one_page_skirmish::vocabulary::narrow(&mut words));
    let fma = (ruleset.family == Family::Fma)
        .then(|| super::gzg_fma_1999::vocabulary::narrow(&mut words));
    let defaults = serde_json::to_value(ruleset.options).unwrap_or(Value::Null);
    let values = serde_json::to_value(options).unwrap_or(Value::Null);
    RulesetVocabulary {
        id: ruleset.id.clone(),
        version: ruleset.version,
        family: ruleset.family,
        name: ruleset.name.clone(),
        summary: ruleset.summary.clone(),
        words,
        ladders: ruleset.ladders.clone(),
        roll_steps: roll_steps(ruleset),
        menu: t
            .menu
            .iter()
            .map(|row| MenuTerm {
                item: row.item,
                cost: row.cost,
                enabled: row.enabled,
                limits: row.item.description(),
                needs_unit: row.item.needs_unit(),
            })
            .collect(),
        options: HOUSE_RULE_ROWS
            .iter()
            .map(|row| OptionTerm {
                name: row.name,
                description: row.description,
                values: row.values.to_vec(),
                default: defaults.get(row.name).cloned().unwrap_or(Value::Null),
                value: values.get(row.name).cloned().unwrap_or(Value::Null),
                rules_id: row.rules_id,
            })
            .chain(pricing_option(ruleset, options))
            .collect(),
        lists: ruleset.lists.clone(),
        one_page,
        fma,
        readings: ruleset
            .readings
            .iter()
            .map(|r| ReadingTerm {
                id: r.id.clone(),
                text: r.text.clone(),
                rules_url: format!("/rules/{}#{}", ruleset.id, r.id),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::{HouseDocument, RulesetPin, build_house};

    #[test]
    fn every_option_holds_what_the_document_says_a_switch_holds() {
        for ruleset in crate::rulesets::builtins() {
            for option in ruleset_vocabulary(&ruleset, &HouseRules::default()).options {
                for held in [&option.default, &option.value] {
                    assert!(
                        matches!(held, Value::Null | Value::Bool(_) | Value::String(_)),
                        "{} of {}: {held}",
                        option.name,
                        ruleset.id
                    );
                }
            }
        }
    }

    #[test]
    fn fad5e_vocabulary_holds_todays_words_unchanged() {
        let r = Ruleset::fad5e();
        let v = ruleset_vocabulary(&r, &HouseRules::default());
        assert_eq!(v.words, vocabulary());
        assert_eq!((v.id.as_str(), v.version), ("fad5e", 1));
        let json = serde_json::to_value(&v).unwrap();
        // The words sit at the top level, as in `GET /api/v1/rules`.
        assert!(json["quality"].is_array());
        assert!(json["experience_menu"].is_array());
        assert_eq!(json["family"], "fad");
    }

    #[test]
    fn roll_steps_list_each_step_with_its_die_and_six_rows() {
        let v = ruleset_vocabulary(&Ruleset::fad5e(), &HouseRules::default());
        let steps: Vec<(RollStep, &str, usize)> = v
            .roll_steps
            .iter()
            .map(|s| (s.step, s.die.as_str(), s.rows.len()))
            .collect();
        assert_eq!(
            steps,
            [
                (RollStep::Replacement, "1d6", 6),
                (RollStep::VehicleReplacement, "1d6", 6),
                (RollStep::QualityLoss, "1d6", 6),
                (RollStep::UnknownResolve, "1d6", 6),
                (RollStep::ResolveChange, "1d6", 6),
                (RollStep::Reinforcements, "2d6", 0),
            ]
        );
        assert_eq!(
            v.roll_steps[2].rows,
            ["drops", "drops", "stays", "stays", "stays", "stays"]
        );
        assert_eq!(
            v.roll_steps[3].rows,
            [
                "uncertain",
                "steady",
                "steady",
                "steady",
                "steady",
                "determined"
            ]
        );
    }

    #[test]
    fn a_house_ruleset_shows_its_costs_options_and_readings() {
        let doc: HouseDocument = serde_json::from_value(serde_json::json!({
            "id": "club/stockholm-fad", "name": "Stockholm club FAD",
            "extends": {"id": "fad5e", "version": 1},
            "set": {
                "campaign.menu.assign_trait.cost": 3,
                "campaign.menu.repair_vehicle.enabled": false,
                "campaign.pool_dice": 3,
                "options.bank_campaign_points.default": false
            },
            "readings": [{"id": "H1", "text": "Quality drops only on a 1."}]
        }))
        .unwrap();
        let r = build_house(&Ruleset::fad5e(), &doc, 1).unwrap();
        let campaign = HouseRules {
            missions_hidden: false,
            ..r.options
        };
        let v = ruleset_vocabulary(&r, &campaign);
        let trait_cost = v
            .words
            .experience_menu
            .iter()
            .find(|t| t.term.name == "assign_trait");
        assert_eq!(trait_cost.map(|t| t.cost), Some(3));
        let repair = v
            .menu
            .iter()
            .find(|m| m.item == PurchaseItem::RepairVehicle)
            .unwrap();
        assert!(!repair.enabled);
        assert_eq!(v.roll_steps[5].die, "3d6");
        assert!(!v.words.house_rule_defaults.bank_campaign_points);
        let bank = v
            .options
            .iter()
            .find(|o| o.name == "bank_campaign_points")
            .unwrap();
        assert_eq!(
            (&bank.default, &bank.value),
            (&Value::Bool(false), &Value::Bool(false))
        );
        let hidden = v
            .options
            .iter()
            .find(|o| o.name == "missions_hidden")
            .unwrap();
        assert_eq!(
            (&hidden.default, &hidden.value),
            (&Value::Bool(true), &Value::Bool(false))
        );
        assert_eq!(v.readings[0].rules_url, "/rules/club/stockholm-fad#H1");
        assert_eq!(r.extends, Some(RulesetPin::default()));
    }
}
