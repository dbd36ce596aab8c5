//! The generation options (docs/rules.md §4.1 › Options, §4.2 › Options; S000 › BUILDING BASIC
//! FORCES › Greater Variety Rule, ADVANCED FORCE GENERATION › Option – Heroic Characters,
//! Psionics, Not Like Us).
//!
//! Readings taken here:
//! - Heroic characters are Regular and Steady like the platoon leaders (the text gives no
//!   Quality), carry the weapon and armour of the first squad of the platoon they join, and are
//!   placed round-robin over the platoons (character k in platoon k mod P).
//! - A psionic is "one member of that platoon": the figure leaves the platoon's first squad that
//!   has more than one figure and becomes a one-figure Psionic unit with that squad's ratings and
//!   kit (an extra figure only if no squad can spare one).
//! - Not Like Us traits go on every unit of the force. When Fanatic comes up, every unit's Resolve
//!   is set to Steady, the only Resolve a Fanatic may have.
//! - The three options are accepted by both methods; Unknown Resolve, Squad Leaders, Heavy Weapons
//!   and Artillery Support belong to basic generation (advanced generation has its own rules).

use serde::{Deserialize, Serialize};

use super::draft::{PlatoonDraft, add_strength, add_trait, set_strength};
use super::roll::{D6Table, quantity_test, roll_on};
use super::{Ctx, platoon_subject};
use crate::dice::DiceError;
use crate::ladder::{Aptitude, Leadership, Quality, Resolve};
use crate::roster::{Unit, UnitKind};
use crate::traits::Trait;

/// The options of both methods (JSON `options`; every flag defaults to off).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct GenerationOptions {
    /// Basic: Resolve is left unknown (`null`) and rolled the first time the unit takes
    /// casualties (see [`roll_unknown_resolve`](super::basic::roll_unknown_resolve)).
    pub unknown_resolve: bool,
    /// Basic: roll 1d6 for each squad leader (docs/rules.md §1.4).
    pub squad_leaders: bool,
    /// Basic: one heavy weapons team per platoon.
    pub heavy_weapons: bool,
    /// Basic: one off-board artillery unit, plus one for the attacker.
    pub artillery_support: bool,
    /// Heroic Characters: 3d6 once, one independent character per 5+.
    pub heroic_characters: bool,
    /// Psionics: 1d6 per platoon, a psionic on 5+.
    pub psionics: bool,
    /// Not Like Us: one roll on each trait table for the whole force.
    pub not_like_us: bool,
}

/// Heroic Characters: dice rolled once for the force.
pub const HEROIC_CHARACTER_DICE: usize = 3;

/// CHARACTER TRAIT: 1–2 Villain, 3–4 Hero, 5–6 Legend.
pub const CHARACTER_NATURE: D6Table<Trait> = [
    Trait::Villain,
    Trait::Villain,
    Trait::Hero,
    Trait::Hero,
    Trait::Legend,
    Trait::Legend,
];

/// Psionics: a psionic on this roll or more.
pub const PSIONIC_TARGET: u8 = 5;

/// PSIONIC APTITUDE: 1–2 Marginal, 3–4 Competent, 5–6 Expert.
pub const PSIONIC_APTITUDE: D6Table<Aptitude> = [
    Aptitude::Marginal,
    Aptitude::Marginal,
    Aptitude::Competent,
    Aptitude::Competent,
    Aptitude::Expert,
    Aptitude::Expert,
];

/// A psionic's starting Strength.
pub const PSIONIC_START_STRENGTH: u32 = 3;

/// Not Like Us, table A (two traits per face).
pub const NOT_LIKE_US_A: D6Table<[Trait; 2]> = [
    [Trait::Aerial, Trait::Swift],
    [Trait::Agile, Trait::Infiltration],
    [Trait::Elusive, Trait::Stealth],
    [Trait::Fanatic, Trait::SelfRepairing],
    [Trait::ShockTroops, Trait::Tough],
    [Trait::Regenerate, Trait::Terrifying],
];

/// Not Like Us, table B.
pub const NOT_LIKE_US_B: D6Table<Trait> = [
    Trait::Aggressive,
    Trait::Berserk,
    Trait::Shaky,
    Trait::Slow,
    Trait::SlowFiring,
    Trait::Relentless,
];

/// Applies Heroic Characters, Psionics and Not Like Us, in that order.
pub(crate) fn apply_common(
    options: &GenerationOptions,
    drafts: &mut [PlatoonDraft],
    ctx: &mut Ctx<'_>,
) -> Result<(), DiceError> {
    if options.heroic_characters {
        heroic_characters(drafts, ctx)?;
    }
    if options.psionics {
        psionics(drafts, ctx)?;
    }
    if options.not_like_us {
        not_like_us(drafts, ctx)?;
    }
    Ok(())
}

/// Option – Heroic Characters. Rolls: `force` (3d6 `heroic_characters`), then
/// `force.character[k]` (`character_nature`).
pub(crate) fn heroic_characters(
    drafts: &mut [PlatoonDraft],
    ctx: &mut Ctx<'_>,
) -> Result<(), DiceError> {
    if drafts.is_empty() {
        return Ok(());
    }
    let count = quantity_test(
        ctx.dice,
        "force",
        "heroic_characters",
        HEROIC_CHARACTER_DICE,
    )?;
    for k in 0..count as usize {
        let nature = roll_on(
            ctx.dice,
            &format!("force.character[{k}]"),
            "character_nature",
            &CHARACTER_NATURE,
        )?;
        let draft = &mut drafts[k % drafts.len()];
        let model = draft.squads.first().unwrap_or(&draft.hq);
        let mut character = Unit {
            name: format!("{} {}", capitalised(nature), k + 1),
            kind: UnitKind::Character,
            quality: Quality::Regular,
            resolve: Some(Resolve::Steady),
            armour: model.armour,
            basic_weapon: model.basic_weapon,
            leadership: Some(Leadership::Experienced),
            traits: vec![Trait::Agile, nature],
            ..Unit::default()
        };
        set_strength(&mut character, 1);
        draft.extras.push(character);
    }
    Ok(())
}

fn capitalised(t: Trait) -> String {
    let name = t.to_string();
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => name,
    }
}

/// Option – Psionics. Rolls per platoon `platoon[i]`: `psionics`, then on 5+
/// `psionic_aptitude`.
pub(crate) fn psionics(drafts: &mut [PlatoonDraft], ctx: &mut Ctx<'_>) -> Result<(), DiceError> {
    for (i, draft) in drafts.iter_mut().enumerate() {
        let subject = platoon_subject(i);
        let roll = roll_on(ctx.dice, &subject, "psionics", &[1, 2, 3, 4, 5, 6])?;
        if roll < PSIONIC_TARGET {
            continue;
        }
        let aptitude = roll_on(ctx.dice, &subject, "psionic_aptitude", &PSIONIC_APTITUDE)?;
        let donor = draft.squads.iter_mut().find(|s| s.strength > 1);
        let model = match donor {
            Some(squad) => {
                add_strength(squad, -1);
                squad.clone()
            }
            None => draft.squads.first().unwrap_or(&draft.hq).clone(),
        };
        let mut psionic = Unit {
            name: "Psionic".to_owned(),
            kind: UnitKind::Psionic,
            quality: model.quality,
            resolve: model.resolve,
            armour: model.armour,
            basic_weapon: model.basic_weapon,
            traits: model.traits.clone(),
            aptitude: Some(aptitude),
            psionic_strength: Some(PSIONIC_START_STRENGTH),
            ..Unit::default()
        };
        set_strength(&mut psionic, 1);
        draft.extras.push(psionic);
    }
    Ok(())
}

/// Option – Not Like Us. Rolls `force`: `not_like_us_a`, then `not_like_us_b`.
pub(crate) fn not_like_us(drafts: &mut [PlatoonDraft], ctx: &mut Ctx<'_>) -> Result<(), DiceError> {
    let a = roll_on(ctx.dice, "force", "not_like_us_a", &NOT_LIKE_US_A)?;
    let b = roll_on(ctx.dice, "force", "not_like_us_b", &NOT_LIKE_US_B)?;
    let traits = [a[0], a[1], b];
    let fanatic = traits.contains(&Trait::Fanatic);
    for draft in drafts.iter_mut() {
        for unit in std::iter::once(&mut draft.hq)
            .chain(draft.squads.iter_mut())
            .chain(draft.extras.iter_mut())
        {
            for t in traits {
                add_trait(unit, t);
            }
            if fanatic {
                unit.resolve = Some(Resolve::Steady);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Named;

    #[test]
    fn character_nature_table_matches_rules_4_2() {
        assert_eq!(
            CHARACTER_NATURE.map(|t| t.name()),
            ["villain", "villain", "hero", "hero", "legend", "legend"]
        );
        assert!(CHARACTER_NATURE.iter().all(|t| t.single_figure_only()));
    }

    #[test]
    fn psionic_aptitude_table_matches_rules_4_2() {
        assert_eq!(
            PSIONIC_APTITUDE.map(|a| a.name()),
            [
                "marginal",
                "marginal",
                "competent",
                "competent",
                "expert",
                "expert"
            ]
        );
        assert_eq!(PSIONIC_TARGET, 5);
        assert_eq!(PSIONIC_START_STRENGTH, 3);
    }

    #[test]
    fn not_like_us_tables_match_rules_4_2() {
        let a: Vec<_> = NOT_LIKE_US_A
            .iter()
            .map(|p| format!("{}+{}", p[0], p[1]))
            .collect();
        assert_eq!(
            a,
            [
                "aerial+swift",
                "agile+infiltration",
                "elusive+stealth",
                "fanatic+self_repairing",
                "shock_troops+tough",
                "regenerate+terrifying"
            ]
        );
        assert_eq!(
            NOT_LIKE_US_B.map(|t| t.name()),
            [
                "aggressive",
                "berserk",
                "shaky",
                "slow",
                "slow_firing",
                "relentless"
            ]
        );
    }
}
