//! Platoons under construction: the HQ, the rolled ("basic") squads and the extra units (recon
//! squad, weapons teams, off-board artillery, psionics, characters), turned into a roster
//! [`Force`] with deterministic ids `p{platoon}-u{n}` once every rule has been applied.

use crate::kit::{Armour, BasicWeapon, HeavyWeapon, SupportWeapon};
use crate::ladder::{Ladder, Leadership, Quality, Resolve};
use crate::roster::{Force, Platoon, Unit, UnitKind};
use crate::traits::Trait;

/// One platoon being generated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlatoonDraft {
    /// The command squad / platoon HQ.
    pub hq: Unit,
    /// The rolled squads, in roll order (`platoon[i].squad[j]`).
    pub squads: Vec<Unit>,
    /// Every other unit of the platoon, in the order it was added.
    pub extras: Vec<Unit>,
}

impl PlatoonDraft {
    /// Applies `f` to the squads picked by `picks` (indexes into `squads`; out-of-range picks are
    /// skipped and reported through the returned list).
    pub fn for_squads(&mut self, picks: &[usize], mut f: impl FnMut(&mut Unit)) -> Vec<usize> {
        let mut missing = Vec::new();
        for &j in picks {
            match self.squads.get_mut(j) {
                Some(squad) => f(squad),
                None => missing.push(j),
            }
        }
        missing
    }
}

/// Sets current and establishment strength together (generation happens before any battle).
/// The squad leader carries the basic weapon, so at most `strength − 1` support weapons stay: a
/// figure removed when only support troopers are left takes his weapon with him.
pub(crate) fn set_strength(unit: &mut Unit, strength: u32) {
    unit.strength = strength;
    unit.starting_strength = strength;
    let carriers = strength.saturating_sub(1) as usize;
    unit.support_weapons.truncate(carriers);
}

/// Adds `delta` figures (negative removes), never below one figure.
pub(crate) fn add_strength(unit: &mut Unit, delta: i64) {
    let now = i64::from(unit.strength);
    let next = u32::try_from((now + delta).max(1)).unwrap_or(1);
    set_strength(unit, next);
}

/// Adds a trait once.
pub(crate) fn add_trait(unit: &mut Unit, t: Trait) {
    if !unit.traits.contains(&t) {
        unit.traits.push(t);
    }
}

/// Quality one level down, Resolve one level up, Agile: "Local Militia" in both systems.
pub(crate) fn local_militia(unit: &mut Unit) {
    unit.quality = unit.quality.down();
    unit.resolve = unit.resolve.map(Resolve::up);
    add_trait(unit, Trait::Agile);
}

/// A rolled infantry squad (strength, ratings and weapons are filled in by the rules).
pub(crate) fn squad(name: String) -> Unit {
    Unit {
        name,
        kind: UnitKind::Squad,
        ..Unit::default()
    }
}

/// A command squad: one Novice leader plus `troopers`, Regular and Steady.
pub(crate) fn command_squad(troopers: u32, armour: Armour, weapon: BasicWeapon) -> Unit {
    let mut unit = Unit {
        name: "Platoon HQ".to_owned(),
        kind: UnitKind::CommandSquad,
        quality: Quality::Regular,
        resolve: Some(Resolve::Steady),
        armour,
        basic_weapon: Some(weapon),
        leadership: Some(Leadership::Novice),
        ..Unit::default()
    };
    set_strength(&mut unit, 1 + troopers);
    unit
}

/// A heavy weapons team with the weapon's usual crew, Conscript and Steady (the start ratings of
/// the point value system: no generation table rates teams).
pub(crate) fn weapons_team(weapon: HeavyWeapon, basic: BasicWeapon) -> Unit {
    let mut unit = Unit {
        name: format!("{} team", weapon_title(weapon)),
        kind: UnitKind::WeaponsTeam,
        basic_weapon: Some(basic),
        heavy_weapons: vec![weapon],
        ..Unit::default()
    };
    set_strength(&mut unit, u32::from(weapon.crew().max(1)));
    unit
}

/// An off-board artillery unit with the weapon's usual crew.
pub(crate) fn off_board(weapon: HeavyWeapon, quality: Quality) -> Unit {
    let mut unit = Unit {
        name: format!("{} (off-board)", weapon_title(weapon)),
        kind: UnitKind::OffBoardArtillery,
        quality,
        heavy_weapons: vec![weapon],
        ..Unit::default()
    };
    set_strength(&mut unit, u32::from(weapon.crew().max(1)));
    unit
}

/// Gives one more trooper a support weapon.
pub(crate) fn add_support(unit: &mut Unit, weapon: SupportWeapon) {
    unit.support_weapons.push(weapon);
}

/// "Light Auto Cannon" from `auto_cannon_light`.
pub(crate) fn weapon_title(weapon: HeavyWeapon) -> String {
    use crate::names::Named;
    let words: Vec<&str> = weapon.name().split('_').collect();
    let (size, rest): (Option<&str>, Vec<&str>) = match words.last() {
        Some(&s) if matches!(s, "light" | "medium" | "heavy") && words.len() > 1 => {
            (Some(s), words[..words.len() - 1].to_vec())
        }
        _ => (None, words),
    };
    let mut out: Vec<String> = size.into_iter().map(capitalise).collect();
    out.extend(rest.into_iter().map(|w| match w {
        "mg" => "MG".to_owned(),
        "rpg" => "RPG".to_owned(),
        w => capitalise(w),
    }));
    out.join(" ")
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Turns the drafts into a roster with ids `p{i}-u{n}`: HQ first, then squads, then extras.
pub(crate) fn into_force(name: &str, drafts: Vec<PlatoonDraft>) -> Force {
    let platoons = drafts
        .into_iter()
        .enumerate()
        .map(|(i, draft)| {
            let units = std::iter::once(draft.hq)
                .chain(draft.squads)
                .chain(draft.extras)
                .enumerate()
                .map(|(n, mut unit)| {
                    unit.id = format!("p{i}-u{n}");
                    unit
                })
                .collect();
            Platoon {
                name: format!("Platoon {}", i + 1),
                units,
            }
        })
        .collect();
    Force {
        name: name.to_owned(),
        platoons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weapon_titles_read_naturally() {
        assert_eq!(
            weapon_title(HeavyWeapon::AutoCannonLight),
            "Light Auto Cannon"
        );
        assert_eq!(weapon_title(HeavyWeapon::HeavyMg), "Heavy MG");
        assert_eq!(weapon_title(HeavyWeapon::MortarLight), "Light Mortar");
        assert_eq!(weapon_title(HeavyWeapon::Rpg), "RPG");
    }

    #[test]
    fn strength_changes_keep_establishment_and_at_least_one_figure() {
        let mut unit = squad("s".into());
        set_strength(&mut unit, 6);
        add_strength(&mut unit, -2);
        assert_eq!((unit.strength, unit.starting_strength), (4, 4));
        add_strength(&mut unit, -10);
        assert_eq!(unit.strength, 1);
    }

    #[test]
    fn losing_figures_drops_support_weapons_only_when_no_rifleman_is_left() {
        let mut unit = squad("s".into());
        set_strength(&mut unit, 4);
        unit.support_weapons = vec![SupportWeapon::FlameThrower, SupportWeapon::PlasmaRifle];
        add_strength(&mut unit, -1);
        assert_eq!(unit.support_weapons.len(), 2);
        add_strength(&mut unit, -1);
        assert_eq!(unit.support_weapons, [SupportWeapon::FlameThrower]);
    }

    #[test]
    fn ids_are_deterministic_per_platoon() {
        let draft = PlatoonDraft {
            hq: command_squad(3, Armour::Light, BasicWeapon::AssaultRifles),
            squads: vec![squad("a".into()), squad("b".into())],
            extras: vec![weapons_team(
                HeavyWeapon::HeavyMg,
                BasicWeapon::AssaultRifles,
            )],
        };
        let force = into_force("f", vec![draft.clone(), draft]);
        let ids: Vec<_> = force.units().map(|u| u.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "p0-u0", "p0-u1", "p0-u2", "p0-u3", "p1-u0", "p1-u1", "p1-u2", "p1-u3"
            ]
        );
        assert_eq!(force.platoons[1].name, "Platoon 2");
        assert_eq!(force.platoons[0].units[3].strength, 3);
    }
}
