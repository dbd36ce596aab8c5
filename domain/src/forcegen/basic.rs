//! Basic force generation (docs/rules.md §4.1, F1, F2, S5; S000 › BUILDING BASIC FORCES).
//!
//! Roll order: `platoon[i]` platoon_size for every platoon; squad_strength once on `force` (F1,
//! or per squad on `platoon[i].squad[j]` with the per-squad house rule); then per squad
//! squad_quality, squad_resolve (not with Unknown Resolve), squad_armour for every squad in turn;
//! basic_weapon once on `force`; support_weapon per squad. Then the variation, the enhancements
//! (Fire-power rolls `fire_power_support_weapon` on `platoon[i]`; Recon rolls squad_quality,
//! squad_resolve, squad_armour on the new squad's subject), the limitations, and the options:
//! squad_leader per squad, heavy_weapon on `platoon[i]`, artillery on `force.artillery[k]`,
//! then the common options ([`super::options`]).
//!
//! Readings taken here:
//! - "Squads" in the variations, enhancements and limitations are the platoon's rolled squads and
//!   the Recon bonus squad, never the command squads, which the text names when it means them
//!   (Improved Command, Lone Leader).
//! - Squad picks default to the **first** squads for enhancements (Heavy Troopers: squads 0 and 1,
//!   Veterans: squad 0) and to the **last** squads for limitations (Inexperienced, Under Gunned,
//!   War Weary: the last two; Militia: the last one), so that by default a limitation does not
//!   undo an enhancement. "Any number of squads may" defaults to every squad.
//! - A limitation may not directly cancel its platoon's enhancement. The cancelling pairs are
//!   Manpower × Under Strength (the text's own example), Longer Range × Shorter Range, Veterans ×
//!   Inexperienced and Fire-power × Under Gunned; Militia may not pick the squad that Veterans or
//!   Heavy Troopers picked. A platoon with an enhancement must choose a limitation ("Players
//!   must now choose one limitation per platoon").
//! - The command squad leader is a Novice leader (priced as a character). Heavy weapons teams are
//!   Conscript and Steady (the point system's start ratings); off-board artillery is Regular,
//!   the one crew rating the source states for off-board units. Artillery joins platoon 0.
//! - More Support: the squad loses two riflemen and one of the remaining riflemen carries the
//!   extra support weapon (net −2 figures: a squad of 8 becomes 6 with two support weapons;
//!   unlike the advanced More Support, which gives one SAW trooper back); a SAW unless the
//!   choice names another support weapon. A squad without a rifleman to spare is left alone.
//!   Human Wave: the support trooper keeps a rifle and two soldiers join (+2).
//! - Urban Assault swaps two riflemen per squad (fewer if the squad has fewer).

use serde::{Deserialize, Serialize};

use super::draft::{
    PlatoonDraft, add_strength, add_support, add_trait, command_squad, into_force, local_militia,
    off_board, set_strength, squad, weapons_team,
};
use super::options::{GenerationOptions, apply_common};
use super::roll::{D6Table, roll_on};
use super::{Ctx, Effect, MAX_PLATOONS, platoon_subject, squad_subject};
use crate::dice::{Dice, DiceError};
use crate::house_rules::{HouseRules, SquadStrengthRoll};
use crate::kit::{Armour, BasicWeapon, HeavyWeapon, SupportWeapon};
use crate::ladder::{Ladder, LeaderExperience, Quality, Resolve};
use crate::named_enum;
use crate::names::Named;
use crate::roster::{Force, Problem};
use crate::traits::Trait;

/// PLATOON SIZE: 1–4 three squads, 5–6 four.
pub const PLATOON_SIZE: D6Table<u32> = [3, 3, 3, 3, 4, 4];
/// SQUAD STRENGTH: 1–2 six, 3–4 eight, 5–6 ten soldiers.
pub const SQUAD_STRENGTH: D6Table<u32> = [6, 6, 8, 8, 10, 10];
/// SQUAD QUALITY: 1 Rabble, 2–4 Conscript, 5–6 Regular.
pub const SQUAD_QUALITY: D6Table<Quality> = [
    Quality::Rabble,
    Quality::Conscript,
    Quality::Conscript,
    Quality::Conscript,
    Quality::Regular,
    Quality::Regular,
];
/// SQUAD RESOLVE: 1 Uncertain, 2–5 Steady, 6 Determined.
pub const SQUAD_RESOLVE: D6Table<Resolve> = [
    Resolve::Uncertain,
    Resolve::Steady,
    Resolve::Steady,
    Resolve::Steady,
    Resolve::Steady,
    Resolve::Determined,
];
/// SQUAD ARMOUR: 1 None, 2–5 Light, 6 Improved.
pub const SQUAD_ARMOUR: D6Table<Armour> = [
    Armour::None,
    Armour::Light,
    Armour::Light,
    Armour::Light,
    Armour::Light,
    Armour::Improved,
];
/// PLATOON BASIC WEAPONS: 1–2 Low Tech Rifles, 3–4 Assault Carbines, 5–6 Assault Rifles.
pub const BASIC_WEAPON: D6Table<BasicWeapon> = [
    BasicWeapon::LowTechRifles,
    BasicWeapon::LowTechRifles,
    BasicWeapon::AssaultCarbines,
    BasicWeapon::AssaultCarbines,
    BasicWeapon::AssaultRifles,
    BasicWeapon::AssaultRifles,
];
/// SQUAD SUPPORT WEAPONS: 1 Flame thrower, 2–4 SAW, 5–6 Grenade Launcher (both methods).
pub const SUPPORT_WEAPON: D6Table<SupportWeapon> = [
    SupportWeapon::FlameThrower,
    SupportWeapon::SquadAutomaticWeapon,
    SupportWeapon::SquadAutomaticWeapon,
    SupportWeapon::SquadAutomaticWeapon,
    SupportWeapon::GrenadeLauncher,
    SupportWeapon::GrenadeLauncher,
];
/// Option – Squad Leaders: 1–2 Inexperienced, 3–4 Experienced, 5–6 Veteran (docs/rules.md §1.4).
pub const SQUAD_LEADER: D6Table<LeaderExperience> = [
    LeaderExperience::Inexperienced,
    LeaderExperience::Inexperienced,
    LeaderExperience::Experienced,
    LeaderExperience::Experienced,
    LeaderExperience::Veteran,
    LeaderExperience::Veteran,
];
/// Option – Heavy Weapons: 1–2 Light Auto Cannon, 3–4 Light Chain Gun, 5–6 Heavy MG.
pub const HEAVY_WEAPON: D6Table<HeavyWeapon> = [
    HeavyWeapon::AutoCannonLight,
    HeavyWeapon::AutoCannonLight,
    HeavyWeapon::ChainGunLight,
    HeavyWeapon::ChainGunLight,
    HeavyWeapon::HeavyMg,
    HeavyWeapon::HeavyMg,
];
/// Option – Artillery Support: 1–2 Light Mortar, 3–4 Light Cannon, 5–6 Medium Cannon.
pub const ARTILLERY: D6Table<HeavyWeapon> = [
    HeavyWeapon::MortarLight,
    HeavyWeapon::MortarLight,
    HeavyWeapon::CannonLight,
    HeavyWeapon::CannonLight,
    HeavyWeapon::CannonMedium,
    HeavyWeapon::CannonMedium,
];
/// Troopers beside the leader in a command squad.
pub const COMMAND_SQUAD_TROOPERS: u32 = 3;
/// More Support needs, beside the support troopers: the leader, the two riflemen who go and the
/// rifleman who takes the extra weapon.
const MORE_SUPPORT_MIN_SPARE: usize = 4;
/// Figures in the Recon enhancement's bonus squad.
pub const RECON_SQUAD_STRENGTH: u32 = 5;
/// The most squads a basic platoon has (4 rolled + the Recon squad).
pub const MAX_SQUADS: usize = 5;

named_enum! {
    /// Variations, one per force (docs/rules.md §4.1).
    pub enum Variation("variation") {
        /// All squads: SMGs and the Assault Troops trait.
        AssaultTroops = "assault_troops",
        /// Picked squads swap one support weapon for a Plasma Rifle.
        EnergyWeapons = "energy_weapons",
        /// One squad's weapons, support weapons included, become Gauss Rifles.
        HeavyRifles = "heavy_rifles",
        /// Picked squads trade their support weapon for 2 soldiers.
        HumanWave = "human_wave",
        /// Command squads +2 soldiers and Heavy armour.
        ImprovedCommand = "improved_command",
        /// Picked squads: −1 Quality, Agile, +1 Resolve.
        LocalMilitia = "local_militia",
        /// Command squads become the leader alone; +1 soldier in every squad.
        LoneLeader = "lone_leader",
        /// Picked squads swap 2 soldiers for an extra support weapon.
        MoreSupport = "more_support",
    }
}

named_enum! {
    /// Enhancements, one per platoon (docs/rules.md §4.1).
    pub enum Enhancement("enhancement") {
        /// +1 support weapon per squad, type rolled once.
        FirePower = "fire_power" ["firepower"],
        /// Two squads get Heavy armour.
        HeavyTroopers = "heavy_troopers",
        /// +1 to activation-order rolls until a natural 1.
        ImprovedIntel = "improved_intel",
        /// Basic weapons +×1 range.
        LongerRange = "longer_range",
        /// +2 soldiers per squad.
        Manpower = "manpower",
        /// A bonus squad of 5 recon troops.
        Recon = "recon",
        /// Two soldiers per squad swap to assault shotguns.
        UrbanAssault = "urban_assault",
        /// One squad +1 Quality.
        Veterans = "veterans",
    }
}

named_enum! {
    /// Limitations, one per platoon (docs/rules.md §4.1).
    pub enum Limitation("limitation") {
        /// Coherency 2" for everyone.
        Inflexible = "inflexible",
        /// Two squads −1 Quality.
        Inexperienced = "inexperienced",
        /// One squad becomes Rabble with no armour.
        Militia = "militia",
        /// −2 to close assault (F2): the No Grenades trait on every squad.
        NoGrenades = "no_grenades",
        /// Basic weapons −×1 range (F2).
        ShorterRange = "shorter_range",
        /// Two squads lose one support weapon each.
        UnderGunned = "under_gunned",
        /// −1 soldier per squad.
        UnderStrength = "under_strength",
        /// Two squads −1 Resolve ("War Wary").
        WarWeary = "war_weary" ["war_wary"],
    }
}

impl Enhancement {
    /// How many squads the enhancement picks, if it picks any.
    pub fn picks(self) -> Option<usize> {
        match self {
            Self::HeavyTroopers => Some(2),
            Self::Veterans => Some(1),
            _ => None,
        }
    }
    /// The default picks among `n` squads: the first ones.
    fn default_picks(self, n: usize) -> Vec<usize> {
        (0..self.picks().unwrap_or(0).min(n)).collect()
    }
}

impl Limitation {
    /// How many squads the limitation picks, if it picks any.
    pub fn picks(self) -> Option<usize> {
        match self {
            Self::Inexperienced | Self::UnderGunned | Self::WarWeary => Some(2),
            Self::Militia => Some(1),
            _ => None,
        }
    }
    /// The default picks among `n` squads: the last ones.
    fn default_picks(self, n: usize) -> Vec<usize> {
        let k = self.picks().unwrap_or(0).min(n);
        (n - k..n).collect()
    }
    /// Whether this limitation directly cancels `enhancement`.
    pub fn cancels(self, enhancement: Enhancement) -> bool {
        CANCELLING_PAIRS.contains(&(enhancement, self))
    }
}

/// Enhancement × limitation pairs that cancel each other and may not share a platoon.
pub const CANCELLING_PAIRS: [(Enhancement, Limitation); 4] = [
    (Enhancement::Manpower, Limitation::UnderStrength),
    (Enhancement::LongerRange, Limitation::ShorterRange),
    (Enhancement::Veterans, Limitation::Inexperienced),
    (Enhancement::FirePower, Limitation::UnderGunned),
];

/// A squad of a platoon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SquadRef {
    /// Platoon index.
    pub platoon: usize,
    /// Squad index within the platoon, in roll order.
    pub squad: usize,
}

/// The force's variation (JSON `{"kind": "more_support", "squads": [...], "support_weapon": ..}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariationChoice {
    /// Which variation.
    pub kind: Variation,
    /// Squads for Energy Weapons, Heavy Rifles (exactly one), Human Wave, Local Militia, More
    /// Support. Default: every squad (Heavy Rifles: platoon 0, squad 0).
    #[serde(default)]
    pub squads: Option<Vec<SquadRef>>,
    /// More Support's extra weapon (default SAW).
    #[serde(default)]
    pub support_weapon: Option<SupportWeapon>,
}

/// One platoon's enhancement (JSON `{"kind": "veterans", "squads": [1]}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnhancementChoice {
    /// Which enhancement.
    pub kind: Enhancement,
    /// Picked squads (Heavy Troopers 2, Veterans 1); default the first squads.
    #[serde(default)]
    pub squads: Option<Vec<usize>>,
}

/// One platoon's limitation (JSON `{"kind": "war_weary", "squads": [0, 2]}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LimitationChoice {
    /// Which limitation.
    pub kind: Limitation,
    /// Picked squads (Inexperienced, Under Gunned, War Weary 2; Militia 1); default the last.
    #[serde(default)]
    pub squads: Option<Vec<usize>>,
}

/// The choices of basic generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BasicChoices {
    /// Force name (default "Generated force").
    #[serde(default)]
    pub name: Option<String>,
    /// Platoons: 1 for new players, 2 for experienced ones.
    pub platoons: u32,
    /// The player is the attacker: +1 platoon, +1 artillery unit.
    #[serde(default)]
    pub attacker: bool,
    /// The force's variation, if any.
    #[serde(default)]
    pub variation: Option<VariationChoice>,
    /// One enhancement per platoon (index = platoon; `null` for none).
    #[serde(default)]
    pub enhancements: Vec<Option<EnhancementChoice>>,
    /// One limitation per platoon (index = platoon).
    #[serde(default)]
    pub limitations: Vec<Option<LimitationChoice>>,
    /// Options.
    #[serde(default)]
    pub options: GenerationOptions,
}

impl BasicChoices {
    /// Platoons including the attacker's extra one.
    pub fn total_platoons(&self) -> u32 {
        self.platoons + u32::from(self.attacker)
    }

    /// Checks the choices (paths relative to the request body).
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if !(1..=MAX_PLATOONS).contains(&self.platoons) || self.total_platoons() > MAX_PLATOONS {
            problems.push(Problem::new(
                "platoons",
                format!("a force has 1 to {MAX_PLATOONS} platoons (the attacker's extra included)"),
            ));
        }
        let total = self.total_platoons() as usize;
        if let Some(v) = &self.variation {
            problems.extend(validate_variation(v, total));
        }
        if self.enhancements.len() > total {
            problems.push(Problem::new(
                "enhancements",
                format!("one enhancement per platoon: {total} at most"),
            ));
        }
        if self.limitations.len() > total {
            problems.push(Problem::new(
                "limitations",
                format!("one limitation per platoon: {total} at most"),
            ));
        }
        for (i, e) in self.enhancements.iter().enumerate() {
            let Some(e) = e else { continue };
            let path = format!("enhancements[{i}].squads");
            problems.extend(validate_picks(
                &path,
                e.kind.name(),
                e.kind.picks(),
                &e.squads,
            ));
            let limitation = self.limitations.get(i).and_then(Option::as_ref);
            match limitation {
                None => problems.push(Problem::new(
                    format!("limitations[{i}]"),
                    "a platoon with an enhancement must choose one limitation",
                )),
                Some(l) if l.kind.cancels(e.kind) => problems.push(Problem::new(
                    format!("limitations[{i}].kind"),
                    format!(
                        "{} directly cancels the platoon's enhancement {}",
                        l.kind, e.kind
                    ),
                )),
                Some(l) => {
                    let militia_hits = l.kind == Limitation::Militia
                        && matches!(e.kind, Enhancement::Veterans | Enhancement::HeavyTroopers)
                        && match (&e.squads, &l.squads) {
                            (Some(a), Some(b)) => a.iter().any(|j| b.contains(j)),
                            _ => false,
                        };
                    if militia_hits {
                        problems.push(Problem::new(
                            format!("limitations[{i}].squads"),
                            format!("militia may not pick the squad that {} picked", e.kind),
                        ));
                    }
                }
            }
        }
        for (i, l) in self.limitations.iter().enumerate() {
            let Some(l) = l else { continue };
            let path = format!("limitations[{i}].squads");
            problems.extend(validate_picks(
                &path,
                l.kind.name(),
                l.kind.picks(),
                &l.squads,
            ));
        }
        problems
    }
}

fn validate_variation(v: &VariationChoice, platoons: usize) -> Vec<Problem> {
    let mut problems = Vec::new();
    let takes_squads = matches!(
        v.kind,
        Variation::EnergyWeapons
            | Variation::HeavyRifles
            | Variation::HumanWave
            | Variation::LocalMilitia
            | Variation::MoreSupport
    );
    if let Some(squads) = &v.squads {
        if !takes_squads {
            problems.push(Problem::new(
                "variation.squads",
                format!("{} picks no squads", v.kind),
            ));
        }
        if v.kind == Variation::HeavyRifles && squads.len() != 1 {
            problems.push(Problem::new(
                "variation.squads",
                "heavy_rifles picks exactly one squad",
            ));
        }
        for (k, r) in squads.iter().enumerate() {
            if r.platoon >= platoons {
                problems.push(Problem::new(
                    format!("variation.squads[{k}].platoon"),
                    format!("the force has {platoons} platoon(s)"),
                ));
            }
            if r.squad >= MAX_SQUADS {
                problems.push(Problem::new(
                    format!("variation.squads[{k}].squad"),
                    format!("a basic platoon has at most {MAX_SQUADS} squads"),
                ));
            }
            if squads[..k].contains(r) {
                problems.push(Problem::new(
                    format!("variation.squads[{k}]"),
                    "the squad is picked twice",
                ));
            }
        }
    }
    if let Some(w) = v.support_weapon {
        if v.kind != Variation::MoreSupport {
            problems.push(Problem::new(
                "variation.support_weapon",
                "only more_support takes a support weapon",
            ));
        } else if w.powered_armour_only() {
            problems.push(Problem::new(
                "variation.support_weapon",
                format!("{w} is for powered armour only"),
            ));
        }
    }
    problems
}

fn validate_picks(
    path: &str,
    kind: &str,
    picks: Option<usize>,
    squads: &Option<Vec<usize>>,
) -> Vec<Problem> {
    let Some(squads) = squads else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    match picks {
        None => problems.push(Problem::new(path, format!("{kind} picks no squads"))),
        Some(n) if squads.len() != n => problems.push(Problem::new(
            path,
            format!("{kind} picks exactly {n} squad(s)"),
        )),
        Some(_) => {}
    }
    for (k, j) in squads.iter().enumerate() {
        if *j >= MAX_SQUADS {
            problems.push(Problem::new(
                format!("{path}[{k}]"),
                format!("a basic platoon has at most {MAX_SQUADS} squads"),
            ));
        }
        if squads[..k].contains(j) {
            problems.push(Problem::new(
                format!("{path}[{k}]"),
                "the squad is picked twice",
            ));
        }
    }
    problems
}

/// Rolls a Resolve left unknown by the Unknown Resolve option (the first time the unit takes
/// casualties), on the SQUAD RESOLVE table.
pub fn roll_unknown_resolve(dice: &mut dyn Dice, unit_id: &str) -> Result<Resolve, DiceError> {
    roll_on(dice, unit_id, "squad_resolve", &SQUAD_RESOLVE)
}

/// Runs basic generation on valid choices.
pub(crate) fn generate(
    choices: &BasicChoices,
    rules: &HouseRules,
    ctx: &mut Ctx<'_>,
) -> Result<Force, DiceError> {
    let total = choices.total_platoons() as usize;
    let options = choices.options;

    // Platoon size, then the squads' tables in the order of the text.
    let mut drafts = Vec::with_capacity(total);
    for i in 0..total {
        let size = roll_on(ctx.dice, &platoon_subject(i), "platoon_size", &PLATOON_SIZE)?;
        drafts.push(PlatoonDraft {
            hq: command_squad(
                COMMAND_SQUAD_TROOPERS,
                Armour::Light,
                BasicWeapon::AssaultRifles,
            ),
            squads: (0..size as usize)
                .map(|j| squad(format!("Squad {}", j + 1)))
                .collect(),
            extras: Vec::new(),
        });
    }
    let each = squads_of(&drafts);
    match rules.squad_strength_roll {
        SquadStrengthRoll::PerPlayer => {
            let strength = roll_on(ctx.dice, "force", "squad_strength", &SQUAD_STRENGTH)?;
            for (i, j) in &each {
                set_strength(&mut drafts[*i].squads[*j], strength);
            }
        }
        SquadStrengthRoll::PerSquad => {
            for (i, j) in &each {
                let s = roll_on(
                    ctx.dice,
                    &squad_subject(*i, *j),
                    "squad_strength",
                    &SQUAD_STRENGTH,
                )?;
                set_strength(&mut drafts[*i].squads[*j], s);
            }
        }
    }
    for (i, j) in &each {
        drafts[*i].squads[*j].quality = roll_on(
            ctx.dice,
            &squad_subject(*i, *j),
            "squad_quality",
            &SQUAD_QUALITY,
        )?;
    }
    for (i, j) in &each {
        drafts[*i].squads[*j].resolve = if options.unknown_resolve {
            None
        } else {
            Some(roll_on(
                ctx.dice,
                &squad_subject(*i, *j),
                "squad_resolve",
                &SQUAD_RESOLVE,
            )?)
        };
    }
    for (i, j) in &each {
        drafts[*i].squads[*j].armour = roll_on(
            ctx.dice,
            &squad_subject(*i, *j),
            "squad_armour",
            &SQUAD_ARMOUR,
        )?;
    }
    let weapon = roll_on(ctx.dice, "force", "basic_weapon", &BASIC_WEAPON)?;
    for draft in &mut drafts {
        draft.hq.basic_weapon = Some(weapon);
        for s in &mut draft.squads {
            s.basic_weapon = Some(weapon);
        }
    }
    for (i, j) in &each {
        let w = roll_on(
            ctx.dice,
            &squad_subject(*i, *j),
            "support_weapon",
            &SUPPORT_WEAPON,
        )?;
        add_support(&mut drafts[*i].squads[*j], w);
    }

    if let Some(v) = &choices.variation {
        apply_variation(v, &mut drafts, ctx);
    }
    for (i, e) in choices.enhancements.iter().enumerate() {
        if let Some(e) = e {
            apply_enhancement(e, i, &mut drafts[i], weapon, options, ctx)?;
        }
    }
    for (i, l) in choices.limitations.iter().enumerate() {
        if let Some(l) = l {
            apply_limitation(l, i, &mut drafts[i], ctx);
        }
    }

    if options.squad_leaders {
        for (i, draft) in drafts.iter_mut().enumerate() {
            for (j, s) in draft.squads.iter_mut().enumerate() {
                s.leader_experience = Some(roll_on(
                    ctx.dice,
                    &squad_subject(i, j),
                    "squad_leader",
                    &SQUAD_LEADER,
                )?);
            }
        }
    }
    if options.heavy_weapons {
        for (i, draft) in drafts.iter_mut().enumerate() {
            let w = roll_on(ctx.dice, &platoon_subject(i), "heavy_weapon", &HEAVY_WEAPON)?;
            draft.extras.push(weapons_team(w, weapon));
        }
    }
    if options.artillery_support {
        let count = 1 + usize::from(choices.attacker);
        for k in 0..count {
            let w = roll_on(
                ctx.dice,
                &format!("force.artillery[{k}]"),
                "artillery",
                &ARTILLERY,
            )?;
            drafts[0].extras.push(off_board(w, Quality::Regular));
        }
    }
    apply_common(&options, &mut drafts, ctx)?;
    let name = choices.name.as_deref().unwrap_or("Generated force");
    Ok(into_force(name, drafts))
}

fn squads_of(drafts: &[PlatoonDraft]) -> Vec<(usize, usize)> {
    drafts
        .iter()
        .enumerate()
        .flat_map(|(i, d)| (0..d.squads.len()).map(move |j| (i, j)))
        .collect()
}

fn apply_variation(v: &VariationChoice, drafts: &mut [PlatoonDraft], ctx: &mut Ctx<'_>) {
    let picks: Vec<(usize, usize)> = match &v.squads {
        Some(refs) => refs.iter().map(|r| (r.platoon, r.squad)).collect(),
        None if v.kind == Variation::HeavyRifles => vec![(0, 0)],
        None => squads_of(drafts),
    };
    let mut each_pick = |drafts: &mut [PlatoonDraft],
                         f: &mut dyn FnMut(&mut crate::roster::Unit)| {
        for (i, j) in &picks {
            match drafts.get_mut(*i).and_then(|d| d.squads.get_mut(*j)) {
                Some(s) => f(s),
                None => ctx.notes.push(format!(
                    "variation {}: platoon[{i}] has no squad[{j}]; skipped",
                    v.kind
                )),
            }
        }
    };
    match v.kind {
        Variation::AssaultTroops => {
            for d in drafts.iter_mut() {
                for s in &mut d.squads {
                    s.basic_weapon = Some(BasicWeapon::SubMachineGuns);
                    add_trait(s, Trait::AssaultTroops);
                }
            }
        }
        Variation::EnergyWeapons => each_pick(drafts, &mut |s| {
            if let Some(w) = s.support_weapons.first_mut() {
                *w = SupportWeapon::PlasmaRifle;
            }
        }),
        Variation::HeavyRifles => each_pick(drafts, &mut |s| {
            s.basic_weapon = Some(BasicWeapon::GaussRifles);
            s.support_weapons.clear();
        }),
        Variation::HumanWave => each_pick(drafts, &mut |s| {
            if !s.support_weapons.is_empty() {
                s.support_weapons.remove(0);
                add_strength(s, 2);
            }
        }),
        Variation::ImprovedCommand => {
            for d in drafts.iter_mut() {
                add_strength(&mut d.hq, 2);
                d.hq.armour = Armour::Heavy;
            }
        }
        Variation::LocalMilitia => each_pick(drafts, &mut local_militia),
        Variation::LoneLeader => {
            for d in drafts.iter_mut() {
                set_strength(&mut d.hq, 1);
                for s in &mut d.squads {
                    add_strength(s, 1);
                }
            }
        }
        Variation::MoreSupport => {
            let weapon = v
                .support_weapon
                .unwrap_or(SupportWeapon::SquadAutomaticWeapon);
            each_pick(drafts, &mut |s| {
                // Two riflemen go and one of the remaining riflemen carries the extra weapon
                // (net −2: a squad of 8 becomes 6 with two support weapons); the leader keeps
                // the basic weapon, so a squad needs a rifleman left over to carry it.
                if s.strength as usize >= s.support_weapons.len() + MORE_SUPPORT_MIN_SPARE {
                    add_strength(s, -2);
                    add_support(s, weapon);
                }
            });
        }
    }
}

fn apply_enhancement(
    e: &EnhancementChoice,
    i: usize,
    draft: &mut PlatoonDraft,
    weapon: BasicWeapon,
    options: GenerationOptions,
    ctx: &mut Ctx<'_>,
) -> Result<(), DiceError> {
    let picks = e
        .squads
        .clone()
        .unwrap_or_else(|| e.kind.default_picks(draft.squads.len()));
    match e.kind {
        Enhancement::FirePower => {
            let w = roll_on(
                ctx.dice,
                &platoon_subject(i),
                "fire_power_support_weapon",
                &SUPPORT_WEAPON,
            )?;
            for s in &mut draft.squads {
                add_support(s, w);
            }
        }
        Enhancement::HeavyTroopers => {
            let missing = draft.for_squads(&picks, |s| s.armour = Armour::Heavy);
            ctx.note_missing("heavy_troopers", i, &missing);
        }
        Enhancement::ImprovedIntel => ctx.effect(i, Effect::ImprovedIntel),
        Enhancement::LongerRange => ctx.effect(i, Effect::LongerRange),
        Enhancement::Manpower => {
            for s in &mut draft.squads {
                add_strength(s, 2);
            }
        }
        Enhancement::Recon => {
            let j = draft.squads.len();
            let subject = squad_subject(i, j);
            let mut recon = squad("Recon squad".to_owned());
            set_strength(&mut recon, RECON_SQUAD_STRENGTH);
            recon.quality = roll_on(ctx.dice, &subject, "squad_quality", &SQUAD_QUALITY)?;
            recon.resolve = if options.unknown_resolve {
                None
            } else {
                Some(roll_on(
                    ctx.dice,
                    &subject,
                    "squad_resolve",
                    &SQUAD_RESOLVE,
                )?)
            };
            recon.armour = roll_on(ctx.dice, &subject, "squad_armour", &SQUAD_ARMOUR)?;
            recon.basic_weapon = Some(weapon);
            // S5: recon troops have the Recon trait.
            add_trait(&mut recon, Trait::Recon);
            draft.squads.push(recon);
        }
        Enhancement::UrbanAssault => {
            for s in &mut draft.squads {
                let riflemen = (s.strength as usize).saturating_sub(s.support_weapons.len() + 1);
                for _ in 0..riflemen.min(2) {
                    add_support(s, SupportWeapon::AssaultShotgun);
                }
            }
        }
        Enhancement::Veterans => {
            let missing = draft.for_squads(&picks, |s| s.quality = s.quality.up());
            ctx.note_missing("veterans", i, &missing);
        }
    }
    Ok(())
}

fn apply_limitation(l: &LimitationChoice, i: usize, draft: &mut PlatoonDraft, ctx: &mut Ctx<'_>) {
    let picks = l
        .squads
        .clone()
        .unwrap_or_else(|| l.kind.default_picks(draft.squads.len()));
    let missing = match l.kind {
        Limitation::Inflexible => {
            ctx.effect(i, Effect::CoherencyTwoInches);
            Vec::new()
        }
        Limitation::Inexperienced => draft.for_squads(&picks, |s| s.quality = s.quality.down()),
        Limitation::Militia => draft.for_squads(&picks, |s| {
            s.quality = Quality::Rabble;
            s.armour = Armour::None;
        }),
        Limitation::NoGrenades => {
            for s in &mut draft.squads {
                add_trait(s, Trait::NoGrenades);
            }
            Vec::new()
        }
        Limitation::ShorterRange => {
            ctx.effect(i, Effect::ShorterRange);
            Vec::new()
        }
        Limitation::UnderGunned => draft.for_squads(&picks, |s| {
            s.support_weapons.pop();
        }),
        Limitation::UnderStrength => {
            for s in &mut draft.squads {
                add_strength(s, -1);
            }
            Vec::new()
        }
        Limitation::WarWeary => {
            draft.for_squads(&picks, |s| s.resolve = s.resolve.map(Resolve::down))
        }
    };
    ctx.note_missing(l.kind.name(), i, &missing);
}

#[cfg(test)]
mod tests;
