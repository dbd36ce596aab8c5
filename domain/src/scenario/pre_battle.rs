//! PRE BATTLE EVENTS (optional): 1d6 per squad, vehicle, weapons team, off-board support unit and
//! independent character; on a 6, 1d6 on the unit type's table; snipers use Infantry, psionics
//! Character (S24); effects last for the battle only (C21) (docs/rules.md §3.11;
//! S000 › PRE BATTLE EVENTS).

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError, RollRequest, RollStep};
use crate::ladder::{Leadership, Resolve};
use crate::named_enum;
use crate::names::Named;
use crate::roster::{Unit, UnitKind};

named_enum! {
    /// Which pre-battle table a unit rolls on.
    pub enum PreBattleTable("pre_battle_table") {
        /// Infantry squads, command squads and snipers (S24).
        Infantry = "infantry",
        /// Weapons teams.
        WeaponsTeam = "weapons_team",
        /// Vehicles.
        Vehicle = "vehicle",
        /// Characters and psionics (S24).
        Character = "character",
        /// Off-board support.
        OffBoard = "off_board",
    }
}

/// The d6 on the first roll that sends a unit to its table.
pub const EVENT_TRIGGER: u8 = 6;

/// One row of a pre-battle table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventRow {
    /// `snake_case` name of the event.
    pub event: &'static str,
    /// What it does.
    pub effect: &'static str,
}

const fn row(event: &'static str, effect: &'static str) -> EventRow {
    EventRow { event, effect }
}

/// Infantry (d6 1–6).
pub const INFANTRY_EVENTS: [EventRow; 6] = [
    row("man_down", "One small-arms figure starts the game wounded."),
    row(
        "delayed_lost",
        "Remove the squad; it enters from the friendly edge on turn 1.",
    ),
    row("hesitant", "May not activate on turn 1."),
    row("energetic", "Takes one normal move."),
    row("stealthy", "Starts the game concealed."),
    row(
        "inspired",
        "Resolve +1 level (none on a Fanatic, Zombie or off-board unit, none past Determined, S24).",
    ),
];
/// Weapons team (d6 1–6).
pub const WEAPONS_TEAM_EVENTS: [EventRow; 6] = [
    row("not_prepared", "May not activate on turn 1."),
    row("low_on_ammo", "Gains the limited supply weapon trait."),
    row(
        "stuck",
        "Cannot be moved from its start position without a vehicle.",
    ),
    row("redeploy", "Moves to any location in the deployment zone."),
    row("stealthy", "Starts concealed."),
    row(
        "forward_position",
        "May deploy up to 6\" ahead of the deployment zone.",
    ),
];
/// Vehicle (d6 1–6).
pub const VEHICLE_EVENTS: [EventRow; 6] = [
    row(
        "engine_problem",
        "Immobilized; fixed on 5–6 on 1d6 at each activation.",
    ),
    row("nervous", "May not advance ahead of infantry."),
    row("comms_malfunction", "May not move on the first 2 turns."),
    row("blitz", "Takes one cautious move."),
    row("snap_fire", "Fires 1 weapon at a visible target."),
    row(
        "close_support",
        "Moves 6\" along with one infantry squad within 6\".",
    ),
];
/// Character (d6 1–6).
pub const CHARACTER_EVENTS: [EventRow; 6] = [
    row(
        "intrigue",
        "Leadership −1 (not below Novice; none on a figure without Leadership, S24).",
    ),
    row(
        "misunderstood_orders",
        "The opponent may redeploy the character within its normal deployment zone.",
    ),
    row("overwhelmed", "May not activate on the first 2 turns."),
    row(
        "motivational_speech",
        "One unit's Resolve +1 level (not above Determined, S24).",
    ),
    row("quick_decision", "Free activation."),
    row(
        "plan_and_execute",
        "A unit within 6\" gets a free activation.",
    ),
];
/// Off-board support (d6 1–6).
pub const OFF_BOARD_EVENTS: [EventRow; 6] = [
    row(
        "general_support",
        "After every strike roll 1d6; on 1–2 the unit is no longer available.",
    ),
    row(
        "lack_of_authority",
        "Each turn roll 1d6; the unit is available only on 4–6.",
    ),
    row("counter_battery_fire", "Cannot fire two turns in a row."),
    row("preliminary_fire", "Free strike."),
    row(
        "pre_registered",
        "The first strike's location never needs timing or accuracy rolls.",
    ),
    row("well_oiled_crew", "Never rolls for timing."),
];

impl PreBattleTable {
    /// The table's six rows.
    pub fn rows(self) -> &'static [EventRow; 6] {
        match self {
            Self::Infantry => &INFANTRY_EVENTS,
            Self::WeaponsTeam => &WEAPONS_TEAM_EVENTS,
            Self::Vehicle => &VEHICLE_EVENTS,
            Self::Character => &CHARACTER_EVENTS,
            Self::OffBoard => &OFF_BOARD_EVENTS,
        }
    }
    /// The table for a unit kind (S24: snipers Infantry, psionics Character).
    pub fn for_kind(kind: UnitKind) -> Self {
        match kind {
            UnitKind::Squad | UnitKind::CommandSquad | UnitKind::Sniper => Self::Infantry,
            UnitKind::WeaponsTeam => Self::WeaponsTeam,
            UnitKind::Vehicle => Self::Vehicle,
            UnitKind::Character | UnitKind::Psionic => Self::Character,
            UnitKind::OffBoardArtillery => Self::OffBoard,
        }
    }
}

/// One event that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PreBattleEvent {
    /// The unit (or `bonus_sniper`, `offensive_artillery`, `interfere_artillery` for the
    /// battle-only units of S20 and Strike).
    pub unit_id: String,
    /// The table rolled on.
    pub table: PreBattleTable,
    /// The table d6.
    pub roll: u8,
    /// The event's name.
    pub event: String,
    /// What it does.
    pub effect: String,
    /// True when it cannot change the unit (S24, C17): Inspired on a unit whose Resolve cannot
    /// change (Fanatic, Zombie, off-board) or is Determined; Intrigue on a figure without
    /// Leadership (a psionic) or at Novice.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_effect: bool,
}

/// A unit that rolls for a pre-battle event: its id, kind, Resolve and Leadership.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventSubject {
    /// Unit id (subject of the rolls).
    pub unit_id: String,
    /// Its kind, which picks the table.
    pub kind: UnitKind,
    /// Resolve, for the Inspired clamp.
    pub resolve: Option<Resolve>,
    /// Leadership, for the Intrigue clamp.
    pub leadership: Option<Leadership>,
    /// Whether its Resolve cannot change (a Fanatic or Zombie trait, or an off-board unit):
    /// Inspired then has no effect (C17, S24).
    pub resolve_fixed: bool,
}

impl From<&Unit> for EventSubject {
    fn from(u: &Unit) -> Self {
        Self {
            unit_id: u.id.clone(),
            kind: u.kind,
            resolve: u.resolve,
            leadership: u.leadership,
            resolve_fixed: resolve_cannot_change(u),
        }
    }
}

/// Whether no event can raise the unit's Resolve (C17): Fanatic and Zombie units keep theirs,
/// and an off-board unit has none on the table.
pub fn resolve_cannot_change(unit: &Unit) -> bool {
    unit.kind == UnitKind::OffBoardArtillery
        || unit.effective_traits().iter().any(|t| t.freezes_resolve())
}

/// Whether an event leaves `subject` unchanged.
type NoEffect = fn(&EventSubject) -> bool;

/// The events a unit's ratings can leave without effect (S24), by name, with the test.
const CLAMPED_EVENTS: [(&str, NoEffect); 2] = [
    ("inspired", inspired_has_no_effect),
    ("intrigue", intrigue_has_no_effect),
];

/// Inspired raises Resolve one level: nothing when it cannot change or is Determined.
fn inspired_has_no_effect(subject: &EventSubject) -> bool {
    subject.resolve_fixed || subject.resolve == Some(Resolve::Determined)
}

/// Intrigue lowers Leadership one level: nothing without a Leadership rating (a psionic; a
/// character without a stated rating is a Novice, the same answer) or at Novice.
fn intrigue_has_no_effect(subject: &EventSubject) -> bool {
    subject.leadership.is_none_or(|l| l == Leadership::Novice)
}

/// The event of table roll `d6` for `subject`.
pub fn pre_battle_event(subject: &EventSubject, table: PreBattleTable, d6: u8) -> PreBattleEvent {
    let index = usize::from(d6.clamp(1, 6) - 1);
    let row = table.rows()[index];
    let no_effect = CLAMPED_EVENTS
        .iter()
        .any(|(event, clamped)| *event == row.event && clamped(subject));
    PreBattleEvent {
        unit_id: subject.unit_id.clone(),
        table,
        roll: d6,
        event: row.event.to_owned(),
        effect: row.effect.to_owned(),
        no_effect,
    }
}

/// Rolls 1d6 for each subject and, on a 6, 1d6 on its table (`pre_battle_event` and
/// `pre_battle_event_table` rolls, subject = unit id, force = `force_id`).
pub fn roll_pre_battle_events(
    dice: &mut impl Dice,
    force_id: &str,
    subjects: &[EventSubject],
) -> Result<Vec<PreBattleEvent>, DiceError> {
    let mut out = Vec::new();
    for s in subjects {
        if dice.d6(RollStep::PreBattleEvent, &s.unit_id, Some(force_id))? != EVENT_TRIGGER {
            continue;
        }
        let table = PreBattleTable::for_kind(s.kind);
        let roll = dice.roll(
            RollRequest::d6(RollStep::PreBattleEventTable, &s.unit_id, 1)
                .for_force(force_id)
                .with_detail(table.name()),
        )?;
        out.push(pre_battle_event(
            s,
            table,
            roll.first().copied().unwrap_or(1),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, ServerDice, TableDice};

    fn subject(kind: UnitKind) -> EventSubject {
        EventSubject {
            unit_id: "u".into(),
            kind,
            resolve: Some(Resolve::Steady),
            leadership: Some(Leadership::Experienced),
            resolve_fixed: false,
        }
    }

    #[test]
    fn every_row_of_every_table() {
        let expected: [(PreBattleTable, [&str; 6]); 5] = [
            (
                PreBattleTable::Infantry,
                [
                    "man_down",
                    "delayed_lost",
                    "hesitant",
                    "energetic",
                    "stealthy",
                    "inspired",
                ],
            ),
            (
                PreBattleTable::WeaponsTeam,
                [
                    "not_prepared",
                    "low_on_ammo",
                    "stuck",
                    "redeploy",
                    "stealthy",
                    "forward_position",
                ],
            ),
            (
                PreBattleTable::Vehicle,
                [
                    "engine_problem",
                    "nervous",
                    "comms_malfunction",
                    "blitz",
                    "snap_fire",
                    "close_support",
                ],
            ),
            (
                PreBattleTable::Character,
                [
                    "intrigue",
                    "misunderstood_orders",
                    "overwhelmed",
                    "motivational_speech",
                    "quick_decision",
                    "plan_and_execute",
                ],
            ),
            (
                PreBattleTable::OffBoard,
                [
                    "general_support",
                    "lack_of_authority",
                    "counter_battery_fire",
                    "preliminary_fire",
                    "pre_registered",
                    "well_oiled_crew",
                ],
            ),
        ];
        for (table, names) in expected {
            for (i, name) in names.iter().enumerate() {
                let e = pre_battle_event(&subject(UnitKind::Squad), table, i as u8 + 1);
                assert_eq!(e.event, *name);
                assert!(!e.effect.is_empty());
                assert!(!e.no_effect);
            }
        }
    }

    #[test]
    fn s24_snipers_roll_infantry_psionics_roll_character() {
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::Sniper),
            PreBattleTable::Infantry
        );
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::Psionic),
            PreBattleTable::Character
        );
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::Squad),
            PreBattleTable::Infantry
        );
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::CommandSquad),
            PreBattleTable::Infantry
        );
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::WeaponsTeam),
            PreBattleTable::WeaponsTeam
        );
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::Vehicle),
            PreBattleTable::Vehicle
        );
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::Character),
            PreBattleTable::Character
        );
        assert_eq!(
            PreBattleTable::for_kind(UnitKind::OffBoardArtillery),
            PreBattleTable::OffBoard
        );
    }

    #[test]
    fn s24_clamps_inspired_on_determined_and_intrigue_on_novice() {
        let mut s = subject(UnitKind::Squad);
        s.resolve = Some(Resolve::Determined);
        assert!(pre_battle_event(&s, PreBattleTable::Infantry, 6).no_effect);
        let mut c = subject(UnitKind::Character);
        c.leadership = Some(Leadership::Novice);
        assert!(pre_battle_event(&c, PreBattleTable::Character, 1).no_effect);
        c.leadership = Some(Leadership::Inspiring);
        assert!(!pre_battle_event(&c, PreBattleTable::Character, 1).no_effect);
    }

    #[test]
    fn s24_c17_inspired_has_no_effect_on_fanatic_zombie_or_off_board_units() {
        use crate::scenario::recon_duty::tests::unit;
        use crate::traits::Trait;
        let inspired =
            |u: &Unit| pre_battle_event(&EventSubject::from(u), PreBattleTable::Infantry, 6);
        assert!(!inspired(&unit("s", UnitKind::Squad, &[])).no_effect);
        assert!(inspired(&unit("f", UnitKind::Squad, &[Trait::Fanatic])).no_effect);
        assert!(inspired(&unit("z", UnitKind::Squad, &[Trait::Zombie])).no_effect);
        assert!(inspired(&unit("o", UnitKind::OffBoardArtillery, &[])).no_effect);
    }

    #[test]
    fn s24_intrigue_has_no_effect_on_a_figure_without_leadership() {
        let mut psionic = subject(UnitKind::Psionic);
        psionic.leadership = None;
        assert!(pre_battle_event(&psionic, PreBattleTable::Character, 1).no_effect);
        psionic.leadership = Some(Leadership::Experienced);
        assert!(!pre_battle_event(&psionic, PreBattleTable::Character, 1).no_effect);
        // The other character rows are never clamped.
        psionic.leadership = None;
        assert!(!pre_battle_event(&psionic, PreBattleTable::Character, 2).no_effect);
    }

    #[test]
    fn only_a_six_sends_a_unit_to_its_table() {
        let mut e = EnteredDice::new();
        e.entry(RollStep::PreBattleEvent)
            .or_default()
            .insert("a".into(), vec![5]);
        e.entry(RollStep::PreBattleEvent)
            .or_default()
            .insert("v".into(), vec![6]);
        e.entry(RollStep::PreBattleEventTable)
            .or_default()
            .insert("v".into(), vec![3]);
        let mut dice = TableDice::new(&e, ServerDice::seeded(1)).unwrap();
        let subjects = [
            EventSubject {
                unit_id: "a".into(),
                ..subject(UnitKind::Squad)
            },
            EventSubject {
                unit_id: "v".into(),
                ..subject(UnitKind::Vehicle)
            },
        ];
        let events = roll_pre_battle_events(&mut dice, "f", &subjects).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].event, "comms_malfunction");
        assert_eq!(dice.log().len(), 3);
        assert_eq!(dice.log()[2].detail.as_deref(), Some("vehicle"));
        assert!(dice.unused().is_empty());
    }
}
