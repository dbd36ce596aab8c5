//! Scenario vocabulary: stances, attitudes and missions (docs/rules.md §1.14; S000 › SCENARIO
//! GENERATION).

use crate::named_enum;

named_enum! {
    /// A side's stance (docs/rules.md §3.1).
    pub enum Stance("stance") {
        /// +2 RP, 6" zone, two artillery calls.
        Offensive = "offensive",
        /// +1 RP, 12" zone, +2 dummy markers per platoon.
        Neutral = "neutral",
        /// 0 RP, 18" zone, −2 dummy markers per platoon, 3 field defences.
        Defensive = "defensive",
    }
}

named_enum! {
    /// A side's attitude (docs/rules.md §3.2).
    pub enum Attitude("attitude") {
        /// Ignore three Under Fire conditions.
        Aggressive = "aggressive",
        /// +2 RP.
        Cautious = "cautious",
        /// −1 RP, 3 more field defences.
        Passive = "passive",
    }
}

named_enum! {
    /// A mission (docs/rules.md §3.5, §3.10).
    pub enum Mission("mission") {
        /// Storm a far objective and hold it.
        Assault = "assault",
        /// Take and hold both middle objectives.
        Expand = "expand",
        /// Keep the enemy away from the near objectives.
        Hold = "hold",
        /// Move squads off the enemy board edge.
        Infiltrate = "infiltrate",
        /// Deny the enemy their victory.
        Interfere = "interfere",
        /// Contact both middle and either far objective.
        Patrol = "patrol",
        /// Kill the opposing commander.
        Strike = "strike",
        /// Eliminate or rout half the opposing units.
        Sweep = "sweep",
        /// Both sides rolled the same mission (S10); never rolled directly.
        EscalatingEngagement = "escalating_engagement",
    }
}

impl Mission {
    /// The eight missions on the mission table, in table order.
    pub const ROLLED: [Mission; 8] = [
        Self::Assault,
        Self::Expand,
        Self::Hold,
        Self::Infiltrate,
        Self::Interfere,
        Self::Patrol,
        Self::Strike,
        Self::Sweep,
    ];
}

/// The OpenAPI schema of a mission a side may name for a bonus or a choice: one of
/// [`Mission::ROLLED`] (never `escalating_engagement`, which only a tie produces).
#[cfg(feature = "openapi")]
pub struct RolledMission;

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for RolledMission {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::names::Named;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("One of the eight missions of the mission table."))
            .enum_values(Some(Mission::ROLLED.iter().map(|m| m.name())))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for RolledMission {}
