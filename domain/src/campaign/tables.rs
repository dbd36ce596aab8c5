//! The numbers the post-battle engine reads, as one value: the four d6 tables, the unknown-Resolve
//! table, the pool dice, the campaign points per platoon, the new squad and the experience menu.
//!
//! FAD 5e's value is built from the `const` tables beside each rule ([`CampaignTables::fad5e`]);
//! a house ruleset changes a copy of it. The engine reads only the value it is given, so a
//! campaign's pinned ruleset decides every number.

use serde::{Deserialize, Serialize};

use super::experience::{CP_PER_PLATOON, EXPERIENCE_MENU, MenuRow, PurchaseItem};
use super::quality_loss::{QUALITY_LOSS, QualityLoss};
use super::reinforcements::{NEW_SQUAD_QUALITY, NEW_SQUAD_RESOLVE, NEW_SQUAD_SIZE, POOL_DICE};
use super::replacements::{INFANTRY_REPLACEMENTS, InfantryReplacement};
use super::resolve_change::{RESOLVE_CHANGE, ResolveChange};
use super::roll_steps::UNKNOWN_RESOLVE;
use super::vehicle_replacements::{VEHICLE_REPLACEMENTS, VehicleReplacement};
use crate::kit::Personality;
use crate::ladder::{LeaderExperience, Quality, Resolve};
use crate::rulesets::gzg_fma_1999::Casualty;

/// The one new squad reinforcements may form (C10): its size range, Quality and Resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewSquadRule {
    /// Fewest troopers.
    pub min: u32,
    /// Most troopers.
    pub max: u32,
    /// Its Quality.
    pub quality: Quality,
    /// Its Resolve.
    pub resolve: Resolve,
    /// Its squad leader's experience where the squad it copies has one; absent: FAD 5e's
    /// Inexperienced (left out of FAD 5e's document so its bytes stay as they were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_experience: Option<LeaderExperience>,
}

/// Every number of the post-battle sequence a ruleset decides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignTables {
    /// INFANTRY REPLACEMENTS by d6 − 1.
    pub replacement: [InfantryReplacement; 6],
    /// VEHICLE REPLACEMENTS by d6 − 1.
    pub vehicle_replacement: [VehicleReplacement; 6],
    /// QUALITY LOSS by d6 − 1.
    pub quality_loss: [QualityLoss; 6],
    /// RESOLVE CHANGE by d6 − 1.
    pub resolve_change: [ResolveChange; 6],
    /// The Resolve an unknown Resolve is rolled to, by d6 − 1.
    pub unknown_resolve: [Resolve; 6],
    /// Dice in the reinforcement pool roll.
    pub pool_dice: u8,
    /// Campaign points earned per platoon after each battle.
    pub cp_per_platoon: u32,
    /// The new squad reinforcements may form.
    pub new_squad: NewSquadRule,
    /// The experience menu, in table order.
    pub menu: Vec<MenuRow>,
    /// The personalities `grant_personality` may grant; empty: FAD 5e's eleven (left out of
    /// FAD 5e's document so its bytes stay as they were).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub personalities: Vec<Personality>,
    /// The casualty examination by d6 − 1, for a ruleset whose down figures are examined one by
    /// one instead of the replacement table (FMA, M4); absent elsewhere (left out of FAD 5e's
    /// document so its bytes stay as they were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub casualty: Option<[Casualty; 6]>,
}

impl CampaignTables {
    /// FAD 5e's tables, from the `const` data beside each rule.
    pub fn fad5e() -> Self {
        Self {
            replacement: INFANTRY_REPLACEMENTS,
            vehicle_replacement: VEHICLE_REPLACEMENTS,
            quality_loss: QUALITY_LOSS,
            resolve_change: RESOLVE_CHANGE,
            unknown_resolve: UNKNOWN_RESOLVE,
            // The const is a usize for the dice roller; two fits a u8.
            pool_dice: POOL_DICE as u8,
            cp_per_platoon: CP_PER_PLATOON,
            new_squad: NewSquadRule {
                min: *NEW_SQUAD_SIZE.start(),
                max: *NEW_SQUAD_SIZE.end(),
                quality: NEW_SQUAD_QUALITY,
                resolve: NEW_SQUAD_RESOLVE,
                leader_experience: None,
            },
            menu: EXPERIENCE_MENU.to_vec(),
            personalities: Vec::new(),
            casualty: None,
        }
    }

    /// Whether `grant_personality` may grant `personality` under these tables.
    pub fn grants(&self, personality: Personality) -> bool {
        if self.personalities.is_empty() {
            Personality::FAD5E.contains(&personality)
        } else {
            self.personalities.contains(&personality)
        }
    }

    /// The personalities `grant_personality` may grant, in table order.
    pub fn grantable(&self) -> &[Personality] {
        if self.personalities.is_empty() {
            &Personality::FAD5E
        } else {
            &self.personalities
        }
    }

    /// Whether these are FAD 5e's tables (stored documents leave them out then).
    pub fn is_fad5e(&self) -> bool {
        *self == Self::fad5e()
    }

    /// The menu row of `item`, if the menu lists it.
    pub fn menu_row(&self, item: PurchaseItem) -> Option<&MenuRow> {
        self.menu.iter().find(|row| row.item == item)
    }

    /// What `item` costs (0 for an item the menu does not list; it cannot be bought then).
    pub fn cost(&self, item: PurchaseItem) -> u32 {
        self.menu_row(item).map_or(0, |row| row.cost)
    }

    /// Whether `item` is sold.
    pub fn sells(&self, item: PurchaseItem) -> bool {
        self.menu_row(item).is_some_and(|row| row.enabled)
    }
}

/// The row of a d6 table for a roll (values outside 1–6 are clamped; the dice never make them).
pub fn d6_row<T: Copy>(table: &[T; 6], d6: u8) -> T {
    table[usize::from(d6.clamp(1, 6) - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fad5e_tables_are_the_consts() {
        let t = CampaignTables::fad5e();
        assert_eq!(t.replacement, INFANTRY_REPLACEMENTS);
        assert_eq!(t.vehicle_replacement, VEHICLE_REPLACEMENTS);
        assert_eq!(t.quality_loss, QUALITY_LOSS);
        assert_eq!(t.resolve_change, RESOLVE_CHANGE);
        assert_eq!(t.unknown_resolve, UNKNOWN_RESOLVE);
        assert_eq!(usize::from(t.pool_dice), POOL_DICE);
        assert_eq!(t.cp_per_platoon, CP_PER_PLATOON);
        assert_eq!(t.new_squad.min..=t.new_squad.max, NEW_SQUAD_SIZE);
        assert_eq!(t.new_squad.quality, NEW_SQUAD_QUALITY);
        assert_eq!(t.new_squad.resolve, NEW_SQUAD_RESOLVE);
        assert_eq!(t.menu, EXPERIENCE_MENU.to_vec());
        assert!(t.menu.iter().all(|row| row.enabled));
        assert!(t.is_fad5e());
    }

    #[test]
    fn a_changed_table_is_not_fad5e_and_round_trips_as_json() {
        let mut t = CampaignTables::fad5e();
        t.cp_per_platoon = 3;
        assert!(!t.is_fad5e());
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::from_str::<CampaignTables>(&json).unwrap(), t);
        assert!(
            json.contains(r#""quality_loss":["drops","drops","stays","stays","stays","stays"]"#)
        );
    }

    #[test]
    fn costs_and_sales_come_from_the_menu() {
        let mut t = CampaignTables::fad5e();
        assert_eq!(t.cost(PurchaseItem::AssignTrait), 2);
        assert!(t.sells(PurchaseItem::AssignTrait));
        t.menu.retain(|row| row.item != PurchaseItem::AssignTrait);
        assert_eq!(t.cost(PurchaseItem::AssignTrait), 0);
        assert!(!t.sells(PurchaseItem::AssignTrait));
    }

    #[test]
    fn d6_row_reads_one_to_six_and_clamps() {
        let table = [1, 2, 3, 4, 5, 6];
        assert_eq!(
            (1..=6).map(|d| d6_row(&table, d)).collect::<Vec<_>>(),
            table
        );
        assert_eq!(d6_row(&table, 0), 1);
        assert_eq!(d6_row(&table, 9), 6);
    }
}
