//! The generators' output stays bounded when fed the largest values each request accepts:
//! a one-shot scenario between two largest forces with the most Holo Projectors, force
//! generation with the most platoons and every option, and the aftermath menus with the
//! largest numbers a request can spell. Sizes and counts are asserted, never time.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "test code")]

use fad_domain::campaign::experience::apply_purchases;
use fad_domain::campaign::reinforcements::apply_reinforcements;
use fad_domain::campaign::{
    Allocation, CampaignTables, NewSquad, Purchase, PurchaseItem, ReinforcementChoice,
};
use fad_domain::dice::{Dice, ServerDice};
use fad_domain::forcegen::{GenerationChoices, MAX_PLATOONS as MAX_GENERATED_PLATOONS, generate};
use fad_domain::house_rules::HouseRules;
use fad_domain::ladder::{Quality, Resolve};
use fad_domain::orders::{Attitude, Stance};
use fad_domain::roster::{Force, Platoon, Problem, Unit, UnitKind};
use fad_domain::scenario::ScenarioConfig;
use fad_domain::scenario::contact_markers::MAX_HOLO_PROJECTORS;
use fad_domain::scenario::one_shot::{OneShotSide, generate as one_shot};
use fad_domain::validation::{MAX_PLATOONS, MAX_STRENGTH, MAX_UNITS_PER_PLATOON, validate_force};
use proptest::prelude::*;

/// The most units a stored force may have.
const MAX_UNITS: usize = MAX_PLATOONS * MAX_UNITS_PER_PLATOON;

fn largest_force(side: &str) -> Force {
    Force {
        name: side.to_owned(),
        platoons: (0..MAX_PLATOONS)
            .map(|p| Platoon {
                name: format!("Platoon {p}"),
                units: (0..MAX_UNITS_PER_PLATOON)
                    .map(|u| Unit {
                        id: format!("{side}-{p}-{u}"),
                        name: format!("Squad {p}-{u}"),
                        kind: UnitKind::Squad,
                        quality: Quality::Regular,
                        resolve: Some(Resolve::Steady),
                        strength: MAX_STRENGTH / 2,
                        starting_strength: MAX_STRENGTH,
                        ..Default::default()
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn stance(i: u8) -> Stance {
    [Stance::Offensive, Stance::Neutral, Stance::Defensive][usize::from(i % 3)]
}

fn one_shot_side(id: &str, s: u8, holo: u32, non_player: bool) -> OneShotSide {
    OneShotSide {
        force_id: id.to_owned(),
        force: largest_force(id),
        non_player,
        stance: Some(stance(s)),
        attitude: Some(Attitude::Cautious),
        mission_bonuses: Vec::new(),
        recon_unit_ids: Vec::new(),
        attached_unit_ids: Vec::new(),
        holo_projectors: holo,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn a_scenario_between_the_largest_forces_has_a_bounded_placement(
        seed in any::<u64>(),
        stances in (0u8..3, 0u8..3),
        holo in (0..=MAX_HOLO_PROJECTORS, 0..=MAX_HOLO_PROJECTORS),
        non_player in any::<bool>(),
    ) {
        let sides = [
            one_shot_side("a", stances.0, holo.0, false),
            one_shot_side("b", stances.1, holo.1, non_player),
        ];
        let mut dice = ServerDice::seeded(seed);
        let scenario = one_shot(sides, ScenarioConfig::default(), &mut dice).unwrap();
        // Per side, true markers: one per unit (and a sniper's); dummy markers: at most 7 per
        // platoon, 1 per unit, 6 for the night, 1 per Holo Projector.
        let most = (MAX_UNITS + 1 + MAX_PLATOONS * 7 + MAX_UNITS + 6) as u32 + MAX_HOLO_PROJECTORS;
        let placed: u32 = scenario.marker_placement.iter().map(|b| b.count).sum();
        let totals: u32 = scenario
            .sides
            .iter()
            .map(|s| s.contact_markers.unwrap_or_default().total())
            .sum();
        prop_assert_eq!(placed, totals);
        prop_assert!(totals <= 2 * most, "{}", totals);
        prop_assert!(scenario.marker_placement.len() <= (2 * most / 5 + 2) as usize);
        prop_assert!(dice.log().len() <= 4 * MAX_UNITS + 100, "{}", dice.log().len());
    }

    #[test]
    fn the_most_holo_projectors_plus_one_is_refused_before_anything_is_rolled(
        seed in any::<u64>(),
        extra in prop_oneof![Just(u32::MAX - MAX_HOLO_PROJECTORS), 1..=u32::MAX - MAX_HOLO_PROJECTORS],
    ) {
        let sides = [
            one_shot_side("a", 0, MAX_HOLO_PROJECTORS + extra, false),
            one_shot_side("b", 1, 0, false),
        ];
        let mut dice = ServerDice::seeded(seed);
        prop_assert!(one_shot(sides, ScenarioConfig::default(), &mut dice).is_err());
        prop_assert!(dice.log().is_empty());
    }

    #[test]
    fn force_generation_at_its_largest_stays_a_valid_bounded_roster(
        seed in any::<u64>(),
        advanced in any::<bool>(),
        attacker in any::<bool>(),
        options in proptest::collection::vec(any::<bool>(), 7),
    ) {
        let names = ["unknown_resolve", "squad_leaders", "heavy_weapons", "artillery_support",
            "heroic_characters", "psionics", "not_like_us"];
        // Advanced generation has its own rules for these.
        let basic_only = ["unknown_resolve", "squad_leaders", "heavy_weapons", "artillery_support"];
        let options: serde_json::Map<String, serde_json::Value> = names
            .iter()
            .zip(&options)
            .map(|(n, on)| ((*n).to_owned(), (*on && !(advanced && basic_only.contains(n))).into()))
            .collect();
        let platoons = MAX_GENERATED_PLATOONS - u32::from(attacker && !advanced);
        let body = if advanced {
            serde_json::json!({"method": "advanced", "platoons": platoons, "options": options,
                "priorities": {"manpower": 3, "fire_power": 3, "gear": 3}})
        } else {
            serde_json::json!({"method": "basic", "platoons": platoons, "attacker": attacker,
                "options": options})
        };
        let choices: GenerationChoices = serde_json::from_value(body).unwrap();
        let mut dice = ServerDice::seeded(seed);
        let mut generated = generate(&choices, &HouseRules::default(), &mut dice).unwrap();
        // The service gives generated units their ids before storing them.
        for (n, unit) in generated.force.units_mut().enumerate() {
            unit.id = format!("u{n}");
        }
        prop_assert!(validate_force(&generated.force).is_ok(), "{:?}", validate_force(&generated.force));
        prop_assert!(generated.force.platoons.len() <= MAX_GENERATED_PLATOONS as usize);
        prop_assert!(generated.force.units().count() <= 40 * MAX_GENERATED_PLATOONS as usize);
        prop_assert!(generated.rolls.len() <= 2_000, "{}", generated.rolls.len());
    }

    #[test]
    fn aftermath_menus_refuse_the_largest_numbers_without_growing(
        troopers in prop_oneof![Just(u32::MAX), 0..=u32::MAX, 0u32..10],
        pool in prop_oneof![Just(u32::MAX), 0..=u32::MAX],
        copies in 1usize..200,
    ) {
        let roster = largest_force("a");
        let units: Vec<String> = roster.units().map(|u| u.id.clone()).collect();
        let choice = ReinforcementChoice {
            teams: Vec::new(),
            allocations: units
                .iter()
                .take(copies)
                .map(|id| Allocation { unit_id: id.clone(), troopers })
                .collect(),
            new_squad: Some(NewSquad { name: "New".to_owned(), troopers, platoon: None, id: None, modelled_on: None }),
        };
        match apply_reinforcements(&roster, "a", pool, &choice, &CampaignTables::fad5e().new_squad) {
            Ok(effects) => {
                prop_assert!(effects.roster.units().all(|u| u.strength <= MAX_STRENGTH));
                prop_assert!(effects.roster.units().count() <= MAX_UNITS + 1);
                prop_assert!(effects.events.len() <= copies + 1);
            }
            Err(problems) => prop_assert!(problems.len() <= 2 * copies + 4),
        }
        let purchases: Vec<Purchase> = units
            .iter()
            .cycle()
            .take(copies * 5)
            .map(|id| Purchase::of(PurchaseItem::ImproveQuality, Some(id.as_str())))
            .chain(std::iter::repeat_n(Purchase::of(PurchaseItem::ExtraReinforcementDie, None), copies))
            .collect();
        let mut roll = |_: &str| -> Result<u8, Problem> { Ok(6) };
        match apply_purchases(&roster, &purchases, pool, &HouseRules::default(), &CampaignTables::fad5e(), "FAD 5e", &mut roll) {
            Ok(effects) => {
                prop_assert!(effects.extra_dice <= copies);
                prop_assert!(effects.events.len() <= 2 * purchases.len());
                prop_assert_eq!(effects.roster.units().count(), MAX_UNITS);
            }
            Err(problems) => prop_assert!(problems.len() <= 2 * purchases.len() + 1),
        }
    }
}
