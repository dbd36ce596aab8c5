//! The forces the benchmarks share: 4 platoons of 5 units (a command squad and four squads), the
//! 20-unit force of the load benchmark (`bench/run`).

use fad_domain::kit::{Armour, BasicWeapon};
use fad_domain::ladder::{Quality, Resolve};
use fad_domain::roster::{Force, Platoon, Unit, UnitKind, UnitStatus};

/// A full-strength Regular, Steady infantry unit.
pub fn unit(id: String, kind: UnitKind) -> Unit {
    Unit {
        name: format!("Unit {id}"),
        id,
        kind,
        quality: Quality::Regular,
        resolve: Some(Resolve::Steady),
        strength: 8,
        starting_strength: 8,
        armour: Armour::Light,
        basic_weapon: Some(BasicWeapon::AssaultRifles),
        status: UnitStatus::Active,
        ..Unit::default()
    }
}

/// A force of 4 platoons × 5 units; unit ids are `{prefix}-{platoon}-{unit}`.
pub fn force(prefix: &str) -> Force {
    Force {
        name: format!("Force {prefix}"),
        platoons: (0..4)
            .map(|p| Platoon {
                name: format!("Platoon {p}"),
                units: (0..5)
                    .map(|u| {
                        let kind = if u == 0 {
                            UnitKind::CommandSquad
                        } else {
                            UnitKind::Squad
                        };
                        unit(format!("{prefix}-{p}-{u}"), kind)
                    })
                    .collect(),
            })
            .collect(),
    }
}
