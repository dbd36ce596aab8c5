//! Step 4 – deployment zones and field defences, with the Light Bunker swap (docs/rules.md §3.4,
//! §3.9, §3.10 Hold, S2, S19, S21; S000 › SCENARIO GENERATION › Set up Terrain › DEPLOYMENT ZONES).

use serde::{Deserialize, Serialize};

use crate::orders::{Attitude, Stance};
use crate::roster::Problem;

/// DEPLOYMENT ZONES: depth in inches from the own edge, by stance.
pub const DEPLOYMENT_ZONES: [(Stance, u32); 3] = [
    (Stance::Offensive, 6),
    (Stance::Neutral, 12),
    (Stance::Defensive, 18),
];

/// Both zones in an Escalating Engagement, whatever the stance (S19).
pub const ESCALATING_ENGAGEMENT_ZONE: u32 = 18;

/// Field defences in one set; each set may become one Light Bunker instead (S2).
pub const FIELD_DEFENCES_PER_SET: u32 = 3;

/// The deployment zone depth for `stance`.
pub fn deployment_zone_inches(stance: Stance) -> u32 {
    DEPLOYMENT_ZONES
        .iter()
        .find(|(s, _)| *s == stance)
        .map_or(12, |x| x.1)
}

/// One field defence (S21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FieldDefenceKind {
    /// A 4" trench section.
    TrenchSection,
    /// A sandbag position.
    SandbagPosition,
    /// A barbed-wire section.
    BarbedWire,
    /// A minefield: three markers, one real and two dummies, its type recorded secretly.
    Minefield,
}

/// Every kind of field defence, in the text's order.
pub const FIELD_DEFENCE_KINDS: [FieldDefenceKind; 4] = [
    FieldDefenceKind::TrenchSection,
    FieldDefenceKind::SandbagPosition,
    FieldDefenceKind::BarbedWire,
    FieldDefenceKind::Minefield,
];

impl FieldDefenceKind {
    /// Markers it puts on the table (S21: a minefield is 1 real + 2 dummy markers).
    pub fn markers(self) -> u32 {
        match self {
            Self::Minefield => 3,
            _ => 1,
        }
    }
}

/// Where a set of three field defences comes from (S2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FieldDefenceSource {
    /// Defensive stance.
    DefensiveStance,
    /// Passive attitude ("also").
    PassiveAttitude,
    /// The Hold mission's bonus.
    HoldMission,
}

/// A side's field defences: up to three per set, or one Light Bunker per set (S2, S21: a
/// defence is a 4" trench section, a sandbag position, a barbed-wire section or a minefield).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldDefences {
    /// The sets granted, in the order granted.
    pub sets: Vec<FieldDefenceSource>,
    /// Up to this many field defences in the own deployment zone (3 per set).
    pub max_field_defences: u32,
    /// Sets that may each be swapped for one Light Bunker.
    pub light_bunker_swaps: u32,
}

impl FieldDefences {
    /// The sets for a stance and attitude (step 4).
    pub fn for_orders(stance: Stance, attitude: Attitude) -> Self {
        let mut f = Self::default();
        if stance == Stance::Defensive {
            f.add(FieldDefenceSource::DefensiveStance);
        }
        if attitude == Attitude::Passive {
            f.add(FieldDefenceSource::PassiveAttitude);
        }
        f
    }
    /// Adds one set (Hold's bonus at step 5).
    pub fn add(&mut self, source: FieldDefenceSource) {
        self.sets.push(source);
        self.recount();
    }
    /// Removes a set again (Hold's bonus when orders are cancelled).
    pub fn remove(&mut self, source: FieldDefenceSource) {
        self.sets.retain(|s| *s != source);
        self.recount();
    }
    fn recount(&mut self) {
        self.max_field_defences = self.sets.len() as u32 * FIELD_DEFENCES_PER_SET;
        self.light_bunker_swaps = self.sets.len() as u32;
    }
    /// What a side may place after swapping `bunkers` sets: (field defences, light bunkers).
    pub fn with_bunkers(&self, bunkers: u32) -> Result<(u32, u32), Problem> {
        if bunkers > self.light_bunker_swaps {
            return Err(Problem::new(
                "light_bunkers",
                format!(
                    "{bunkers} Light Bunkers asked for, but only {} set(s) of three field defences can be swapped (S2)",
                    self.light_bunker_swaps
                ),
            ));
        }
        Ok((
            self.max_field_defences - bunkers * FIELD_DEFENCES_PER_SET,
            bunkers,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s21_one_field_defence_is_one_piece_and_a_minefield_is_three_markers() {
        let markers: Vec<_> = FIELD_DEFENCE_KINDS.iter().map(|k| k.markers()).collect();
        assert_eq!(markers, [1, 1, 1, 3]);
    }

    #[test]
    fn deployment_zone_rows() {
        assert_eq!(deployment_zone_inches(Stance::Offensive), 6);
        assert_eq!(deployment_zone_inches(Stance::Neutral), 12);
        assert_eq!(deployment_zone_inches(Stance::Defensive), 18);
    }

    #[test]
    fn s2_defensive_three_passive_three_more() {
        let f = FieldDefences::for_orders(Stance::Defensive, Attitude::Aggressive);
        assert_eq!(f.max_field_defences, 3);
        let f = FieldDefences::for_orders(Stance::Offensive, Attitude::Passive);
        assert_eq!(f.max_field_defences, 3);
        let f = FieldDefences::for_orders(Stance::Defensive, Attitude::Passive);
        assert_eq!(f.max_field_defences, 6);
        assert_eq!(f.light_bunker_swaps, 2);
        let f = FieldDefences::for_orders(Stance::Neutral, Attitude::Cautious);
        assert_eq!(f, FieldDefences::default());
    }

    #[test]
    fn s2_each_set_of_three_may_become_one_light_bunker() {
        let mut f = FieldDefences::for_orders(Stance::Defensive, Attitude::Passive);
        f.add(FieldDefenceSource::HoldMission);
        assert_eq!(f.max_field_defences, 9);
        assert_eq!(f.with_bunkers(0).unwrap(), (9, 0));
        assert_eq!(f.with_bunkers(1).unwrap(), (6, 1));
        assert_eq!(f.with_bunkers(3).unwrap(), (0, 3));
        assert_eq!(f.with_bunkers(4).unwrap_err().field, "light_bunkers");
        f.remove(FieldDefenceSource::HoldMission);
        assert_eq!(f.max_field_defences, 6);
    }
}
