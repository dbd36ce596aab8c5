//! Advanced force generation (docs/rules.md §4.2, F4–F10; S000 › ADVANCED FORCE GENERATION): the 9
//! Force Priority points, the results tables by priority, the Quantity Tests, the additional
//! changes and the leaders.
//!
//! Roll order on `platoon[i]`: platoon_size, squad_strength (once), basic_weapon,
//! fire_power_bonus (QT), platoon_armour, support_heavy_weapons (QT), heavy_weapon (once),
//! support_artillery (QT), training_traits (QT), training_personalities (QT), squad_resolve
//! (once), aggression_hardened (QT), leadership (QT), squad_leaders (QT); then the Psionics option.
//! On `platoon[i].squad[j]`: squad_strength (if declared per squad), support_weapon, jet_packs
//! (Gear Top or High), squad_quality, squad_resolve (if declared per squad). Heavy weapon types
//! declared per weapon roll on `platoon[i].heavy_weapon[k]`.
//!
//! Readings taken here:
//! - F10: without `individual_platoons` one platoon is rolled (subjects `platoon[0]...`) and
//!   copied to every platoon, Quantity Tests included; the additional changes are still chosen
//!   per platoon. With it, every platoon is rolled on its own subjects.
//! - Awards "distributed within the platoon as desired" go round-robin over the squads listed
//!   in [`AwardSquads`] (default every squad in order): rifle grenades and the Top plasma rifle (a squad with a support weapon for every
//!   trooper but the leader is skipped), exceptional traits and personalities (taken in order
//!   from the choices' preference lists; what the lists do not cover is returned as
//!   [`PendingAward`](super::PendingAward)s), Hardened (one squad per success, squads without it
//!   first), squad-leader experience (one level per success, from Inexperienced, F7) and
//!   Leadership (every success to the platoon leader, up to Heroic). Successes that find no
//!   taker are reported in the notes.
//! - F6: an exceptional trait is any trait with a multiplier above 1.0 that is not single-figure
//!   only.
//! - Heavy weapons teams are Conscript, Steady and Light-armoured with the platoon's basic weapon
//!   (the point system's start ratings; the text rates only the mortar crews, Regular).
//! - Human Wave: the support trooper is swapped for 3 riflemen (net +2, as in basic Human
//!   Wave). More Support: two riflemen for one SAW trooper (net −1). Improved Armour: two
//!   troopers fewer, armour one level better. A change that would leave a squad without its
//!   leader and a rifleman is skipped with a note. Squad picks default to every squad.
//! - Unknown Resolve, Squad Leaders, Heavy Weapons and Artillery Support are basic-generation
//!   options; advanced generation has its own rules for them and refuses them.

use serde::{Deserialize, Serialize};

use super::draft::{
    PlatoonDraft, add_strength, add_support, add_trait, command_squad, into_force, local_militia,
    off_board, set_strength, squad, weapons_team,
};
use super::options::{GenerationOptions, apply_common};
use super::priorities::{Category, Priorities, Priority};
use super::roll::{D6Table, quantity_test, roll_d6, roll_on};
use super::{AwardKind, Ctx, MAX_PLATOONS, platoon_subject, squad_subject};
use crate::dice::DiceError;
use crate::kit::{Armour, BasicWeapon, HeavyWeapon, Personality, SupportWeapon};
use crate::ladder::{Ladder, LeaderExperience, Quality, Resolve};
use crate::named_enum;
use crate::names::Named;
use crate::points::gear::Ability;
use crate::roster::{Force, Problem, Unit};
use crate::traits::Trait;

/// The most squads an advanced platoon has (Top Manpower, F8).
pub const MAX_SQUADS: usize = 5;

/// PLATOON SIZE by priority (columns Low, Medium, High, Top; F8 accepts 5).
pub const PLATOON_SIZE: [D6Table<u32>; 4] = [
    [2, 3, 3, 3, 3, 3],
    [3, 3, 3, 3, 4, 4],
    [3, 3, 4, 4, 4, 4],
    [4, 4, 4, 4, 4, 5],
];

/// SQUAD STRENGTH by priority.
pub const SQUAD_STRENGTH: [D6Table<u32>; 4] = [
    [4, 4, 6, 6, 8, 8],
    [6, 6, 8, 8, 10, 10],
    [8, 8, 10, 10, 12, 12],
    [8, 8, 10, 10, 12, 12],
];

/// Extra Platoon HQ troopers by Manpower priority (F4): Top +2, High +1.
pub const HQ_EXTRA_TROOPERS: [u32; 4] = [0, 0, 1, 2];

/// Platoon HQ troopers beside the leader.
pub const HQ_TROOPERS: u32 = 3;

/// SQUAD BASIC WEAPONS by Fire-power priority.
pub const BASIC_WEAPON: [D6Table<BasicWeapon>; 4] = {
    use BasicWeapon::*;
    [
        [
            SubMachineGuns,
            LowTechRifles,
            LowTechRifles,
            LowTechRifles,
            LowTechRifles,
            AssaultCarbines,
        ],
        [
            LowTechRifles,
            LowTechRifles,
            AssaultCarbines,
            AssaultCarbines,
            AssaultRifles,
            AssaultRifles,
        ],
        [
            AssaultCarbines,
            AssaultCarbines,
            AssaultRifles,
            AssaultRifles,
            HighTechRifles,
            HighTechRifles,
        ],
        [
            AssaultRifles,
            AssaultRifles,
            HighTechRifles,
            HighTechRifles,
            GaussRifles,
            GaussRifles,
        ],
    ]
};

/// SQUAD SUPPORT WEAPONS (every priority): 1 Flame-thrower, 2–4 SAW, 5–6 Grenade Launcher.
pub const SUPPORT_WEAPON: D6Table<SupportWeapon> = super::basic::SUPPORT_WEAPON;

/// PLATOON ARMOUR by Gear priority.
pub const PLATOON_ARMOUR: [D6Table<Armour>; 4] = {
    use Armour::*;
    [
        [None, None, None, Light, Light, Light],
        [None, Light, Light, Light, Light, Improved],
        [Light, Light, Improved, Improved, Improved, Heavy],
        [Improved, Improved, Heavy, Heavy, Heavy, Heavy],
    ]
};

/// Jet packs per squad (F4, F5): the d6 needed at each Gear priority, `None` for none.
pub const JET_PACK_TARGET: [Option<u8>; 4] = [None, None, Some(6), Some(5)];

/// HEAVY WEAPONS: 1 Light Auto Cannon, 2 Light Beam, 3 Light Cannon, 4 Light Chain Gun, 5 Heavy
/// MG, 6 Light Rail Gun.
pub const HEAVY_WEAPON: D6Table<HeavyWeapon> = [
    HeavyWeapon::AutoCannonLight,
    HeavyWeapon::BeamLight,
    HeavyWeapon::CannonLight,
    HeavyWeapon::ChainGunLight,
    HeavyWeapon::HeavyMg,
    HeavyWeapon::RailGunLight,
];

/// The off-board artillery the Support Quantity Test gives: light mortars, Regular crew.
pub const ARTILLERY_WEAPON: HeavyWeapon = HeavyWeapon::MortarLight;

/// SQUAD QUALITY by Training priority.
pub const SQUAD_QUALITY: [D6Table<Quality>; 4] = {
    use Quality::*;
    [
        [Rabble, Rabble, Conscript, Conscript, Conscript, Conscript],
        [Rabble, Conscript, Conscript, Conscript, Regular, Regular],
        [Conscript, Conscript, Regular, Regular, Regular, Elite],
        [Conscript, Regular, Regular, Regular, Regular, Elite],
    ]
};

/// SQUAD RESOLVE by Aggression priority.
pub const SQUAD_RESOLVE: [D6Table<Resolve>; 4] = {
    use Resolve::*;
    [
        [Reluctant, Uncertain, Uncertain, Uncertain, Steady, Steady],
        [Uncertain, Steady, Steady, Steady, Steady, Determined],
        [Steady, Steady, Steady, Determined, Determined, Determined],
        [
            Steady, Determined, Determined, Determined, Determined, Determined,
        ],
    ]
};

/// F6: a trait the Training bonus may give.
pub fn is_exceptional_trait(t: Trait) -> bool {
    t.multiplier().is_some_and(|m| m > 1.0) && !t.single_figure_only()
}

named_enum! {
    /// The additional changes (docs/rules.md §4.2), each allowed with ≥ 1 point in its category.
    pub enum AdditionalChange("additional_change") {
        /// Aggression: the Assault Troops trait and SMGs.
        AssaultTroops = "assault_troops",
        /// Manpower: the support weapon swapped for 3 troopers.
        HumanWave = "human_wave",
        /// Gear: −2 troopers, armour one level better.
        ImprovedArmour = "improved_armour",
        /// Support: the HQ becomes the leader alone, +1 trooper in every squad.
        IndependentLeader = "independent_leader",
        /// Training: −1 Quality, Agile, +1 Resolve.
        LocalMilitia = "local_militia",
        /// Fire-power: −2 troopers, +1 SAW trooper.
        MoreSupport = "more_support",
    }
}

impl AdditionalChange {
    /// The category that needs at least one point.
    pub fn category(self) -> Category {
        match self {
            Self::AssaultTroops => Category::Aggression,
            Self::HumanWave => Category::Manpower,
            Self::ImprovedArmour => Category::Gear,
            Self::IndependentLeader => Category::Support,
            Self::LocalMilitia => Category::Training,
            Self::MoreSupport => Category::FirePower,
        }
    }
}

/// One additional change for one platoon (JSON `{"kind": "human_wave", "squads": [0, 2]}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AdditionalChangeChoice {
    /// Which change.
    pub kind: AdditionalChange,
    /// The squads it applies to (default every squad; none for Independent leader).
    #[serde(default)]
    pub squads: Option<Vec<usize>>,
}

/// Rolls a player declares before rolling ("as an option, a player may elect to roll
/// individually ... but they must declare this prior to rolling").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Declarations {
    /// Squad strength rolled per squad instead of once.
    pub squad_strength_per_squad: bool,
    /// Resolve rolled per squad instead of once per platoon.
    pub resolve_per_squad: bool,
    /// Heavy weapon type rolled per weapon instead of once.
    pub heavy_weapon_type_per_weapon: bool,
}

/// The order in which squads receive each Quantity-Test award (JSON `award_squads`); each list
/// is cycled, and an absent list means every squad in order, 0, 1, 2, ...
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct AwardSquads {
    /// Rifle grenades and the Top plasma rifle.
    pub fire_power_bonus: Option<Vec<usize>>,
    /// Exceptional traits.
    pub exceptional_traits: Option<Vec<usize>>,
    /// Personalities.
    pub personalities: Option<Vec<usize>>,
    /// Hardened (one squad per success, each squad once).
    pub hardened: Option<Vec<usize>>,
    /// Squad-leader experience levels.
    pub squad_leaders: Option<Vec<usize>>,
}

impl AwardSquads {
    fn lists(&self) -> [(&'static str, &Option<Vec<usize>>); 5] {
        [
            ("fire_power_bonus", &self.fire_power_bonus),
            ("exceptional_traits", &self.exceptional_traits),
            ("personalities", &self.personalities),
            ("hardened", &self.hardened),
            ("squad_leaders", &self.squad_leaders),
        ]
    }
}

/// The squads, in the order given, that the platoon has (all squads in order by default).
fn award_order(
    order: &Option<Vec<usize>>,
    n: usize,
    what: &str,
    i: usize,
    ctx: &mut Ctx<'_>,
) -> Vec<usize> {
    let Some(order) = order else {
        return (0..n).collect();
    };
    let kept: Vec<usize> = order.iter().copied().filter(|j| *j < n).collect();
    let missing: Vec<usize> = order.iter().copied().filter(|j| *j >= n).collect();
    ctx.note_missing(what, i, &missing);
    if kept.is_empty() {
        (0..n).collect()
    } else {
        kept
    }
}

/// The choices of advanced generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AdvancedChoices {
    /// Force name (default "Generated force").
    #[serde(default)]
    pub name: Option<String>,
    /// Platoons.
    pub platoons: u32,
    /// The Force Priority points (F9).
    pub priorities: Priorities,
    /// F10: roll every platoon on its own instead of copying the first.
    #[serde(default)]
    pub individual_platoons: bool,
    /// Per-squad / per-weapon rolls declared beforehand.
    #[serde(default)]
    pub declared: Declarations,
    /// Additional changes per platoon (index = platoon).
    #[serde(default)]
    pub additional_changes: Vec<Vec<AdditionalChangeChoice>>,
    /// Exceptional traits, in order of preference, for the Training trait successes (F6).
    #[serde(default)]
    pub exceptional_traits: Vec<Trait>,
    /// Personalities, in order of preference, for the Training personality successes.
    #[serde(default)]
    pub personalities: Vec<Personality>,
    /// Which squads receive the awards, in order.
    #[serde(default)]
    pub award_squads: AwardSquads,
    /// Options (Heroic Characters, Psionics, Not Like Us).
    #[serde(default)]
    pub options: GenerationOptions,
}

impl AdvancedChoices {
    /// Checks the choices (paths relative to the request body).
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if !(1..=MAX_PLATOONS).contains(&self.platoons) {
            problems.push(Problem::new(
                "platoons",
                format!("a force has 1 to {MAX_PLATOONS} platoons"),
            ));
        }
        problems.extend(self.priorities.validate("priorities"));
        if self.additional_changes.len() > self.platoons as usize {
            problems.push(Problem::new(
                "additional_changes",
                format!("one list per platoon: {} at most", self.platoons),
            ));
        }
        for (i, changes) in self.additional_changes.iter().enumerate() {
            for (k, change) in changes.iter().enumerate() {
                let path = format!("additional_changes[{i}][{k}]");
                let category = change.kind.category();
                if self.priorities.points(category) == 0 {
                    problems.push(Problem::new(
                        format!("{path}.kind"),
                        format!(
                            "{} needs at least 1 Force Priority point in {}",
                            change.kind, category
                        ),
                    ));
                }
                if changes[..k].iter().any(|c| c.kind == change.kind) {
                    problems.push(Problem::new(
                        format!("{path}.kind"),
                        "the change is listed twice for the platoon",
                    ));
                }
                let Some(squads) = &change.squads else {
                    continue;
                };
                if change.kind == AdditionalChange::IndependentLeader {
                    problems.push(Problem::new(
                        format!("{path}.squads"),
                        "independent_leader picks no squads",
                    ));
                }
                for (n, j) in squads.iter().enumerate() {
                    if *j >= MAX_SQUADS {
                        problems.push(Problem::new(
                            format!("{path}.squads[{n}]"),
                            format!("a platoon has at most {MAX_SQUADS} squads"),
                        ));
                    } else if squads[..n].contains(j) {
                        problems.push(Problem::new(
                            format!("{path}.squads[{n}]"),
                            "the squad is picked twice",
                        ));
                    }
                }
            }
        }
        for (k, t) in self.exceptional_traits.iter().enumerate() {
            if !is_exceptional_trait(*t) {
                problems.push(Problem::new(
                    format!("exceptional_traits[{k}]"),
                    format!(
                        "{t} is not an exceptional trait (F6: multiplier above 1.0, not single-figure only)"
                    ),
                ));
            }
        }
        for (name, list) in self.award_squads.lists() {
            for (k, j) in list.iter().flatten().enumerate() {
                let field = format!("award_squads.{name}[{k}]");
                if *j >= MAX_SQUADS {
                    problems.push(Problem::new(
                        field,
                        format!("a platoon has at most {MAX_SQUADS} squads"),
                    ));
                } else if list.iter().flatten().take(k).any(|x| x == j) {
                    problems.push(Problem::new(field, "the squad is listed twice"));
                }
            }
        }
        let basic_only = [
            ("unknown_resolve", self.options.unknown_resolve),
            ("squad_leaders", self.options.squad_leaders),
            ("heavy_weapons", self.options.heavy_weapons),
            ("artillery_support", self.options.artillery_support),
        ];
        for (name, on) in basic_only {
            if on {
                problems.push(Problem::new(
                    format!("options.{name}"),
                    "a basic-generation option; advanced generation has its own rules for it",
                ));
            }
        }
        problems
    }
}

/// Runs advanced generation on valid choices.
pub(crate) fn generate(choices: &AdvancedChoices, ctx: &mut Ctx<'_>) -> Result<Force, DiceError> {
    let total = choices.platoons as usize;
    let mut drafts = Vec::with_capacity(total);
    if choices.individual_platoons {
        for i in 0..total {
            drafts.push(generate_platoon(i, choices, ctx)?);
        }
    } else {
        let template = generate_platoon(0, choices, ctx)?;
        for i in 1..total {
            for award in ctx.pending.clone().iter().filter(|a| a.platoon == 0) {
                ctx.pend(i, award.award, award.count);
            }
            drafts.push(template.clone());
        }
        drafts.insert(0, template);
    }
    for (i, draft) in drafts.iter_mut().enumerate() {
        for change in choices.additional_changes.get(i).into_iter().flatten() {
            apply_change(change, i, draft, ctx);
        }
    }
    apply_common(&choices.options, &mut drafts, ctx)?;
    let name = choices.name.as_deref().unwrap_or("Generated force");
    Ok(into_force(name, drafts))
}

fn generate_platoon(
    i: usize,
    choices: &AdvancedChoices,
    ctx: &mut Ctx<'_>,
) -> Result<PlatoonDraft, DiceError> {
    let pr = &choices.priorities;
    let manpower = pr.priority(Category::Manpower);
    let fire_power = pr.priority(Category::FirePower);
    let gear = pr.priority(Category::Gear);
    let support = pr.priority(Category::Support);
    let training = pr.priority(Category::Training);
    let aggression = pr.priority(Category::Aggression);
    let subject = platoon_subject(i);
    let declared = choices.declared;

    // Manpower.
    let size = roll_on(
        ctx.dice,
        &subject,
        "platoon_size",
        &PLATOON_SIZE[manpower.index()],
    )? as usize;
    let mut squads: Vec<Unit> = (0..size)
        .map(|j| squad(format!("Squad {}", j + 1)))
        .collect();
    let strength_table = &SQUAD_STRENGTH[manpower.index()];
    if declared.squad_strength_per_squad {
        for (j, s) in squads.iter_mut().enumerate() {
            let n = roll_on(
                ctx.dice,
                &squad_subject(i, j),
                "squad_strength",
                strength_table,
            )?;
            set_strength(s, n);
        }
    } else {
        let n = roll_on(ctx.dice, &subject, "squad_strength", strength_table)?;
        for s in &mut squads {
            set_strength(s, n);
        }
    }
    let hq_troopers = HQ_TROOPERS + HQ_EXTRA_TROOPERS[manpower.index()];

    // Fire-power.
    let weapon = roll_on(
        ctx.dice,
        &subject,
        "basic_weapon",
        &BASIC_WEAPON[fire_power.index()],
    )?;
    for (j, s) in squads.iter_mut().enumerate() {
        s.basic_weapon = Some(weapon);
        let w = roll_on(
            ctx.dice,
            &squad_subject(i, j),
            "support_weapon",
            &SUPPORT_WEAPON,
        )?;
        add_support(s, w);
    }
    let grenades = quantity_test(
        ctx.dice,
        &subject,
        "fire_power_bonus",
        fire_power.quantity_test_dice(),
    )?;
    let mut bonus = vec![SupportWeapon::RifleGrenade; grenades as usize];
    if fire_power == Priority::Top {
        bonus.push(SupportWeapon::PlasmaRifle);
    }
    let awards = &choices.award_squads;
    let order = award_order(
        &awards.fire_power_bonus,
        squads.len(),
        "award_squads.fire_power_bonus",
        i,
        ctx,
    );
    distribute_support(&mut squads, &bonus, &order, i, ctx);

    // Gear.
    let armour = roll_on(
        ctx.dice,
        &subject,
        "platoon_armour",
        &PLATOON_ARMOUR[gear.index()],
    )?;
    for s in &mut squads {
        s.armour = armour;
    }
    if let Some(target) = JET_PACK_TARGET[gear.index()] {
        for (j, s) in squads.iter_mut().enumerate() {
            if roll_d6(ctx.dice, &squad_subject(i, j), "jet_packs")? >= target {
                s.abilities.push(Ability::JetPacks);
            }
        }
    }

    // Support.
    let mut extras = Vec::new();
    let teams = quantity_test(
        ctx.dice,
        &subject,
        "support_heavy_weapons",
        support.quantity_test_dice(),
    )?;
    if teams > 0 {
        let once = if declared.heavy_weapon_type_per_weapon {
            None
        } else {
            Some(roll_on(ctx.dice, &subject, "heavy_weapon", &HEAVY_WEAPON)?)
        };
        for k in 0..teams {
            let w = match once {
                Some(w) => w,
                None => roll_on(
                    ctx.dice,
                    &format!("platoon[{i}].heavy_weapon[{k}]"),
                    "heavy_weapon",
                    &HEAVY_WEAPON,
                )?,
            };
            extras.push(weapons_team(w, weapon));
        }
    }
    let mortars = quantity_test(
        ctx.dice,
        &subject,
        "support_artillery",
        support.quantity_test_dice(),
    )?;
    for _ in 0..mortars {
        extras.push(off_board(ARTILLERY_WEAPON, Quality::Regular));
    }

    // Training.
    for (j, s) in squads.iter_mut().enumerate() {
        s.quality = roll_on(
            ctx.dice,
            &squad_subject(i, j),
            "squad_quality",
            &SQUAD_QUALITY[training.index()],
        )?;
    }
    let traits = quantity_test(
        ctx.dice,
        &subject,
        "training_traits",
        training.quantity_test_dice(),
    )?;
    let order = award_order(
        &awards.exceptional_traits,
        squads.len(),
        "award_squads.exceptional_traits",
        i,
        ctx,
    );
    let given = give_round_robin(
        &mut squads,
        &choices.exceptional_traits,
        traits,
        &order,
        add_trait,
    );
    ctx.pend(i, AwardKind::ExceptionalTrait, traits - given);
    let personalities = quantity_test(
        ctx.dice,
        &subject,
        "training_personalities",
        training.quantity_test_dice(),
    )?;
    let order = award_order(
        &awards.personalities,
        squads.len(),
        "award_squads.personalities",
        i,
        ctx,
    );
    let given = give_round_robin(
        &mut squads,
        &choices.personalities,
        personalities,
        &order,
        |s, p| s.personalities.push(p),
    );
    ctx.pend(i, AwardKind::Personality, personalities - given);

    // Aggression.
    let resolve_table = &SQUAD_RESOLVE[aggression.index()];
    if declared.resolve_per_squad {
        for (j, s) in squads.iter_mut().enumerate() {
            s.resolve = Some(roll_on(
                ctx.dice,
                &squad_subject(i, j),
                "squad_resolve",
                resolve_table,
            )?);
        }
    } else {
        let r = roll_on(ctx.dice, &subject, "squad_resolve", resolve_table)?;
        for s in &mut squads {
            s.resolve = Some(r);
        }
    }
    let hardened = quantity_test(
        ctx.dice,
        &subject,
        "aggression_hardened",
        aggression.quantity_test_dice(),
    )?;
    let order = award_order(
        &awards.hardened,
        squads.len(),
        "award_squads.hardened",
        i,
        ctx,
    );
    let takers = order.len().min(hardened as usize);
    for j in order.iter().take(takers) {
        add_trait(&mut squads[*j], Trait::Hardened);
    }
    if hardened as usize > takers {
        ctx.notes.push(format!(
            "platoon[{i}]: {} Hardened success(es) beyond the squads",
            hardened as usize - takers
        ));
    }

    // Leaders (Training QT; F7 for the squad leaders).
    let mut hq = command_squad(hq_troopers, armour, weapon);
    let leadership = quantity_test(
        ctx.dice,
        &subject,
        "leadership",
        training.quantity_test_dice(),
    )?;
    for _ in 0..leadership {
        match hq.leadership {
            Some(l) if !l.is_top() => hq.leadership = Some(l.up()),
            _ => ctx
                .notes
                .push(format!("platoon[{i}]: a Leadership success beyond Heroic")),
        }
    }
    for s in &mut squads {
        s.leader_experience = Some(LeaderExperience::Inexperienced);
    }
    let experience = quantity_test(
        ctx.dice,
        &subject,
        "squad_leaders",
        training.quantity_test_dice(),
    )?;
    let order = award_order(
        &awards.squad_leaders,
        squads.len(),
        "award_squads.squad_leaders",
        i,
        ctx,
    );
    let mut left = experience;
    'raise: while left > 0 {
        let mut raised = false;
        for j in &order {
            if left == 0 {
                break 'raise;
            }
            let s = &mut squads[*j];
            if let Some(up) = s.leader_experience.and_then(|e| e.raised()) {
                s.leader_experience = Some(up);
                left -= 1;
                raised = true;
            }
        }
        if !raised {
            break;
        }
    }
    if left > 0 {
        ctx.notes.push(format!(
            "platoon[{i}]: {left} squad-leader success(es) beyond Veteran"
        ));
    }

    Ok(PlatoonDraft { hq, squads, extras })
}

/// Hands out support weapons round-robin over `order`, to squads with a rifleman to spare.
fn distribute_support(
    squads: &mut [Unit],
    weapons: &[SupportWeapon],
    order: &[usize],
    i: usize,
    ctx: &mut Ctx<'_>,
) {
    let mut next = 0;
    let n = order.len();
    for w in weapons {
        let taker = (0..n).map(|k| (next + k) % n).find(|&k| {
            let s = &squads[order[k]];
            s.support_weapons.len() + 1 < s.strength as usize
        });
        match taker {
            Some(k) => {
                add_support(&mut squads[order[k]], *w);
                next = k + 1;
            }
            None => ctx
                .notes
                .push(format!("platoon[{i}]: no trooper left to carry a {w}")),
        }
    }
}

/// Gives the first `count` items of `items` round-robin over `order`; returns how many.
fn give_round_robin<T: Copy>(
    squads: &mut [Unit],
    items: &[T],
    count: u32,
    order: &[usize],
    mut give: impl FnMut(&mut Unit, T),
) -> u32 {
    if order.is_empty() {
        return 0;
    }
    let mut given = 0;
    for (k, item) in items.iter().take(count as usize).enumerate() {
        give(&mut squads[order[k % order.len()]], *item);
        given += 1;
    }
    given
}

fn apply_change(
    change: &AdditionalChangeChoice,
    i: usize,
    draft: &mut PlatoonDraft,
    ctx: &mut Ctx<'_>,
) {
    let picks = change
        .squads
        .clone()
        .unwrap_or_else(|| (0..draft.squads.len()).collect());
    let kind = change.kind;
    let mut skipped = Vec::new();
    let missing = match kind {
        AdditionalChange::IndependentLeader => {
            set_strength(&mut draft.hq, 1);
            for s in &mut draft.squads {
                add_strength(s, 1);
            }
            Vec::new()
        }
        AdditionalChange::AssaultTroops => draft.for_squads(&picks, |s| {
            add_trait(s, Trait::AssaultTroops);
            s.basic_weapon = Some(BasicWeapon::SubMachineGuns);
        }),
        AdditionalChange::HumanWave => draft.for_squads(&picks, |s| {
            if s.support_weapons.is_empty() {
                skipped.push(s.name.clone());
            } else {
                s.support_weapons.remove(0);
                add_strength(s, 2);
            }
        }),
        AdditionalChange::ImprovedArmour => draft.for_squads(&picks, |s| {
            if (s.strength as usize) < s.support_weapons.len() + 3 {
                skipped.push(s.name.clone());
            } else {
                add_strength(s, -2);
                s.armour = s.armour.next_better();
            }
        }),
        AdditionalChange::LocalMilitia => draft.for_squads(&picks, local_militia),
        AdditionalChange::MoreSupport => draft.for_squads(&picks, |s| {
            if (s.strength as usize) < s.support_weapons.len() + 3 {
                skipped.push(s.name.clone());
            } else {
                add_strength(s, -1);
                add_support(s, SupportWeapon::SquadAutomaticWeapon);
            }
        }),
    };
    ctx.note_missing(kind.name(), i, &missing);
    for name in skipped {
        ctx.notes.push(format!(
            "{kind}: platoon[{i}] {name} cannot take the change; skipped"
        ));
    }
}

#[cfg(test)]
mod tests;
