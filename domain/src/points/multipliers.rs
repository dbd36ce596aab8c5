//! The multipliers applied after the Quality/Resolve factor: traits (with the options of the
//! traits that have several prices), abilities and "no ranged attacks" (docs/rules.md §1.13, §4.3,
//! F16; S000 › POINT VALUE SYSTEM › ABILITIES, UNIT TRAITS, NO RANGED ATTACKS).
//!
//! Readings taken here, where the text gives no number:
//! - Air Mobile and Command Squad have no cost given: ×1.0.
//! - Infect "varies": ×1.0 unless the players agreed a multiplier (`infect_multiplier`).
//! - Bestow Trait "×1.4 + cost of traits": ×1.4 times the multipliers of the bestowed traits.
//! - Implied traits (a Zombie's Relentless and Fanatic) are part of the Zombie's ×0.7 and are not
//!   charged again: only the traits listed on the unit are multiplied in.

use serde::{Deserialize, Serialize};

use crate::roster::Unit;
use crate::traits::Trait;

/// The ×0.7 for a unit with no ranged attacks at all.
pub const NO_RANGED_ATTACKS_MULTIPLIER: f64 = 0.7;

/// Options of the traits that have more than one price (docs/rules.md §1.13).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct TraitOptions {
    /// Droid Troopers are self-less (×1.6) instead of self-preserving (×1.3).
    pub droid_self_less: bool,
    /// The Holy item is a weapon (×1.1) instead of armour (×1.3).
    pub holy_weapon: bool,
    /// The Unholy item is a weapon (×1.1) instead of armour (×1.3).
    pub unholy_weapon: bool,
    /// Resilient's RP (2 when absent): ×1.2 for 2 RP, +0.2 per extra RP.
    pub resilient_points: Option<u8>,
    /// The traits a Bestow Trait unit bestows.
    pub bestowed_traits: Vec<Trait>,
    /// The multiplier the players agreed for Infect (×1.0 when absent).
    pub infect_multiplier: Option<f64>,
}

/// The multiplier of trait `t` under `options`.
pub fn trait_multiplier(t: Trait, options: &TraitOptions) -> f64 {
    match t {
        Trait::DroidTroopers if options.droid_self_less => 1.6,
        Trait::Holy if options.holy_weapon => 1.1,
        Trait::Unholy if options.unholy_weapon => 1.1,
        Trait::Resilient => {
            let rp = options.resilient_points.unwrap_or(2).max(2);
            1.2 + 0.2 * f64::from(rp - 2)
        }
        Trait::BestowTrait => {
            let bestowed: f64 = dedup(&options.bestowed_traits)
                .into_iter()
                .filter(|b| *b != Trait::BestowTrait)
                .map(|b| trait_multiplier(b, options))
                .product();
            1.4 * bestowed
        }
        Trait::Infect => options.infect_multiplier.unwrap_or(1.0),
        other => other.multiplier().unwrap_or(1.0),
    }
}

fn dedup(traits: &[Trait]) -> Vec<Trait> {
    let mut all = traits.to_vec();
    all.sort();
    all.dedup();
    all
}

/// The product of every multiplier applied after the Quality/Resolve factor: abilities, the
/// unit's listed traits (each once) and ×0.7 for no ranged attacks.
pub fn unit_multiplier(unit: &Unit) -> f64 {
    let mut abilities = unit.abilities.clone();
    abilities.sort();
    abilities.dedup();
    let abilities: f64 = abilities.iter().map(|a| a.multiplier()).product();
    let traits: f64 = dedup(&unit.traits)
        .into_iter()
        .map(|t| trait_multiplier(t, &unit.trait_options))
        .product();
    let ranged = if unit.no_ranged_attacks {
        NO_RANGED_ATTACKS_MULTIPLIER
    } else {
        1.0
    };
    abilities * traits * ranged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Named;
    use crate::points::gear::Ability;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn every_trait_defaults_to_its_table_multiplier_or_one() {
        let options = TraitOptions::default();
        for t in Trait::ALL {
            let expected = t.multiplier().unwrap_or(1.0);
            assert!(close(trait_multiplier(*t, &options), expected), "{t}");
        }
    }

    #[test]
    fn traits_with_options_take_their_other_prices() {
        let options = TraitOptions {
            droid_self_less: true,
            holy_weapon: true,
            unholy_weapon: true,
            resilient_points: Some(4),
            bestowed_traits: vec![Trait::Brave, Trait::Tough, Trait::Brave],
            infect_multiplier: Some(1.25),
        };
        assert!(close(trait_multiplier(Trait::DroidTroopers, &options), 1.6));
        assert!(close(trait_multiplier(Trait::Holy, &options), 1.1));
        assert!(close(trait_multiplier(Trait::Unholy, &options), 1.1));
        assert!(close(trait_multiplier(Trait::Resilient, &options), 1.6));
        assert!(close(
            trait_multiplier(Trait::BestowTrait, &options),
            1.4 * 1.5 * 1.2
        ));
        assert!(close(trait_multiplier(Trait::Infect, &options), 1.25));
    }

    #[test]
    fn abilities_traits_and_no_ranged_attacks_multiply_in_sequence() {
        let unit = Unit {
            abilities: vec![Ability::DropTroops, Ability::JetPacks],
            traits: vec![Trait::Recon, Trait::Agile, Trait::Recon],
            no_ranged_attacks: true,
            ..Unit::default()
        };
        assert!(close(unit_multiplier(&unit), 1.3 * 1.5 * 1.3 * 1.2 * 0.7));
    }

    #[test]
    fn a_zombie_pays_only_its_own_multiplier_not_the_implied_traits() {
        let unit = Unit {
            traits: vec![Trait::Zombie],
            ..Unit::default()
        };
        assert!(close(unit_multiplier(&unit), 0.7));
    }
}
