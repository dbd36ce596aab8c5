//! Non-player forces: the scenario amendments for an uncontrolled side — random stance and
//! attitude, automatic recon (S25, S29), marker dispersion (S26) and automatic blocks (S28)
//! (docs/rules.md §3.12; S000 › UNCONTROLLED FORCES › SCENARIO GENERATION).

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError, RollStep};
use crate::house_rules::NpfReconReading;
use crate::named_enum;
use crate::orders::{Attitude, Stance};
use crate::roster::{Force, UnitKind};
use crate::scenario::recon_duty::{has_recon_trait, recon_duty_bar};

/// Stance by d6: 1–2 Offensive, 3–4 Neutral, 5–6 Defensive (index = (d6 − 1) / 2).
pub const NPF_STANCE_TABLE: [Stance; 3] = [Stance::Offensive, Stance::Neutral, Stance::Defensive];
/// Attitude by d6: 1–2 Aggressive, 3–4 Cautious, 5–6 Passive.
pub const NPF_ATTITUDE_TABLE: [Attitude; 3] =
    [Attitude::Aggressive, Attitude::Cautious, Attitude::Passive];
/// S25: on this roll per platoon an Offensive (or, by house rule, Aggressive) NP force also sends
/// one squad of that platoon.
pub const NPF_RECON_SQUAD_ON: u8 = 5;
/// S28: on this roll the NP force tries to block a player's RP spend.
pub const NPF_BLOCK_ON: u8 = 4;

named_enum! {
    /// How NP markers are spread when placed (S26).
    pub enum Dispersion("dispersion") {
        /// 1–2: every pair of markers at least 6" apart.
        Dispersed = "dispersed",
        /// 3–4: no restriction.
        NoRestriction = "no_restriction",
        /// 5–6: every marker within 12" of at least one other (a chain).
        Concentrated = "concentrated",
    }
}

/// Dispersion by d6.
pub const NPF_DISPERSION_TABLE: [Dispersion; 3] = [
    Dispersion::Dispersed,
    Dispersion::NoRestriction,
    Dispersion::Concentrated,
];

fn third(d6: u8) -> usize {
    usize::from(d6.clamp(1, 6) - 1) / 2
}

/// The NP stance of a d6.
pub fn npf_stance(d6: u8) -> Stance {
    NPF_STANCE_TABLE[third(d6)]
}

/// The NP attitude of a d6.
pub fn npf_attitude(d6: u8) -> Attitude {
    NPF_ATTITUDE_TABLE[third(d6)]
}

/// The NP dispersion of a d6.
pub fn npf_dispersion(d6: u8) -> Dispersion {
    NPF_DISPERSION_TABLE[third(d6)]
}

/// Whether the NP force decides to block on this d6 (S28).
pub fn npf_blocks(d6: u8) -> bool {
    d6 >= NPF_BLOCK_ON
}

/// What the NP recon rule reads: the force's orders and the campaign's S25 reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NpfOrders {
    /// The stance.
    pub stance: Stance,
    /// The attitude.
    pub attitude: Attitude,
    /// Which orders the text's "aggressive stance" means (house rule `npf_recon_reading`).
    pub reading: NpfReconReading,
}

impl NpfOrders {
    /// Whether the force rolls per platoon for one more recon squad (S25).
    pub fn rolls_for_recon_squads(self) -> bool {
        match self.reading {
            NpfReconReading::OffensiveStance => self.stance == Stance::Offensive,
            NpfReconReading::AggressiveAttitude => self.attitude == Attitude::Aggressive,
        }
    }
}

/// Settled NP recon duty: none if Defensive and Passive (S29); otherwise every eligible unit with
/// the Recon or Infiltrate trait (with the player's eligibility rules, S4), and, for an Offensive
/// force (S25; an Aggressive one under the `aggressive_attitude` reading), a d6 per platoon
/// (subject = platoon name) that on 5+ also sends the first eligible squad of that platoon
/// without the trait (a line squad before the command squad).
pub fn npf_recon(
    dice: &mut impl Dice,
    force_id: &str,
    force: &Force,
    orders: NpfOrders,
) -> Result<Vec<String>, DiceError> {
    if orders.stance == Stance::Defensive && orders.attitude == Attitude::Passive {
        return Ok(Vec::new());
    }
    let mut ids: Vec<String> = force
        .units()
        .filter(|u| has_recon_trait(u) && recon_duty_bar(u).is_none())
        .map(|u| u.id.clone())
        .collect();
    if orders.rolls_for_recon_squads() {
        for platoon in &force.platoons {
            let roll = dice.d6(RollStep::NpfRecon, &platoon.name, Some(force_id))?;
            if roll < NPF_RECON_SQUAD_ON {
                continue;
            }
            // A line squad before the command squad, which would expose the commander (S4).
            let eligible = |kind: UnitKind| {
                platoon.units.iter().find(move |u| {
                    u.kind == kind && !has_recon_trait(u) && recon_duty_bar(u).is_none()
                })
            };
            if let Some(u) = eligible(UnitKind::Squad).or_else(|| eligible(UnitKind::CommandSquad))
            {
                ids.push(u.id.clone());
            }
        }
    }
    Ok(ids)
}

/// The NP side's orders when not chosen: a rolled stance and attitude.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NonPlayerSetup {
    /// Chosen stance, rolled when absent.
    #[serde(default)]
    pub stance: Option<Stance>,
    /// Chosen attitude, rolled when absent.
    #[serde(default)]
    pub attitude: Option<Attitude>,
}

/// Rolls what `setup` leaves open (`npf_stance`, `npf_attitude`).
pub fn npf_orders(
    dice: &mut impl Dice,
    force_id: &str,
    setup: NonPlayerSetup,
) -> Result<(Stance, Attitude), DiceError> {
    let stance = match setup.stance {
        Some(s) => s,
        None => npf_stance(dice.d6(RollStep::NpfStance, force_id, Some(force_id))?),
    };
    let attitude = match setup.attitude {
        Some(a) => a,
        None => npf_attitude(dice.d6(RollStep::NpfAttitude, force_id, Some(force_id))?),
    };
    Ok((stance, attitude))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, ServerDice, TableDice};
    use crate::roster::Platoon;
    use crate::scenario::recon_duty::tests::unit;
    use crate::traits::Trait;

    #[test]
    fn s26_stance_attitude_and_dispersion_tables() {
        let stances: Vec<_> = (1..=6).map(npf_stance).collect();
        assert_eq!(
            stances,
            [
                Stance::Offensive,
                Stance::Offensive,
                Stance::Neutral,
                Stance::Neutral,
                Stance::Defensive,
                Stance::Defensive
            ]
        );
        let attitudes: Vec<_> = (1..=6).map(npf_attitude).collect();
        assert_eq!(
            attitudes,
            [
                Attitude::Aggressive,
                Attitude::Aggressive,
                Attitude::Cautious,
                Attitude::Cautious,
                Attitude::Passive,
                Attitude::Passive
            ]
        );
        // S26.
        let d: Vec<_> = (1..=6).map(npf_dispersion).collect();
        assert_eq!(
            d,
            [
                Dispersion::Dispersed,
                Dispersion::Dispersed,
                Dispersion::NoRestriction,
                Dispersion::NoRestriction,
                Dispersion::Concentrated,
                Dispersion::Concentrated
            ]
        );
    }

    #[test]
    fn s28_np_blocks_on_four_plus() {
        assert_eq!(
            (1..=6).map(npf_blocks).collect::<Vec<_>>(),
            [false, false, false, true, true, true]
        );
    }

    fn np_force() -> Force {
        Force {
            name: "np".into(),
            platoons: vec![
                Platoon {
                    name: "first".into(),
                    units: vec![
                        unit("hq", UnitKind::CommandSquad, &[]),
                        unit("a", UnitKind::Squad, &[]),
                        unit("r", UnitKind::Squad, &[Trait::Recon]),
                        unit("z", UnitKind::Squad, &[Trait::Infiltration, Trait::Shaky]),
                    ],
                },
                Platoon {
                    name: "second".into(),
                    units: vec![unit("b", UnitKind::Squad, &[])],
                },
            ],
        }
    }

    fn settled(stance: Stance, attitude: Attitude) -> NpfOrders {
        NpfOrders {
            stance,
            attitude,
            reading: NpfReconReading::OffensiveStance,
        }
    }

    #[test]
    fn s29_defensive_and_passive_np_sends_no_recon() {
        let mut dice = ServerDice::seeded(1);
        let ids = npf_recon(
            &mut dice,
            "np",
            &np_force(),
            settled(Stance::Defensive, Attitude::Passive),
        )
        .unwrap();
        assert!(ids.is_empty());
        // Only one of the two is not enough (S29: both required).
        let ids = npf_recon(
            &mut dice,
            "np",
            &np_force(),
            settled(Stance::Defensive, Attitude::Cautious),
        )
        .unwrap();
        assert_eq!(ids, ["r"]);
        assert!(dice.log().is_empty());
    }

    #[test]
    fn s25_offensive_np_rolls_per_platoon_and_sends_a_squad_on_five_plus() {
        let mut e = EnteredDice::new();
        e.entry(RollStep::NpfRecon)
            .or_default()
            .insert("first".into(), vec![5]);
        e.entry(RollStep::NpfRecon)
            .or_default()
            .insert("second".into(), vec![4]);
        let mut dice = TableDice::new(&e, ServerDice::seeded(1)).unwrap();
        let ids = npf_recon(
            &mut dice,
            "np",
            &np_force(),
            settled(Stance::Offensive, Attitude::Aggressive),
        )
        .unwrap();
        assert_eq!(ids, ["r", "a"]);
        assert_eq!(dice.log().len(), 2);
        assert!(dice.log().iter().all(|r| r.step == RollStep::NpfRecon));
    }

    /// Every stance and attitude with the five-plus roll entered for both platoons: which send
    /// the extra squad under each reading.
    fn extra_squads(reading: NpfReconReading) -> Vec<(Stance, Attitude)> {
        let mut out = Vec::new();
        for stance in [Stance::Offensive, Stance::Neutral, Stance::Defensive] {
            for attitude in [Attitude::Aggressive, Attitude::Cautious, Attitude::Passive] {
                let mut e = EnteredDice::new();
                for platoon in ["first", "second"] {
                    e.entry(RollStep::NpfRecon)
                        .or_default()
                        .insert(platoon.into(), vec![6]);
                }
                let mut dice = TableDice::new(&e, ServerDice::seeded(1)).unwrap();
                let orders = NpfOrders {
                    stance,
                    attitude,
                    reading,
                };
                let ids = npf_recon(&mut dice, "np", &np_force(), orders).unwrap();
                if ids.contains(&"a".to_owned()) {
                    assert_eq!(ids, ["r", "a", "b"]);
                    out.push((stance, attitude));
                }
            }
        }
        out
    }

    #[test]
    fn s25_the_offensive_stance_reading_is_the_default() {
        assert_eq!(
            crate::house_rules::HouseRules::default().npf_recon_reading,
            NpfReconReading::OffensiveStance
        );
        assert_eq!(
            extra_squads(NpfReconReading::OffensiveStance),
            [
                (Stance::Offensive, Attitude::Aggressive),
                (Stance::Offensive, Attitude::Cautious),
                (Stance::Offensive, Attitude::Passive),
            ]
        );
    }

    #[test]
    fn s25_the_aggressive_attitude_reading_rolls_for_aggressive_forces_instead() {
        assert_eq!(
            extra_squads(NpfReconReading::AggressiveAttitude),
            [
                (Stance::Offensive, Attitude::Aggressive),
                (Stance::Neutral, Attitude::Aggressive),
                (Stance::Defensive, Attitude::Aggressive),
            ]
        );
    }

    #[test]
    fn np_orders_roll_only_what_is_not_chosen() {
        let mut e = EnteredDice::new();
        e.entry(RollStep::NpfAttitude)
            .or_default()
            .insert("np".into(), vec![6]);
        let mut dice = TableDice::new(&e, ServerDice::seeded(1)).unwrap();
        let setup = NonPlayerSetup {
            stance: Some(Stance::Neutral),
            attitude: None,
        };
        assert_eq!(
            npf_orders(&mut dice, "np", setup).unwrap(),
            (Stance::Neutral, Attitude::Passive)
        );
        assert_eq!(dice.log().len(), 1);
    }
}
