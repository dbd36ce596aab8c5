//! The 65 unit traits of S000 with their point multipliers and scenario flags (docs/rules.md §1.13;
//! S000 › TRAITS, POINT VALUE SYSTEM › UNIT TRAITS). Aliases follow docs/rules.md F18.

use crate::named_enum;
use crate::points::TraitOptions;

named_enum! {
    /// A unit trait (docs/rules.md §1.13).
    pub enum Trait("trait") {
        /// ×1.3.
        Aerial = "aerial",
        /// ×1.1.
        Aggressive = "aggressive",
        /// ×1.2.
        Agile = "agile",
        /// No cost given.
        AirMobile = "air_mobile",
        /// ×1.3.
        AssaultTroops = "assault_troops",
        /// ×1.3; excluded from recon duty.
        Berserk = "berserk",
        /// ×1.4 plus the cost of the bestowed traits.
        BestowTrait = "bestow_trait",
        /// ×1.5.
        Brave = "brave",
        /// ×1.2.
        BugHunter = "bug_hunter",
        /// ×0.9.
        Cautious = "cautious",
        /// ×1.2 (one use).
        CombatDrugs = "combat_drugs",
        /// No cost given.
        CommandSquad = "command_squad",
        /// ×1.1.
        Dependent = "dependent",
        /// ×1.1.
        Detection = "detection",
        /// ×1.3 self-preserving / ×1.6 self-less (self-less droids are Relentless).
        DroidTroopers = "droid_troopers" ["droid_trooper"],
        /// ×1.4; +1 dummy marker.
        Elusive = "elusive",
        /// ×1.2.
        Engineer = "engineer",
        /// ×1.6; Resolve frozen at Steady.
        Fanatic = "fanatic",
        /// ×1.1.
        Fearless = "fearless",
        /// ×1.2; −1 dummy marker.
        Flyer = "flyer",
        /// ×1.3.
        Frenzied = "frenzied",
        /// ×1.2.
        GeneTroopers = "gene_troopers",
        /// ×0.7.
        Goon = "goon",
        /// ×1.2.
        Grizzled = "grizzled",
        /// ×1.1.
        GungHo = "gung_ho",
        /// ×1.1.
        Hardened = "hardened",
        /// ×1.5; single figure only.
        Hero = "hero",
        /// ×0.8.
        Hesitant = "hesitant",
        /// ×1.5; excluded from recon duty.
        Hivemind = "hivemind" ["hive_mind"],
        /// ×1.3 armour / ×1.1 weapon.
        Holy = "holy",
        /// ×1.2; single figure only.
        Hq = "hq",
        /// ×1.3.
        Huge = "huge",
        /// ×1.2.
        IgnorePain = "ignore_pain",
        /// Cost agreed by the players.
        Infect = "infect",
        /// ×1.3; recon-duty bonus.
        Infiltration = "infiltration" ["infiltrate"],
        /// ×0.8.
        Inflexible = "inflexible",
        /// ×2.0; single figure only.
        Legend = "legend",
        /// ×1.2.
        Mechanized = "mechanized",
        /// ×1.1.
        NightVision = "night_vision",
        /// ×0.8.
        NoGrenades = "no_grenades",
        /// ×0.8.
        ObviousTarget = "obvious_target",
        /// ×0.8.
        Primitive = "primitive",
        /// ×1.3; recon-duty bonus.
        Recon = "recon",
        /// ×1.2.
        Regenerate = "regenerate",
        /// ×1.2; −1 dummy marker; excluded from recon duty.
        Relentless = "relentless",
        /// ×1.2 for 2 RP, +0.2 per extra RP.
        Resilient = "resilient",
        /// ×1.4.
        Save = "save",
        /// ×1.1.
        SelfRepairing = "self_repairing",
        /// ×0.8; excluded from recon duty.
        Shaky = "shaky",
        /// ×1.1.
        ShockTroops = "shock_troops",
        /// ×1.2.
        Slick = "slick",
        /// ×0.8.
        Slow = "slow",
        /// ×0.8.
        SlowFiring = "slow_firing",
        /// ×1.1; +1 dummy marker.
        Stealth = "stealth",
        /// ×1.3 ("Fast" on Bio Mech armour reads as Swift, F18).
        Swift = "swift" ["fast"],
        /// ×1.2.
        TankHunter = "tank_hunter",
        /// ×1.2.
        TechReverence = "tech_reverence",
        /// ×1.6.
        Terrifying = "terrifying",
        /// ×0.9.
        Timid = "timid",
        /// ×1.2.
        Tough = "tough",
        /// ×1.3 armour / ×1.1 weapon.
        Unholy = "unholy",
        /// ×1.3.
        Uplink = "uplink" ["up_linked"],
        /// ×1.5; single figure only.
        Villain = "villain",
        /// ×0.9.
        Weak = "weak",
        /// ×0.7; also Relentless and Fanatic; excluded from recon duty.
        Zombie = "zombie",
    }
}

impl Trait {
    /// The multiplier at its default option, `None` where the source gives no cost (Air Mobile,
    /// Command Squad) or leaves it to the players (Infect). Droid Troopers default to
    /// self-preserving (1.3), Holy/Unholy to armour (1.3), Resilient to 2 RP (1.2), Bestow Trait
    /// to its own 1.4 without the bestowed traits.
    pub fn multiplier(self) -> Option<f64> {
        use Trait::*;
        Some(match self {
            AirMobile | CommandSquad | Infect => return None,
            Goon | Zombie => 0.7,
            Hesitant | Inflexible | NoGrenades | ObviousTarget | Primitive | Shaky | Slow
            | SlowFiring => 0.8,
            Cautious | Timid | Weak => 0.9,
            Aggressive | Dependent | Detection | Fearless | GungHo | Hardened | NightVision
            | SelfRepairing | ShockTroops | Stealth => 1.1,
            Agile | BugHunter | CombatDrugs | Engineer | Flyer | GeneTroopers | Grizzled | Hq
            | IgnorePain | Mechanized | Regenerate | Relentless | Resilient | Slick
            | TankHunter | TechReverence | Tough => 1.2,
            Aerial | AssaultTroops | Berserk | DroidTroopers | Frenzied | Holy | Huge
            | Infiltration | Recon | Swift | Unholy | Uplink => 1.3,
            BestowTrait | Elusive | Save => 1.4,
            Brave | Hero | Hivemind | Villain => 1.5,
            Fanatic | Terrifying => 1.6,
            Legend => 2.0,
        })
    }

    /// ᴿ: +1 on the recon-duty return roll, and any squad with it may go on recon duty.
    pub fn is_recon_trait(self) -> bool {
        matches!(self, Self::Recon | Self::Infiltration)
    }

    /// ˣ: the unit cannot be chosen for recon duty.
    pub fn excludes_recon_duty(self) -> bool {
        matches!(
            self,
            Self::Berserk | Self::Hivemind | Self::Relentless | Self::Shaky | Self::Zombie
        )
    }

    /// ᴰ: +1 for Elusive or Stealth, −1 for Flyer or Relentless (each counted once per unit, S13).
    pub fn dummy_marker_group(self) -> Option<DummyMarkerGroup> {
        match self {
            Self::Elusive | Self::Stealth => Some(DummyMarkerGroup::Adds),
            Self::Flyer | Self::Relentless => Some(DummyMarkerGroup::Removes),
            _ => None,
        }
    }

    /// ¹: may only be taken by a single figure.
    pub fn single_figure_only(self) -> bool {
        matches!(self, Self::Hero | Self::Hq | Self::Legend | Self::Villain)
    }

    /// ²: the unit's Resolve is frozen at Steady (Fanatic, and Zombies, who are Fanatic).
    pub fn freezes_resolve(self) -> bool {
        matches!(self, Self::Fanatic | Self::Zombie)
    }

    /// Traits this one brings with it under `options` (the rows of [`IMPLIED_TRAITS`]).
    pub fn implied(self, options: &TraitOptions) -> impl Iterator<Item = Trait> + '_ {
        IMPLIED_TRAITS
            .iter()
            .filter(move |row| row.trait_ == self && row.when.holds(options))
            .flat_map(|row| row.implied.iter().copied())
    }

    /// Traits granted by mission bonuses (docs/rules.md §1.13, §3.10).
    pub const MISSION_BONUS_TRAITS: [Trait; 11] = [
        Self::AssaultTroops,
        Self::Hardened,
        Self::Grizzled,
        Self::Tough,
        Self::Infiltration,
        Self::Stealth,
        Self::Recon,
        Self::Agile,
        Self::Elusive,
        Self::Brave,
        Self::ShockTroops,
    ];
}

/// Which way a trait moves the dummy contact-marker count (docs/rules.md §3.6, S13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DummyMarkerGroup {
    /// Elusive or Stealth: +1 per unit.
    Adds,
    /// Flyer or Relentless: −1 per unit.
    Removes,
}

/// When a row of [`IMPLIED_TRAITS`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImpliedWhen {
    /// Whenever the unit has the trait.
    Always,
    /// Only for Droid Troopers without self-preservation (the ×1.6 option).
    DroidSelfLess,
}

impl ImpliedWhen {
    fn holds(self, options: &TraitOptions) -> bool {
        match self {
            Self::Always => true,
            Self::DroidSelfLess => options.droid_self_less,
        }
    }
}

/// One trait that brings others with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImpliedTraits {
    /// The trait the unit has.
    pub trait_: Trait,
    /// When it brings the others.
    pub when: ImpliedWhen,
    /// The traits it brings.
    pub implied: &'static [Trait],
}

/// Traits that bring others with them (docs/rules.md §1.13): ³ Zombies are also Relentless and
/// Fanatic; Droid Troopers without self-preservation acquire Relentless (so no recon duty and
/// −1 dummy marker, §3.3, §3.6). Implied traits are never charged again in points.
pub const IMPLIED_TRAITS: [ImpliedTraits; 2] = [
    ImpliedTraits {
        trait_: Trait::Zombie,
        when: ImpliedWhen::Always,
        implied: &[Trait::Relentless, Trait::Fanatic],
    },
    ImpliedTraits {
        trait_: Trait::DroidTroopers,
        when: ImpliedWhen::DroidSelfLess,
        implied: &[Trait::Relentless],
    },
];

/// A unit's traits with the implied ones added under its trait options ([`IMPLIED_TRAITS`]).
pub fn effective_traits(traits: &[Trait], options: &TraitOptions) -> Vec<Trait> {
    let mut all: Vec<Trait> = traits.to_vec();
    for t in traits {
        all.extend(t.implied(options));
    }
    all.sort();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Named;

    #[test]
    fn there_are_65_traits_with_the_rules_1_13_multipliers() {
        assert_eq!(Trait::ALL.len(), 65);
        let costless: Vec<_> = Trait::ALL
            .iter()
            .filter(|t| t.multiplier().is_none())
            .copied()
            .collect();
        assert_eq!(
            costless,
            [Trait::AirMobile, Trait::CommandSquad, Trait::Infect]
        );
        assert_eq!(Trait::Legend.multiplier(), Some(2.0));
        assert_eq!(Trait::Goon.multiplier(), Some(0.7));
        assert_eq!(Trait::Brave.multiplier(), Some(1.5));
        assert_eq!(Trait::Elusive.multiplier(), Some(1.4));
        // Sum over every costed trait pins the whole table against a typo.
        let sum: f64 = Trait::ALL.iter().filter_map(|t| t.multiplier()).sum();
        assert!((sum - 72.9).abs() < 1e-9, "sum {sum}");
    }

    #[test]
    fn aliases_follow_f18() {
        assert_eq!(Trait::parse("Infiltrate"), Ok(Trait::Infiltration));
        assert_eq!(Trait::parse("Hive mind"), Ok(Trait::Hivemind));
        assert_eq!(Trait::parse("Up Linked"), Ok(Trait::Uplink));
        assert_eq!(Trait::parse("Droid Trooper"), Ok(Trait::DroidTroopers));
        assert_eq!(Trait::parse("Fast"), Ok(Trait::Swift));
    }

    #[test]
    fn scenario_flags_match_the_marks() {
        let recon: Vec<_> = Trait::ALL
            .iter()
            .filter(|t| t.is_recon_trait())
            .copied()
            .collect();
        assert_eq!(recon, [Trait::Infiltration, Trait::Recon]);
        let excluded: Vec<_> = Trait::ALL
            .iter()
            .filter(|t| t.excludes_recon_duty())
            .copied()
            .collect();
        assert_eq!(
            excluded,
            [
                Trait::Berserk,
                Trait::Hivemind,
                Trait::Relentless,
                Trait::Shaky,
                Trait::Zombie
            ]
        );
        let single: Vec<_> = Trait::ALL
            .iter()
            .filter(|t| t.single_figure_only())
            .copied()
            .collect();
        assert_eq!(
            single,
            [Trait::Hero, Trait::Hq, Trait::Legend, Trait::Villain]
        );
        assert_eq!(
            Trait::Stealth.dummy_marker_group(),
            Some(DummyMarkerGroup::Adds)
        );
        assert_eq!(
            Trait::Relentless.dummy_marker_group(),
            Some(DummyMarkerGroup::Removes)
        );
    }

    #[test]
    fn zombies_are_relentless_and_fanatic() {
        let plain = TraitOptions::default();
        assert_eq!(
            effective_traits(&[Trait::Zombie], &plain),
            [Trait::Fanatic, Trait::Relentless, Trait::Zombie]
        );
        assert!(Trait::Zombie.freezes_resolve() && Trait::Fanatic.freezes_resolve());
    }

    #[test]
    fn rules_1_13_self_less_droid_troopers_acquire_relentless() {
        let self_less = TraitOptions {
            droid_self_less: true,
            ..TraitOptions::default()
        };
        assert_eq!(
            effective_traits(&[Trait::DroidTroopers], &self_less),
            [Trait::DroidTroopers, Trait::Relentless]
        );
        // Self-preserving droids (the default option) bring nothing.
        assert_eq!(
            effective_traits(&[Trait::DroidTroopers], &TraitOptions::default()),
            [Trait::DroidTroopers]
        );
        // The option alone implies nothing without the trait.
        assert_eq!(
            effective_traits(&[Trait::Tough], &self_less),
            [Trait::Tough]
        );
    }

    #[test]
    fn the_implied_table_has_exactly_the_two_rows_of_the_rules() {
        let rows: Vec<_> = IMPLIED_TRAITS
            .iter()
            .map(|r| (r.trait_, r.when, r.implied.to_vec()))
            .collect();
        assert_eq!(
            rows,
            [
                (
                    Trait::Zombie,
                    ImpliedWhen::Always,
                    vec![Trait::Relentless, Trait::Fanatic]
                ),
                (
                    Trait::DroidTroopers,
                    ImpliedWhen::DroidSelfLess,
                    vec![Trait::Relentless]
                ),
            ]
        );
    }
}
